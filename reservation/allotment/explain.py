"""Explaining one unit: its history, every rule step that touched it, in order, and the final decision."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..base.errors import InputError
from ..law.categories import CODES
from ..law.decisions import Status
from ..law.words import ANSWER_WORDS, BODY_TITLES_HI, STATUS_WORDS, category_label, units_word
from ..law.words_codes import EXPLAIN_PLACE, EXPLAIN_WORDS, category_words_hi

__all__ = ["explain_text", "resolve_unit", "answer_lines"]


def resolve_unit(allotment, unit) -> int:
    """An LGD code or a name (English, Hindi, former name, spelling variant) -> a unit code of the table. A name
    this body does not hold but another body with shipped units does (a Palika Parishad asked of the Nagar
    Panchayats, a block asked of the districts) is refused with the bodies that hold it."""
    resolve = allotment.resolve
    try:
        return resolve(unit)
    except KeyError as e:
        msg = str(e.args[0])
        held = _held_elsewhere(allotment, unit)
        if held:                        # the nearest names of this body would mislead: it is another body's
            msg = f"{getattr(e, 'plain', msg)}; {unit!r} is {' and '.join(held)}"
        raise InputError(msg, column="unit") from None


def _held_elsewhere(allotment, unit) -> list[str]:
    """The other bodies with shipped units that hold a unit of this name: ["a block (Kshetra Panchayat pramukhs
    (block chairs): --body kp-chair)", ...]. Read only when a name is not found."""
    from ..rules.registry import all_rulebooks
    out = []
    for body, rb in all_rulebooks().items():
        if body == allotment.body or rb.units_file == "required":
            continue
        year = allotment.year if allotment.year in rb.offered_years else rb.offered_years[0]
        try:
            rb.load_units(None, year, rb.option_set()).resolve(unit)
        except (KeyError, InputError, OSError):   # a hint only: a list that cannot be read gives none
            continue
        out.append(f"{'an' if rb.unit_kind[0] in 'aeiou' else 'a'} {rb.unit_kind} ({rb.title}: --body {body})")
    return out


def explain_text(allotment, unit, lang: str = "en") -> str:
    """The text ``reservation explain`` prints, in ``lang``: first what a reader needs (the published category and
    its source, what the law allows with public data, which unknown decides between them, what the stand-in chose
    and why; for a unit that differs from the published list, that first; for an election not yet held, the
    projection's probabilities when they are attached: :mod:`reservation.answers.future`), then the decision, reason, clause, history and each step in order."""
    from ..law.words import check_lang
    lang = check_lang(lang)
    code = resolve_unit(allotment, unit)
    row = allotment.table_in(lang)[allotment.table["unit_code"] == code].iloc[0]
    meta = allotment.meta
    ew, say = EXPLAIN_WORDS[lang], _sayer(lang)
    body = meta["body"] if lang == "en" else BODY_TITLES_HI.get(meta["body"], meta["body"])
    lines = [_unit_line(row, code, lang),
             ew["header"].format(body=body, year=meta["year"], category=say(row["category"]))]
    pos = int(np.flatnonzero(allotment.engine.codes == code)[0])
    if allotment.answer is not None:
        lines[1:1] = answer_lines(allotment, pos, lang)
    lines += [ew["reason"].format(text=row["reason"]), ew["clause"].format(text=row["clause"])]
    if allotment.history is not None:
        h = allotment.history[allotment.history["unit_code"] == code]
        held = ", ".join(f"{y}: {say(c)} ({src})" for y, c, src in zip(h["year"], h["category"], _sources(h, lang)))
        lines.append(ew["history"].format(held=held or ew["no_record"], base=meta["base_year"]))
    lines.append(ANSWER_WORDS[lang]["trace"])
    for i, s in enumerate(allotment.explain(code, lang=lang).to_dict("records"), start=1):
        lines.append(_step_line(ew, say, i, s))
    return "\n".join(lines)


