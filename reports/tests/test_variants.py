import json
import zlib
from pathlib import Path
from typing import Any

import pytest
from variant_lines import RECORDED, line_colours

from handoff_reports.report import main as report_main
from handoff_reports.results import ResultsError, load_results
from handoff_reports.styles import COLOURS, styles_from_record
from handoff_reports.variants import (
    CONTEXT_KEY,
    Variant,
    parse_variants,
    record_text,
    run_variants,
    variants_of,
    variants_seen,
)

FIXTURES = Path(__file__).parent / "fixtures"
CPU_ONLY = FIXTURES / "real" / "cpu-only.json"

RECORD = {
    "elementwise": [
        {"name": "cpu_serial", "description": "one CPU thread", "recipe": False, "cpu": True},
        {"name": "cpu_map", "description": "one message per element to a process pool",
         "recipe": True, "cpu": True},
    ],
    "tensor_transfer": [
        {"name": "queue", "description": "framed through a queue", "recipe": True, "cpu": False},
    ],
}  # fmt: skip


def _with_record(tmp_path: Path, record: Any, name: str = "run.json") -> Path:
    document = json.loads(CPU_ONLY.read_text())
    document["context"][CONTEXT_KEY] = record if isinstance(record, str) else json.dumps(record)
    path = tmp_path / name
    path.write_text(json.dumps(document))
    return path


def test_the_record_is_read_in_table_order(tmp_path: Path) -> None:
    variants = run_variants(load_results(str(_with_record(tmp_path, RECORD))))
    assert list(variants) == ["elementwise", "tensor_transfer"]
    assert variants["elementwise"] == (
        Variant("cpu_serial", "one CPU thread", recipe=False, cpu=True),
        Variant("cpu_map", "one message per element to a process pool", recipe=True, cpu=True),
    )


def test_a_file_from_before_the_record_has_none() -> None:
    assert run_variants(load_results(str(CPU_ONLY))) == {}


def test_runs_together_keep_the_first_description_and_add_new_variants(tmp_path: Path) -> None:
    later = {"elementwise": [
        {"name": "cpu_map", "description": "other words", "recipe": True, "cpu": True},
        {"name": "gpu_resident", "description": "the kernel alone", "recipe": False, "cpu": False},
    ]}  # fmt: skip
    runs = [load_results(str(_with_record(tmp_path, RECORD, "a.json"))),
            load_results(str(_with_record(tmp_path, later, "b.json")))]  # fmt: skip
    merged = variants_of(runs)
    assert [v.name for v in merged["elementwise"]] == ["cpu_serial", "cpu_map", "gpu_resident"]
    assert merged["elementwise"][1].description == "one message per element to a process pool"


@pytest.mark.parametrize(
    ("text", "complaint"),
    [
        ("not json", "not JSON"),
        ("[]", "not an object of patterns"),
        ('{"p": "x"}', "not a list of variants"),
        ('{"p": [{"name": "", "description": "d", "recipe": false, "cpu": false}]}', "a name"),
        ('{"p": [{"name": "n", "description": "d", "recipe": 1, "cpu": false}]}', "true or false"),
        ('{"p": [3]}', "not an object"),
    ],
)
def test_a_damaged_record_is_a_results_error_naming_it(text: str, complaint: str) -> None:
    with pytest.raises(ResultsError, match=complaint) as raised:
        parse_variants(text, "run.json")
    assert CONTEXT_KEY in str(raised.value)


def test_the_report_describes_each_patterns_variants(tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    assert report_main([str(_with_record(tmp_path, RECORD)), "-o", str(out)]) == 0
    page = out.read_text()
    assert "one message per element to a process pool" in page
    assert "the article&#39;s recipe" in page or "the article's recipe" in page


def test_a_report_of_a_damaged_record_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "report.html"
    assert report_main([str(_with_record(tmp_path, "{")), "-o", str(out)]) == 2
    assert CONTEXT_KEY in capsys.readouterr().err


def _checksum_colour(variant: str) -> str:
    return COLOURS[zlib.crc32(variant.encode()) % len(COLOURS)]


def test_the_report_draws_each_variant_in_the_style_its_record_gives(tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    assert report_main([str(RECORDED), "-o", str(out)]) == 0
    record = run_variants(load_results(str(RECORDED)))
    styles = styles_from_record(record)
    drawn = line_colours(out.read_text())
    assert {"queue", "pipe", "shm", "cpu_map", "cpu_chunked"} <= set(drawn)
    recorded = {variant.name for variants in record.values() for variant in variants}
    for variant, colours in drawn.items():
        if variant in recorded:
            assert colours == {styles.colour_and_marker(variant)[0]}, variant
    assert drawn["queue"] != {_checksum_colour("queue")}


def test_a_file_from_before_the_record_styles_its_variants_in_row_order(tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    assert report_main([str(CPU_ONLY), "-o", str(out)]) == 0
    seen = variants_seen([load_results(str(CPU_ONLY))])
    styles = styles_from_record(seen)
    drawn = line_colours(out.read_text())
    assert drawn
    for variant, colours in drawn.items():
        assert colours == {styles.colour_and_marker(variant)[0]}, variant
    for pattern, variants in seen.items():
        looks = [styles.colour_and_marker(variant.name) for variant in variants]
        assert len(set(looks)) == len(looks), pattern


def test_the_variants_a_files_rows_name_come_in_their_order_undescribed() -> None:
    seen = variants_seen([load_results(str(CPU_ONLY))])
    assert seen
    for variants in seen.values():
        assert all(variant.description == "" and not variant.recipe for variant in variants)
    assert "cpu_serial" in {variant.name for variant in seen["elementwise"]}


def test_the_record_as_text_reads_back_in_its_own_order() -> None:
    record = parse_variants(json.dumps(dict(reversed(list(RECORD.items())))), "run.json")
    again = parse_variants(record_text(record), "stored")
    assert again == record
    assert list(again) == ["tensor_transfer", "elementwise"]
