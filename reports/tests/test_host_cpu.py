"""A claim that a CPU way decides names the host CPU and one thread's speed on the reference loop
measured in the same run; a claim of GPU ways alone does not."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from handoff_reports.claims import evaluate_claims, load_claims, verdict_lines
from handoff_reports.host_cpu import cpu_variants, host_note, uses_a_cpu_way
from handoff_reports.results import load_all, load_results

FIXTURES = Path(__file__).parent / "fixtures" / "real"
CPU_SMOKE = FIXTURES / "cpu-smoke-variants.json"  # a 2-core CPU smoke run with a variants record
H200_HEADLINE = FIXTURES / "h200-headline-8-processes-a.json"
REFERENCE = "ceilings/shm_memcpy_one_thread/method:memcpy/bytes:268435456"


def test_the_note_gives_the_cpu_and_the_reference_loop_at_its_largest_size() -> None:
    run = load_results(H200_HEADLINE)
    rate = 268435456 / run.rows[REFERENCE].median_seconds
    assert host_note(run) == (
        "CPU rows on Intel(R) Xeon(R) Processor (16 cores); one thread copies "
        f"{rate / 1e9:.3g} GB/s (the median of this run's one-thread memcpy row at 256 MiB)"
    )


def test_a_run_without_the_reference_loop_says_so(tmp_path: Path) -> None:
    document = json.loads(H200_HEADLINE.read_text())
    trimmed = copy.deepcopy(document)
    trimmed["benchmarks"] = [
        b for b in document["benchmarks"] if "shm_memcpy_one_thread" not in b["name"]
    ]
    path = tmp_path / "run.json"
    path.write_text(json.dumps(trimmed))
    note = host_note(load_all([str(path)])[0])
    assert note.endswith("no one-thread reference loop was measured in this run")


def test_only_the_recorded_cpu_ways_count() -> None:
    ways = cpu_variants(load_results(H200_HEADLINE))
    assert ("elementwise", "cpu_serial") in ways
    assert uses_a_cpu_way(["elementwise/cpu_serial/workload:vector_add/elements:65536"], ways)
    assert not uses_a_cpu_way(["tensor_transfer/pipe/memory:device/bytes:4194304"], ways)


@pytest.mark.parametrize("path", [CPU_SMOKE], ids=["cpu-smoke"])
def test_claims_decided_by_a_cpu_way_carry_the_note_and_print_it(path: Path) -> None:
    run = load_results(path)
    verdicts = {v.claim.id: v for v in evaluate_claims(run, load_claims())}
    decided_on_cpu = verdicts["processes-slow-to-start"]  # cpu_map, a pool of CPU processes
    assert decided_on_cpu.rows_used and decided_on_cpu.host == host_note(run)
    unmeasured = verdicts["pipe-beats-queue"]
    assert not unmeasured.rows_used and unmeasured.host == ""
    lines = verdict_lines([decided_on_cpu, unmeasured])
    assert lines[1] == f"  ({host_note(run)})"
    assert len(lines) == 3
