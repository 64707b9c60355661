import pytest

import handoff


def _nothing(*_: object) -> int:
    return 0


def benchmark(**changes: object) -> handoff.Benchmark:
    fields: dict[str, object] = {
        "pattern": "mine",
        "variant": "python",
        "description": "d",
        "setup": _nothing,
        "run": _nothing,
        "verify": _nothing,
        "axes": {"elements": [1, 2]},
    }
    fields.update(changes)
    return handoff.Benchmark(**fields)  # type: ignore[arg-type]


def test_rows_are_named_as_the_cpp_rows():
    names = [benchmark().row_name(point) for point in benchmark().points()]
    assert names == ["mine/python/elements:1", "mine/python/elements:2"]


@pytest.mark.parametrize(
    "changes",
    [
        {"pattern": "Bad Name"},
        {"variant": ""},
        {"description": ""},
        {"axes": {"elements": []}},
        {"axes": {"elements": "123"}},
        {"axes": {"elements": [1.5]}},
        {"axes": {"bytes": ["a/b"]}},
        {"run": 3},
        {"default_axes": {"elements": [3]}},
        {"default_axes": {"elements": []}},
        {"default_axes": {"bytes": [1]}},
        {"unavailable": "no GPU"},
        {"stream": 0},
    ],
)
def test_bad_definitions_are_typed_errors(changes):
    with pytest.raises(handoff.BenchmarkDefinitionError):
        benchmark(**changes)


def test_a_run_of_nothing_is_refused():
    with pytest.raises(handoff.BenchmarkDefinitionError):
        handoff.run([])
    with pytest.raises(handoff.BenchmarkDefinitionError, match="two rows"):
        handoff.run([benchmark(), benchmark()])


def test_an_unavailable_reason_must_be_text():
    assert benchmark(unavailable=lambda: "").unavailable_reason() == ""
    assert benchmark(unavailable=lambda: "no GPU").unavailable_reason() == "no GPU"
    with pytest.raises(handoff.BenchmarkDefinitionError, match="must return a str"):
        benchmark(unavailable=lambda: None).unavailable_reason()


@pytest.mark.parametrize(
    "floor",
    [
        handoff.Floor(bytes={"Not A Ceiling": 1.0}),
        handoff.Floor(bytes={"pipe_between_processes": -1.0}),
        handoff.Floor(events={"kernel_launch_sync": float("nan")}),
        handoff.Floor(bytes={"pipe_between_processes": "4096"}),  # type: ignore[dict-item]
    ],
)
def test_a_bad_floor_is_a_typed_error(floor):
    with pytest.raises(handoff.BenchmarkDefinitionError):
        floor.counters()


def test_a_floor_becomes_the_rows_counters():
    floor = handoff.Floor(bytes={"pipe_between_processes": 4096}, events={"kernel_launch_sync": 2})
    assert floor.counters() == [
        ("floor_bytes.pipe_between_processes", 4096.0),
        ("floor_events.kernel_launch_sync", 2.0),
    ]


def test_a_stream_must_be_a_handle():
    from handoff.rows import NativeRow

    point = {"elements": 1}
    assert NativeRow(benchmark(), point).stream() is None
    assert NativeRow(benchmark(stream=lambda case: 0), point).stream() == 0
    for bad in ("0", -1, True, 1.5):
        with pytest.raises(TypeError, match="not a stream handle"):
            NativeRow(benchmark(stream=lambda case, bad=bad: bad), point).stream()


def test_the_default_profile_measures_the_default_axes_and_full_every_point():
    chosen = benchmark(
        axes={"elements": [1, 2, 3], "start": ["warm", "cold"]},
        default_axes={"elements": [3], "start": ["warm"]},
    )
    assert list(chosen.points("default")) == [{"elements": 3, "start": "warm"}]
    assert len(list(chosen.points("full"))) == 6
    assert len(list(chosen.points())) == 6
    assert len(list(benchmark().points("default"))) == 2


def test_a_sweep_only_benchmark_is_left_out_of_the_default_profile_alone():
    assert list(benchmark(sweep_only=True).points("default")) == []
    assert len(list(benchmark(sweep_only=True).points("full"))) == 2
    assert len(list(benchmark(sweep_only=True).points("smoke"))) == 2


def test_profiles_and_family_order_are_read_as_handoff_bench_reads_them():
    assert handoff.runner.profile_of([]) == "default"
    assert handoff.runner.profile_of(["--handoff-profile=full"]) == "full"
    assert handoff.runner.profile_of(["--handoff-profile=full", "--handoff-smoke"]) == "smoke"
    families = [benchmark(variant=f"v{index}") for index in range(8)]
    families.insert(3, benchmark(variant="v0", axes={"elements": [9]}))
    kept = handoff.runner.in_family_order(families, [])
    assert [b.variant for b in kept] == ["v0", "v0", *(f"v{index}" for index in range(1, 8))]
    drawn = handoff.runner.in_family_order(families, ["--handoff-shuffle-families=7"])
    again = handoff.runner.in_family_order(families, ["--handoff-shuffle-families=7"])
    other = handoff.runner.in_family_order(families, ["--handoff-shuffle-families=8"])
    assert [b.variant for b in drawn] == [b.variant for b in again]
    assert [b.variant for b in drawn] != [b.variant for b in other]
    assert sorted(b.variant for b in drawn) == sorted(b.variant for b in families)
    first_v0 = [b.variant for b in drawn].index("v0")
    assert [b.axes for b in drawn[first_v0 : first_v0 + 2]] == [
        {"elements": [1, 2]},
        {"elements": [9]},
    ]
