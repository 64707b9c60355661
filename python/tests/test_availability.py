import pytest

from handoff import availability


def test_a_library_this_python_lacks_is_the_reason():
    assert availability.missing_modules("json") == ""
    reason = availability.missing_modules("json", "no_such_library_here")
    assert reason == "no no_such_library_here in this Python"


def test_needs_says_what_is_missing_on_this_machine():
    reason = availability.needs("torch")()
    try:
        import torch  # noqa: F401
    except ImportError:
        assert reason == "no torch in this Python"
    else:
        gpus = availability.torch_gpus()
        assert (reason == "") == (gpus >= 1)


def test_needs_names_only_the_libraries_it_can_count_gpus_with():
    with pytest.raises(ValueError, match="knows torch and cupy"):
        availability.needs("pycuda")


def test_a_gpu_test_skips_here_unless_a_gpu_is_required(monkeypatch):
    from conftest import require_gpu_library

    if not availability.needs("cupy")():
        pytest.skip("this machine has CuPy and a GPU")
    monkeypatch.delenv("HANDOFF_REQUIRE_GPU", raising=False)
    with pytest.raises(pytest.skip.Exception):
        require_gpu_library("cupy")
    monkeypatch.setenv("HANDOFF_REQUIRE_GPU", "1")
    with pytest.raises(pytest.fail.Exception, match="HANDOFF_REQUIRE_GPU is set"):
        require_gpu_library("cupy")


def test_a_library_that_cannot_reach_cuda_is_a_reason_not_an_error(monkeypatch):
    def broken() -> int:
        raise OSError("libcudart.so.13: cannot open shared object file")

    monkeypatch.setattr(availability, "missing_modules", lambda *names: "")
    monkeypatch.setattr(availability, "cupy_gpus", broken)
    reason = availability.needs("cupy", gpus=2)()
    assert reason == "cupy cannot count GPUs: libcudart.so.13: cannot open shared object file"


def test_fewer_gpus_than_a_row_needs_is_the_reason(monkeypatch):
    monkeypatch.setattr(availability, "missing_modules", lambda *names: "")
    monkeypatch.setattr(availability, "torch_gpus", lambda: 1)
    assert availability.needs("torch", gpus=1)() == ""
    assert availability.needs("torch", gpus=2)() == "torch sees 1 GPU, needs 2"
