"""deadlines.receive for a sender that answers requests: one killed with a request still unread
resets the connection (ECONNRESET) instead of closing it (EOF), and that too is a WorkerError
saying how the sender ended, never a bare ConnectionResetError."""

from __future__ import annotations

from multiprocessing.process import BaseProcess
from typing import Any

from handoff.errors import WorkerError
from handoff.recipes.deadlines import receive


def receive_reply(connection: Any, process: BaseProcess) -> Any:
    try:
        return receive(connection, process)
    except ConnectionResetError:
        process.join(1.0)
        raise WorkerError(
            process.name or "worker", f"exited with status {process.exitcode}"
        ) from None
