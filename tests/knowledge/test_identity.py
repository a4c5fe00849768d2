"""Who the owner is: the page always names a person, and shows their face from this app's own address."""

from __future__ import annotations

from pathlib import Path

from replica.knowledge.identity import owner_avatar, owner_name
from replica.settings import Settings


def settings_for(tmp_path: Path, **options) -> Settings:
    (tmp_path / "data").mkdir(exist_ok=True)
    return Settings.of(knowledge_dir=tmp_path / "knowledge", data_dir=tmp_path / "data", **options)


def test_owner_name_wins_then_the_name_line_then_the_first_heading(tmp_path):
    knowledge = tmp_path / "knowledge"
    knowledge.mkdir()
    (knowledge / "a-notes.md").write_text("# Notes — 2024\n\nSome notes.\n")
    (knowledge / "profile.md").write_text("name: Grace Hopper\n\n# Grace Hopper — profile\n")
    assert owner_name(settings_for(tmp_path, owner_name="Ada Lovelace")) == "Ada Lovelace"
    assert owner_name(settings_for(tmp_path)) == "Grace Hopper"
    (knowledge / "profile.md").write_text("# Grace Hopper — profile\n")
    assert owner_name(settings_for(tmp_path)) == "Notes"  # the first heading of the first file
    (knowledge / "a-notes.md").unlink()
    (knowledge / "profile.md").unlink()
    assert owner_name(settings_for(tmp_path)) == "your host"  # never "the owner"


def test_the_bundled_example_knowledge_names_its_person():
    from tests.fixtures.environment import ROOT

    assert owner_name(Settings.of(knowledge_dir=ROOT / "knowledge")) == "Jordan Avery"


def test_the_avatar_is_the_setting_then_a_file_in_the_knowledge_then_initials(tmp_path):
    knowledge = tmp_path / "knowledge"
    knowledge.mkdir()
    settings = settings_for(tmp_path)
    drawn = Path(owner_avatar(settings, "Ada Lovelace"))
    assert drawn.parent == tmp_path / "data" and ">AL<" in drawn.read_text()
    (knowledge / "avatar.JPG").write_bytes(b"\xff\xd8\xff")
    assert owner_avatar(settings, "Ada Lovelace") == str(knowledge / "avatar.JPG")
    assert owner_avatar(settings_for(tmp_path, owner_avatar="https://example.org/me.png"), "Ada") == (
        "https://example.org/me.png"
    )
