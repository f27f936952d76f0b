"""The Schedule of the U.P. District Planning Committee Rules 2008: members per district, parsed from the seed.

Rule 3(1) (as substituted by the first amendment, 14.03.2008): "A committee shall consist of such number of
members as specified against its respective district in the Schedule." The Schedule has seven columns:

====  ==========================================================================  ===============
col.  heading in the Schedule                                                      column here
====  ==========================================================================  ===============
1     Sl. No.                                                                      ``serial``
2     Name of Districts                                                            ``name_in_schedule``
3     Number of Members under sub-section (2) of section 4 of the Act              ``s4_2``
4     Number of Members under clauses (a), (b) and (d) of sub-section (4) of s.4   ``s4_4_abd``
5     Number of Members under clause (e) of sub-section (4) of section 4           ``s4_4_e``
6     Number of Members under sub-section (4) of section 4 of the Act              ``s4_4``
7     Total number of members of the Committee                                     ``total``
====  ==========================================================================  ===============

Column 3 is the number of **elected** members (the seats that rule 3(3) splits into rural and urban): in
every row that adds up it is exactly four-fifths of the total, the minimum of Art. 243ZD(2)(a).

**Reading the OCR.** The seed (``shared/seeds/003_f563b6887052fbbf.txt``) is an OCR of the English
translation. Amendment footnote markers are glued to the serial numbers, e.g. ``[61 Prayagraj 12 3 5 8 40]``
is footnote 6 + serial 1; ``[104 8 Amroha ...]`` is footnote 10 + serial 48 with a stray space;
``16[7 5 Hapur ...]`` has the marker before the bracket. The footnote texts ("6 1 substituted by fifth
amendment dated 06.03.2019") sit in the middle of the table. :func:`parse_schedule` reads the footnotes
first, removes them, and then splits every bracketed group's leading digits into *marker + serial* using
the footnote's own serial and the running serial number (both must agree, or parsing fails loudly).

Rows of the 15-member districts have four numbers ("12 3 3 15"): column 5 (clause (e)) is blank, because in
every other row column 5 is the one that grows with the size of the committee (40: 5, 35: 4, 30: 3, 25: 2,
20: 1) while column 4 is always 3. The blank is kept as a missing value and counts as 0 in the checks.

**Checks.** Every row is checked: col. 3 + col. 6 = col. 7; col. 4 + col. 5 = col. 6; col. 3 is not less
than four-fifths of col. 7 (Art. 243ZD(2)(a)); the serials run 1..75; the name resolves to one district.
A row that fails is *reported* in ``check`` (it is never silently corrected): in the seed, serial 1
(Prayagraj) reads "12 3 5 8 40", where 12 + 8 = 20, not 40; every other 40-member row has 32 in column 3.
How a computation uses such a row is the option ``schedule_row`` of :mod:`reservation.dpc.seats`.

Spellings of the Schedule (Muzzafarnagar, SidharthNagar, Chitrakut, Auraiyya, Badaun) are rows of
``data/district_aliases.csv``; like every other name they resolve through
:func:`reservation.inputs.names.crosswalk` (e.g. KanpurNagar, Kheri, Sant Ravidas Nagar Bhadohi).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from pathlib import Path

import pandas as pd

from ..base.errors import InputError
from ..inputs.units import DATA_DIR, nfc
from ..inputs.names import crosswalk

__all__ = ["SEED_NAME", "seed_path", "Footnote", "parse_footnotes", "parse_schedule", "load_schedule",
           "SCHEDULE_COLUMNS", "SCHEDULE_CLAUSE"]

SEED_NAME = "003_f563b6887052fbbf.txt"
SCHEDULE_CLAUSE = "DPC Rules 2008 r.3(1) and Schedule"

SCHEDULE_COLUMNS = {
    "serial": "Sl. No. of the Schedule (col. 1)",
    "name_in_schedule": "district as printed (col. 2)",
    "district_lgd_code": "LGD district code",
    "district": "canonical English name (data/districts.csv)",
    "s4_2": "members under s.4(2) of the Act: elected members (col. 3)",
    "s4_4_abd": "members under s.4(4) clauses (a), (b), (d) (col. 4)",
    "s4_4_e": "members under s.4(4) clause (e) (col. 5; blank in the 15-member rows)",
    "s4_4": "members under s.4(4) (col. 6)",
    "total": "total members of the Committee (col. 7)",
    "amendment": "the amendment that substituted the row, if any",
    "amended_on": "date of that amendment (ISO)",
    "check": "'ok' or what does not add up",
    "clause": "the rule that makes the row law",
}


def seed_path(explicit=None) -> Path:
    """Where the DPC Rules text is: ``explicit``, ``$RESERVATION_DPC_SEED``, ``data/seeds/<name>``, or
    ``../shared/seeds/<name>`` beside the repository (where every developer and CI run has it)."""
    candidates = []
    if explicit:
        from .files import check_file
        return check_file(explicit, "DPC Rules text")
    elif os.environ.get("RESERVATION_DPC_SEED"):
        candidates.append(Path(os.environ["RESERVATION_DPC_SEED"]))
    else:
        candidates += [DATA_DIR / "seeds" / SEED_NAME, DATA_DIR.resolve().parent.parent / "shared" / "seeds" / SEED_NAME]
    for p in candidates:
        if p.is_file():
            return p
    raise InputError("the DPC Rules 2008 text was not found; pass --seed FILE or set "
                     "RESERVATION_DPC_SEED", file=str(candidates[0]))


@dataclass(frozen=True)
class Footnote:
    marker: int          # the footnote number
    target: int          # the rule or Schedule serial it annotates
    amendment: str       # "fifth amendment"
    dated: date


_FOOTNOTE = re.compile(r"\b(\d{1,2}) (\d{1,2}) substituted by (\w+) amendment dated (\d{2})\.(\d{2})\.(\d{4})")


def parse_footnotes(text: str) -> list[Footnote]:
    """Every "N T substituted by X amendment dated DD.MM.YYYY" in the text, in order."""
    out = []
    for m in _FOOTNOTE.finditer(text):
        out.append(Footnote(int(m.group(1)), int(m.group(2)), f"{m.group(3)} amendment",
                            date(int(m.group(6)), int(m.group(5)), int(m.group(4)))))
    return out


_TOKEN = re.compile(r"\[|\]|\d+|[^\s\[\]\d]+")


class ScheduleParseError(InputError):
    pass


def _schedule_body(text: str, source: str) -> tuple[str, int]:
    """The text after the Schedule's column-number line "1 2 3 4 5 6 7", and its offset."""
    start = text.find("SCHEDULE [See Rule 3")
    if start < 0:
        raise ScheduleParseError("no 'SCHEDULE [See Rule 3 (1)]' heading in the text", file=source)
    m = re.compile(r"\b1 2 3 4 5 6 7\b").search(text, start)
    if not m:
        raise ScheduleParseError("no column-number line '1 2 3 4 5 6 7' after the Schedule heading", file=source)
    return text[m.end():], m.end()


