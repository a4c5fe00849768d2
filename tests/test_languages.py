"""Which language a message is in, read from its own words, and its stems in that language."""

from __future__ import annotations

import pytest

from replica.languages import detect, folded, language_codes, stem_in
from replica.settings import ConfigError, load_settings


@pytest.mark.parametrize(
    "message, language",
    [
        ("Are you available for new projects?", "en"),
        ("wat r u working on atm", "en"),  # chat shorthand is English, not Dutch "wat" and "u"
        ("Do you sign NDAs? no, I mean do you avoid them", "en"),
        ("¿Estás disponible para nuevos proyectos?", "es"),
        ("Hola, ¿dónde estudiaste?", "es"),
        ("Você assina NDA antes de falarmos dos nossos dados?", "pt"),
        ("Em que fuso horário estás?", "pt"),
        ("Travaillez-vous le week-end ?", "fr"),
        ("Quel est votre tarif journalier ?", "fr"),
        ("Arbeitest du auch am Wochenende?", "de"),
        ("Sind Sie bereit, nach Berlin umzuziehen?", "de"),
    ],
)
def test_a_message_is_read_in_the_language_its_words_are_in(message, language):
    assert detect(message) == language


def test_a_message_whose_words_do_not_tell_is_read_in_the_first_language():
    assert detect("NDA?") == "en" and detect("NDA?", "pt") == "pt" and detect("12345", "es") == "es"


def test_accents_are_compared_without_them_and_stems_are_the_languages_own():
    assert folded("Disponível ÉTÉ") == "disponivel ete"
    assert stem_in("trabajas", "es") == stem_in("trabajar", "es") != stem_in("trabajas", "en")
    assert stem_in("relocation", "en") == stem_in("relocating", "en")


def test_the_setting_takes_known_codes_and_names_an_unknown_one():
    assert language_codes(" en, ES,pt,en ") == ("en", "es", "pt")
    assert load_settings({}, None).owner.languages == ("en",)
    assert load_settings({"LANGUAGES": "pt,en"}, None).owner.languages == ("pt", "en")
    with pytest.raises(ConfigError, match="LANGUAGES: xx: use codes among en, es, pt, fr, de"):
        load_settings({"LANGUAGES": "en,xx"}, None)
