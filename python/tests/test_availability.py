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
