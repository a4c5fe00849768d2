"""How the page looks where its link is shared: one set of Open Graph and Twitter tags, the owner's.

Gradio's page template carries two sets of its own (``og:title "Gradio"``, an image on GitHub,
``twitter:creator @Gradio``, then the app's title with an empty description). :func:`with_preview`
removes every ``og:`` and ``twitter:`` tag the template has and puts the owner's in their place, with
the page's absolute address (``PUBLIC_URL``, else the one the request was made to) and the face the app
serves as the image and the favicon.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

from replica.web.guard import Scope, trusted_hop

PREVIEW_TAG = re.compile(r"<meta\s+(?:property|name)=\"(?:og|twitter):[^\"]*\"[^>]*>\s*", re.S)
HEAD = re.compile(r"<meta charset=[^>]*>|<head[^>]*>", re.I)  # after the charset, which must come first


@dataclass(frozen=True)
class Preview:
    """What a preview of the page says: title ("Jordan Avery — AI replica"), one line, and the image,
    an absolute URL or a path the app serves (made absolute against the page's address)."""

    title: str
    description: str
    image: str


def preview_tags(preview: Preview, page_url: str) -> str:
    """The tags for ``preview`` of the page at ``page_url`` (its absolute address, ending in ``/``)."""
    image = preview.image if "://" in preview.image else page_url.rstrip("/") + preview.image
    tags = [
        ("name", "description", preview.description),
        ("property", "og:type", "website"),
        ("property", "og:title", preview.title),
        ("property", "og:description", preview.description),
        ("property", "og:url", page_url),
        ("property", "og:image", image),
        ("property", "og:image:alt", preview.title),
        ("name", "twitter:card", "summary"),
        ("name", "twitter:title", preview.title),
        ("name", "twitter:description", preview.description),
        ("name", "twitter:image", image),
    ]
    lines = [f'<meta {kind}="{key}" content="{html.escape(value)}" />' for kind, key, value in tags]
    lines.append(f'<link rel="icon" href="{html.escape(image)}" />')
    return "\n".join(lines)


def with_preview(page: str, tags: str) -> str:
    """Gradio's page with its preview tags replaced by ``tags`` (first in the head, after the charset)."""
    page = PREVIEW_TAG.sub("", page)
    return HEAD.sub(lambda head: f"{head.group(0)}\n{tags}", page, count=1)


def page_url(scope: Scope, public_url: str | None, trusted_proxy_hops: int) -> str:
    """The page's absolute address: ``public_url`` when set, else the request's scheme and host, as our
    own proxies report them (``X-Forwarded-Proto`` / ``-Host``, at the hop trusted for addresses)."""
    if public_url:
        return public_url.rstrip("/") + "/"
    headers = {key.decode("latin-1").lower(): value.decode("latin-1") for key, value in scope.get("headers", [])}
    scheme, host = scope.get("scheme", "http"), headers.get("host", "")
    scheme = trusted_hop(headers.get("x-forwarded-proto", ""), trusted_proxy_hops) or scheme
    host = trusted_hop(headers.get("x-forwarded-host", ""), trusted_proxy_hops) or host
    if not re.fullmatch(r"[A-Za-z0-9.:\[\]-]{1,255}", host) or scheme not in ("http", "https"):
        server = scope.get("server") or ("127.0.0.1", 80)
        scheme, host = "http", f"{server[0]}:{server[1]}"
    root = scope.get("root_path", "").rstrip("/")
    return f"{scheme}://{host}{root}/"
