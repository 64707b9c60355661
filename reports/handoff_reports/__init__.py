"""handoff's reports: HTML from handoff_bench's JSON, run-to-run comparison, nightly history."""
