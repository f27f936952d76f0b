"""Build the printable worksheet of docs/teaching.md: docs/worksheet-en.pdf and docs/worksheet-hi.pdf.

    .venv/bin/python docs/worksheet.py            # writes docs/worksheet-en.pdf and docs/worksheet-hi.pdf
    .venv/bin/python docs/worksheet.py --out DIR  # elsewhere

Three A4 pages per language: the five-district toy state with six questions, the division-rule toy state with
three, and the answers on a page of their own. The words are docs/worksheet.toml; every name, number and answer
is computed here from the toy states through the package's rules (reservation.views.toy), so the answers are
what the rules give (tests/test_worksheet.py checks them against the hand-worked ones). Drawn by the package's
A4 pages (reservation.views.pdf: matplotlib's PDF backend, the maps' font, each word placed where Agg shapes it, no
creation date, so the same inputs give the same bytes).
"""

from __future__ import annotations

import argparse
import sys
import tomllib
from fractions import Fraction
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
WORDS = HERE / "worksheet.toml"


def _pct(x: Fraction, places: int = 2) -> str:
    """A share as a percentage, exact half-up to ``places`` decimals (display only)."""
    scaled = x * 100 * 10 ** places
    n = (scaled.numerator * 2 + scaled.denominator) // (2 * scaled.denominator)
    return f"{n // 10 ** places}.{n % 10 ** places:0{places}d} %"


def _num(x: Fraction, places: int = 2) -> str:
    return _pct(x / 100, places).removesuffix(" %")


class _Toy:
    """One toy state computed by the package, read for the worksheet."""

    def __init__(self, state: str, lang: str):
        from reservation.views.toy import toy_allotment, toy_state, toy_steps
        from reservation.views.places import unit_names
        self.r = toy_allotment(state=state)
        self.lang = lang
        self.steps = toy_steps(self.r, lang)
        t = self.r.table
        self.name = dict(zip(t["unit_code"].astype(int), unit_names(t, lang)))
        u = self.r.units
        self.pop = dict(zip(u["unit_code"].astype(int), u["pop"].astype(int)))
        self.sc = dict(zip(u["unit_code"].astype(int), u["sc"].astype(int)))
        div = u["division_hi"] if lang == "hi" else u["division"]
        self.division = dict(zip(u["unit_code"].astype(int), div))
        self.count = dict(zip(self.r.counts["category"], self.r.counts["count"].astype(int)))
        sc_step = int(self.pass_rows("SC_W+SC")["step"].iat[0])
        self.at_sc = toy_state(self.r, self.steps, sc_step, lang).set_index("unit_code")
        obc = self.pass_rows("OBC_W+OBC")
        self.at_obc = toy_state(self.r, self.steps, int(obc["step"].iat[0]), lang).set_index("unit_code")

    def pass_rows(self, name: str):
        return self.steps[self.steps["pass"] == name]

    def ranked(self, name: str):
        """The pass's rows (one unit each) in order of the share ranked."""
        rows = self.pass_rows(name)
        return rows[rows["rank"].notna()].sort_values("rank")

    def one(self, rows, decision: str) -> list[int]:
        return [int(r["unit_codes"][0]) for _, r in rows.iterrows() if r["decision"] == decision]

    def coded(self, codes) -> str:
        cat = dict(zip(self.r.table["unit_code"].astype(int), self.r.table["category"]))
        return ", ".join(f"{self.name[c]} {cat[c]}" for c in codes)

    def earlier(self, code: int) -> str:
        """The unit's category at the last election of the history (the code, read from the history)."""
        h = self.r.history
        h = h[(h["year"] == self.r.engine.rotation.last_year) & (h["unit_code"] == code)]
        return str(h["category"].iat[0])

    def share(self, pass_name: str, code: int) -> Fraction:
        """The share the pass ranked the unit by, exact (the engine's key)."""
        rec = [rec for rec in self.r.engine.records if rec.spec.name == pass_name][0]
        pos = int(np.flatnonzero(self.r.engine.codes == code)[0])
        return Fraction(int(rec.spec.key.num[pos]), int(rec.spec.key.den[pos]))

    def table_rows(self, none: str) -> list[list[str]]:
        return [[self.name[c], self.division[c], f"{self.pop[c]:,}", f"{self.sc[c]:,}",
                 self.at_sc.at[c, "share"], self.at_sc.at[c, "earlier"] or none] for c in self.at_sc.index]


