"""Every program name a usage text gives is a script the package installs, and runs its command."""

import re
import tomllib
from pathlib import Path

import pytest

from handoff_reports import cli

PACKAGE = Path(__file__).parent.parent
SCRIPTS = tomllib.loads((PACKAGE / "pyproject.toml").read_text())["project"]["scripts"]


def _program_names() -> set[str]:
    names: set[str] = set()
    for source in (PACKAGE / "handoff_reports").rglob("*.py"):
        names.update(re.findall(r'prog="(handoff-[a-z-]+)"', source.read_text()))
    return names


def test_every_usage_name_is_an_installed_script() -> None:
    names = _program_names()
    assert {"handoff-report", "handoff-compare", "handoff-merge"} <= names
    assert names <= set(SCRIPTS), (
        f"usage texts name scripts that are not installed: {names - set(SCRIPTS)}"
    )


def test_every_command_has_a_script_and_every_script_a_command() -> None:
    assert {f"handoff-{command}" for command in cli.COMMANDS} == set(SCRIPTS)


@pytest.mark.parametrize("script", sorted(SCRIPTS))
def test_each_script_answers_help(
    script: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    module, function = SCRIPTS[script].split(":")
    assert module == "handoff_reports.cli"
    monkeypatch.setattr("sys.argv", [script, "--help"])
    try:
        status = getattr(cli, function)()
    except SystemExit as exit_request:
        status = exit_request.code
    assert status == 0
    assert script in capsys.readouterr().out