def _unit_line(row, code: int, lang: str) -> str:
    """The first line: "Agra (आगरा), LGD 118, Agra division"; Hindi: "आगरा (Agra), LGD कोड 118, आगरा मण्डल" (a place
    the data name in Hindi by its Hindi name; one they do not, as the data hold it)."""
    pw = EXPLAIN_PLACE[lang]
    own = row["district"] == row["unit_name_en"]
    district, division = str(row["district"]), str(row["division"])
    if lang == "hi":
        name, other = row["unit_name_hi"] or row["unit_name_en"], row["unit_name_en"] if row["unit_name_hi"] else ""
        district, division = _hindi_place("district", district), _hindi_place("division", division)
    else:
        name, other = row["unit_name_en"], row["unit_name_hi"]
    where = pw["division" if own else "district"].format(district=district, division=division)
    return pw["unit"].format(name=name, other=other or pw["no_other"], code=code, where=where)


def _sources(h: pd.DataFrame, lang: str) -> list[str]:
    """Each history record's source: as the reader wrote it ("zp-chair.csv row 2"); in another language from the
    typed file and row the reader keeps (``_file``, ``_row``: "zp-chair.csv पंक्ति 2"), else as written."""
    if lang == "en" or "_file" not in h.columns or "_row" not in h.columns:
        return [str(x) for x in h["source"]]
    fmt = EXPLAIN_PLACE[lang]["source"]
    return [fmt.format(file=f, row=int(r)) if isinstance(f, str) and f and not pd.isna(r) else str(src)
            for f, r, src in zip(h["_file"], h["_row"], h["source"])]


def _hindi_place(kind: str, name_en: str) -> str:
    """A district's or division's Hindi name from the shipped tables (the English one where they lack it)."""
    from ..inputs.units import load_districts, load_divisions
    t = load_districts() if kind == "district" else load_divisions()
    col = "unit_name_en" if kind == "district" else "division"
    hi = t.loc[t[col] == name_en, "unit_name_hi" if kind == "district" else "division_hi"]
    return str(hi.iloc[0]) if len(hi) and str(hi.iloc[0]).strip() else name_en


def _sayer(lang: str):
    """A category code as a sentence in ``lang`` says it: the code in English, the category's words in Hindi."""
    return (lambda c: str(c)) if lang == "en" else (lambda c: category_words_hi(str(c)) if str(c) else "")


def _step_line(ew: dict, say, i: int, s: dict) -> str:
    """One step of the trace (a row of ``Allotment.explain``) as a line of ``reservation explain``."""
    parts = []
    if not pd.isna(s["rank"]):
        parts.append(ew["rank"].format(rank=s["rank"], pool=s["pool"], key=s["key"]))
    if not pd.isna(s["tier"]):
        parts.append(ew["tier"].format(tier=s["tier"], words=s["tier_reason"]))
    parts.append(ew["decision"].format(text=s["detail"]))
    if s["tie_break"]:
        parts.append(ew["tie"].format(text=s["tie_break"]))
    parts.append(ew["step_clause"].format(text=s["clause"]))
    return ew["step"].format(i=i, name=say(s["pass"])) + "; ".join(parts)


def _missing_units(allotment, lang: str, most: int = 6) -> str:
    """The units whose record a counted election's list lacks, with the year: "Gautam Buddh Nagar (2015)"."""
    a = allotment.answer
    col = "unit_name_en" if lang == "en" else "unit_name_hi"
    names = dict(zip(allotment.units["unit_code"].astype(np.int64), allotment.units[col].astype(str)))
    got = [f"{names.get(int(allotment.engine.codes[i]), allotment.engine.codes[i])} ({y})"
           for y, m in sorted(a.missing.items()) for i in np.flatnonzero(m)]
    return ", ".join(got[:most]) + (f" (+{len(got) - most})" if len(got) > most else "")


