"""Finds and loads _handoff_native, which the CMake build makes (python/CMakeLists.txt)
in <build>/python. The build folder is $HANDOFF_BUILD_DIR, or else the first of build/bench and
build/ci (the Release presets) of the checkout this package lives in that holds the module. Worker
processes inherit the variable, so they load the module the run loaded."""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import sys
from functools import cache
from pathlib import Path
from types import ModuleType

from handoff.errors import NativeModuleMissing

MODULE = "_handoff_native"
ENVIRONMENT = "HANDOFF_BUILD_DIR"
_CHECKOUT = Path(__file__).resolve().parents[2]
_PRESETS = ("bench", "ci")


def candidate_dirs() -> list[Path]:
    chosen = os.environ.get(ENVIRONMENT)
    if chosen:
        return [Path(chosen) / "python"]
    return [_CHECKOUT / "build" / preset / "python" for preset in _PRESETS]


def _module_file(folder: Path) -> Path | None:
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = folder / f"{MODULE}{suffix}"
        if path.is_file():
            return path
    return None


@cache
def native() -> ModuleType:
    looked = candidate_dirs()
    for folder in looked:
        path = _module_file(folder)
        if path is None:
            continue
        # The build dir's own folder stays off sys.path: only this module is taken from it.
        spec = importlib.util.spec_from_file_location(MODULE, path)
        if spec is None or spec.loader is None:
            break
        module = importlib.util.module_from_spec(spec)
        # Registered as an import would register it: nanobind ties the state its functions use
        # to the module object's lifetime, and sys.modules holds it for the process's.
        sys.modules[MODULE] = module
        spec.loader.exec_module(module)
        # A chosen build folder is handed on, so that spawned workers load the same module.
        os.environ.setdefault(ENVIRONMENT, str(folder.parent))
        return module
    raise NativeModuleMissing(
        f"{MODULE} is not in {', '.join(str(folder) for folder in looked)}: build it with "
        "`cmake --preset bench && cmake --build --preset bench --target _handoff_native` "
        f"(ci/setup installs nanobind), or set {ENVIRONMENT} to a build folder that has it"
    )
