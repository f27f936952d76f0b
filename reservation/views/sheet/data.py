"""What a district's sheet says, as data (:func:`sheet_data`) and as the cells the page draws (:func:`cells`).

Every figure is the package's: the allotments of the Zila Panchayat chair, the block pramukhs, the urban chairs and
the gram pradhans (:func:`reservation.allotment.pipeline.allot`, with the answer columns ``published``, ``status``,
``possible`` of :mod:`reservation.allotment.answer`), and the earlier records from the lists the package ships (the
history layer, :func:`reservation.history.places.shipped_records`, as ``reservation history`` reads them). A year
whose list we hold but which names no office placed on the unit, and a year whose list we do not hold, stay unknown
(``?`` and ``–`` in the tables), never "not reserved".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from ...base.errors import InputError

__all__ = ["Row", "Sheet", "URBAN_BODIES", "default_years", "check_years", "find_district", "sheet_data", "EARLIER"]

#: the urban chairs a sheet lists, in the order of the table
URBAN_BODIES = ("mayor", "pp-chair", "np-chair")
#: how many earlier elections a row shows (the last ones before the year: 2015, 2010, 2005 for 2021)
EARLIER = 3


@dataclass(frozen=True)
class Row:
    """One office: ``body``, its unit ``code`` and ``name`` (in the sheet's language), the ``category`` computed,
    the answer's ``status`` and ``possible`` codes, ``published`` (the published list's code at the election, else
    the record of that year in the shipped lists, else ""), ``published_from`` (``list``, ``record`` or ``""``:
    no list of the election is held, ``absent``: a list is held but does not name the unit), and ``earlier``:
    ``(year, category, state)`` for earlier elections, newest first (``state``: ``listed``, ``not_in_list``,
    ``not_placed``, ``no_list``; category "" when unknown)."""

    body: str
    code: int
    name: str
    category: str
    status: str
    possible: tuple
    published: str
    published_from: str
    earlier: tuple


@dataclass
class Sheet:
    """A district's sheet: the district (LGD ``code``, ``name`` in ``lang``, ``division``), the years, the Zila
    Panchayat chair (``zp``), the blocks
    and towns (rows sorted by name), the gram pradhans' counts by category (``pradhans``; empty when LGD lists
    none) and their figures (``figures``: partial / none counts), and the published lists read (``lists``:
    ``(body, year, date)``)."""

    code: int
    name: str
    division: str
    lang: str
    panchayat_year: int
    urban_year: int
    zp: Row
    blocks: list
    towns: list
    pradhans: dict
    figures: dict
    lists: list = field(default_factory=list)
    version: str = ""
    name_en: str = ""


def default_years() -> tuple[int, int]:
    """The latest elections held: the panchayats' and the urban bodies' (from the rulebooks' calendars)."""
    from ...rules.registry import get_rulebook
    return max(get_rulebook("zp-chair").years.elections), max(get_rulebook("mayor").years.elections)


def check_years(panchayat_year: int, urban_year: int) -> None:
    """The sheet computes elections held: panchayats from the Zila Panchayat chairs' default base year on (2015,
    2021), the urban bodies' held years (only 2023 has its rules in the package: the pipeline refuses the others
    with exit status 3). A year between elections, before the base year or not yet held: an InputError naming the
    option (an election not yet held has no list beside it to print: ``reservation allot`` and ``project``
    compute it)."""
    from ...rules.registry import get_rulebook
    for flag, body, year in (("--panchayat-year", "zp-chair", panchayat_year), ("--urban-year", "mayor", urban_year)):
        rb = get_rulebook(body)
        held = [y for y in rb.years.elections if y >= (rb.default_base_year or 0)]
        if year not in rb.years.elections or year not in held and flag == "--panchayat-year":
            raise InputError(f"{year} is not an election the sheet computes: elections held from "
                             f"{min(held)}: {', '.join(map(str, held))} (an election not yet held: reservation "
                             "allot or project)", option=flag)


def find_district(name) -> int:
    """The LGD code of a district named in English or Hindi (or its code), as the other commands resolve it; an
    InputError (``--district``) with the nearest names otherwise."""
    from ...inputs.names import crosswalk
    if name is None or str(name).strip() == "":
        raise InputError("give a district name, e.g. --district Lucknow", option="--district")
    try:
        return int(crosswalk().resolve(name))
    except KeyError as e:
        raise InputError(str(e.args[0]), option="--district") from None


@lru_cache(maxsize=16)
def _allot(body: str, year: int):
    """The allotment of ``body`` at ``year`` with the rulebook's defaults, once per process (a report's sheets of
    75 districts read the same six)."""
    from ...allotment.pipeline import allot
    return allot(body, year)


def _shipped(body: str, codes, year: int) -> dict:
    """``{(unit, year): category}`` of the shipped lists for ``codes``, and the years listed / shipped unplaced."""
    from ...history.places import shipped_records
    r = shipped_records(body)
    r = r[r["unit_code"].isin(list(codes)) & (r["category"] != "")]
    known = {(int(u), int(y)): c for u, y, c in zip(r["unit_code"], r["year"], r["category"])}
    return known, set(r.attrs.get("years", [])), set(r.attrs.get("unplaced_years", {}))


def _earlier_records(code: int, years, known, listed, unplaced) -> tuple:
    out = []
    for y in years:
        c = known.get((code, y), "")
        state = "listed" if c else "not_in_list" if y in listed else "not_placed" if y in unplaced else "no_list"
        out.append((y, c, state))
    return tuple(out)


def _rows(result, body: str, district_en: str, lang: str) -> list[Row]:
    """The rows of ``result`` (an allotment) in the district, by name in ``lang``."""
    from ...rules.registry import get_rulebook
    t = result.table
    t = t[t["district"] == district_en]
    year = int(result.meta["year"])
    elections = [y for y in get_rulebook(body).years.elections if y < year]
    years = sorted(elections, reverse=True)[:EARLIER]
    codes = t["unit_code"].astype(int).tolist()
    known, listed, unplaced = _shipped(body, codes, year)
    has_list = result.answer is not None and result.answer.source is not None
    rows = []
    for r in t.to_dict("records"):
        code = int(r["unit_code"])
        name = (r["unit_name_hi"] if lang == "hi" else r["unit_name_en"]) or r["unit_name_en"] or str(code)
        published, source = str(r["published"] or ""), "list"
        if not published:
            published = known.get((code, year), "")
            source = "record" if published else "absent" if has_list else ""
        rows.append(Row(body, code, str(name), str(r["category"]), str(r["status"]),
                        tuple(p for p in str(r["possible"]).split("|") if p), published, source,
                        _earlier_records(code, years, known, listed, unplaced)))
    return sorted(rows, key=lambda x: (x.name, x.code))


def _pradhans(year: int, district_en: str) -> tuple[dict, dict]:
    from ...law.categories import CODES
    t = _allot("gp-pradhan", year).table
    t = t[t["district"] == district_en]
    n = t["category"].value_counts()
    fig = t["figures"].value_counts()
    return ({c: int(n.get(c, 0)) for c in CODES if n.get(c, 0)},
            {k: int(fig.get(k, 0)) for k in ("partial", "none")} | {"all": int(len(t))})


def sheet_data(district, *, panchayat_year: int | None = None, urban_year: int | None = None,
               lang: str = "en") -> Sheet:
    """The sheet of ``district`` (a name in English or Hindi, or its LGD code) for the panchayat and urban
    elections given (default: the latest held, :func:`default_years`)."""
    from ...base.version import __version__
    from ...inputs.names import crosswalk
    from ...law.langs import check_lang
    check_lang(lang)
    code = find_district(district)
    py, uy = default_years()
    py, uy = panchayat_year or py, urban_year or uy
    check_years(py, uy)
    cw = crosswalk()
    en = cw.name_en(code)
    zp = _allot("zp-chair", py)
    zrow = _rows(zp, "zp-chair", en, lang)
    if not zrow:
        raise InputError(f"the district {en} has no Zila Panchayat in {py}", option="--district")
    units = zp.units[zp.units["unit_code"].astype(int) == code]
    division = str(units["division_hi" if lang == "hi" else "division"].iat[0])
    kp = _allot("kp-chair", py)
    urban = [_allot(b, uy) for b in URBAN_BODIES]
    towns = sorted((r for res, b in zip(urban, URBAN_BODIES) for r in _rows(res, b, en, lang)),
                   key=lambda x: (URBAN_BODIES.index(x.body), x.name, x.code))
    pradhans, figures = _pradhans(py, en)
    lists = [(b, int(res.meta["year"]), res.answer.source.date) for b, res in
             [("zp-chair", zp), ("kp-chair", kp)] + list(zip(URBAN_BODIES, urban))
             if res.answer is not None and res.answer.source is not None]
    return Sheet(code, cw.label(code, lang), division, lang, py, uy, zrow[0], _rows(kp, "kp-chair", en, lang),
                 towns, pradhans, figures, lists, __version__, en)
