"""Claims decided on the recipe the article wrote: the Python row, where the run has one."""

from __future__ import annotations

import copy
import json

from python_fixtures import (
    CPP_RUN,
    POOL_POINT,
    PYTHON_POOL,
    PYTHON_RUN,
    edited_rows,
    loaded,
    run_of,
)

from handoff_reports.claims import (
    CONFIRMED,
    NOT_MEASURED,
    NOT_RESOLVED,
    REFUTED,
    evaluate_claim,
    parse_claims,
)
from handoff_reports.claims import main as claims_main
from handoff_reports.claims_file import Claim
from handoff_reports.results import Run
from handoff_reports.together import runs_together

POOL_CLAIM = f"""
[[claim]]
id = "prep-pool-beneficial"
seed = "000"
article = "a"
quote = "q"
statement = "s"
kind = "faster"
faster = "pool_prep/seed/{POOL_POINT}"
slower = "pool_prep/cpu_serial/chunks:10/elements:1048576"
"""
PIPE_CLAIM = """
[[claim]]
id = "pipe-beats-queue"
seed = "003"
article = "a"
quote = "q"
statement = "s"
kind = "faster"
faster = "tensor_transfer/pipe/memory:host/bytes:{size}/start:warm"
slower = "tensor_transfer/queue/memory:host/bytes:{size}/start:warm"
"""


def _claim(text: str) -> Claim:
    return parse_claims(text)[0]


def _together(python: dict[str, object] | None = None) -> Run:
    runs = [run_of(loaded(CPP_RUN), "cpp.json")]
    runs.append(run_of(python if python is not None else loaded(PYTHON_RUN), "python.json"))
    return runs_together(runs)


def test_without_a_python_row_the_claim_is_decided_on_the_cpp_recipe() -> None:
    verdict = evaluate_claim(run_of(loaded(CPP_RUN), "cpp.json"), _claim(POOL_CLAIM))
    assert verdict.verdict == CONFIRMED  # seed 40 ms against one thread's 60 ms
    assert "Python" not in verdict.figures
    assert verdict.rows_used[0] == f"pool_prep/seed/{POOL_POINT}"


def test_the_python_row_decides_in_the_seeds_place_and_the_verdict_says_so() -> None:
    claim = _claim(POOL_CLAIM)
    verdict = evaluate_claim(_together(), claim)
    assert verdict.verdict == REFUTED  # python_seed 80 ms against 60 ms
    assert verdict.figures.startswith("decided on the Python recipe (python_seed for seed): ")
    assert verdict.rows_used == [PYTHON_POOL, "pool_prep/cpu_serial/chunks:10/elements:1048576"]
    assert verdict.claim is claim  # quoted as the article wrote it


def test_a_claim_of_sizes_swaps_every_recipe_row_it_names() -> None:
    verdict = evaluate_claim(_together(), _claim(PIPE_CLAIM))
    assert verdict.verdict == CONFIRMED  # python_pipe 400 µs against python_queue 500 µs
    assert "(python_pipe for pipe, python_queue for queue)" in verdict.figures
    assert all("/python_" in key for key in verdict.rows_used)


def test_a_python_row_at_another_point_leaves_the_claim_to_the_cpp_rows() -> None:
    python = loaded(PYTHON_RUN)
    for entry in python["benchmarks"]:
        entry["name"] = entry["run_name"] = entry["name"].replace("workers:4", "workers:2")
    verdict = evaluate_claim(_together(python), _claim(POOL_CLAIM))
    assert verdict.verdict == CONFIRMED and "Python" not in verdict.figures


def test_a_suspect_python_row_decides_nothing() -> None:
    # Faster than a floor of 1 s: the row's figure or its floor is wrong.
    python = edited_rows(loaded(PYTHON_RUN), PYTHON_POOL, floor_seconds=1.0)
    verdict = evaluate_claim(_together(python), _claim(POOL_CLAIM))
    assert verdict.verdict == NOT_RESOLVED
    assert "python_seed" in verdict.figures and "SUSPECT" in verdict.figures
    assert verdict.figures.startswith("decided on the Python recipe")


def test_a_python_row_of_one_process_is_not_resolved() -> None:
    python = edited_rows(loaded(PYTHON_RUN), PYTHON_POOL, handoff_process="one-process")
    verdict = evaluate_claim(_together(python), _claim(POOL_CLAIM))
    assert verdict.verdict == NOT_RESOLVED and "one process (python_seed)" in verdict.figures


def test_a_python_row_that_failed_verification_is_not_replaced_by_the_cpp_row() -> None:
    python = edited_rows(loaded(PYTHON_RUN), PYTHON_POOL, wrong=3.0)
    verdict = evaluate_claim(_together(python), _claim(POOL_CLAIM))
    assert verdict.verdict == NOT_MEASURED
    assert verdict.figures.startswith("decided on the Python recipe")
    assert "failed verification" in verdict.figures and PYTHON_POOL in verdict.figures


def test_the_command_reads_the_main_job_and_the_python_run_together(tmp_path, capsys):
    claims = tmp_path / "claims.toml"
    claims.write_text(POOL_CLAIM)
    assert claims_main([str(CPP_RUN), str(PYTHON_RUN), "--claims", str(claims)]) == 0
    assert "decided on the Python recipe" in capsys.readouterr().out
    assert claims_main([str(CPP_RUN), "--claims", str(claims)]) == 0
    assert "decided on the Python recipe" not in capsys.readouterr().out


def test_a_listing_is_one_file(capsys):
    assert claims_main([str(CPP_RUN), str(PYTHON_RUN), "--listed"]) == 2
    assert "one listing" in capsys.readouterr().err


def _with_a_gpu_form(document: dict[str, object], scale: float) -> dict[str, object]:
    """A copy of the Python run with a GPU form of the pool recipe (python_seed_cupy, cpu false)
    at the same point, its time `scale` times python_seed's."""
    edited = copy.deepcopy(document)
    entries = edited["benchmarks"]
    assert isinstance(entries, list)
    for entry in [e for e in entries if e["name"].startswith(PYTHON_POOL)]:
        twin = copy.deepcopy(entry)
        for field in ("name", "run_name"):
            twin[field] = twin[field].replace("python_seed", "python_seed_cupy")
        for field in ("real_time", "cpu_time"):
            twin[field] = twin[field] * scale
        entries.append(twin)
    context = edited["context"]
    assert isinstance(context, dict)
    record = json.loads(context["handoff_variants"])
    record["pool_prep"].append(
        {"name": "python_seed_cupy", "description": "d", "recipe": True, "cpu": False,
         "language": "python"}
    )  # fmt: skip
    context["handoff_variants"] = json.dumps(record)
    return edited


def test_of_two_python_forms_the_one_on_the_gpu_decides_a_gpu_recipes_claim() -> None:
    verdict = evaluate_claim(
        _together(_with_a_gpu_form(loaded(PYTHON_RUN), 0.25)), _claim(POOL_CLAIM)
    )
    assert verdict.verdict == CONFIRMED  # python_seed_cupy 20 ms against one thread's 60 ms
    assert "python_seed_cupy for seed" in verdict.figures
    assert verdict.rows_used[0] == f"pool_prep/python_seed_cupy/{POOL_POINT}"