def answer_lines(allotment, pos: int, lang: str = "en") -> list[str]:
    """The answer of the unit at engine position ``pos`` in words (typed data -> words, here only): the
    difference from the published list first where there is one, then the published category and its source,
    the possible categories, the status, which unknown decides, the stand-in's choice, and the probabilities
    attached to the allotment (an election not yet held), if any."""
    a = allotment.answer
    w, sw = ANSWER_WORDS[lang], STATUS_WORDS[lang]
    category = str(allotment.engine.category_codes()[pos])
    published = str(a.published[pos])
    possible = a.possible_codes(pos)
    status = str(a.status[pos])
    kind = allotment.unit_kind if lang == "en" else units_word(allotment.unit_kind, 1, "hi")
    say = _sayer(lang)

    def named(c):       # "OBC_W (Other Backward Classes (women))"; Hindi: the words, the code in code style
        return f"{c} ({category_label(c, lang)})" if lang == "en" else f"{category_label(c, lang)} (`{c}`)"
    out = []
    if status == Status.DIFFERS_PUBLISHED.value:
        key = "differs" if a.source is not None and a.source.shipped else "differs_user"
        out.append(w[key].format(published=say(published), category=say(category)))
    if a.source is None:
        out.append(w["published_none"])
    else:
        src = (w["shipped_list"].format(file=a.source.file) if a.source.shipped else w["user_list"]
               + f" ({a.source.file})") + (", " + w["source_date"].format(date=a.source.date) if a.source.date else "")
        out.append(_published_line(w, lang, published, src) if published else
                   w["published_absent"].format(source=src))
    out.append(w["possible"].format(codes=", ".join(named(c) for c in possible)))
    if published and published not in possible:
        out.append(w["outside"])
    out.append(w["status"].format(status=status if lang == "en" else sw[status][0], sentence=sw[status][1]))
    years = a.missing_years(pos)
    obc_open = bool(a.possible_obc is not None and bin(int(a.possible_obc[pos])).count("1") > 1)
    deciders = []
    if obc_open and not a.obc_given:
        deciders.append(w["decides_obc"].format(kind=kind))
    widened = a.possible[pos] != (a.possible_obc[pos] if a.possible_obc is not None else a.possible[pos])
    if years and widened:
        deciders.append(w["decides_list"].format(years=", ".join(map(str, years))))
    elif widened:       # its own record is held: another unit's missing record moves its pass (order, division)
        deciders.append(w["decides_list_other"].format(units=_missing_units(allotment, lang)))
    out += deciders or ([w["decides_none"]] if len(possible) == 1 else [])
    why = [w["stand_in_given"]] if a.obc_given else [w["stand_in_obc"].format(kind=kind)]
    if years:
        why.append(w["stand_in_list"])
    out.append(w["stand_in"].format(category=say(category) if lang == "hi" else category,
                                    label=f"`{category}`" if lang == "hi" else category_label(category, lang),
                                    why="; ".join(why)))
    rec = allotment.probability_record
    if allotment.probabilities is not None:
        probs = ", ".join(f"{say(c)} {p:.3f}" for c, p in zip(CODES, allotment.probabilities[pos]) if p > 0)
        out.append(w["probabilities"].format(samples=rec["samples"], seed=rec["seed"], probs=probs))
        if status == Status.DEPENDS_LIST.value:
            out.append(w["probabilities_list"].format(years=", ".join(map(str, years))))
    elif rec is not None and rec.get("refused"):
        out.append(w["probabilities_refused"].format(why=rec["refused"]))
    return ["  " + x for x in out]


def _published_line(w: dict, lang: str, published: str, src: str) -> str:
    """The published category and its source ("W (Women), ..."; Hindi: "महिला (`W`), ...")."""
    if lang == "en":
        return w["published"].format(published=published, label=category_label(published, lang), source=src)
    return w["published"].format(published=category_label(published, lang), label=f"`{published}`", source=src)
