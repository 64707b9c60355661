import re
import zlib

from track_fixtures import BENCHMARKS, STEPPED, Nights, write_nights
from variant_lines import RECORDED, line_colours, recorded_text

from handoff_reports.results import load_results
from handoff_reports.styles import COLOURS, styles_from_record
from handoff_reports.track import main
from handoff_reports.variants import run_variants


def dashboard(tmp_path, nights, *flags):
    db = tmp_path / "history.sqlite"
    paths = write_nights(tmp_path / "nights", nights)
    assert main(["ingest", *map(str, paths), "--db", str(db)]) == 0
    out = tmp_path / "dashboard.html"
    assert main(["html", str(out), "--db", str(db), *flags]) == 0
    return out.read_text()


def figure_of(page, name):
    anchor = re.sub(r"[^A-Za-z0-9_-]+", "-", name).strip("-")
    return page.split(f'<figure id="{anchor}">')[1].split("</figure>")[0]


def test_one_plot_per_benchmark_with_the_step_marked(tmp_path):
    page = dashboard(tmp_path, Nights(step_at=20))
    assert page.count("<svg") == len(BENCHMARKS)
    stepped = figure_of(page, STEPPED)
    assert "change-regression-0" in stepped  # the red line's group in the SVG
    assert 'class="regression"' in stepped and "2026-10-21" in stepped
    for name in BENCHMARKS.keys() - {STEPPED}:
        assert "change-" not in figure_of(page, name)
    regressions = page.split('id="regressions"')[1].split('id="improvements"')[0]
    assert STEPPED in regressions
    assert not re.search(r'(src|href)="(https?:)?//', page)  # self-contained


def test_known_breaks_are_dashed_and_labelled(tmp_path):
    page = dashboard(tmp_path, Nights(step_at=20, driver_change_at=20))
    stepped = figure_of(page, STEPPED)
    assert "change-regression" not in stepped
    assert "known-break" in stepped
    assert "driver 570.124.06 -&gt; 580.65.06" in stepped
    assert "None." in page.split('id="regressions"')[1].split('id="improvements"')[0]


def test_improvements_are_green_and_match_filters(tmp_path):
    page = dashboard(tmp_path, Nights(step_at=20, step_factor=0.8), "--match", "cuda_ipc")
    assert page.count("<svg") == 1
    assert "change-improvement-0" in figure_of(page, STEPPED)
    assert "#2e7d32" in page


def test_toc_links_every_pattern(tmp_path):
    page = dashboard(tmp_path, Nights(count=4))
    contents = page.split('id="contents"')[1].split("</ul>")[0]
    for pattern in {name.split("/")[0] for name in BENCHMARKS}:
        assert f'href="#pattern-{pattern}"' in contents
        assert f'<details id="pattern-{pattern}"' in page


def _checksum_colour(variant):
    return COLOURS[zlib.crc32(variant.encode()) % len(COLOURS)]


def test_each_variant_is_drawn_in_the_style_of_the_stored_records(tmp_path):
    db = tmp_path / "history.sqlite"
    paths = write_nights(tmp_path / "nights", Nights(count=4, variants=recorded_text()))
    assert main(["ingest", *map(str, paths), "--db", str(db)]) == 0
    for path in paths:
        path.unlink()  # the styles can only come from the history
    out = tmp_path / "dashboard.html"
    assert main(["html", str(out), "--db", str(db)]) == 0
    styles = styles_from_record(run_variants(load_results(str(RECORDED))))
    drawn = line_colours(out.read_text())
    assert set(drawn) == {"gpu_resident", "cuda_ipc", "kernel_launch_async"}
    for variant in ("gpu_resident", "cuda_ipc"):
        assert drawn[variant] == {styles.colour_and_marker(variant)[0]}
        assert drawn[variant] != {_checksum_colour(variant)}
    # ceilings is no pattern of the record: its rows take the first style free in their pattern.
    assert drawn["kernel_launch_async"] == {COLOURS[0]}


def test_a_history_without_records_draws_a_patterns_variants_apart(tmp_path):
    # Two variants whose names share a checksum colour: a style by checksum drew them alike.
    first, second = _two_names_of_one_checksum_colour()
    benchmarks = {
        f"elementwise/{first}/elements:1024": 20.0,
        f"elementwise/{second}/elements:1024": 30.0,
    }
    drawn = line_colours(dashboard(tmp_path, Nights(count=4, benchmarks=benchmarks)))
    assert set(drawn) == {first, second}
    assert drawn[first] != drawn[second]


def _two_names_of_one_checksum_colour():
    seen = {}
    for index in range(1000):
        name = f"variant_{index}"
        colour = _checksum_colour(name)
        if colour in seen:
            return seen[colour], name
        seen[colour] = name
    raise AssertionError("no two names share a colour")
