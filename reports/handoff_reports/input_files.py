"""The one way every command reads an input file: strictly, and with one error type for any fault.

A file that cannot be read (missing, a directory, no permission), is not UTF-8, is not JSON or TOML
(truncated, garbage), holds a number no double can hold (an integer literal of 400 digits), is
nested deeper than any file handoff_bench writes, or holds a string that is not valid Unicode (an
unpaired surrogate escape) is an InputError whose message starts with the file's path: the
commands print it as their one line on stderr and exit 2, never with a traceback.
"""

from __future__ import annotations

import json
import math
import tomllib
from pathlib import Path
from typing import Any

# handoff_bench's JSON is four levels deep (document, benchmarks, entry, value): this leaves room
# for any context Google Benchmark adds, and keeps every later walk far from the recursion limit.
MAX_DEPTH = 64


class InputError(ValueError):
    """An input file that cannot be read or parsed; the message names the file and the fault."""


class _NumberOutOfRange(ValueError):
    """An integer literal too large for a double (json.loads would make it a Python int)."""


def read_text(path: str | Path) -> str:
    """The file's text, decoded as strict UTF-8."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as error:
        raise InputError(f"{path}: cannot read: {error.strerror or error}") from error
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InputError(
            f"{path}: not UTF-8 text (byte 0x{raw[error.start]:02x} at offset {error.start})"
        ) from error


def _integer(literal: str) -> int:
    # A double holds at most 309 integer digits; checking the length first keeps int() away from
    # Python's limit on converting very long digit strings.
    if len(literal.lstrip("-")) > 309:
        raise _NumberOutOfRange(literal)
    value = int(literal)
    try:
        float(value)
    except OverflowError:
        raise _NumberOutOfRange(literal) from None
    return value


def _shortened(text: str, length: int = 24) -> str:
    return text if len(text) <= length else f"{text[:length]}... ({len(text)} characters)"


def parse_json(text: str, where: str) -> Any:
    """JSON text as Python values; NaN and Infinity literals are kept (Google Benchmark writes
    them), for the readers of each field to judge."""
    try:
        document = json.loads(text, parse_int=_integer)
    except _NumberOutOfRange as error:
        raise InputError(
            f"{where}: number {_shortened(str(error))} is too large for a double"
        ) from error
    except json.JSONDecodeError as error:
        raise InputError(f"{where}: not valid JSON: {error}") from error
    except RecursionError as error:
        raise InputError(f"{where}: nested too deeply (more than {MAX_DEPTH} levels)") from error
    check_shape(document, where)
    return document


def check_shape(document: Any, where: str) -> None:
    """Refuses values nested deeper than MAX_DEPTH and strings that are not valid Unicode.

    Walks with a list rather than by recursion, so that no document can exhaust the stack."""
    pending: list[tuple[Any, int]] = [(document, 1)]
    while pending:
        value, depth = pending.pop()
        if depth > MAX_DEPTH:
            raise InputError(f"{where}: nested too deeply (more than {MAX_DEPTH} levels)")
        if isinstance(value, str):
            _check_string(value, where)
        elif isinstance(value, dict):
            for key, item in value.items():
                _check_string(key, where)
                pending.append((item, depth + 1))
        elif isinstance(value, list):
            pending.extend((item, depth + 1) for item in value)


def _check_string(text: str, where: str) -> None:
    # JSON's \ud800 escapes decode to unpaired surrogates, which no output can encode later.
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        raise InputError(f"{where}: a string with an unpaired surrogate escape") from error


def read_json(path: str | Path) -> Any:
    """The file's JSON, read by `read_text` and `parse_json`."""
    return parse_json(read_text(path), str(path))


def read_toml(path: str | Path) -> dict[str, Any]:
    """The file's TOML, read by `read_text`."""
    text = read_text(path)
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise InputError(f"{path}: not valid TOML: {error}") from error
    except RecursionError as error:  # tomllib parses nested arrays by recursion
        raise InputError(f"{path}: nested too deeply") from error


def is_finite_number(value: Any) -> bool:
    """A JSON number (not a bool) that is neither NaN nor infinite."""
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
