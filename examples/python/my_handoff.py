"""Measuring your own hand-off with the suite's driver: here, a NumPy array sent to a worker
process through a multiprocessing.Pipe and doubled there. Run it from the checkout, after
`ci/setup` and a build (`cmake --preset bench && cmake --build --preset bench`):

    .venv/bin/python examples/python/my_handoff.py --benchmark_out=mine.json
    .venv/bin/python -m handoff_reports report mine.json -o mine.html

It takes handoff_bench's flags (--handoff-profile=smoke, --benchmark_filter=...) and exits
non-zero when a row is wrong or fails, or when the results file cannot be written. Given
--handoff-ceilings-from=results/handoff-....json (a main job of this machine), each row gets its
floor and its efficiency against it, as the C++ rows do."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

import numpy as np

import handoff
from handoff.recipes.context import spawn
from handoff.recipes.deadlines import end, receive

SEED = 42


def doubler(conn: Connection) -> None:
    """The worker: doubles each array it receives and sends it back, until None."""
    while (array := conn.recv()) is not None:
        conn.send(array * 2)


@dataclass
class Case:
    worker: BaseProcess
    conn: Connection
    inputs: handoff.arrays.Floats
    out: handoff.arrays.Floats


def setup(workspace: handoff.Workspace, point: handoff.Point) -> Case:
    """Untimed, once per row: the worker, seeded inputs, and an output poisoned before each run."""
    elements = int(point["elements"])
    parent, child = spawn().Pipe()
    worker = spawn().Process(target=doubler, args=(child,), name="doubler")
    worker.start()
    child.close()  # so that a dead worker reads as EOF here
    return Case(worker, parent, workspace.inputs(elements, SEED), workspace.output(elements))


def run(case: Case) -> None:
    """The timed hand-off: there and back, into the output."""
    case.conn.send(case.inputs)
    np.copyto(case.out, receive(case.conn, case.worker))


def verify(case: Case) -> int:
    """How many elements of the last run are wrong, against a reference computed here."""
    return handoff.wrong_elements(case.inputs * np.float32(2), case.out)


def close(case: Case) -> None:
    case.conn.send(None)
    end(case.worker)
    case.conn.close()


MINE = handoff.Benchmark(
    pattern="my_patterns",
    variant="pipe_doubler",
    description="a NumPy array to a worker through a Pipe, doubled, and back",
    setup=setup,
    run=run,
    verify=verify,
    close=close,
    axes={"elements": [1024, 1 << 20]},
    traffic=lambda point: (2 * 4 * int(point["elements"]), 1),
    # The least it can take: the array's bytes through a pipe, there and back, at this machine's
    # pipe ceiling, priced when the run is given --handoff-ceilings-from=an earlier results file.
    floor=lambda point: handoff.Floor(
        bytes={"pipe_between_processes": 2 * 4 * int(point["elements"])}
    ),
)


def main(arguments: list[str]) -> Any:
    return handoff.main([MINE], arguments)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
