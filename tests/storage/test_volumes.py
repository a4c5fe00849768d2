"""Where ``DATA_DIR`` lives decides SQLite's journal, and on a Space whether the records survive a restart."""

from __future__ import annotations

from pathlib import Path

from replica.storage.volumes import records_at_risk, sqlite_journal, volume_of


def test_a_folder_on_the_root_disk_is_on_no_volume_even_before_it_is_made(tmp_path):
    assert volume_of(Path("/")) is None
    if volume_of(tmp_path) is None:  # where the test's folder is on the root disk, as on most machines
        assert volume_of(tmp_path / "not" / "made" / "yet") is None
        assert sqlite_journal(tmp_path) == "wal"


def test_a_mount_point_is_the_volume_of_what_lies_under_it_and_sqlite_keeps_a_rollback_journal_there():
    mount = Path("/proc")  # a mount point on every Linux machine
    assert volume_of(mount / "self") == mount and volume_of(mount / "no-such-folder" / "data") == mount
    assert sqlite_journal(mount / "data") == "delete"


def test_the_journal_setting_wins_over_where_the_folder_is(tmp_path):
    assert sqlite_journal(Path("/proc/data"), "wal") == "wal"
    assert sqlite_journal(tmp_path, "delete") == "delete"


def test_only_sqlite_on_a_spaces_own_disk_is_at_risk(tmp_path):
    at_risk = records_at_risk("ada/replica", None, tmp_path / "data")
    if volume_of(tmp_path) is None:
        assert "records will be lost at the next restart" in at_risk and str(tmp_path / "data") in at_risk
    assert records_at_risk(None, None, tmp_path) is None  # not on a Space: the owner knows their disk
    assert records_at_risk("ada/replica", "postgresql://db.example/replica", tmp_path) is None
    assert records_at_risk("ada/replica", None, Path("/proc/data")) is None  # on a volume
