"""The languages of every view (English and Hindi) and the one check of a ``lang`` parameter: below the words
modules (:mod:`reservation.law.words`, :mod:`reservation.law.words_allotment`), which both use it."""

from __future__ import annotations

from ..base.errors import InputError

__all__ = ["LANGS", "check_lang"]

#: The languages of every view: English and Hindi.
LANGS: tuple[str, ...] = ("en", "hi")


def check_lang(lang: str) -> str:
    """``lang`` if it is one of :data:`LANGS`; else an InputError naming the parameter ``lang``."""
    if lang not in LANGS:
        raise InputError(f"lang must be one of {', '.join(LANGS)}, not {lang!r}", column="lang")
    return lang
