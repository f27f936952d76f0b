"""The district sheets of a report (``reservation report --pdf``): the one-page PDF of every district of the
report's divisions (:mod:`reservation.views.sheet`), in English and Hindi, written into the report's folder
(``sheet-SLUG-en.pdf``, ``sheet-SLUG-hi.pdf``: the folder is flat) before it is published, and linked from the index.

The sheet's elections follow the report's: a panchayat body's report gives the panchayat year (the urban year the
latest held), an urban body's the urban year. A report of an election the sheet does not compute (an election not
yet held, or one before the base year) with ``--pdf`` is refused before anything runs."""

from __future__ import annotations

from pathlib import Path

from ..base.errors import InputError

__all__ = ["URBAN", "sheet_years", "write_sheets"]

#: the bodies whose year is the sheet's urban year (the others are panchayat bodies)
URBAN = ("mayor", "pp-chair", "np-chair")


def sheet_years(body: str, year: int) -> tuple[int, int]:
    """The sheet's (panchayat year, urban year) for a report of ``body`` at ``year``; an InputError (``--pdf``)
    when the sheet does not compute that election."""
    from ..views.sheet.data import check_years, default_years
    py, uy = default_years()
    py, uy = (py, year) if body in URBAN else (year, uy)
    try:
        check_years(py, uy)
    except InputError as e:
        raise InputError(f"the district sheets are for elections held: {e.args[0]}", option="--pdf") from None
    return py, uy


def write_sheets(work: Path, p: dict) -> list[dict]:
    """Write the sheets of the districts of ``p["divisions"]`` into ``work``; returns one entry per
    district (``district``, ``district_hi``, ``division``, ``files``: the paths relative to ``work``)."""
    from ..allotment.pipeline import allot
    from ..views import slug
    from ..views.sheet import sheet_data, sheet_pdf
    py, uy = p["sheets"]
    t = allot("zp-chair", py).table
    t = t[t["division"].isin(list(p["divisions"]))].sort_values(["division", "district"], kind="stable")
    out = []
    for code, district, name_hi, division in zip(t["unit_code"], t["district"], t["unit_name_hi"], t["division"]):
        files = []
        for lang in ("en", "hi"):
            name = f"sheet-{slug(district)}-{lang}.pdf"
            (work / name).write_bytes(sheet_pdf(sheet_data(int(code), panchayat_year=py, urban_year=uy, lang=lang)))
            files.append(name)
        out.append({"district": district, "district_hi": name_hi, "division": division, "files": files})
    return out
