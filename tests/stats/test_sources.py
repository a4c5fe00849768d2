"""Where visitors came from, named only from a closed list (replica/stats/sources.py): the well-known
``utm_source`` values and referring sites, and the owner's own ``UTM_SOURCES``. Real values as people
type them (case, spaces, ``.com``, accents) find their name; anything made up is "other", never its own
name, so it can neither reach the owner's caption nor push a real source out of a day's rows."""

from __future__ import annotations

import pytest

from replica.settings import ConfigError, load_settings
from replica.stats.sources import KNOWN, KNOWN_HOSTS, KNOWN_SOURCES, OTHER, SourceList
from replica.storage.figures import SOURCES_PER_DAY

OWNER = SourceList(own=("qr-card", "meetup-berlin", "grace-blog.example"), own_hosts=("grace.example",))

# (utm_source as a browser sends it, once URL-decoded) -> the name it is counted under ("" for none).
SOURCES = [
    # Real values, as owners and tools write them.
    ("linkedin", "linkedin"),
    ("LinkedIn", "linkedin"),  # case
    (" linkedin ", "linkedin"),  # spaces around, as a pasted link carries them
    ("Linked In", "linkedin"),  # a space inside
    ("linkedin.com", "linkedin"),  # the site's name
    ("lnkd.in", "linkedin"),
    ("twitter", "twitter"),
    ("x", "x"),
    ("X.com", "x"),
    ("facebook", "facebook"),
    ("fb", "facebook"),
    ("Instagram", "instagram"),
    ("ig", "instagram"),
    ("github", "github"),
    ("GitHub", "github"),
    ("google", "google"),
    ("newsletter", "newsletter"),
    ("News Letter", "newsletter"),
    ("news_letter", "newsletter"),
    ("email", "email"),
    ("E-Mail", "email"),
    ("qr", "qr"),
    ("QR", "qr"),
    ("qr-code", "qr"),
    ("QR Code", "qr"),
    ("chatgpt.com", "chatgpt"),  # ChatGPT adds it to the links it shows
    ("hn", "hackernews"),
    ("news.ycombinator.com", "hackernews"),
    ("bsky", "bluesky"),
    ("résumé", "resume"),  # an accent
    ("business card", "business-card"),
    ("dev.to", "dev.to"),
    # The owner's own (UTM_SOURCES), with the same slips.
    ("qr-card", "qr-card"),
    ("QR Card", "qr-card"),
    ("qr_card", "qr-card"),
    ("Meetup-Berlin", "meetup-berlin"),
    ("grace-blog.example", "grace-blog.example"),
    # None at all.
    ("", ""),
    ("   ", ""),
    # Made up, mistyped or hostile: "other", never their own name.
    ("made-up-7", OTHER),
    ("buy-cheap-pills", OTHER),
    ("linkedln", OTHER),  # an l for the i
    ("l\u0456nkedin", OTHER),  # a Cyrillic і
    ("<script>alert(1)</script>", OTHER),
    ('qr"><img src=x onerror=alert(1)>', OTHER),
    ("x" * 60, OTHER),
    ("other", OTHER),
    ("(none)", OTHER),
    ("---", OTHER),
    ("meetup-munich", OTHER),  # not one of the owner's
]


@pytest.mark.parametrize("raw, name", SOURCES)
def test_a_utm_source_is_counted_under_its_name_on_the_list_or_as_other(raw, name):
    assert OWNER.source(raw) == name


