"""compare --format markdown and json: the same verdicts and exit status as the console report."""

import json

from compare_fixtures import SINGLE_GPU, as_processes, benchmark_keys, real_document, scaled, write

from handoff_reports.compare_cli import main


def _planted(tmp_path):
    document = as_processes(real_document())
    slowed = set(benchmark_keys(document)[10:13])
    baseline = write(tmp_path, "base.json", document)
    contender = write(tmp_path, "slow.json", scaled(document, 1.2, lambda key: key in slowed))
    return baseline, contender, slowed


def test_json_carries_every_row_and_the_same_exit_status(tmp_path, capsys):
    baseline, contender, slowed = _planted(tmp_path)
    assert main([str(baseline), str(contender), "--format", "json"]) == 1
    document = json.loads(capsys.readouterr().out)
    assert document["exit_code"] == 1
    assert document["outcome"].startswith("REGRESSION (3 rows)")
    rows = {row["name"]: row for row in document["rows"]}
    for key in slowed:
        assert rows[key]["verdict"] == "SLOWER"
        assert abs(rows[key]["change"] - 0.2) < 1e-6
        assert rows[key]["contender"]["seconds"] > rows[key]["baseline"]["seconds"]
        assert rows[key]["processes"] == {"baseline": 3, "contender": 3}
        # At the level of the 268 rows judged together, three of them beyond the noise.
        assert 0 < rows[key]["resolution"] < 0.2
        assert rows[key]["spread_source"] == {
            "baseline": "this run's 3 processes",
            "contender": "this run's 3 processes",
        }
    assert document["machine"] == {
        "comparable": True,
        "across_machines": False,
        "changes": [],
        "line": None,
    }
    assert document["counts"]["benchmarks"]["SLOWER"] == 3
    assert len(document["failures"]) == 3
    assert all(row["kind"] in ("benchmark", "ceiling") for row in document["rows"])


def test_json_of_a_run_against_itself(capsys):
    assert main([str(SINGLE_GPU), str(SINGLE_GPU), "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["outcome"] == "no regression"
    assert document["geomean_ratio"] == 1.0
    # One process a side: nothing holds beyond it, and it never fails.
    assert set(document["counts"]["benchmarks"]) == {"UNRESOLVED"}
    row = document["rows"][0]
    assert row["resolution"] is None and row["processes"] == {"baseline": 1, "contender": 1}
    assert row["spread_source"] == {
        "baseline": "none: one process",
        "contender": "none: one process",
    }
    assert row["reason"] == (
        "one process (baseline and contender): its interval holds for that process only"
    )


def test_markdown_leads_with_the_outcome_and_lists_the_slower_rows(tmp_path, capsys):
    baseline, contender, slowed = _planted(tmp_path)
    assert main([str(baseline), str(contender), "--format", "markdown"]) == 1
    output = capsys.readouterr().out
    assert output.startswith("### handoff compare: REGRESSION (3 rows)")
    assert "**Why it fails:**" in output
    table_lines = [line for line in output.splitlines() if line.startswith("| `")]
    slower = [line for line in table_lines if line.endswith("SLOWER |")]
    assert len(slower) == 3
    assert all(any(f"`{key}`" in line for line in slower) for key in slowed)
    assert "+20.0%" in slower[0] and "| 3/3 |" in slower[0] and "| both: this run's 3" in slower[0]
    assert "| resolution |" in output


def test_an_unknown_format_is_a_usage_error(capsys):
    assert main([str(SINGLE_GPU), str(SINGLE_GPU), "--format", "yaml"]) == 2
    assert "invalid choice: 'yaml'" in capsys.readouterr().err
