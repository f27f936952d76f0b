"""What a user types, normalised: digits read as ASCII and the one lookup key of a name.

The lowest module that reads text (no numpy, no pandas: the command line reads a year through it cheaply). Both
the strict table reader (:mod:`reservation.inputs.units`) and the name index (:mod:`reservation.inputs.names`) use it, and
the option parser (:mod:`reservation.inputs.options`) reads its decimals with :func:`ascii_digits`;
``reservation.inputs.names.name_key`` and ``reservation.inputs.options.ascii_digits`` are these functions.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["ascii_digits", "name_key", "edit_distance"]


#: Devanagari (०-९) and full-width (０-９) digits, read as ASCII digits in every number a user types.
_DIGITS = str.maketrans("०१२३४५६७८९０１２３４５６７８９", "0123456789" * 2)


def ascii_digits(s: str) -> str:
    """``s`` with Devanagari (०-९) and full-width (０-９) digits replaced by ASCII ``0-9``; nothing else changes.
    (Here, in a module without numpy or pandas, so that the command line can read a year cheaply.)"""
    return str(s).translate(_DIGITS)


# --- the name key --------------------------------------------------------------------------------------

_DELETE = "".join(chr(c) for c in range(0x80) if not chr(c).isalnum()) \
    + "".join(chr(c) for c in range(0x300, 0x370)) \
    + "\u00a0\u00ad\u00b4\u00b7\u093c\u0964\u0965\u0970\u200b\u200c\u200d\u2010\u2011\u2012\u2013\u2014\u2018" \
    + "\u2019\u201c\u201d\u2026\u2060\u3000\ufeff"
_MAP = {ord("\u0901"): "\u0902",                       # chandrabindu -> anusvara (बाँदा = बांदा)
        ord("\u0940"): "\u093f", ord("\u0942"): "\u0941",  # ी -> ि, ू -> ु (vowel length)
        ord("\u0908"): "\u0907", ord("\u090a"): "\u0909",  # ई -> इ, ऊ -> उ
        **{0x966 + i: str(i) for i in range(10)}}      # Devanagari digits -> ASCII
_TABLE = str.maketrans({**_MAP, **{ord(c): None for c in _DELETE}})
# the nasal half-letter before a consonant of its own class is the anusvara: चन्दौली = चंदौली, सम्भल = संभल
_NASAL = re.compile("\u0919\u094d(?=[\u0915-\u0918])|\u091e\u094d(?=[\u091a-\u091d])|\u0923\u094d(?=[\u091f-\u0922])"
                    "|\u0928\u094d(?=[\u0924-\u0927])|\u092e\u094d(?=[\u092a-\u092d])")
# a doubled consonant written with the halant (X्X) or before its aspirate (द्ध, च्छ, ...) counts once
_ASPIRATE = {"\u0915": "\u0916", "\u0917": "\u0918", "\u091a": "\u091b", "\u091c": "\u091d", "\u091f": "\u0920",
             "\u0921": "\u0922", "\u0924": "\u0925", "\u0926": "\u0927", "\u092a": "\u092b", "\u092c": "\u092d"}
_GEMINATE = re.compile("([\u0915-\u0939])\u094d(\\1|[" + "".join(_ASPIRATE.values()) + "])")
_LATIN_DOUBLE = re.compile(r"([a-z])\1+")


def _geminate(m: re.Match) -> str:
    a, b = m.group(1), m.group(2)
    return b if (a == b or _ASPIRATE.get(a) == b) else m.group(0)


def name_key(text) -> str:
    """The lookup key of a name: equal keys mean "the same name as a user would write it".

    - NFC/NFKD Unicode forms, case, spaces, punctuation and Latin accents do not count
      (``Rae Bareli`` = ``raebareli``, ``बुलंद शहर`` = ``बुलंदशहर``);
    - a doubled Latin letter counts once (``Muzzafarnagar`` = ``Muzaffarnagar``);
    - Hindi: the nukta does not count (``मिर्ज़ापुर`` = ``मिर्जापुर``); chandrabindu = anusvara (``बाँदा`` = ``बांदा``);
      the nasal half-letter before a consonant of its class = anusvara (``चन्दौली`` = ``चंदौली``,
      ``सम्भल`` = ``संभल``, ``अम्बेडकर`` = ``अंबेडकर``); ी = ि, ू = ु, ई = इ, ऊ = उ (vowel length); a doubled
      consonant counts once (``सिद्धार्थ`` = ``सिधार्थ``); the halant does not count (``मिर्जापुर`` = ``मीरजापुर``).

    Only a key: a name is always shown as written in the data. The shipped tables are tested to have no two
    units (districts; blocks and urban bodies within a district) with the same key.
    """
    s = unicodedata.normalize("NFKD", str(text).casefold()).translate(_TABLE)
    if any("\u0900" <= ch <= "\u097f" for ch in s):
        s = _NASAL.sub("\u0902", s)
        s = _GEMINATE.sub(_geminate, s)
        s = s.replace("\u094d", "")
    return _LATIN_DOUBLE.sub(r"\1", s)


def edit_distance(a: str, b: str, *, substring: bool = False) -> int:
    """Levenshtein distance of ``a`` to ``b`` (``substring``: to the best-matching part of ``b``)."""
    prev = [0] * (len(b) + 1) if substring else list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return min(prev) if substring else prev[-1]
