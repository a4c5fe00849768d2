"""Examples of the approved answers, taught by use: kept once per phrasing and question, the owner's "not
this" never undone by a visitor's yes, the visitors' bounded, and gone with the records."""

from __future__ import annotations

from replica.storage.phrasings import Phrasing, Phrasings

NDA = "Do you sign NDAs?"


def test_a_confirmed_phrasing_is_kept_once_and_the_owners_not_this_wins_either_way(store):
    store.phrasings.keep("will u sign an nda", NDA, meant=True)
    store.phrasings.keep("will u sign an nda", NDA, meant=True)
    store.phrasings.keep("Do you sign non-competes?", NDA, meant=False)  # the owner answered it otherwise
    store.phrasings.keep("Do you sign non-competes?", NDA, meant=True)  # a visitor's yes after: the owner's stays
    store.phrasings.keep("   ", NDA, meant=True)  # nothing to keep
    assert store.phrasings.all() == [
        Phrasing("will u sign an nda", NDA, True),
        Phrasing("Do you sign non-competes?", NDA, False),
    ]
    store.phrasings.keep("will u sign an nda", NDA, meant=False)  # the owner's word on a visitor's yes
    assert Phrasing("will u sign an nda", NDA, False) in store.phrasings.all()


def test_visitors_phrasings_are_bounded_the_owners_are_not_and_reset_clears_them(store):
    few = Phrasings(store.db, kept=3)
    few.keep("not this one", NDA, meant=False)
    for n in range(6):
        few.keep(f"phrasing {n}", NDA, meant=True)
    assert [p.phrasing for p in store.phrasings.all()] == ["not this one", "phrasing 3", "phrasing 4", "phrasing 5"]
    store.clear_records()
    assert store.phrasings.all() == []
