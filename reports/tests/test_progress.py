import io

from handoff_reports.progress import FamilyProgress

NAMES = [
    "elementwise/cpu_serial/elements:1024/manual_time",
    "elementwise/cpu_serial/elements:4096/manual_time",
    "pool_prep/seed/chunks:10/manual_time",
]


def _row(name, rest="1.0 us 1.0 us 10 wrong=0"):
    return f"{name}   {rest}\n"


def test_a_line_per_finished_family():
    out = io.StringIO()
    progress = FamilyProgress(NAMES, repetitions=2, out=out)
    for name in NAMES[:2] * 2:
        progress.feed(_row(name))
    progress.feed(_row(NAMES[0] + "_median"))  # aggregates are not runs
    assert "1/2 families done: elementwise/cpu_serial (4 runs; 4/6 in all)" in out.getvalue()
    assert "pool_prep" not in out.getvalue()
    progress.feed(_row(NAMES[2], "ERROR OCCURRED: 'wrong result'"))
    progress.feed(_row(NAMES[2]))
    text = out.getvalue()
    assert "FAILED pool_prep/seed/chunks:10/manual_time:  'wrong result'" in text
    assert "2/2 families done: pool_prep/seed (2 runs, 1 FAILED; 6/6 in all)" in text
    assert text.count("families done") == 2


def test_lines_that_are_not_rows_are_ignored():
    out = io.StringIO()
    progress = FamilyProgress(NAMES, repetitions=1, out=out)
    for line in ("Running handoff_bench\n", "---------\n", "Ceilings measured in this run\n",
                 "other/unknown/x:1/manual_time 1 us\n"):  # fmt: skip
        progress.feed(line)
    assert progress.runs == 0 and out.getvalue() == ""