def parse_schedule(text: str, *, source: str = "seed") -> pd.DataFrame:
    """Parse the Schedule out of the full text of the Rules. Returns one row per district (see
    :data:`SCHEDULE_COLUMNS`), in serial order. Raises :class:`InputError` when the text cannot be read as
    75 rows; rows that can be read but do not add up are returned with ``check`` saying why.

    The steps: the footnotes of the amendments (read first, then removed), the row groups of the token
    stream, each row's serial, name and columns 3-7, the district of each name, the checks of r.3(1)."""
    body, _ = _schedule_body(text, source)
    notes = parse_footnotes(body)
    tokens = _TOKEN.findall(_FOOTNOTE.sub(" ", body))
    groups = _row_groups(tokens, source)
    rows = _read_rows(groups, notes, source)
    if len(rows) != 75:
        raise ScheduleParseError(f"{len(rows)} Schedule rows read, expected 75", file=source)
    df = _resolve_districts(pd.DataFrame(rows), source)
    return _checked(df)


def _is_num(t: str) -> bool:
    return t.isdigit()


def _is_word(t: str) -> bool:
    return not _is_num(t) and t not in ("[", "]")


def _row_groups(tokens: list[str], source: str) -> list[tuple[int | None, bool, list[str]]]:
    """The Schedule's rows in the token stream, as ``(marker outside the bracket, bracketed, tokens)``.

    "[ ... ]" is one (bracketed) row, a row substituted by an amendment; a number between "]" and "[" is the
    footnote marker of the bracketed row that follows ("16[7 5 Hapur ...]"); any other row starts at its
    serial (a number followed by a word) and runs to the next serial or "["."""
    groups: list[tuple[int | None, bool, list[str]]] = []
    i, n = 0, len(tokens)

    def close(j):
        try:
            return tokens.index("]", j)
        except ValueError:
            raise ScheduleParseError(f"unclosed '[' near {' '.join(tokens[j:j + 4])!r}", file=source) from None

    def starts_row(k):
        return _is_num(tokens[k]) and k + 1 < n and _is_word(tokens[k + 1])

    while i < n:
        t = tokens[i]
        if t == "[":
            j = close(i + 1)
            groups.append((None, True, tokens[i + 1:j]))
            i = j + 1
        elif t == "]":
            raise ScheduleParseError(f"unbalanced ']' near {' '.join(tokens[max(0, i - 4):i + 1])!r}", file=source)
        elif _is_num(t) and i + 1 < n and tokens[i + 1] == "[" and i > 0 and tokens[i - 1] == "]":
            j = close(i + 2)
            groups.append((int(t), True, tokens[i + 2:j]))
            i = j + 1
        else:
            start = i
            i += 1
            while i < n and tokens[i] not in ("[", "]") and not starts_row(i):
                i += 1
            groups.append((None, False, tokens[start:i]))
        if any(x == "[" for x in groups[-1][2]):
            raise ScheduleParseError(f"nested '[' in {' '.join(groups[-1][2])!r}", file=source)
    return groups


