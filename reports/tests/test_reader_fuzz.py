"""Fuzzing the results reader: whatever the bytes, it returns a sound Run or raises ResultsError.

A sound Run is one whose every time is finite and positive and whose wrong counts are finite and
not negative, so that nothing downstream (compare, merge) can meet a NaN or an infinity."""

import json
import math

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from handoff_reports.compare import compare_runs
from handoff_reports.compare_text import format_report
from handoff_reports.merge import MergeError, merge_documents
from handoff_reports.results import ResultsError, Run, load_results, read_results_document

FIELDS = ["name", "run_name", "run_type", "real_time", "time_unit", "wrong", "verified",
          "samples", "noise", "ci_low", "ci_high", "noisy", "clock_lowered", "floor_seconds",
          "repetition_index", "aggregate_name", "error_occurred", "error_message", "clock",
          "scaling_efficiency", "bytes", "stage.h2d"]  # fmt: skip
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**20), max_value=10**20)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=12)
    | st.sampled_from(["ns", "us", "ms", "s", "aggregate", "median", "iteration", "p/v/x:1"])
)
VALUES = st.recursive(
    SCALARS,
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=6), children, max_size=3)
    ),
    max_leaves=8,
)
ENTRIES = st.dictionaries(st.sampled_from(FIELDS) | st.text(max_size=6), VALUES, max_size=10)
CEILINGS = st.dictionaries(
    st.text(max_size=6),
    st.fixed_dictionaries(
        {"value": SCALARS, "unit": st.sampled_from(["seconds", "bytes_per_second", "x"])}
    )
    | VALUES,
    max_size=2,
)
DOCUMENTS = st.fixed_dictionaries(
    {
        "context": st.dictionaries(st.text(max_size=8), VALUES, max_size=3).map(
            lambda context: {**context, "handoff_version": "0.1.0"}
        ),
        "benchmarks": st.lists(ENTRIES, max_size=6),
    },
    optional={
        "handoff_ceilings": CEILINGS,
        "handoff_run": st.dictionaries(st.sampled_from(["state", "reason", "rows"]), SCALARS),
        "handoff_ceilings_source": VALUES,
    },
)


def as_bytes(document, cut):
    text = json.dumps(document, allow_nan=True).encode()
    return text if cut is None else text[:cut]


# Arbitrary bytes, arbitrary JSON, and JSON shaped like a results file (whole or truncated).
CONTENTS = (
    st.binary(max_size=300)
    | VALUES.map(lambda value: json.dumps(value, allow_nan=True).encode())
    | st.builds(as_bytes, DOCUMENTS, st.none() | st.integers(min_value=0, max_value=400))
)


def assert_sound(run):
    assert isinstance(run, Run)
    for row in run.rows.values():
        assert all(math.isfinite(s) and s > 0 for s in row.seconds)
        assert math.isfinite(row.wrong) and row.wrong >= 0
        assert math.isfinite(row.verified) and row.verified >= 0
        assert all(math.isfinite(value) for value in row.counters.values())
        for figure in row.figures:
            for end in (figure.ci_low, figure.ci_high):
                assert end is None or (math.isfinite(end) and end > 0)
    for ceiling in run.ceilings.values():
        assert math.isfinite(ceiling.value) and ceiling.value > 0


@settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(content=CONTENTS)
def test_the_reader_returns_a_sound_run_or_raises_results_error(tmp_path, content):
    path = tmp_path / "fuzzed.json"
    path.write_bytes(content)
    try:
        run = load_results(path)
    except ResultsError as error:
        assert str(error).startswith(str(path))
        return
    assert_sound(run)
    # What the commands do next must hold as well: compare it, and merge it with itself.
    assert format_report(compare_runs(run, run))
    document = read_results_document(path)
    try:
        merge_documents([document, document])
    except MergeError:
        pass