def answers(lang: str) -> dict[str, str]:
    """The values of the worksheet's {placeholders} in ``lang``, computed from the two toy states."""
    from reservation.law.rounding import half_up
    five, div = _Toy("five", lang), _Toy("division", lang)
    n = five.count["TOTAL"]
    sc_share = Fraction(sum(five.sc.values()), sum(five.pop.values()))
    sc = five.ranked("SC_W+SC")
    top = int(sc["unit_codes"].iat[0][0])
    sc_win = five.one(five.pass_rows("SC_W+SC"), "allotted")
    obc_rows = five.pass_rows("OBC_W+OBC")
    obc_share = five.share("OBC_W+OBC", int(obc_rows["unit_codes"].iat[0][0]))    # every district: the State's
    obc_win = five.one(obc_rows, "allotted")
    obc_last = int(obc_rows["unit_codes"].iat[-1][0])              # last in rotation order
    cat = dict(zip(five.r.table["unit_code"].astype(int), five.r.table["category"]))
    dsc = div.ranked("SC_W+SC")
    first, second = int(dsc["unit_codes"].iat[0][0]), int(dsc["unit_codes"].iat[1][0])
    freed = div.one(div.pass_rows("SC_W+SC"), "left_out_division")[0]
    other = [c for c in div.division if div.division[c] == div.division[freed] and c != freed][0]
    return {
        "sc_state": _pct(sc_share), "sc_product": _num(n * sc_share),
        "sc_posts": str(five.count["SC_W"] + five.count["SC"]), "sc_women": str(five.count["SC_W"]),
        "sc_codes": f"SC_W {five.count['SC_W']}, SC {five.count['SC']}",
        "sc_order": ", ".join(f"{five.name[int(r['unit_codes'][0])]} {five.at_sc.at[int(r['unit_codes'][0]), 'share']}"
                              for _, r in sc.iterrows()),
        "top": five.name[top], "top_last": five.earlier(top),
        "sc_winner": five.name[sc_win[0]], "sc_winner_code": cat[sc_win[0]],
        "obc_state": five.at_obc["share"].iat[0], "obc_product": _num(n * obc_share),
        "obc_rounded": str(half_up(n * obc_share)),
        "obc_posts": str(five.count["OBC_W"] + five.count["OBC"]),
        "obc_codes": f"OBC_W {five.count['OBC_W']}, OBC {five.count['OBC']}",
        "obc_winner": five.name[obc_win[0]], "obc_winner_code": cat[obc_win[0]],
        "obc_last": five.name[obc_last], "obc_last_last": five.earlier(obc_last),
        "final": five.coded(sorted(five.name)),
        "div_first": f"{div.name[first]} ({div.at_sc.at[first, 'share']})",
        "div_second": f"{div.name[second]} ({div.at_sc.at[second, 'share']})",
        "div_first_name": div.name[other], "div_first_pop": f"{div.pop[other]:,}",
        "div_division": div.division[freed],
        "div_sc": div.coded(div.one(div.pass_rows("SC_W+SC"), "allotted")),
        "div_freed": div.name[freed], "div_freed_pop": f"{div.pop[freed]:,}",
        "div_obc": div.coded(div.one(div.pass_rows("OBC_W+OBC"), "allotted")),
        "div_final": div.coded(sorted(div.name)),
    }


def tables(lang: str, none: str) -> tuple[list, list]:
    return _Toy("five", lang).table_rows(none), _Toy("division", lang).table_rows(none)


# ------------------------------------------------------------------------------------------------- drawing

_COLUMNS = [0.07, 0.20, 0.33, 0.44, 0.57, 0.72]         # x of the toy tables' columns


def build(lang: str) -> bytes:
    """The worksheet in ``lang`` as PDF bytes (three pages), drawn by reservation.views.pdf."""
    from reservation.views.pdf import Page, pdf_document
    w = tomllib.loads(WORDS.read_text(encoding="utf-8"))[lang]
    values = answers(lang)
    five, division = tables(lang, w["none"])
    width = 92 if lang == "en" else 100

    def pages(families):
        p = Page(width, families)
        p.text(w["title"], 15, wrap=70)
        p.text(w["subtitle"], 10, gap=0.012)
        p.text(w["name_line"], 10, gap=0.02)
        p.text(w["part1"], 12.5)
        p.text(w["table1"], 10)
        p.table(w["columns"], five, _COLUMNS)
        for q in w["questions"][:6]:
            p.text(q.format(**values))
            p.lines(2)
        yield p
        p = Page(width, families)
        p.text(w["part2"], 12.5)
        p.text(w["table2"], 10)
        p.table(w["columns"], division, _COLUMNS)
        for q in w["questions"][6:]:
            p.text(q.format(**values))
            p.lines(3)
        yield p
        p = Page(width, families)
        p.text(w["answers_title"], 13, gap=0.015)
        for a in w["answers"]:
            p.text(a.format(**values), gap=0.014)
        yield p
    return pdf_document(lang, pages)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(HERE), help="folder of worksheet-en.pdf and worksheet-hi.pdf (default docs/)")
    args = ap.parse_args(argv)
    from reservation.output.guard import check_new_file
    from reservation.output.tables import publish
    out = Path(args.out)
    files = {}
    for lang in ("en", "hi"):
        path = check_new_file(out / f"worksheet-{lang}.pdf", flag="--out", force=True)
        files[path] = build(lang)
    publish(files)
    for path, data in files.items():
        print(f"wrote {path} ({len(data):,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