def _read_rows(groups, notes: list[Footnote], source: str) -> list[dict]:
    """Each row group as a row of the Schedule (col. 1-7 and its amendment), the serials running 1, 2, ..."""
    by_marker = {f.marker: f for f in notes}
    pending = sorted(notes, key=lambda f: f.marker)      # footnote markers of Schedule rows, in order of use
    rows = []
    expected = 1
    for outside, bracketed, toks in groups:
        lead, name_words, numbers = _split_row(toks, source)
        if bracketed:
            serial, footnote = _amended_serial(outside, "".join(lead), name_words, pending, by_marker, source)
            pending = [p for p in pending if p.marker != footnote.marker]
        else:
            if len(lead) != 1:
                raise ScheduleParseError(f"row {' '.join(lead)!r} {' '.join(name_words)!r}: expected one serial "
                                         f"number", file=source)
            serial, footnote = int(lead[0]), None
        if serial != expected:
            raise ScheduleParseError(f"serial {serial} ({' '.join(name_words)}) where {expected} was expected",
                                     file=source)
        expected += 1
        rows.append(_row(serial, name_words, numbers, footnote, source))
    return rows


def _split_row(toks: list[str], source: str) -> tuple[list[str], list[str], list[str]]:
    """A row's tokens as (the digits before the name: marker and serial, col. 1; the name, col. 2; the
    numbers, col. 3-7)."""
    first_word = next((k for k, x in enumerate(toks) if _is_word(x)), None)
    if first_word is None:
        raise ScheduleParseError(f"a row without a district name: {' '.join(toks)!r}", file=source)
    lead = toks[:first_word]
    k = first_word
    name_words = []
    while k < len(toks) and _is_word(toks[k]):
        name_words.append(toks[k])
        k += 1
    numbers = toks[k:]
    if any(not _is_num(x) for x in numbers):
        raise ScheduleParseError(f"unexpected text in the row of {' '.join(name_words)!r}: "
                                 f"{' '.join(numbers)!r}", file=source)
    return lead, name_words, numbers


def _amended_serial(outside, digits: str, name_words, pending: list[Footnote], by_marker: dict,
                    source: str) -> tuple[int, Footnote]:
    """The serial and the amendment footnote of a bracketed (substituted) row: the leading digits are the
    footnote's marker glued to the serial; the footnote must name that serial."""
    if outside is not None:
        marker, serial_s = outside, digits
    else:
        f = pending[0] if pending else None
        if f is None or not digits.startswith(str(f.marker)):
            raise ScheduleParseError(f"bracketed row {digits!r} {' '.join(name_words)!r} has no matching "
                                     f"amendment footnote", file=source)
        marker, serial_s = f.marker, digits[len(str(f.marker)):]
    footnote = by_marker.get(marker)
    if footnote is None or not serial_s.isdigit():
        raise ScheduleParseError(f"footnote {marker} for {' '.join(name_words)!r} is not in the text",
                                 file=source)
    serial = int(serial_s)
    if footnote.target != serial:
        raise ScheduleParseError(f"footnote {marker} names serial {footnote.target} but the row reads "
                                 f"{serial}", file=source)
    return serial, footnote


