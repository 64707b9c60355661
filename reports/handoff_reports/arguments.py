"""argparse types for the commands' numbers and folders: each refuses what makes no sense (a
negative count, NaN, a folder that is not there) with a message that says what is allowed, so
that argparse exits 2 before any work, instead of the command quietly doing nothing with it."""

from __future__ import annotations

import argparse
import math
import re
from collections.abc import Callable
from pathlib import Path


def whole_number(least: int) -> Callable[[str], int]:
    """A type for an integer of least or more."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = least - 1
        if value < least:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of {least} or more")
        return value

    return parse


def _finite(text: str) -> float | None:
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def seconds(text: str) -> float:
    """A type for a finite number of seconds, 0 or more."""
    value = _finite(text)
    if value is None or value < 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds, 0 or more")
    return value


def fraction(text: str) -> float:
    """A type for a number strictly between 0 and 1 (a threshold, a significance level)."""
    value = _finite(text)
    if value is None or not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a fraction between 0 and 1")
    return value


def positive_number(text: str) -> float:
    """A type for a finite number above 0 (a share that may exceed one, such as a spread)."""
    value = _finite(text)
    if value is None or not value > 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number above 0")
    return value


def regular_expression(text: str) -> re.Pattern[str]:
    """A type for a regular expression (a benchmark filter), compiled."""
    try:
        return re.compile(text)
    except re.error as error:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a regular expression: {error}"
        ) from error


def existing_directory(text: str) -> Path:
    """A type for a folder that is there to be read."""
    path = Path(text)
    if not path.is_dir():
        raise argparse.ArgumentTypeError(f"{text!r} is not a directory")
    return path
