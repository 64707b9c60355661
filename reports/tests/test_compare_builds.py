"""compare-builds on a stand-in for handoff_bench that writes a real run's results, scaled."""

from __future__ import annotations

import json
import stat
import sys
from pathlib import Path

import pytest

from handoff_reports.compare_builds import main

RUN = Path(__file__).parent / "fixtures" / "real" / "h200-sampled-pass-2.json"

# Writes RUN to --benchmark_out with every time multiplied by --fake-scale (default 1) and each
# --fake-setting=NAME:VALUE in its context, and logs its name and arguments, one line a run, to the
# file named by its first argument.
FAKE = f"""#!{sys.executable}
import json, sys
log, name, *arguments = sys.argv[1:]
with open(log, "a") as out:
    out.write(name + " " + " ".join(arguments) + "\\n")
if "--fail" in arguments:
    sys.exit(2)
scale = 1.0
path = None
for argument in arguments:
    if argument.startswith("--fake-scale="):
        scale = float(argument.split("=", 1)[1])
    if argument.startswith("--benchmark_out="):
        path = argument.split("=", 1)[1]
document = json.load(open({str(RUN)!r}))
for argument in arguments:
    if argument.startswith("--fake-setting="):
        name, value = argument.split("=", 1)[1].split(":", 1)
        document["context"]["setting_" + name] = value
for entry in document["benchmarks"]:
    if entry["name"].startswith("ceilings/"):
        continue
    for key in ("real_time", "cpu_time"):
        entry[key] *= scale
    for key in ("ci_low", "ci_high"):
        if key in entry:
            entry[key] *= scale
json.dump(document, open(path, "w"))
"""


def _binary(tmp_path: Path, name: str) -> tuple[str, Path]:
    """A wrapper script that runs the stand-in under `name`; returns it and the shared log."""
    fake = tmp_path / "fake_bench.py"
    if not fake.exists():
        fake.write_text(FAKE)
    log = tmp_path / "runs.log"
    wrapper = tmp_path / name
    wrapper.write_text(f'#!/bin/sh\nexec {sys.executable} {fake} {log} {name} "$@"\n')
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IEXEC)
    return str(wrapper), log


def test_a_build_against_itself_reads_same_and_the_runs_alternate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    baseline, log = _binary(tmp_path, "old")
    contender, _ = _binary(tmp_path, "new")
    keep = tmp_path / "kept"
    status = main([baseline, contender, "--pairs", "6", "--keep", str(keep), "--format", "json",
                   "--", "--benchmark_filter=x"])  # fmt: skip
    assert status == 0
    report = json.loads(capsys.readouterr().out)
    assert report["exit_code"] == 0
    assert report["counts"].get("SLOWER", 0) == 0 and report["counts"].get("FASTER", 0) == 0
    runs = log.read_text().splitlines()
    # The warm-up first, then old-new, new-old, ... with the filter on every run.
    assert [line.split()[0] for line in runs] == ["old"] + ["old", "new", "new", "old"] * 3
    assert all("--benchmark_filter=x" in line for line in runs)
    assert "--handoff-ceilings-from=" not in runs[0]
    assert all("--handoff-ceilings-from=" in line for line in runs[1:])
    assert (keep / "baseline.json").is_file() and (keep / "b-6.json").is_file()


def test_a_slower_contender_reads_slower_and_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    baseline, log = _binary(tmp_path, "old")
    contender, _ = _binary(tmp_path, "new")
    status = main([baseline, contender, "--pairs", "6", "--contender-arg=--fake-scale=1.2"])
    assert status == 1
    out = capsys.readouterr().out
    assert "SLOWER" in out
    runs = log.read_text().splitlines()
    assert all(("--fake-scale=1.2" in line) == line.startswith("new") for line in runs)


def test_builds_measured_differently_are_compared_only_when_asked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    baseline, _ = _binary(tmp_path, "old")
    contender, _ = _binary(tmp_path, "new")
    changed = [baseline, contender, "--pairs", "6", "--contender-arg=--fake-setting=spin_us:400",
               "--contender-arg=--fake-scale=1.2"]  # fmt: skip
    assert main(changed) == 0
    refused = capsys.readouterr().out
    assert "spin_us: 50 -> 400" in refused and "NOT COMPARABLE" in refused
    assert "SLOWER" not in refused
    assert main([*changed, "--ignore-settings"]) == 1
    out = capsys.readouterr().out
    assert "spin_us: 50 -> 400" in out and "compared anyway (--ignore-settings)" in out
    assert "SLOWER" in out


def test_a_run_without_results_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    baseline, _ = _binary(tmp_path, "old")
    contender, _ = _binary(tmp_path, "new")
    assert main([baseline, contender, "--pairs", "6", "--contender-arg=--fail"]) == 2
    assert "exited 2 with no results" in capsys.readouterr().err
    assert main([str(tmp_path / "missing"), contender, "--pairs", "6"]) == 2
    assert "missing: no such program" in capsys.readouterr().err


def test_too_few_pairs_are_refused(tmp_path: Path) -> None:
    baseline, _ = _binary(tmp_path, "old")
    with pytest.raises(SystemExit) as refused:
        main([baseline, baseline, "--pairs", "3"])
    assert refused.value.code == 2