# (the referring host, as replica.web.opens.referring_host reads it) -> the name it is counted under.
HOSTS = [
    ("linkedin.com", "linkedin.com"),
    ("lnkd.in", "linkedin.com"),  # LinkedIn's own short links
    ("com.linkedin.android", "linkedin.com"),  # the Android app's referrer
    ("t.co", "x.com"),
    ("twitter.com", "x.com"),
    ("mobile.twitter.com", "x.com"),
    ("x.com", "x.com"),
    ("l.facebook.com", "facebook.com"),
    ("m.facebook.com", "facebook.com"),
    ("l.instagram.com", "instagram.com"),
    ("github.com", "github.com"),
    ("gist.github.com", "github.com"),
    ("google.com", "google.com"),
    ("google.co.uk", "google.com"),
    ("google.de", "google.com"),
    ("google.com.br", "google.com"),
    ("mail.google.com", "mail.google.com"),  # the most specific name wins
    ("com.google.android.gm", "mail.google.com"),  # Gmail's app
    ("outlook.live.com", "outlook.com"),
    ("news.ycombinator.com", "news.ycombinator.com"),
    ("old.reddit.com", "reddit.com"),
    ("out.reddit.com", "reddit.com"),
    ("bsky.app", "bsky.app"),
    ("duckduckgo.com", "duckduckgo.com"),
    ("bing.com", "bing.com"),
    ("chatgpt.com", "chatgpt.com"),
    ("someone.substack.com", "substack.com"),
    # The owner's own sites: OWNER_WEBSITE and EMBED_ORIGINS (the widget's panel), and a site named in UTM_SOURCES.
    ("grace.example", "grace.example"),
    ("blog.grace.example", "grace.example"),
    ("grace-blog.example", "grace-blog.example"),
    # None.
    ("", ""),
    # Made up, or made to look like a real one.
    ("made-up-1.example", OTHER),
    ("linkedin.com.evil.example", OTHER),
    ("evillinkedin.com", OTHER),
    ("someone.github.io", OTHER),  # anyone's pages, not GitHub's
    ("xn--lnkedin-gaz.com", OTHER),
    ("other", OTHER),
]


@pytest.mark.parametrize("host, name", HOSTS)
def test_a_referring_site_is_counted_under_its_name_on_the_list_or_as_other(host, name):
    assert OWNER.host(host) == name


@pytest.mark.parametrize(
    "host, source, counted",
    [
        ("linkedin.com", "", ("linkedin.com", "")),
        ("", "qr", ("", "qr")),
        ("mail.google.com", "newsletter", ("", "newsletter")),  # a tagged link: its tag names it
        ("linkedin.com", "made-up-3", ("linkedin.com", "")),  # a made-up tag: counted with no source
        ("made-up.example", "", (OTHER, OTHER)),
        ("made-up.example", "made-up-3", (OTHER, OTHER)),
        ("", "", ("", "")),
    ],
)
def test_an_open_is_kept_under_one_name_from_the_list_or_other(host, source, counted):
    assert OWNER.counted(host, source) == counted


def test_every_name_on_the_list_is_its_own_name_so_rows_read_back_as_they_were_counted():
    for name in KNOWN_SOURCES:
        assert KNOWN.source(name) == name
        assert KNOWN.name("", name) == name
    for name in KNOWN_HOSTS:
        assert KNOWN.host(name) == name
        assert KNOWN.name(name, "") == name
    assert KNOWN.name(OTHER, OTHER) == OTHER and KNOWN.name("", "") == ""


def test_rows_counted_before_the_list_read_back_without_a_made_up_name():
    assert KNOWN.name("buy-pills.example", "") == OTHER
    assert KNOWN.name("", "made-up-12") == OTHER
    assert KNOWN.name("linkedin.com", "made-up-12") == "linkedin.com"
    assert KNOWN.name("lnkd.in", "") == "linkedin.com"
    assert KNOWN.name("", "qr-card") == OTHER  # no owner declared it here
    assert OWNER.name("", "qr-card") == "qr-card"


def test_every_name_the_list_can_count_fits_in_a_days_rows_so_none_is_ever_pushed_out():
    """Each open is kept under one name (a source or a site), "other" or none: with the well-known names,
    the most an owner may declare (as sources and as sites) and the owner's own sites, a day's rows
    still hold every name."""
    declared = 50  # UTM_SOURCES's most
    assert len(KNOWN_SOURCES) + len(KNOWN_HOSTS) + 2 * declared + 10 + 2 <= SOURCES_PER_DAY


def test_utm_sources_is_read_in_any_case_and_spacing_and_a_value_that_is_no_source_is_refused(tmp_path):
    env = tmp_path / "none.env"
    read = lambda raw: load_settings({"UTM_SOURCES": raw}, dotenv_path=env).storage.utm_sources  # noqa: E731
    assert read(" QR-Card , Meetup-Berlin grace-blog.example,qr-card") == (
        "qr-card",
        "meetup-berlin",
        "grace-blog.example",
    )
    assert load_settings({}, dotenv_path=env).storage.utm_sources == ()
    with pytest.raises(ConfigError, match="UTM_SOURCES: 'qr/card' is not"):
        read("qr, qr/card")
    with pytest.raises(ConfigError, match="UTM_SOURCES: at most 50"):
        read(",".join(f"s{n}" for n in range(51)))
