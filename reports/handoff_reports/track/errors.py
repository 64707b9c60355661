"""The one error the history raises, so that the command line can tell input faults from bugs."""

from __future__ import annotations


class TrackError(ValueError):
    """A history database or a results file that cannot go into one, named in the message."""
