"""The options of a run are parsed once and frozen: no code can change a reading after it was checked, and the set
travels to the report's worker processes (pickle) unchanged."""

import pickle

import pytest

from reservation.base.errors import InputError
from reservation.rules.registry import get_rulebook


def test_an_option_set_is_frozen_and_pickles_unchanged():
    rb = get_rulebook("zp-chair")
    opts = rb.option_set([("tie_break", "population")])
    assert opts["tie_break"] == "population"
    with pytest.raises(TypeError):
        opts.values["tie_break"] = "code"
    with pytest.raises(AttributeError):
        opts.values._items = {}
    back = pickle.loads(pickle.dumps(opts))
    assert back == opts and back["tie_break"] == "population"
    assert dict(back.values) == dict(opts.values)


def test_a_changed_reading_is_a_new_set_checked_as_a_users_would_be():
    rb = get_rulebook("zp-chair")
    opts = rb.option_set()
    other = opts.replaced(tie_break="population")
    assert other["tie_break"] == "population" and opts["tie_break"] == rb.options["tie_break"].default
    with pytest.raises(InputError):
        opts.replaced(tie_break="no such reading")


def test_every_default_is_the_one_its_option_declares():
    for body in ("zp-chair", "kp-chair", "mayor", "gp-ward"):
        rb = get_rulebook(body)
        opts = rb.option_set()
        assert dict(opts.values) == {name: o.default for name, o in rb.options.items()}
