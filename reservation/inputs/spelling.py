"""Hindi place names as the SEC's lists write them, and a coarse spelling key to compare names across scripts.

- :func:`clean_name`: the SEC's text as the name of a body (without the type words, the legacy signs as the
  chandrabindu they stand for; NFC);
- :func:`latin`: a plain Latin spelling of a Devanagari name (a comparison key only, never shown as a name);
- :func:`key`: the spelling key of a Latin name (English or :func:`latin`), folding what the two scripts write
  differently.

Used by the link of the 2012 urban results to today's bodies (``data/build/link_urban_names_hi.py``) and by the
link of the 2006 urban chairs to the 2012 rows (:mod:`reservation.history.urban2006`): one copy of each.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["clean_name", "latin", "key"]


_TYPE_WORDS = re.compile(r"^\s*(?:नगर\s+निगम|नगर\s+पालिका\s+परिषद|नगर\s+पंचायत)\s+|\s+नगर\s+निगम\s*$")
#: the two signs of the SEC's file that no Hindi place name uses, written by its legacy font for the
#: chandrabindu: ॅ = ँ (बदायूॅ, ऊॅचाहार; झॅूसी with the mark before the vowel sign), ॉ = ाँ (शाहजहॉपुर,
#: अमॉपुर) and ॉं = ां (नन्दगॉंव, कोसी कलॉं)
_LEGACY = [(re.compile("\u0945([\u093e-\u094c])"), "\\1\u0901"), (re.compile("\u0945"), "\u0901"),
           (re.compile("\u0949\u0902"), "\u093e\u0902"), (re.compile("\u0949"), "\u093e\u0901")]


def clean_name(text: str) -> str:
    """The SEC name as the name of a body: without the type words (``नगर पालिका परिषद फरीदपुर`` -> ``फरीदपुर``),
    without characters foreign to Devanagari names (``लखनऊô`` -> ``लखनऊ``) and loose hyphens, with the two
    legacy signs ॅ and ॉ written as the chandrabindu they stand for (``बदायूॅ`` -> ``बदायूँ``); NFC, single
    spaces. Nothing else is changed: the letters are the SEC's."""
    s = unicodedata.normalize("NFC", str(text))
    s = "".join(ch for ch in s if "\u0900" <= ch <= "\u097f" or ch in " -()")
    for pattern, repl in _LEGACY:
        s = pattern.sub(repl, s)
    s = " ".join(w for w in s.replace(" -", " ").replace("- ", " ").split() if w.strip("-"))
    return unicodedata.normalize("NFC", _TYPE_WORDS.sub("", s).strip().strip("-").strip())


# --- the transliteration: Devanagari -> a Latin spelling -----------------------------------------------------

_CONS = {"क": "k", "ख": "kh", "ग": "g", "घ": "gh", "ङ": "n", "च": "ch", "छ": "chh", "ज": "j", "झ": "jh",
         "ञ": "n", "ट": "t", "ठ": "th", "ड": "d", "ढ": "dh", "ण": "n", "त": "t", "थ": "th", "द": "d", "ध": "dh",
         "न": "n", "प": "p", "फ": "ph", "ब": "b", "भ": "bh", "म": "m", "य": "y", "र": "r", "ल": "l", "ळ": "l",
         "व": "v", "श": "sh", "ष": "sh", "स": "s", "ह": "h"}
_NUKTA = {"क": "q", "ख": "kh", "ग": "g", "ज": "z", "ड": "r", "ढ": "rh", "फ": "f"}
_VOWELS = {"अ": "a", "आ": "a", "इ": "i", "ई": "i", "उ": "u", "ऊ": "u", "ए": "e", "ऐ": "ai", "ओ": "o", "औ": "au",
           "ऋ": "ri", "ऑ": "o"}
_SIGNS = {"ा": "a", "ि": "i", "ी": "i", "ु": "u", "ू": "u", "े": "e", "ै": "ai", "ो": "o", "ौ": "au", "ृ": "ri",
          "ॉ": "a"}
#: anusvara, chandrabindu, visarga; the SEC's files also write the chandrabindu as ॅ (ऊॅचाहार) and ाँ as ॉ
#: (अमॉपुर = अमाँपुर), as the legacy fonts of its lists do (data/README.md, block pramukh history)
_CODA = {"ं": "n", "ँ": "n", "ः": "h", "ॅ": "n"}
_HALANT, _NUKTA_SIGN = "\u094d", "\u093c"


