"""What the tests of styles read: a real run that carries its variants record, and the colour each
variant's lines are drawn in on a page, found by the SVG ids styles.variant_gid gives them."""

from __future__ import annotations

import json
import re
from pathlib import Path

# A CPU-only smoke run of handoff_bench written with the record (context handoff_variants).
RECORDED = Path(__file__).parent / "fixtures" / "real" / "cpu-smoke-variants.json"

_LINE = re.compile(
    r'<g id="[^"]*variant-(?P<variant>[A-Za-z0-9_]+)-[0-9]+">\s*'
    r'<path [^>]*?style="fill: none; stroke: (?P<colour>#[0-9a-f]{6})'
)


def recorded_text() -> str:
    """The record exactly as handoff_bench wrote it into the run's context."""
    text = json.loads(RECORDED.read_text())["context"]["handoff_variants"]
    assert isinstance(text, str)
    return text


def line_colours(page: str) -> dict[str, set[str]]:
    """Every colour each variant's lines take anywhere in the page."""
    colours: dict[str, set[str]] = {}
    for line in _LINE.finditer(page):
        colours.setdefault(line["variant"], set()).add(line["colour"])
    return colours
