"""Configuration: one object, environment over .env, secrets hidden, every variable documented."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from replica.settings import ConfigError, load_settings
from tests.fixtures.environment import ROOT


def test_defaults_with_nothing_configured(tmp_path):
    settings = load_settings({}, tmp_path / "missing.env")
    assert settings.model.openai_model == "gpt-4o-mini"
    assert settings.telegram.telegram_api_base == "https://api.telegram.org"
    assert (settings.reply.max_turns, settings.serving.queue_concurrency) == (2, 3)
    assert settings.owner.knowledge_dir == Path("knowledge") and settings.storage.data_dir == Path("data")
    assert not settings.model.model_configured and not settings.telegram.telegram_configured


def test_environment_wins_over_dotenv(tmp_path):
    env_file = tmp_path / ".env"
    env_file.write_text("OPENAI_MODEL=from-dotenv\nOWNER_NAME=Dot Env\nMAX_TURNS=4\n")
    settings = load_settings({"OPENAI_MODEL": "from-environment"}, env_file)
    assert settings.model.openai_model == "from-environment"
    assert settings.owner.owner_name == "Dot Env" and settings.reply.max_turns == 4


def test_secrets_never_appear_in_repr(tmp_path):
    settings = load_settings({"OPENAI_API_KEY": "sk-very-secret", "TELEGRAM_BOT_TOKEN": "1:tok-secret"}, None)
    assert "sk-very-secret" not in repr(settings) and "tok-secret" not in repr(settings)
    assert settings.model.model_configured


def test_a_bad_number_names_the_variable():
    with pytest.raises(ConfigError, match="MAX_TURNS"):
        load_settings({"MAX_TURNS": "two"}, None)


@pytest.mark.parametrize(
    "raw, value",
    [("true", True), ("TRUE", True), ("1", True), ("yes", True), ("On", True)]
    + [("false", False), ("False", False), ("0", False), ("no", False), ("off", False), ("", True)],
)
def test_a_true_or_false_setting_reads_each_way_of_writing_it_and_empty_is_the_default(raw, value):
    assert load_settings({"CHECK_REPLIES": raw}, None).reply.check_replies is value  # its default is true


@pytest.mark.parametrize("raw", ["ture", "maybe", "2", "enabled", "n"])
def test_a_true_or_false_setting_that_is_neither_is_refused_naming_the_variable_and_its_values(raw):
    with pytest.raises(ConfigError) as refused:
        load_settings({"CHECK_REPLIES": raw}, None)
    assert str(refused.value) == f"CHECK_REPLIES must be true or false (also 1/0, yes/no, on/off), not {raw!r}"


def test_every_setting_is_defined_once_and_what_is_made_from_the_table_is_current():
    from dataclasses import fields

    from replica.settings import GROUPS, SETTINGS, Settings, env_example, reference

    assert len({s.env for s in SETTINGS}) == len(SETTINGS)  # one variable, one field
    assert [f.name for f in fields(Settings)] == list(GROUPS)  # Settings is its groups, nested
    declared = [(f.name, f.type) for f in fields(Settings)]
    assert all(GROUPS[name].__name__ == kind for name, kind in declared)  # each typed as its group
    every_field = [(group, f.name) for group, kind in GROUPS.items() for f in fields(kind)]
    assert [(s.group, s.field) for s in SETTINGS] == every_field  # every field of a group is a declared setting
    assert (ROOT / ".env.example").read_text() == env_example(), "run: python -m replica.settings > .env.example"
    assert (ROOT / "docs" / "configuration.md").read_text() == reference(), (
        "run: python -m replica.settings --reference > docs/configuration.md"
    )
    example = env_example().splitlines()
    for number, line in enumerate(example):
        if re.match(r"^#?\s*[A-Z_]+=", line):
            assert example[number - 1].startswith("# "), f"{line} has no comment above it"
    assert "OWNER_NAME=\n" in env_example()  # left empty: the name then comes from the knowledge, and doctor says so
    source = (ROOT / "replica").rglob("*.py")
    read = {
        name for path in source for name in re.findall(r"\b(?:getenv|environ\.get)\(\s*\"([A-Z_]+)\"", path.read_text())
    }
    assert read == set(), f"read outside the settings table: {read}"


def test_readme_settings_tables_name_only_real_settings_with_their_defaults():
    from replica.settings import SETTINGS, default_text

    by_name = {s.env: s for s in SETTINGS}
    rows = re.findall(r"^\| (`[A-Z_]+`(?:, `[A-Z_]+`)*) \| ([^|]*) \|", (ROOT / "README.md").read_text(), flags=re.M)
    assert rows
    for names, default in rows:
        variables = re.findall(r"`([A-Z_]+)`", names)
        assert all(name in by_name for name in variables), names
        if len(variables) == 1:
            assert default.strip() == default_text(by_name[variables[0]]), names


def test_no_settings_default_is_written_again_outside_the_settings_table():
    """A part that takes a setting as an argument (or a field) defaults to it through ``settings.default``,
    never by writing the number again: a parameter named as a setting's field, or as its end
    (``fold_after`` for ``alert_fold_after``), whose default is that setting's default as a literal."""
    import ast

    from replica.settings import SETTINGS

    defaults = {
        s.field: s.default for s in SETTINGS if isinstance(s.default, (int, float)) and not isinstance(s.default, bool)
    }

    def setting_for(name: str) -> str | None:
        return next((f for f in defaults if f == name or f.endswith("_" + name)), None)

    copies = []
    for path in (ROOT / "replica").rglob("*.py"):
        if path.name == "settings.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            pairs = []
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                tail = list(zip(node.args.args[len(node.args.args) - len(node.args.defaults) :], node.args.defaults))
                pairs = tail + [(a, d) for a, d in zip(node.args.kwonlyargs, node.args.kw_defaults) if d is not None]
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
                pairs = [(node.target, node.value)]
            for target, value in pairs:
                name = getattr(target, "arg", None) or getattr(target, "id", "")
                field = setting_for(name)
                if field and isinstance(value, ast.Constant) and value.value == defaults[field]:
                    copies.append(f"{path.relative_to(ROOT)}: {name} = {value.value!r} (the default of {field})")
    # The page's script and styles take nothing from a setting by copying it: no number of 1000 or more
    # that is a setting's default (MAX_MESSAGE_CHARS's 4000 reaches the script from the page).
    for path in (ROOT / "replica" / "web" / "assets").iterdir():
        numbers = {float(n) for n in re.findall(r"(?<![\w.#-])\d+(?:\.\d+)?(?![\w.%])", path.read_text())}
        copies += [f"{path.name}: {v} (the default of {f})" for f, v in defaults.items() if v >= 1000 and v in numbers]
    assert copies == []


def test_digest_hour_is_read_and_checked(tmp_path):
    from replica.settings import ConfigError, load_settings

    assert load_settings({"DIGEST_HOUR_UTC": "8"}, None).storage.digest_hour_utc == 8
    assert load_settings({}, None).storage.digest_hour_utc is None
    with pytest.raises(ConfigError, match="DIGEST_HOUR_UTC"):
        load_settings({"DIGEST_HOUR_UTC": "24"}, None)
