"""Replica: a person's AI stand-in on the web.

Packages by job, each importing only from its own layer and lower ones (docs/architecture.md has the
map; tests/test_structure.py checks it): ``cli`` and ``web`` at the top, then ``owner_bot`` and
``housekeeping``, ``chat``, ``conversations`` and ``tools``, ``alerts`` and ``knowledge``, ``storage``
and ``telegram``, and at the bottom ``settings``, ``logs``, ``wording`` and ``workers``; ``wiring``
puts them together.
"""
