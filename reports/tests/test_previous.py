import json
from pathlib import Path

from handoff_reports.previous import find_previous, main

REAL = Path(__file__).parent / "fixtures" / "real" / "h200-1gpu.json"


def _night(folder: Path, date: str, gpu: str = "NVIDIA H200") -> Path:
    document = json.loads(REAL.read_text())
    document["context"]["date"] = date
    document["context"]["handoff_gpu0_name"] = gpu
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "handoff-night.json"
    path.write_text(json.dumps(document))
    return path


def test_newest_earlier_night_from_the_same_gpus(tmp_path, capsys):
    old = _night(tmp_path / "a", "2026-11-01T00:00:00+00:00")
    newer = _night(tmp_path / "b", "2026-11-02T00:00:00+00:00")
    _night(tmp_path / "c", "2026-11-03T00:00:00+00:00", gpu="NVIDIA H100 80GB HBM3")
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "handoff-broken.json").write_text("{")  # a night that died half-written
    current = _night(tmp_path / "e", "2026-11-04T00:00:00+00:00")
    assert find_previous(tmp_path, current) == newer
    assert old != newer
    assert main(["--root", str(tmp_path), str(current)]) == 0
    assert capsys.readouterr().out.strip() == str(newer)


def test_no_earlier_night_prints_nothing(tmp_path, capsys):
    current = _night(tmp_path / "only", "2026-11-04T00:00:00+00:00")
    assert main(["--root", str(tmp_path), str(current)]) == 0
    assert capsys.readouterr().out == ""
