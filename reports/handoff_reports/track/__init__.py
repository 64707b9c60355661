"""The nightly history: a SQLite store of runs, change-point checks and a trend dashboard."""

from handoff_reports.track.cli import main

__all__ = ["main"]
