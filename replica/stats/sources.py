"""Where the page's visitors came from, named only from a closed list: a link's ``utm_source`` and the
referring site are counted under a name the owner would recognise, or as "other".

The list is the well-known values people put in ``utm_source`` and the sites links come from
(:data:`KNOWN_SOURCES`, :data:`KNOWN_HOSTS`), plus the owner's own: the ``UTM_SOURCES`` setting, and
their sites (``OWNER_WEBSITE``, ``EMBED_ORIGINS``). A value is matched the way people slip when typing
it ("LinkedIn", " linkedin ", "linkedin.com", "QR Code", "résumé"), and counted under the list's own
spelling. Anything else is never kept or shown by its own name: a visitor writes the query string and
the ``Referer``, so a made-up name could otherwise take a day's rows from the real ones, or put its
words into the owner's caption.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Iterable

from replica.storage.figures import MORE

OTHER = MORE  # what a source or site not on the list is counted as

# utm_source values people use, by the name they are counted under, with the other ways they are
# written (case, spaces, dots, "_" and "-" never matter: see source_key). Distinct words stay distinct
# ("twitter" and "x", "cv" and "resume"): the owner reads the tag they wrote.
KNOWN_SOURCES: dict[str, tuple[str, ...]] = {
    # Social and professional networks.
    "linkedin": ("lnkd", "lnkd.in"),
    "twitter": ("t.co", "tweet"),
    "x": (),
    "facebook": ("fb", "fb.me"),
    "instagram": ("ig", "insta"),
    "threads": (),
    "bluesky": ("bsky", "bsky.app"),
    "mastodon": ("fediverse",),
    "reddit": (),
    "hackernews": ("hn", "news.ycombinator.com", "ycombinator"),
    "lobsters": ("lobste.rs",),
    "youtube": ("yt", "youtu.be"),
    "tiktok": (),
    "pinterest": (),
    "xing": (),
    "producthunt": (),
    "medium": (),
    "substack": (),
    "dev.to": (),
    "hashnode": (),
    "github": ("gh",),
    "gitlab": (),
    "stackoverflow": (),
    "huggingface": ("hf",),
    "kaggle": (),
    # Messaging.
    "whatsapp": ("wa", "wa.me"),
    "telegram": ("tg", "t.me"),
    "signal": (),
    "slack": (),
    "discord": (),
    "teams": ("msteams", "microsoft-teams"),
    "wechat": (),
    "sms": ("imessage",),
    # Search and AI assistants (ChatGPT tags the links it shows "chatgpt.com").
    "google": (),
    "bing": (),
    "duckduckgo": ("ddg",),
    "chatgpt": ("chat.openai.com",),
    "perplexity": ("perplexity.ai",),
    "claude": ("claude.ai",),
    "gemini": (),
    "copilot": (),
    # E-mail and newsletters.
    "email": ("e-mail", "mail"),
    "newsletter": (),
    "signature": ("email-signature", "mail-signature"),
    "mailchimp": (),
    "beehiiv": (),
    "convertkit": (),
    "buttondown": (),
    "hubspot": (),
    # Print and in person.
    "qr": ("qr-code", "qrcode"),
    "print": (),
    "flyer": (),
    "poster": (),
    "business-card": ("vcard",),
    "cv": (),
    "resume": (),
    "conference": (),
    "meetup": (),
    "event": (),
    "talk": (),
    "slides": (),
    "workshop": (),
    "webinar": (),
    "podcast": (),
    # The owner's own places, and word of mouth.
    "website": ("homepage",),
    "blog": (),
    "portfolio": (),
    "linktree": ("linktr.ee", "link-in-bio"),
    "referral": ("ref",),
    # Job boards and freelance markets, where recruiters and clients find people.
    "indeed": (),
    "glassdoor": (),
    "wellfound": ("angellist", "angel.co"),
    "upwork": (),
    "fiverr": (),
    "malt": (),
    "toptal": (),
    "welcometothejungle": ("wttj",),
    "stepstone": (),
}

# Sites links come from, by the name they are counted under, with the other hosts (and Android apps:
# an app's referrer is "android-app://com.linkedin.android/") that are the same site. A host counts
# under the longest name it is or ends in ("gist.github.com" is github.com, "mail.google.com" is not
# google.com); sites where anyone makes pages of their own (github.io) are not on it.
KNOWN_HOSTS: dict[str, tuple[str, ...]] = {
    "linkedin.com": ("lnkd.in", "com.linkedin.android"),
    "x.com": ("twitter.com", "t.co", "com.twitter.android"),
    "facebook.com": ("fb.com", "fb.me", "com.facebook.katana", "com.facebook.orca"),
    "instagram.com": ("com.instagram.android",),
    "threads.net": ("threads.com",),
    "bsky.app": (),
    "mastodon.social": ("mastodon.online",),
    "reddit.com": ("com.reddit.frontpage",),
    "news.ycombinator.com": (),
    "lobste.rs": (),
    "youtube.com": ("youtu.be", "com.google.android.youtube"),
    "tiktok.com": (),
    "medium.com": (),
    "substack.com": (),
    "dev.to": (),
    "hashnode.com": ("hashnode.dev",),
    "producthunt.com": (),
    "xing.com": (),
    "github.com": (),
    "gitlab.com": (),
    "stackoverflow.com": (),
    "huggingface.co": ("hf.co",),
    "kaggle.com": (),
    "google.com": ("com.google.android.googlequicksearchbox",),  # and Google's country sites: GOOGLE
    "mail.google.com": ("com.google.android.gm",),
    "gemini.google.com": (),
    "bing.com": (),
    "duckduckgo.com": (),
    "yahoo.com": (),
    "ecosia.org": (),
    "search.brave.com": (),
    "kagi.com": (),
    "yandex.com": ("yandex.ru",),
    "baidu.com": (),
    "chatgpt.com": ("chat.openai.com",),
    "perplexity.ai": (),
    "claude.ai": (),
    "copilot.microsoft.com": (),
    "outlook.com": ("outlook.live.com", "outlook.office.com", "outlook.office365.com"),
    "teams.microsoft.com": (),
    "telegram.org": ("t.me", "org.telegram.messenger"),
    "whatsapp.com": ("wa.me", "com.whatsapp"),
    "slack.com": ("com.slack",),
    "discord.com": ("discord.gg", "discordapp.com"),
    "notion.so": ("notion.site",),
    "linktr.ee": (),
    "wellfound.com": ("angel.co",),
    "indeed.com": (),
    "glassdoor.com": (),
    "upwork.com": (),
    "welcometothejungle.com": (),
}
GOOGLE = re.compile(r"(?:^|\.)google\.(?:com?\.)?[a-z]{2,3}$")  # google.de, google.co.uk, google.com.br


def source_key(text: str) -> str:
    """What a ``utm_source`` is matched by: lower case, accents off, a trailing ".com" off, and only its
    letters and digits ("Linked In", "linkedin.com" and "LINKEDIN" are all "linkedin")."""
    folded = unicodedata.normalize("NFKD", text.strip().lower())
    plain = "".join(c for c in folded if not unicodedata.combining(c)).removesuffix(".com")
    return re.sub(r"[^a-z0-9]", "", plain)


def _sources(names: Iterable[str]) -> dict[str, str]:
    return {source_key(name): name for name in names}


def _hosts(names: Iterable[str]) -> dict[str, str]:
    return {name: name for name in names}


class SourceList:
    """The closed list: the well-known sources and sites, with the owner's ``own`` sources (a name with
    a dot, such as "myblog.example", also names that site) and ``own_hosts`` (their website, the sites
    that embed the page)."""

    def __init__(self, own: Iterable[str] = (), own_hosts: Iterable[str] = ()):
        own = tuple(name.strip().lower() for name in own if name.strip())
        self._sources = {key: name for name, aliases in KNOWN_SOURCES.items() for key in _sources((name, *aliases))}
        self._sources.update(_sources(own))
        self._hosts = {host: name for name, aliases in KNOWN_HOSTS.items() for host in (name, *aliases)}
        sites = [host.strip().lower().removeprefix("www.") for host in (*own_hosts, *(n for n in own if "." in n))]
        self._hosts.update(_hosts(site for site in sites if site))

    def source(self, raw: str) -> str:
        """The name a ``utm_source`` value is counted under: its name on the list, ``""`` for none, or
        :data:`OTHER`."""
        if not raw.strip():
            return ""
        return self._sources.get(source_key(raw[:100]), OTHER)

    def host(self, host: str) -> str:
        """The name a referring host ("l.facebook.com") is counted under: the list's name for it or a
        site it is part of, ``""`` for none, or :data:`OTHER`."""
        host = host.strip().lower()
        if not host:
            return ""
        labels = host.split(".")
        for start in range(len(labels) - 1):  # the longest name first: mail.google.com before google.com
            name = self._hosts.get(".".join(labels[start:]))
            if name:
                return name
        return "google.com" if GOOGLE.search(host) else OTHER

    def counted(self, host: str, source: str) -> tuple[str, str]:
        """The (host, source) an open from ``host`` with ``source`` is kept under: a named source alone
        (the tag the owner put on the link says more than the site it was clicked on), else a named
        site alone, else (:data:`OTHER`, :data:`OTHER`) for anything not on the list, else none."""
        named_source, named_host = self.source(source), self.host(host)
        if named_source not in ("", OTHER):
            return "", named_source
        if named_host not in ("", OTHER):
            return named_host, ""
        return (OTHER, OTHER) if named_source or named_host else ("", "")

    def name(self, host: str, source: str) -> str:
        """What the owner reads for a kept row: its source's or site's name on the list, :data:`OTHER`,
        or ``""`` for none. Rows kept before the list (or with a name the owner no longer declares) are
        read through it too, so no made-up name ever reaches the caption."""
        kept_host, kept_source = self.counted(host, source)
        return kept_source or kept_host


KNOWN = SourceList()  # the well-known names alone, with none of an owner's
