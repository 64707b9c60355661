"""The articles' claims as data: each claim in claims.toml, and the rule that decides it.

A rule names benchmark rows by pattern: a benchmark name in which at most one axis value may be
`{size}`, chosen when the claim is evaluated (the largest size every row was measured at), and at
most one may be `{largest}`, the largest value measured for that row.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from handoff_reports.input_files import InputError, read_text

SIZE = "{size}"
# Matches any value of its axis and keeps the largest measured: a claim about the biggest array
# holds on a nightly run capped at 2^24 elements as on a full run at 2^28.
LARGEST = "{largest}"
KINDS = ("faster", "fastest", "break_even")
COMMON_FIELDS = {"id", "seed", "article", "quote", "statement", "kind", "min_size"}
KIND_FIELDS = {
    "faster": {"faster", "slower", "factor"},
    "fastest": {"fastest", "others"},
    "break_even": {"challenger", "baselines"},
}
_SEED = re.compile(r"\d{3}")


class ClaimsError(ValueError):
    """A claims file that cannot be read, or a claim in it that cannot be decided."""


@dataclass(frozen=True)
class RowPattern:
    """A benchmark name, whose one `<axis>:{size}` segment (if any) matches any numeric value."""

    text: str

    @property
    def segments(self) -> list[str]:
        return self.text.split("/")

    @property
    def family(self) -> str:
        return "/".join(self.segments[:2])

    @property
    def size_axis(self) -> str | None:
        for segment in self.segments:
            axis, _, value = segment.partition(":")
            if value == SIZE:
                return axis
        return None

    @property
    def largest_axis(self) -> str | None:
        for segment in self.segments:
            axis, _, value = segment.partition(":")
            if value == LARGEST:
                return axis
        return None

    def match(self, key: str) -> str | None:
        """The size value `key` has in this pattern ("" with no placeholder), or None."""
        wanted, found = self.segments, key.split("/")
        if len(wanted) != len(found):
            return None
        size = ""
        for pattern_segment, key_segment in zip(wanted, found, strict=True):
            axis, _, value = pattern_segment.partition(":")
            key_axis, _, key_value = key_segment.partition(":")
            if value == LARGEST:
                if key_axis != axis or not _is_number(key_value):
                    return None
            elif value == SIZE:
                if key_axis != axis or not _is_number(key_value):
                    return None
                size = key_value
            elif pattern_segment != key_segment:
                return None
        return size


@dataclass(frozen=True)
class Faster:
    """`faster`'s median time beats `slower`'s by at least `factor`."""

    faster: RowPattern
    slower: RowPattern
    factor: float = 1.0


@dataclass(frozen=True)
class Fastest:
    """`fastest` has the lowest median time of itself and `others`."""

    fastest: RowPattern
    others: tuple[RowPattern, ...]


@dataclass(frozen=True)
class BreakEven:
    """`challenger` beats the best of `baselines` at the largest size; and from which size on."""

    challenger: RowPattern
    baselines: tuple[RowPattern, ...]


Rule = Faster | Fastest | BreakEven


@dataclass(frozen=True)
class Claim:
    id: str
    seed: str  # the article's file number in seeds/, e.g. "003"
    article: str  # its title
    quote: str  # the article's own words
    statement: str  # what handoff measures, plainly
    rule: Rule
    min_size: float | None = None  # sizes below it do not test the claim (e.g. gpus:1)

    @property
    def kind(self) -> str:
        return {Faster: "faster", Fastest: "fastest", BreakEven: "break_even"}[type(self.rule)]

    @property
    def patterns(self) -> tuple[RowPattern, ...]:
        rule = self.rule
        if isinstance(rule, Faster):
            return (rule.faster, rule.slower)
        if isinstance(rule, Fastest):
            return (rule.fastest, *rule.others)
        return (rule.challenger, *rule.baselines)


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


class _Reader:
    """Reads one [[claim]] table; every error names the file and the claim."""

    def __init__(self, table: Mapping[str, Any], where: str) -> None:
        self.table = table
        self.where = where

    def error(self, problem: str) -> ClaimsError:
        return ClaimsError(f"{self.where}: {problem}")

    def text(self, field: str) -> str:
        value = self.table.get(field)
        if not isinstance(value, str) or not value.strip():
            raise self.error(f"{field!r} is missing or not a non-empty string")
        return value.strip()

    def number(self, field: str, default: float | None) -> float | None:
        value = self.table.get(field, default)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
            raise self.error(f"{field!r} must be a positive number, not {value!r}")
        return float(value)

    def pattern(self, field: str, value: Any = None) -> RowPattern:
        value = self.table.get(field) if value is None else value
        if not isinstance(value, str) or not value:
            raise self.error(f"{field!r} is missing or not a benchmark name")
        segments = value.split("/")
        if len(segments) < 2 or not all(segments) or ":" in segments[0] + segments[1]:
            raise self.error(f"{field!r}: {value!r} is not <pattern>/<variant>/<axis>:<value>...")
        braces = [
            segment.partition(":")[2] for segment in segments if "{" in segment or "}" in segment
        ]
        if any(b not in (SIZE, LARGEST) for b in braces) or any(
            braces.count(b) > 1 for b in braces
        ):
            raise self.error(
                f"{field!r}: {value!r} may hold one <axis>:{SIZE} and one <axis>:{LARGEST}"
            )
        return RowPattern(value)

    def patterns(self, field: str) -> tuple[RowPattern, ...]:
        values = self.table.get(field)
        if not isinstance(values, list) or not values:
            raise self.error(f"{field!r} is missing or not a non-empty list of benchmark names")
        return tuple(self.pattern(field, value) for value in values)

    def rule(self, kind: str) -> Rule:
        if kind == "faster":
            return Faster(self.pattern("faster"), self.pattern("slower"), self._factor())
        if kind == "fastest":
            return Fastest(self.pattern("fastest"), self.patterns("others"))
        return BreakEven(self.pattern("challenger"), self.patterns("baselines"))

    def _factor(self) -> float:
        factor = self.number("factor", 1.0)
        assert factor is not None  # a default was given
        return factor


def _claim(table: Any, index: int, path: str) -> Claim:
    if not isinstance(table, Mapping):
        raise ClaimsError(f"{path}: claim[{index}] is not a table")
    claim_id = table.get("id")
    if not isinstance(claim_id, str) or not claim_id.strip():
        raise ClaimsError(f"{path}: claim[{index}] has no 'id'")
    reader = _Reader(table, f"{path}: claim {claim_id!r}")
    kind = reader.text("kind")
    if kind not in KINDS:
        raise reader.error(f"unknown kind {kind!r} (known: {', '.join(KINDS)})")
    unknown = sorted(set(table) - COMMON_FIELDS - KIND_FIELDS[kind])
    if unknown:
        raise reader.error(f"unknown field {unknown[0]!r} for kind {kind!r}")
    seed = reader.text("seed")
    if not _SEED.fullmatch(seed):
        raise reader.error(f"'seed' must be the article's three-digit file number, not {seed!r}")
    claim = Claim(
        id=claim_id.strip(),
        seed=seed,
        article=reader.text("article"),
        quote=reader.text("quote"),
        statement=reader.text("statement"),
        rule=reader.rule(kind),
        min_size=reader.number("min_size", None),
    )
    _check_sizes(claim, reader)
    return claim


def _check_sizes(claim: Claim, reader: _Reader) -> None:
    texts = [pattern.text for pattern in claim.patterns]
    duplicate = next((text for text in texts if texts.count(text) > 1), None)
    if duplicate:
        raise reader.error(f"row {duplicate!r} is named twice")
    axes = {axis for pattern in claim.patterns if (axis := pattern.size_axis)}
    if len(axes) > 1:
        raise reader.error(f"its rows put {SIZE} on different axes: {', '.join(sorted(axes))}")
    if isinstance(claim.rule, BreakEven) and claim.rule.challenger.size_axis is None:
        raise reader.error(f"a break_even challenger needs a {SIZE} axis to sweep")
    if claim.min_size is not None and not axes:
        raise reader.error(f"'min_size' needs a row with a {SIZE} axis")


def parse_claims(text: str, where: str = "<claims>") -> list[Claim]:
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ClaimsError(f"{where}: not valid TOML: {error}") from error
    except RecursionError as error:  # tomllib parses nested arrays by recursion
        raise ClaimsError(f"{where}: nested too deeply") from error
    tables = document.get("claim")
    if not isinstance(tables, list) or not tables:
        raise ClaimsError(f"{where}: no [[claim]] tables")
    claims = [_claim(table, index, where) for index, table in enumerate(tables)]
    ids = [claim.id for claim in claims]
    duplicate = next((claim_id for claim_id in ids if ids.count(claim_id) > 1), None)
    if duplicate:
        raise ClaimsError(f"{where}: claim {duplicate!r}: the id is used twice")
    return claims


def unlisted_patterns(claims: Sequence[Claim], names: Iterable[str]) -> list[str]:
    """'claim: pattern' for each row pattern of the claims that no name in `names` (a
    --benchmark_list_tests listing, each name with or without its time suffix) matches: a claim
    that names rows by a scheme no run produces any more."""
    keys = []
    for name in names:
        segments = name.strip().split("/")
        if segments and segments[-1].endswith("_time"):
            segments = segments[:-1]
        if segments != [""]:
            keys.append("/".join(segments))
    return [
        f"{claim.id}: {pattern.text}"
        for claim in claims
        for pattern in claim.patterns
        if not any(pattern.match(key) is not None for key in keys)
    ]


def load_claims(path: str | Path | None = None) -> list[Claim]:
    """The claims in `path`; by default, those that ship with the package."""
    if path is None:
        packaged = resources.files("handoff_reports").joinpath("data", "claims.toml")
        return parse_claims(
            packaged.read_text(encoding="utf-8"), "handoff_reports/data/claims.toml"
        )
    try:
        text = read_text(path)
    except InputError as error:
        raise ClaimsError(str(error)) from error
    return parse_claims(text, str(path))
