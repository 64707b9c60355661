"""Reasons a machine cannot run a benchmark, for Benchmark(unavailable=...): a library this Python
lacks, or fewer GPUs than the benchmark needs. Each returns "" when the machine can run it, and
imports nothing until asked, so that a CPU-only machine never loads a GPU library to find out."""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable


def missing_modules(*names: str) -> str:
    """Which of the modules this Python cannot import, as a reason; "" when it has them all."""
    missing = [name for name in names if importlib.util.find_spec(name) is None]
    if not missing:
        return ""
    return f"no {', '.join(missing)} in this Python"


def torch_gpus() -> int:
    torch = importlib.import_module("torch")
    return int(torch.cuda.device_count()) if torch.cuda.is_available() else 0


def cupy_gpus() -> int:
    cupy = importlib.import_module("cupy")
    try:
        return int(cupy.cuda.runtime.getDeviceCount())
    except cupy.cuda.runtime.CUDARuntimeError:
        return 0


def needs(library: str, gpus: int = 1) -> Callable[[], str]:
    """Benchmark(unavailable=needs("torch")): the library, and `gpus` GPUs that it sees."""
    counters = {"torch": torch_gpus, "cupy": cupy_gpus}
    if library not in counters:
        raise ValueError(f"needs(): knows torch and cupy, not {library!r}")

    def reason() -> str:
        missing = missing_modules(library)
        if missing:
            return missing
        # A library that imports but cannot reach CUDA (a missing runtime, a mismatched driver)
        # is a reason to skip, not an error that ends the run's CPU rows too.
        try:
            found = counters[library]()
        except Exception as error:  # noqa: BLE001 - any failure of the library is the reason
            return f"{library} cannot count GPUs: {error}"
        if found < gpus:
            return f"{library} sees {found} GPU{'s' if found != 1 else ''}, needs {gpus}"
        return ""

    return reason
