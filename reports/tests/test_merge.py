import json
from pathlib import Path

import pytest

from handoff_reports.merge import main
from handoff_reports.results import load_results

REAL = Path(__file__).parent / "fixtures" / "real" / "h200-1gpu.json"


def _pass(tmp_path: Path, index: int, scale: float) -> Path:
    document = json.loads(REAL.read_text())
    for entry in document["benchmarks"]:
        entry["real_time"] *= scale
        if "floor_seconds" in entry:
            entry["floor_seconds"] *= scale
    document["handoff_ceilings"]["hbm_device_copy"]["value"] *= scale
    path = tmp_path / f"pass-{index}.json"
    path.write_text(json.dumps(document))
    return path


def test_passes_become_repetitions_with_median_ceilings(tmp_path):
    passes = [_pass(tmp_path, i, scale) for i, scale in enumerate((1.0, 1.1, 0.9))]
    assert main([str(p) for p in passes] + ["-o", str(tmp_path / "night.json")]) == 0
    night = load_results(tmp_path / "night.json")
    single = load_results(REAL)
    key = "pool_prep/cpu_serial/chunks:10/elements:65536"
    assert night.rows[key].repetitions == 3
    assert night.rows[key].median_seconds == pytest.approx(single.rows[key].median_seconds)
    assert night.rows[key].floor_seconds == pytest.approx(single.rows[key].floor_seconds)
    assert night.ceilings["hbm_device_copy"].value == pytest.approx(
        single.ceilings["hbm_device_copy"].value
    )
    assert night.context["handoff_passes"] == "3"


def test_a_damaged_pass_is_an_error(tmp_path, capsys):
    broken = tmp_path / "pass-2.json"
    broken.write_text('{"benchmarks": [')
    assert main([str(REAL), str(broken), "-o", str(tmp_path / "night.json")]) == 2
    assert "pass-2.json: not valid JSON" in capsys.readouterr().err
    assert not (tmp_path / "night.json").exists()