def _syllables(word: str, retroflex_r: bool) -> list[list]:
    """[consonants, vowel, inherent, coda] per akshara of one NFD word (``retroflex_r``: ड, ढ as ड़, ढ़)."""
    units, cons, i = [], [], 0
    while i < len(word):
        ch = word[i]
        nxt = word[i + 1] if i + 1 < len(word) else ""
        if ch in _CONS:
            c = _CONS[ch]
            if nxt == _NUKTA_SIGN:
                c, i = _NUKTA.get(ch, c), i + 1
                nxt = word[i + 1] if i + 1 < len(word) else ""
            elif retroflex_r and ch in "डढ":
                c = _NUKTA[ch]
            if ch == "ज" and nxt == _HALANT and word[i + 2:i + 3] == "ञ":      # ज्ञ is said gy
                c, i = "gy", i + 2
                nxt = word[i + 1] if i + 1 < len(word) else ""
            cons.append(c)
            if nxt == _HALANT:
                i += 2
                continue
            coda = ""
            if nxt in _CODA and word[i + 2:i + 3] in _SIGNS:       # झॅूसी: the mark written before the sign
                coda, i = _CODA[nxt], i + 1
                nxt = word[i + 1]
            if nxt in _SIGNS:
                units.append([cons, _SIGNS[nxt], False, coda + ("n" if nxt == "ॉ" else "")])
                i += 2
            else:
                units.append([cons, "a", True, coda])
                i += 1
            cons = []
            continue
        if ch in _VOWELS:
            units.append([[], _VOWELS[ch], False, ""])
        elif ch in _CODA and units:
            units[-1][3] += _CODA[ch]
        elif ch.isascii() and ch.isalnum():
            units.append([[ch.lower()], "", False, ""])
        i += 1
    if cons:
        units.append([cons, "", False, ""])
    return units


def latin(text: str, retroflex_r: bool = False) -> str:
    """A plain Latin spelling of a Devanagari name, one word at a time: consonants with their inherent ``a``
    unless a vowel sign or the halant follows; the nukta letters as q, z, r, rh, f; ज्ञ as gy; anusvara and
    chandrabindu as n. The inherent ``a`` is dropped as Hindi speakers drop it: at the end of a word, and, from
    left to right, between a vowel and a single consonant followed by a vowel (देवबन्द -> devband,
    मुजफ्फरनगर -> mujaphpharnagar, गढमुक्तेश्वर -> gadhmukteshvar; कासगंज -> kasganj keeps the a before the
    nasal). ``retroflex_r``: read ड and ढ as ड़ and ढ़ (r, rh): the SEC's files often leave out the nukta
    (गढमुक्तेश्वर for गढ़मुक्तेश्वर = Garhmukteshwar). Only a comparison key: never shown as a name."""
    words = []
    for word in unicodedata.normalize("NFD", text).split():
        u = _syllables(word, retroflex_r)
        if u and u[-1][2] and not u[-1][3]:
            u[-1][1] = ""
        for j in range(1, len(u) - 1):
            cur, prev, nxt = u[j], u[j - 1], u[j + 1]
            if cur[2] and not cur[3] and len(cur[0]) == 1 and prev[1] and len(nxt[0]) == 1 and nxt[1]:
                cur[1] = ""
        words.append("".join("".join(c) + v + coda for c, v, _, coda in u))
    return " ".join(words)


# --- the spelling key shared by both scripts ------------------------------------------------------------------

_FOLD = [(r"hh", "h"), (r"ph", "f"), (r"([kgcjtdpbr])h", r"\1"), (r"sh", "s"), (r"[vw]", "b"), (r"z", "j"),
         (r"q", "k"), (r"f", "p"), (r"x", "ks"), (r"y", "i"), (r"ee", "i"), (r"oo", "u"), (r"eo", "eb"),
         (r"ou|au|ao", "o"), (r"ai|ae|ei", "e"), (r"(.)\1+", r"\1"), (r"([aeiou])h$", r"\1"), (r"ab$", "o")]


def key(latin_text: str) -> str:
    """The spelling key of a Latin name (English or :func:`latin`): only the letters, lower case, with the
    distinctions that the two scripts draw differently folded away: aspiration (kh = k, bh = b, chh = ch = c),
    ph = f = p, sh = s, v = w = b, z = j, q = k, y = i, vowel length (ee = i, oo = u), ai = ae = e,
    au = ou = ao = o, eo = ev (Deoria = देवरिया), doubled letters once (Muzaffar = Muzafar), a final h after a
    vowel (Etawah = इटावा), a final av = ao (Unnao = उन्नाव)."""
    s = re.sub(r"[^a-z]", "", unicodedata.normalize("NFKD", latin_text.casefold()))
    for pattern, repl in _FOLD:
        s = re.sub(pattern, repl, s)
    return s