def _row(serial: int, name_words: list[str], numbers: list[str], footnote: Footnote | None, source: str) -> dict:
    """Columns 3-7 of one row; four numbers: column 5 (clause (e)) is blank (the 15-member rows)."""
    nums = [int(x) for x in numbers]
    if len(nums) == 5:
        s42, abd, e, s44, total = nums
    elif len(nums) == 4:
        s42, abd, s44, total = nums
        e = None
    else:
        raise ScheduleParseError(f"serial {serial} ({' '.join(name_words)}): {len(nums)} numbers, expected "
                                 f"4 or 5", file=source)
    return {"serial": serial, "name_in_schedule": " ".join(name_words), "s4_2": s42, "s4_4_abd": abd,
            "s4_4_e": e, "s4_4": s44, "total": total,
            "amendment": footnote.amendment if footnote else "",
            "amended_on": footnote.dated.isoformat() if footnote else "",
            "footnote": footnote.marker if footnote else None}


def _resolve_districts(df: pd.DataFrame, source: str) -> pd.DataFrame:
    """Col. 2 as printed -> the LGD district (one Schedule row per district)."""
    cw = crosswalk()
    codes, names = [], []
    for printed, serial in zip(df["name_in_schedule"], df["serial"]):
        try:
            code = cw.resolve(printed)
        except KeyError as e:
            raise ScheduleParseError(f"Schedule serial {serial}: {e.args[0]}", file=source,
                                     column="name_in_schedule") from None
        codes.append(code)
        names.append(cw.name_en(code))
    df["district_lgd_code"] = codes
    df["district"] = names
    dup = df[df["district_lgd_code"].duplicated(keep=False)]
    if len(dup):
        raise ScheduleParseError(f"two Schedule rows name the same district: {', '.join(dup['name_in_schedule'])}",
                                 file=source)
    return df


def _checked(df: pd.DataFrame) -> pd.DataFrame:
    """r.3(1) and the Schedule: every row's check (see :func:`_check`) and the clause that makes it law."""
    df["s4_4_e"] = df["s4_4_e"].astype("Int64")
    df["footnote"] = df["footnote"].astype("Int64")
    df["check"] = [_check(r) for r in df.itertuples()]
    df["clause"] = [SCHEDULE_CLAUSE + (f" (row substituted by the {a} dated {d})" if a else "")
                    for a, d in zip(df["amendment"], df["amended_on"])]
    cols = ["serial", "name_in_schedule", "district_lgd_code", "district", "s4_2", "s4_4_abd", "s4_4_e", "s4_4",
            "total", "amendment", "amended_on", "check", "clause"]
    return df[cols]


def _check(r) -> str:
    e = 0 if pd.isna(r.s4_4_e) else int(r.s4_4_e)
    problems = []
    if r.s4_2 + r.s4_4 != r.total:
        problems.append(f"col.3 + col.6 = {r.s4_2} + {r.s4_4} = {r.s4_2 + r.s4_4}, not the total {r.total}")
    if r.s4_4_abd + e != r.s4_4:
        problems.append(f"col.4 + col.5 = {r.s4_4_abd} + {e} = {r.s4_4_abd + e}, not col.6 = {r.s4_4}")
    if 5 * r.s4_2 < 4 * r.total:
        problems.append(f"elected members {r.s4_2} are less than four-fifths of {r.total} (Art. 243ZD(2)(a))")
    return "ok" if not problems else "; ".join(problems)


@lru_cache(maxsize=8)
def _load(path_str: str) -> pd.DataFrame:
    try:
        text = nfc(Path(path_str).read_text(encoding="utf-8"))
    except UnicodeDecodeError as e:
        raise InputError(f"not UTF-8 text ({e.reason} at byte {e.start})", file=path_str) from None
    return parse_schedule(text, source=path_str)


def load_schedule(path=None) -> pd.DataFrame:
    """The parsed Schedule (a copy; see :data:`SCHEDULE_COLUMNS`). ``path`` defaults to :func:`seed_path`."""
    p = seed_path(path)
    df = _load(str(p)).copy()
    df.attrs["source"] = str(p)
    return df
