"""Names a user types -> unit codes: one normalisation (:func:`name_key`) and one index (:class:`NameIndex`).

Every kind of unit (district, block, urban body, gram panchayat, ward) is looked up the same way:

- a **code** (LGD code, or the integer code of a user's units file; ASCII or Devanagari digits);
- a **name** in English or Hindi, in any of the usual spellings: :func:`name_key` forgives case, spaces and
  punctuation, Latin accents and doubled letters, and the common Hindi variants (nukta, chandrabindu,
  anusvara or the nasal half-letter of the same class, long or short ि/ी and ु/ू, the halant);
- a **known other name** (``data/district_aliases.csv``: former names, spelling variants, each row citing where
  the name is met; an alias may name two units, e.g. "Kanpur", and is then reported as ambiguous);
- ``"Name, District"`` or ``"Name (District)"`` where a name repeats in the State.

A name that is still unknown or ambiguous raises :class:`KeyError` with one line that offers the nearest
candidates (edit distance on the keys, in the script of the query)::

    unknown district 'Kanpr'; did you mean 'Kanpur Nagar' or 'Kanpur Dehat'?
    'Kanpur' is ambiguous: Kanpur Nagar or Kanpur Dehat

:meth:`NameIndex.resolve_many` resolves a whole column at once (-1 where unknown): integer codes go through
numpy and pyarrow only (no Python loop per row), names through one lookup per distinct value.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from functools import lru_cache
from typing import Iterable, Sequence

import numpy as np

from ..base.errors import excerpt
from .aliases import load_aliases
from .text import edit_distance as _distance
from .text import name_key

__all__ = ["name_key", "NameIndex", "KINDS", "district_index", "load_aliases", "crosswalk", "UnknownName"]

#: The words used for each kind of unit in messages.
KINDS = ("district", "block", "urban body", "gram panchayat", "ward", "unit")

# --- the normalisation (the name key is reservation.inputs.text.name_key) ----------------------------------------

_DIGITS = str.maketrans({0x966 + i: str(i) for i in range(10)})


def _nfc(text) -> str:
    return " ".join(unicodedata.normalize("NFC", str(text)).split())


def _exact(text) -> str:
    return _nfc(text).casefold()


def _is_hindi(text: str) -> bool:
    return any("\u0900" <= ch <= "\u097f" for ch in text)


_QUALIFIED = (re.compile(r"^(?P<name>.+?)\s*,\s*(?P<parent>[^,]+)$"),
              re.compile(r"^(?P<name>.+?)\s*[(\[]\s*(?P<parent>[^()\[\]]+?)\s*[)\]]$"))


def _split(text: str) -> tuple[str, str] | None:
    """``"Name, Parent"`` or ``"Name (Parent)"`` -> (name, parent); None for anything else."""
    for rx in _QUALIFIED:
        m = rx.match(text)
        if m:
            return m.group("name"), m.group("parent")
    return None


# --- the distance used for suggestions ------------------------------------------------------------------------

def _score(q: str, key: str) -> int:
    """Twice the edit distance, or twice the distance to a part of the key plus one (a word or the start of
    a longer name: 'Kanpr' is one edit from the start of 'Kanpur Nagar')."""
    s = 2 * _distance(q, key)
    if len(q) >= 3 and len(key) > len(q):
        s = min(s, 2 * _distance(q, key, substring=True) + 1)
    return s


def _join(items: list[str], quote: bool) -> str:
    items = [repr(x) if quote else x for x in items]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


# --- the index ------------------------------------------------------------------------------------------------

class UnknownName(KeyError):
    """No unit has the name: ``args[0]`` the message with the nearest names, ``plain`` the message without them."""

    def __init__(self, message: str, plain: str):
        super().__init__(message)
        self.plain = plain


class _Names:
    """Three lookup tiers over one set of units: exact text, then :func:`name_key`, then name variants
    (the parts of ``"A (B)"``). Each maps a string to the set of positions it names."""

    __slots__ = ("exact", "key", "variant")

    def __init__(self):
        self.exact: dict[str, set[int]] = {}
        self.key: dict[str, set[int]] = {}
        self.variant: dict[str, set[int]] = {}

    def add(self, name: str, pos: int, variant_only: bool = False) -> None:
        if variant_only:
            self.variant.setdefault(name_key(name), set()).add(pos)
        else:
            self.add_keys(_exact(name), name_key(name), pos)

    def add_keys(self, exact: str, key: str, pos: int) -> None:
        self.exact.setdefault(exact, set()).add(pos)
        self.key.setdefault(key, set()).add(pos)

    def find(self, text: str) -> set[int]:
        hit = self.exact.get(_exact(text))
        if hit:
            return hit
        k = name_key(text)
        return self.key.get(k) or self.variant.get(k) or set()

    def keys(self):
        for table in (self.key, self.variant):
            for k, v in table.items():
                yield k, v


class NameIndex:
    """The crosswalk of one kind of unit: codes, English and Hindi names, optional parents, optional aliases.

    ``codes``: unique integers. ``names_en`` / ``names_hi``: one name per code ('' or None when unknown).
    ``parents``: one parent code per unit (e.g. the LGD district code of a block), resolved from text through
    ``parent_index`` (default: the shipped districts when ``parents`` are given). ``aliases``: pairs
    ``(name, code)``; a name given for two codes is ambiguous. ``weights``: optional numbers (e.g. population):
    between equally near candidates the larger comes first in messages. ``kind``: the word used in messages.

    The name tables are built on the first lookup by name, so an index of 732,000 integer codes costs only
    its arrays. A ``NameIndex`` is itself a resolver: ``index(value)`` = :meth:`resolve`, ``index.many`` =
    :meth:`resolve_many`.
    """

    def __init__(self, codes, names_en=None, names_hi=None, *, kind: str = "unit", parents=None,
                 parent_index: NameIndex | None = None, aliases: Iterable[tuple[str, int]] = (),
                 weights=None):
        codes = np.asarray(codes, dtype=np.int64).ravel()
        n = len(codes)
        order = np.argsort(codes, kind="stable")
        self._codes = codes[order]                      # sorted, for lookups
        if n and (self._codes[1:] == self._codes[:-1]).any():
            dup = int(self._codes[1:][self._codes[1:] == self._codes[:-1]][0])
            raise ValueError(f"{kind} code {dup} is given twice")
        self._table_pos = order                         # sorted position -> position as given (table order)
        self.kind = kind
        self._text: dict[str, np.ndarray | None] = {}
        self._text_src: dict[str, tuple] = {}
        pd = sys.modules.get("pandas")
        for lang, values in (("en", names_en), ("hi", names_hi)):
            if pd is not None and isinstance(values, pd.Series) and len(values) == n:
                self._text_src[lang] = (values, order)  # a column (copy-on-write): converted on first use
            else:
                self._text[lang] = self._text_column(values, n, order)
        if parents is not None:
            parents = np.asarray(parents.to_numpy() if hasattr(parents, "to_numpy") else parents)
            if len(parents) != n:
                raise ValueError(f"{len(parents)} parents for {n} codes")
            parents = parents[order]
        self._parents = parents
        if parents is not None and parent_index is None:
            parent_index = district_index()
        self.parent_index = parent_index
        self._aliases = [(str(a), int(c)) for a, c in aliases]
        self._weights = None if weights is None else np.asarray(weights, dtype=float)[order]
        self._all: _Names | None = None
        self._by_parent: dict[object, _Names] = {}
        self._member = None
        self._hash = None

    @property
    def _en(self) -> np.ndarray | None:
        return self._text_of("en")

    @property
    def _hi(self) -> np.ndarray | None:
        return self._text_of("hi")

    def _text_of(self, lang: str) -> np.ndarray | None:
        if lang not in self._text:
            values, order = self._text_src.pop(lang)
            self._text[lang] = self._text_column(values, len(order), order)
        return self._text[lang]

    @staticmethod
    def _text_column(values, n, order) -> np.ndarray | None:
        """The names in code order as given (normalised when used), or None when there are none."""
        if values is None:
            return None
        import pandas as pd
        s = values.reset_index(drop=True) if isinstance(values, pd.Series) else pd.Series(
            values if isinstance(values, np.ndarray) else list(values))
        if len(s) != n:
            raise ValueError(f"{len(s)} names for {n} codes")
        if not (pd.api.types.is_string_dtype(s.dtype) and s.dtype != object):
            s = s.astype("str")
        if (s.isna() | (s.str.strip() == "")).all():
            return None
        return s.to_numpy(dtype=object, na_value="")[order]

    @classmethod
    def from_frame(cls, df, *, kind: str, code: str = "unit_code", en: str | None = "unit_name_en",
                   hi: str | None = "unit_name_hi", parent: str | None = None, parent_index=None, aliases=(),
                   weights: str | None = None) -> NameIndex:
        """An index over a table's columns (``parent``: a column of parent codes or parent names)."""
        parents = None
        if parent is not None:
            pi = parent_index or district_index()
            parents = pi.resolve_many(df[parent])
            if (parents < 0).any():
                pi.resolve(df[parent].iloc[int(np.flatnonzero(parents < 0)[0])])   # raises, naming it
            parent_index = pi
        return cls(df[code].to_numpy(), df[en] if en and en in df else None, df[hi] if hi and hi in df else None,
                   kind=kind, parents=parents, parent_index=parent_index, aliases=aliases,
                   weights=df[weights].to_numpy() if weights else None)

    # --- codes ----------------------------------------------------------------------------------------------

    @property
    def codes(self) -> np.ndarray:
        """The codes, sorted."""
        return self._codes

    def __len__(self) -> int:
        return len(self._codes)

    def __contains__(self, code) -> bool:
        return self._pos(code) >= 0

    def _pos(self, code) -> int:
        try:
            c = int(code)
        except (TypeError, ValueError):
            return -1
        if not -(1 << 63) <= c < (1 << 63):
            return -1
        i = int(np.searchsorted(self._codes, c))
        return i if i < len(self._codes) and self._codes[i] == c else -1

    def _known(self, v: np.ndarray) -> np.ndarray:
        """``v`` (int64) where it is a code, else -1: a bitmap when the codes are dense, a binary search when
        ``v`` is sorted, else a hash table."""
        n = len(self._codes)
        if n == 0:
            return np.full(len(v), -1, dtype=np.int64)
        lo, hi = int(self._codes[0]), int(self._codes[-1])
        if hi - lo < 16 * n + (1 << 20):
            if self._member is None:
                self._member = np.zeros(hi - lo + 1, dtype=bool)
                self._member[self._codes - lo] = True
            inside = (v >= lo) & (v <= hi)
            ok = np.zeros(len(v), dtype=bool)
            ok[inside] = self._member[v[inside] - lo]
        elif len(v) > 1 and bool((v[1:] >= v[:-1]).all()):      # sorted input (a units or history file)
            p = np.searchsorted(self._codes, v)
            ok = self._codes[np.minimum(p, n - 1)] == v
        else:
            if self._hash is None:
                import pandas as pd
                self._hash = pd.Index(self._codes)
            ok = self._hash.get_indexer(v) >= 0
        return np.where(ok, v, -1)

    @staticmethod
    def _as_code(value) -> int | None:
        if isinstance(value, (bool, np.bool_)):
            return None
        if isinstance(value, (int, np.integer)):
            return int(value)
        if isinstance(value, (float, np.floating)):
            return int(value) if value == value and float(value).is_integer() else None
        s = str(value).strip().translate(_DIGITS)
        return int(s) if s.isascii() and s.isdigit() else None

    # --- names ----------------------------------------------------------------------------------------------

    def name_en(self, code) -> str:
        """The English name of a code ('' when the index has none)."""
        return self._name(code, self._en)

    def name_hi(self, code) -> str:
        """The Hindi name of a code ('' when the index has none)."""
        return self._name(code, self._hi)

    def parent(self, code):
        """The parent code of a code (None without parents)."""
        i = self._pos(code)
        if i < 0:
            raise KeyError(f"unknown {self.kind} code {code}")
        if self._parents is None:
            return None
        p = self._parents[i]
        return p.item() if isinstance(p, np.generic) else p

    def _name(self, code, column) -> str:
        i = self._pos(code)
        if i < 0:
            raise KeyError(f"unknown {self.kind} code {code}")
        return "" if column is None else _nfc(column[i])

    def label(self, code, lang: str = "en") -> str:
        """The name to show: Hindi for ``lang="hi"`` when known, else English, else the code."""
        i = self._pos(code)
        return self._label(i, lang) if i >= 0 else str(code)

    def _label(self, i: int, lang: str, with_parent: bool = False) -> str:
        first, second = (self._hi, self._en) if lang == "hi" else (self._en, self._hi)
        name = next((_nfc(c[i]) for c in (first, second) if c is not None and _nfc(c[i])), str(int(self._codes[i])))
        if with_parent and self._parents is not None:
            p = self._parents[i]
            pi = self.parent_index
            pname = pi.label(p, lang) if pi is not None and p in pi else str(p)
            if _name_key_cached(pname) not in _name_key_cached(name):
                name = f"{name} ({pname})"
        return name

    def _names(self) -> _Names:
        """Build the name tables (once)."""
        if self._all is not None:
            return self._all
        every = _Names()
        for i in range(len(self._codes)):
            parent = None if self._parents is None else self._by_parent.setdefault(self._parents[i], _Names())
            for column in (self._en, self._hi):
                name = _nfc(column[i]) if column is not None else ""
                if not name:
                    continue
                ex, key = _exact(name), name_key(name)
                every.add_keys(ex, key, i)
                if parent is not None:
                    parent.add_keys(ex, key, i)
                split = _split(name)
                if split is None:
                    continue
                base, inner = split
                own = False
                if parent is not None and self.parent_index is not None:
                    try:
                        own = self.parent_index.resolve(inner) == self._parents[i]
                    except KeyError:
                        own = False
                if own:                        # "Nawabganj(Bareilly)" is "Nawabganj" in Bareilly
                    parent.add(base, i)
                    every.add(base, i, variant_only=True)
                else:                          # "Haldaur(Khari Jhalu)": either part names it
                    for part in (base, inner):
                        every.add(part, i, variant_only=True)
                        if parent is not None:
                            parent.add(part, i, variant_only=True)
        for alias, code in self._aliases:
            i = self._pos(code)
            if i >= 0:
                every.add(alias, i)
                if self._parents is not None:
                    self._by_parent.setdefault(self._parents[i], _Names()).add(alias, i)
        self._all = every
        return every

    # --- resolving ------------------------------------------------------------------------------------------

    def __call__(self, value) -> int:
        return self.resolve(value)

    def many(self, values) -> np.ndarray:
        return self.resolve_many(values)

    def resolve(self, value) -> int:
        """A code, a name, an alias, ``"Name, District"`` or ``"Name (District)"`` -> the unit's code.

        Raises KeyError with one line: ``unknown KIND 'X'; did you mean 'A' or 'B'?``, ``'X' is ambiguous: A
        or B`` or ``unknown KIND code N``."""
        if value is None or (isinstance(value, float) and value != value):
            raise KeyError(f"empty {self.kind} name")
        code = self._as_code(value)
        if code is not None:
            if code in self:
                return code
            raise KeyError(f"unknown {self.kind} code {code}")
        text = _nfc(value)
        if not text:
            raise KeyError(f"empty {self.kind} name")
        if self._en is None and self._hi is None and not self._aliases:
            raise KeyError(f"unknown {self.kind} {excerpt(text)} ({self.kind}s are given by their integer code)")
        names = self._names()
        hit = names.find(text)
        if len(hit) == 1:
            return int(self._codes[next(iter(hit))])
        split = _split(text)
        if split is not None:
            found = self._resolve_qualified(text, *split, ambiguous=hit)
            if found is not None:
                return found
        if hit:
            raise KeyError(self._ambiguous(text, hit))
        raise self._unknown(text, names)

    def _resolve_qualified(self, text: str, name: str, other: str, ambiguous: set[int]) -> int | None:
        if self._parents is not None and self.parent_index is not None:
            try:
                p = self.parent_index.resolve(other)
            except KeyError as e:
                if ambiguous or text.rstrip().endswith((")", "]")):
                    return None            # "(...)" that is no district: the text is a name, or unknown
                raise (UnknownName(e.args[0], e.plain) if isinstance(e, UnknownName) else KeyError(e.args[0])) from None
            table = self._by_parent.get(p)
            hit = table.find(name) if table is not None else set()
            if len(hit) == 1:
                return int(self._codes[next(iter(hit))])
            if hit:
                raise KeyError(self._ambiguous(name, hit))
            where = f"{self.parent_index.kind} {excerpt(other)}"
            raise self._unknown(name, table, where=where)
        # no parents: "A (B)" or "A, B" where both parts name the same unit (a name and a former name)
        try:
            a, b = self.resolve(name), self.resolve(other)
        except KeyError:
            return None
        return a if a == b else None

    def _order(self, positions) -> list[int]:
        w = self._weights
        return sorted(positions, key=lambda i: (-(w[i] if w is not None else 0), int(self._table_pos[i])))

    #: the most candidates an "ambiguous" message names (the rest are counted): a gram panchayat name such as
    #: "Rampur" names hundreds
    MAX_LISTED = 12

    def _ambiguous(self, text: str, hit: set[int]) -> str:
        lang = "hi" if _is_hindi(text) else "en"
        pos = self._order(hit)
        more = max(0, len(pos) - self.MAX_LISTED)
        pos = pos[:self.MAX_LISTED]
        labels = [self._label(i, lang) for i in pos]
        same = len(set(labels)) < len(labels)
        if same:
            labels = [self._label(i, lang, with_parent=True) for i in pos]
        listed = f"{', '.join(labels)} and {more} more" if more else _join(labels, quote=False)
        msg = f"{excerpt(text)} is ambiguous: {listed}"
        if self._parents is not None and len({self._parents[i] for i in pos}) > 1:
            msg += f"; write 'Name, {self.parent_index.kind.capitalize() if self.parent_index else 'Parent'}'"
        return msg

    def _unknown(self, text: str, table: _Names | None, where: str = "") -> UnknownName:
        plain = msg = f"unknown {self.kind} {excerpt(text)}" + (f" in {where}" if where else "")
        near = self._suggest(text, table=table)
        if near:
            lang = "hi" if _is_hindi(text) else "en"
            labels = [self._label(i, lang) for i in near]
            if len(set(labels)) < len(labels) or (self._parents is not None and not where):
                labels = [self._label(i, lang, with_parent=True) for i in near]
            msg += f"; did you mean {_join(labels, quote=True)}?"
        return UnknownName(msg, plain)

    def suggest(self, text: str, n: int = 4) -> list[int]:
        """The codes of the nearest names to ``text`` (at most ``n``, nearest first; [] when none is near):
        edit distance on the keys, or to a word or the start of a longer name, in the script of the query."""
        return [int(self._codes[i]) for i in self._suggest(text, n)]

    def _suggest(self, text: str, n: int = 4, *, table: _Names | None = None) -> list[int]:
        q = name_key(text)
        if not q:
            return []
        table = table if table is not None else self._names()
        limit = 2 * max(1, len(q) // 3) + 1
        big = len(table.key) > 5000
        best: dict[int, int] = {}
        for key, positions in table.keys():
            if big and abs(len(key) - len(q)) > limit // 2:
                continue
            s = _score(q, key) if not big else 2 * _distance(q, key)
            if s > limit:
                continue
            for i in positions:
                if s < best.get(i, 1 << 30):
                    best[i] = s
        if not best:
            return []
        top = min(best.values())
        near = [i for i, s in best.items() if s <= top + 1]
        w = self._weights
        near.sort(key=lambda i: (best[i], -(w[i] if w is not None else 0), int(self._table_pos[i])))
        return near[:n]

    def resolve_many(self, values) -> np.ndarray:
        """Resolve a column (list, numpy array or pandas Series) -> int64 array of codes, -1 where unknown.

        Integers are checked against the codes by a bitmap (dense codes), a binary search (sorted input) or a
        hash table; a text column of digits is parsed by pyarrow; any other text is resolved once per distinct
        value (so a column of names costs one :meth:`resolve` per name, not per row)."""
        import pandas as pd

        ser = values if isinstance(values, pd.Series) else pd.Series(
            values if isinstance(values, (np.ndarray, pd.Index)) else list(values))
        dtype = ser.dtype
        if pd.api.types.is_bool_dtype(dtype):
            return np.full(len(ser), -1, dtype=np.int64)
        if pd.api.types.is_integer_dtype(dtype):
            v = ser.to_numpy(dtype=np.int64, na_value=-1)
            return np.where(v < 0, -1, self._known(v))
        if pd.api.types.is_float_dtype(dtype):
            v = ser.to_numpy(dtype=float, na_value=np.nan)
            ok = np.isfinite(v) & (v >= 0) & (v < 2.0 ** 62)
            ok[ok] = v[ok] == np.floor(v[ok])
            return np.where(ok, self._known(np.where(ok, v, -1).astype(np.int64)), -1)
        text = ser if pd.api.types.is_string_dtype(dtype) and dtype != object else ser.astype("str")
        is_digits, parsed = _digit_codes(text)
        out = np.where(is_digits, self._known(parsed), -1)
        rest = np.flatnonzero(~is_digits)
        if len(rest):
            originals = ser.iloc[rest]
            codes, uniques = pd.factorize(originals, use_na_sentinel=True)
            found = np.empty(len(uniques), dtype=np.int64)
            for j, u in enumerate(uniques):
                try:
                    found[j] = self.resolve(u)
                except KeyError:
                    found[j] = -1
            out[rest] = np.where(codes >= 0, found[np.maximum(codes, 0)], -1)
        return out


def _digit_codes(text) -> tuple[np.ndarray, np.ndarray]:
    """A pandas string Series -> (is a code written in ASCII digits, its value or -1), by pyarrow compute."""
    import pyarrow as pa
    import pyarrow.compute as pc

    arr = pa.array(text.array)
    trimmed = pc.utf8_trim_whitespace(arr)
    ok = pc.fill_null(pc.and_(pc.ascii_is_decimal(trimmed), pc.less_equal(pc.utf8_length(trimmed), 18)), False)
    parsed = pc.cast(pc.if_else(ok, trimmed, "-1"), pa.int64())
    return np.asarray(ok, dtype=bool), np.asarray(parsed, dtype=np.int64)


@lru_cache(maxsize=4096)
def _name_key_cached(text: str) -> str:
    return name_key(text)


# --- the shipped districts ------------------------------------------------------------------------------------

def district_index(districts=None, aliases_path=None) -> NameIndex:
    """The index of districts (``kind="district"``): the shipped table and aliases by default (built once per
    process), or a district table (``unit_code, unit_name_en, unit_name_hi[, pop_total]``) such as a toy
    state's, with the aliases of its codes."""
    if districts is None and aliases_path is None:
        return _shipped_district_index()
    if districts is None:
        from .units import load_districts
        districts = load_districts()
    return _district_index(districts, aliases_path)


@lru_cache(maxsize=1)
def _shipped_district_index() -> NameIndex:
    from .units import load_districts
    return _district_index(load_districts(), None)


def _district_index(districts, aliases_path) -> NameIndex:
    codes = districts["unit_code"].to_numpy()
    return NameIndex(codes, districts["unit_name_en"],
                     districts["unit_name_hi"] if "unit_name_hi" in districts else None, kind="district",
                     aliases=load_aliases(aliases_path, codes),
                     weights=districts["pop_total"].to_numpy() if "pop_total" in districts else None)


def crosswalk():
    """The crosswalk of the shipped districts (a :class:`NameIndex`, built once; the same as
    ``district_index()``): an LGD code, an English or Hindi name, a former name or a spelling variant -> the LGD
    code; an unknown or ambiguous name raises KeyError with one line naming the nearest candidates."""
    return district_index()

