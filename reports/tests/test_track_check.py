import re

import pytest
from track_fixtures import STEPPED, Nights, write_nights

from handoff_reports.track import main
from handoff_reports.track.check import CheckOptions, check
from handoff_reports.track.identity import settings_change
from handoff_reports.track.series import read_history
from handoff_reports.track.store import open_store


def history_of(tmp_path, nights):
    db = tmp_path / "history.sqlite"
    paths = write_nights(tmp_path / "nights", nights)
    assert main(["ingest", *map(str, paths), "--db", str(db)]) == 0
    return db


def run_check(capsys, db, *flags):
    capsys.readouterr()
    code = main(["check", "--db", str(db), *flags])
    return code, capsys.readouterr().out


def test_a_planted_step_is_a_regression(tmp_path, capsys):
    db = history_of(tmp_path, Nights(step_at=20))
    code, out = run_check(capsys, db)
    assert code == 1
    assert "REGRESSIONS (slower): 1" in out
    regression = out.split("REGRESSIONS")[1].split("improvements")[0]
    assert STEPPED in regression
    assert "2026-10-21" in regression  # night 20: the first slower one
    assert "0014c0ffee" in regression  # its commit
    (percent,) = re.findall(r"\(([-+][0-9.]+)%\)", regression)
    assert float(percent) == pytest.approx(20, abs=3)
    assert "known breaks" not in out


def test_the_step_is_found_at_the_right_night_and_size(tmp_path):
    db = history_of(tmp_path, Nights(step_at=20))
    with open_store(db, create=False) as store:
        result = check(read_history(store), CheckOptions())
    (change,) = result.changes
    assert change.series.name == STEPPED
    assert change.index == 20
    assert change.relative == pytest.approx(0.2, abs=0.03)


def test_a_step_at_a_driver_change_is_a_known_break(tmp_path, capsys):
    db = history_of(tmp_path, Nights(step_at=20, driver_change_at=20))
    code, out = run_check(capsys, db)
    assert code == 0
    assert "REGRESSIONS (slower): 0" in out
    assert "driver 570.124.06 -> 580.65.06" in out
    assert "2026-10-21" in out.split("known breaks")[1]


def test_a_step_at_a_settings_change_is_a_known_break(tmp_path, capsys):
    db = history_of(tmp_path, Nights(step_at=20, settings_change_at=20))
    code, out = run_check(capsys, db)
    assert code == 0
    assert "REGRESSIONS (slower): 0" in out
    breaks = out.split("known breaks")[1]
    assert "settings max_noise 0.01 -> 0.02" in breaks and "2026-10-21" in breaks


def test_a_step_away_from_the_settings_change_is_still_found(tmp_path, capsys):
    db = history_of(tmp_path, Nights(step_at=25, settings_change_at=10))
    code, out = run_check(capsys, db)
    assert code == 1
    assert "2026-10-26" in out.split("REGRESSIONS")[1]


def test_a_version_1_history_gains_unknown_settings(tmp_path, capsys):
    import sqlite3

    db = history_of(tmp_path, Nights(count=12))
    connection = sqlite3.connect(db)
    with connection:
        # Version 1 had neither the settings nor the variants column.
        connection.execute("ALTER TABLE runs DROP COLUMN settings")
        connection.execute("ALTER TABLE runs DROP COLUMN variants")
        connection.execute("UPDATE schema_version SET version = 1")
    connection.close()
    code, out = run_check(capsys, db, "--recent", "0")
    assert code == 0
    with open_store(db, create=False) as store:
        assert {run.identity.settings for run in store.runs()} == {"unknown"}
        assert store.recorded_variants() == {}


def test_a_step_away_from_the_driver_change_is_still_found(tmp_path, capsys):
    db = history_of(tmp_path, Nights(step_at=22, driver_change_at=10))
    code, out = run_check(capsys, db)
    assert code == 1
    assert "2026-10-23" in out.split("REGRESSIONS")[1]


def test_a_flat_series_passes(tmp_path, capsys):
    db = history_of(tmp_path, Nights())
    code, out = run_check(capsys, db, "--recent", "0")
    assert code == 0
    assert "REGRESSIONS (slower): 0" in out
    assert "improvements (faster): 0" in out


@pytest.mark.parametrize("seed", range(5))
def test_noise_alone_is_never_a_regression(tmp_path, capsys, seed):
    db = history_of(tmp_path, Nights(seed=seed, night_noise=0.02, repetition_noise=0.02))
    assert run_check(capsys, db, "--recent", "0")[0] == 0


def test_an_improvement_is_printed_and_passes(tmp_path, capsys):
    db = history_of(tmp_path, Nights(step_at=20, step_factor=0.8))
    code, out = run_check(capsys, db)
    assert code == 0
    improvements = out.split("improvements (faster): ")[1]
    assert improvements.startswith("1")
    assert STEPPED in improvements
    (percent,) = re.findall(r"\(([-+][0-9.]+)%\)", improvements)
    assert float(percent) == pytest.approx(-20, abs=3)


def test_an_old_regression_is_history_outside_recent(tmp_path, capsys):
    db = history_of(tmp_path, Nights(step_at=20))
    assert run_check(capsys, db, "--recent", "5")[0] == 0
    assert run_check(capsys, db, "--recent", "0")[0] == 1


def test_a_step_below_the_threshold_is_ignored(tmp_path, capsys):
    db = history_of(tmp_path, Nights(step_at=20, step_factor=1.2))
    assert run_check(capsys, db, "--threshold", "30%")[0] == 0
    assert run_check(capsys, db, "--threshold", "0.1")[0] == 1


def test_match_limits_the_series(tmp_path, capsys):
    db = history_of(tmp_path, Nights(step_at=20))
    code, out = run_check(capsys, db, "--match", "^elementwise/")
    assert code == 0
    assert "1 series" in out


def test_a_step_on_the_latest_night_fails_at_once(tmp_path, capsys):
    db = history_of(tmp_path, Nights(step_at=29))
    code, out = run_check(capsys, db)
    assert code == 1
    assert "2026-10-30" in out.split("REGRESSIONS")[1]


def test_a_setting_recorded_later_is_no_break_while_it_keeps_its_default():
    # A night stored before `spin_us` was recorded ran with its default, 50.
    before = "profile=default; spin=yield; worker_cores=scheduler"
    assert settings_change(before, before + "; spin_us=50") is None
    assert settings_change(before, before + "; spin_us=400") == "settings spin_us 50 -> 400"
    older = "profile=default; spin=-"  # a setting recorded as unset stays unset
    assert settings_change(older, "profile=default; spin=yield") == "settings spin - -> yield"
