"""Which machine, software and night one results file comes from, read from its manifest.

A machine is its GPUs: the models and UUIDs of every GPU, in handoff_bench's order, so that a
swapped or added GPU starts a new machine and so a new series. A machine without GPUs is its
host name and CPU model.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from handoff_reports.results import MEASUREMENT_DEFAULTS, Run
from handoff_reports.track.errors import TrackError

UNKNOWN_SETTINGS = "unknown"
SETTINGS_SEPARATOR = "; "


@dataclass(frozen=True)
class RunIdentity:
    machine: str  # the key series are grouped by
    machine_label: str  # the same, short enough for a plot legend
    host_name: str
    gpu_models: tuple[str, ...]
    gpu_uuids: tuple[str, ...]
    driver: str
    cuda_runtime: str
    commit: str
    date: str  # ISO 8601 in UTC, so that text order is time order
    # The measurement settings as "name=value" pairs joined by SETTINGS_SEPARATOR, "unknown"
    # for files without setting_* entries: nights measured differently are a known break.
    settings: str = UNKNOWN_SETTINGS


def settings_text(run: Run) -> str:
    settings = run.settings
    if not settings.known:
        return UNKNOWN_SETTINGS
    return SETTINGS_SEPARATOR.join(
        f"{name}={value if value is not None else '-'}"
        for name, value in settings.measurement().items()
    )


def settings_change(before: str, after: str) -> str | None:
    """ "settings a=1 -> a=2, ..." naming only the settings that differ, or None."""
    if before == after:
        return None
    if UNKNOWN_SETTINGS in (before, after):
        return f"settings {before} -> {after}"
    old = dict(pair.split("=", 1) for pair in before.split(SETTINGS_SEPARATOR))
    new = dict(pair.split("=", 1) for pair in after.split(SETTINGS_SEPARATOR))

    # A night stored before a setting was recorded ran with its default then, as in compare.
    def value(settings: dict[str, str], name: str) -> str:
        return settings.get(name, MEASUREMENT_DEFAULTS.get(name, "-"))

    changed = [
        f"{name} {value(old, name)} -> {value(new, name)}"
        for name in dict.fromkeys([*old, *new])
        if value(old, name) != value(new, name)
    ]
    return "settings " + ", ".join(changed) if changed else None


def _text(context: dict[str, object], key: str) -> str:
    value = context.get(key)
    return str(value).strip() if value is not None else ""


def _gpus(run: Run) -> list[tuple[str, str]]:
    gpus = []
    index = 0
    # handoff_gpu_count can be absent in hand-made files: the numbered keys are the evidence.
    while f"handoff_gpu{index}_name" in run.context or index < run.gpu_count:
        name = _text(run.context, f"handoff_gpu{index}_name") or "unknown GPU"
        uuid = _text(run.context, f"handoff_gpu{index}_uuid") or f"gpu{index}-without-uuid"
        gpus.append((name, uuid))
        index += 1
    return gpus


def _utc_date(run: Run) -> str:
    text = run.date
    if not text:
        raise TrackError(f"{run.path}: the context has no date, so the run has no place in time")
    try:
        moment = datetime.fromisoformat(text)
    except ValueError as error:
        raise TrackError(f"{run.path}: context date {text!r} is not ISO 8601") from error
    if moment.tzinfo is None:  # Google Benchmark writes an offset; a file without one is UTC
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat(timespec="seconds")


def _driver(context: dict[str, object]) -> str:
    driver = _text(context, "handoff_driver_version")
    if driver:
        return driver
    # Files from before handoff_driver_version only know the driver's CUDA API level.
    api = _text(context, "handoff_cuda_driver_api")
    return f"CUDA driver API {api}" if api else "unknown"


def _summary(models: tuple[str, ...]) -> str:
    if not models:
        return ""
    if len(set(models)) == 1:
        return f"{len(models)}x {models[0]}"
    return " + ".join(models)


def identify(run: Run) -> RunIdentity:
    gpus = _gpus(run)
    models = tuple(name for name, _ in gpus)
    uuids = tuple(uuid for _, uuid in gpus)
    host = _text(run.context, "host_name") or "unknown host"
    if gpus:
        machine = " | ".join(f"{name} {uuid}" for name, uuid in gpus)
        # The first UUID's leading digits tell two machines of the same model apart.
        label = f"{host}: {_summary(models)} ({uuids[0].removeprefix('GPU-')[:8]})"
    else:
        cpu = _text(run.context, "handoff_cpu_model") or "unknown CPU"
        machine = f"{host} | {cpu}"
        label = f"{host}: {cpu}"
    return RunIdentity(
        machine=machine,
        machine_label=label,
        host_name=host,
        gpu_models=models,
        gpu_uuids=uuids,
        driver=_driver(run.context),
        cuda_runtime=_text(run.context, "handoff_cuda_runtime") or "unknown",
        commit=_text(run.context, "handoff_git_commit") or "unknown",
        date=_utc_date(run),
        settings=settings_text(run),
    )
