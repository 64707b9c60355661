import os
import time

import pytest
from conftest import SCRIPTS

import handoff
from handoff.recipes import queued_worker
from handoff.recipes.context import spawn
from handoff.recipes.deadlines import end, get_from, pool_answer, receive


def _raises(_: int) -> int:
    raise ValueError("planted")


def test_a_raising_pool_worker_is_a_worker_error():
    with spawn().Pool(1) as pool:
        with pytest.raises(handoff.WorkerError, match="ValueError: planted"):
            pool_answer(pool.map_async(_raises, [1]), "test pool")


def test_a_dead_queue_worker_is_a_worker_error_not_a_hang():
    case = queued_worker.setup(handoff.Workspace(), {"items": 2, "elements": 16})
    case.worker.kill()
    with pytest.raises(handoff.WorkerError, match="gpu_worker: exited"):
        get_from(case.results_queue, case.worker)
    with pytest.raises(handoff.WorkerError):
        queued_worker.close(case)
    assert not case.worker.is_alive()


def test_a_row_whose_worker_raises_fails_with_its_typed_error(run_python):
    done = run_python(str(SCRIPTS / "planted.py"), "raises")
    assert done.returncode == 1
    assert "raised selftest/planted WorkerError" in done.stdout
    assert "children left: 0" in done.stdout


def test_a_row_whose_worker_dies_fails_within_its_deadline(run_python, monkeypatch):
    monkeypatch.setenv("HANDOFF_WORKER_DEADLINE_SECONDS", "3")
    done = run_python(str(SCRIPTS / "planted.py"), "dies", timeout=60)
    assert done.returncode == 1
    assert "WorkerError" in done.stdout and "a worker died" in done.stdout
    assert "children left: 0" in done.stdout


def test_end_leaves_no_process():
    process = spawn().Process(target=os.getpid)
    process.start()
    end(process)
    assert process.exitcode == 0


class _ResetConnection:
    """A pipe end whose sender was killed with a request still unread: reset, not closed."""

    def poll(self, timeout: float) -> bool:
        return True

    def recv(self) -> object:
        raise ConnectionResetError(104, "Connection reset by peer")


def test_a_connection_reset_by_a_killed_worker_is_a_worker_error():
    worker = spawn().Process(target=time.sleep, args=(60,), name="killed sender")
    worker.start()
    worker.kill()
    with pytest.raises(handoff.WorkerError, match="killed sender: exited with status"):
        receive(_ResetConnection(), worker)
    worker.join()
