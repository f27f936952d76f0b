"""The urban bodies of the 2023 law and the clauses of s.9-A(5): what the three urban chair bodies share.

s.9-A(5) (2023): s.9-A(5) of the UP Municipalities Act 1916 as substituted by the UP Urban Local Self Government Laws
(Amendment) Act 2023 (the text reached stops inside (d)); the Mayors: s.7 of the UP Municipal Corporations Act 1959.
The bodies, one module each: :mod:`.pp_chair` (Palika Parishad chairs), :mod:`.np_chair` (Nagar Panchayat chairs),
:mod:`.mayor` (Mayors). This module holds the body types the law knows, the clause table, and the reader of the
list of bodies (shipped or the user's); :mod:`.urban_divisions` shares offices among the divisions ((c)), and
:mod:`.urban` makes the State counts ((b)) and the rulebooks.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from pathlib import Path

import numpy as np
import pandas as pd

from ..base.errors import InputError
from ..inputs.names import crosswalk
from ..inputs.options import OptionSet
from ..inputs.units import DATA_DIR, int_column, load_districts, nfc, read_csv
from .parameters import value
from .rulebook import Years

__all__ = ["URBAN_YEARS", "URBAN_BODIES", "CLAUSE", "CLAUSE_HI", "LAW_HI", "BODY_LIST", "load_bodies", "body_index", "obc_share"]

#: The elections of the urban bodies (rules/params/elections.toml): the 2023 law is the only one the rulebooks
#: implement; a computation for an earlier election (2006, 2012, 2017) is refused, its list is history.
URBAN_YEARS = Years.of("urban")

#: body id -> LGD type code, titles, the unit in words, the law (the Dedicated Commission's statewide OBC share of
#: each type is a dated figure of rules/params/law.toml: ``<body>.obc_share``; docs/urban.md, [N #30]).
URBAN_BODIES = {
    "pp-chair": {"type": 5, "title": "Nagar Palika Parishad chairs", "title_hi": "नगर पालिका परिषद अध्यक्ष",
                 "short": "NPP", "unit": "Palika Parishad", "law": "s.9-A(5) UP Municipalities Act 1916 (2023)"},
    "np-chair": {"type": 7, "title": "Nagar Panchayat chairs", "title_hi": "नगर पंचायत अध्यक्ष", "short": "NP",
                 "unit": "Nagar Panchayat", "law": "s.9-A(5) UP Municipalities Act 1916 (2023)"},
    "mayor": {"type": 4, "title": "Mayors (Nagar Nigam chairs)", "title_hi": "महापौर (नगर निगम)", "short": "NN",
              "unit": "Nagar Nigam", "law": "s.7 UP Municipal Corporations Act 1959 (OBC proviso)"},
}
BODY_LIST = "urban_bodies_2023.csv"
_FIGURE_WORDS = {"census_town": "Census 2011 town", "census_ct": "Census 2011 Census Town (the body grew from it)",
                 "lgd_villages": "estimate: Census 2011 villages in the LGD coverage list",
                 "none": "none: no Census town and no LGD village coverage"}
_TYPE_NAMES = {"4": 4, "nn": 4, "nagar nigam": 4, "5": 5, "npp": 5, "nagar palika parishad": 5, "palika parishad": 5,
               "7": 7, "np": 7, "nagar panchayat": 7}

CLAUSE = {"b1": "s.9-A(5)(1)(b)(i) (SC/ST: share of the urban population of all bodies of the type, half-up)",
          "b2": "s.9-A(5)(1)(b)(ii) (OBC: proportional, not more than 27 %)",
          "b3": "s.9-A(5)(1)(b)(iii) (women of SC/ST/OBC: one-third)",
          "b4": "s.9-A(5)(1)(b)(iv) (women in all: not less than one-third)",
          "c": "s.9-A(5)(1)(c) (divisions: proportional, capped at the State proportion, remainder one office per "
               "division per cycle to divisions above the State share)",
          "cw": "women: the State's women of (b)(iii)/(iv) shared by the women cycle (integer part of the "
                "proportion, then one office per division at a time in descending order of share)",
          "d1": "s.9-A(5)(1)(d)(i) (SC in descending SC share, women first)",
          "d2": "s.9-A(5)(1)(d)(ii) (ST, leaving out the SC bodies)",
          "d3": "s.9-A(5)(1)(d)(iii) (OBC, leaving out the SC and ST bodies)",
          "d4": "s.9-A(5)(1)(d)(iv) (women, leaving out (i)-(iii), in descending share of women)",
          "mayor": "s.7 UP Municipal Corporations Act 1959 with the OBC proviso (docs/urban.md)",
          "mayor_w": "s.7 UP Municipal Corporations Act 1959 and Art. 243T(4): women not less than one-third of "
                     "the Mayors' offices, within SC/ST/OBC and in all (A1: rounded up)"}

_NPA = "उत्तर प्रदेश नगर पालिका अधिनियम 1916 की धारा 9-क(5)(1)"
#: :data:`CLAUSE` in Hindi (the same keys; docs/glossary.md): (a)(b)(c)(d) of the Act are (क)(ख)(ग)(घ) in Hindi.
CLAUSE_HI = {
    "b1": f"{_NPA}(ख)(i) (अनुसूचित जाति/अनुसूचित जनजाति: उस प्रकार के सभी निकायों की नगरीय जनसंख्या में अनुपात, शेष "
          "भाजक के आधे से कम न हो तो एक बढ़ाया गया)",
    "b2": f"{_NPA}(ख)(ii) (पिछड़े वर्ग: अनुपात में, 27 प्रतिशत से अधिक नहीं)",
    "b3": f"{_NPA}(ख)(iii) (अनुसूचित जाति/अनुसूचित जनजाति/पिछड़े वर्ग की स्त्रियाँ: एक-तिहाई)",
    "b4": f"{_NPA}(ख)(iv) (कुल स्त्रियाँ: एक-तिहाई से अन्यून)",
    "c": f"{_NPA}(ग) (मण्डल: अनुपात में, राज्य के अनुपात तक सीमित; शेष पद हर चक्र में राज्य के अनुपात से ऊपर वाले मण्डलों को "
         "एक-एक)",
    "cw": "स्त्रियाँ: (ख)(iii)/(iv) की राज्य की स्त्रियाँ स्त्री-चक्र से बाँटी गईं (अनुपात का पूर्णांक, फिर अनुपात के "
          "अवरोही क्रम में एक बार में एक मण्डल को एक पद)",
    "d1": f"{_NPA}(घ)(i) (अनुसूचित जाति, उसके अनुपात के अवरोही क्रम में, स्त्रियाँ पहले)",
    "d2": f"{_NPA}(घ)(ii) (अनुसूचित जनजाति, अनुसूचित जाति के निकायों को छोड़कर)",
    "d3": f"{_NPA}(घ)(iii) (पिछड़े वर्ग, अनुसूचित जाति और अनुसूचित जनजाति के निकायों को छोड़कर)",
    "d4": f"{_NPA}(घ)(iv) (स्त्रियाँ, (i)-(iii) को छोड़कर, स्त्रियों के अनुपात के अवरोही क्रम में)",
    "mayor": "उत्तर प्रदेश नगर निगम अधिनियम 1959 की धारा 7, पिछड़े वर्गों के परन्तुक सहित (docs/urban.md)",
    "mayor_w": "उत्तर प्रदेश नगर निगम अधिनियम 1959 की धारा 7 और अनुच्छेद 243न(4): महापौर के पदों में स्त्रियाँ एक-तिहाई "
               "से अन्यून, अनुसूचित जाति/अनुसूचित जनजाति/पिछड़े वर्ग के भीतर और कुल में (A1: ऊपर की ओर पूर्णांकित)"}

#: the law of each body type in Hindi (``URBAN_BODIES[body]["law"]``)
LAW_HI = {"pp-chair": "उत्तर प्रदेश नगर पालिका अधिनियम 1916 (2023) की धारा 9-क(5)",
          "np-chair": "उत्तर प्रदेश नगर पालिका अधिनियम 1916 (2023) की धारा 9-क(5)",
          "mayor": "उत्तर प्रदेश नगर निगम अधिनियम 1959 की धारा 7 (पिछड़े वर्गों का परन्तुक)"}


def load_bodies(body: str, path=None) -> tuple[pd.DataFrame, list[str]]:
    """The bodies of one type with their populations and where the figures come from.

    Shipped list (``path=None``): ``data/urban_bodies_2023.csv``, built by ``data/build/build_urban_bodies.py``
    from LGD 2020-22, a reviewed link table to the Census 2011 towns and the bodies created by the cabinet
    decisions of 2021-22 (data/README.md). Column ``figures`` says where a body's population comes from: a Census
    2011 town, the Census Town it grew from, the Census villages of its LGD coverage (an estimate), or ``none``
    (share 0, ranked last: the allotment table carries the column, so such a body never becomes unreserved
    silently).

    A user list (``path``): CSV ``unit, name_en, body_type, district, pop, sc, st[, women, name_hi]``; an unknown
    district or a body type not in the law is an error.

    Columns: ``unit_code, unit_name_en, unit_name_hi, district, division, body_type, pop, sc, st, women,
    figures, pop_source``.
    """
    if path is not None:
        return _load_bodies(body, path)
    shipped = DATA_DIR / BODY_LIST
    st = shipped.stat()
    df, notes = _shipped_bodies_of(body, str(shipped), st.st_mtime_ns, st.st_size)
    return df.copy(), list(notes)                 # read once per version of the list; the caller gets a copy


@lru_cache(maxsize=8)
def _shipped_bodies_of(body: str, _list: str, _mtime_ns: int, _size: int) -> tuple[pd.DataFrame, list[str]]:
    return _load_bodies(body, None)


def _load_bodies(body: str, path) -> tuple[pd.DataFrame, list[str]]:
    spec = URBAN_BODIES[body]
    dist = load_districts()
    division_of = dict(zip(dist["unit_name_en"], dist["division"]))
    notes: list[str] = []
    df = _user_bodies(body, path) if path is not None else _shipped_bodies(spec, notes)
    df["division"] = df["district"].map(division_of)
    df["body_type"] = spec["unit"] if spec["type"] != 4 else "Nagar Nigam"
    df = df.sort_values(["division", "unit_code"], kind="stable").reset_index(drop=True)
    return df, notes


def _user_bodies(body: str, path) -> pd.DataFrame:
    """A user's list of urban bodies (CSV ``unit, name_en, body_type, district, pop, sc, st[, women, name_hi]``),
    the rows of ``body``'s type: every row checked (type in the law, district known, unique unit, sc + st and
    women within pop)."""
    spec = URBAN_BODIES[body]
    cw = crosswalk()
    raw = read_csv(path, ["unit", "name_en", "body_type", "district", "pop", "sc", "st"], what="urban bodies")
    t = raw["body_type"].str.lower().map(lambda x: _TYPE_NAMES.get(x.strip()))
    bad = t.isna().to_numpy()
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise InputError(f"body type {raw['body_type'].iat[i]!r} is not in the law (Nagar Nigam, Nagar Palika "
                         f"Parishad, Nagar Panchayat)", file=str(path), row=int(raw["_row"].iat[i]),
                         column="body_type")
    districts = []
    for v, row in zip(raw["district"], raw["_row"]):
        try:
            districts.append(cw.name_en(cw.resolve(v)))
        except KeyError as e:
            raise InputError(str(e.args[0]), file=str(path), row=int(row), column="district") from None
    df = pd.DataFrame({"unit_code": int_column(raw, "unit", path), "unit_name_en": raw["name_en"],
                       "unit_name_hi": raw["name_hi"] if "name_hi" in raw else "", "district": districts,
                       "body_type": t.astype(int), "pop": int_column(raw, "pop", path),
                       "sc": int_column(raw, "sc", path), "st": int_column(raw, "st", path),
                       "women": int_column(raw, "women", path, allow_blank=True) if "women" in raw else pd.NA,
                       "pop_source": f"supplied ({Path(path).name})", "_row": raw["_row"]})
    df["figures"] = np.where(df["pop"] > 0, "supplied", "none")
    dup = df["unit_code"].duplicated().to_numpy()
    if dup.any():
        i = int(np.flatnonzero(dup)[0])
        raise InputError(f"duplicate unit {df['unit_code'].iat[i]}", file=str(path), row=int(df["_row"].iat[i]),
                         column="unit")
    over = (df["sc"] + df["st"] > df["pop"]).to_numpy()
    if over.any():
        i = int(np.flatnonzero(over)[0])
        raise InputError("sc + st exceeds pop", file=str(path), row=int(df["_row"].iat[i]), column="sc")
    if "women" in raw:
        women_over = (df["women"].fillna(0) > df["pop"]).to_numpy(dtype=bool)
        if women_over.any():
            i = int(np.flatnonzero(women_over)[0])
            raise InputError(f"women = {int(df['women'].iat[i])} exceeds pop = {int(df['pop'].iat[i])}",
                             file=str(path), row=int(df["_row"].iat[i]), column="women")
    df = df[df["body_type"] == spec["type"]].drop(columns="_row")
    if not len(df):
        raise InputError(f"no {spec['unit']} in the units file (body_type): {body} needs at least one",
                         file=str(path), column="body_type")
    return df


def _shipped_bodies(spec: dict, notes: list) -> pd.DataFrame:
    """The shipped list's bodies of one type (``data/urban_bodies_2023.csv``), with the notes that say where
    their figures come from."""
    u = pd.read_csv(DATA_DIR / BODY_LIST, dtype={"census2011_town_code": str})
    u = u[u["body_type"] == spec["type"]]
    src = u["figures"].map(_FIGURE_WORDS) + np.where(
        u["census2011_town_code"].notna(), " " + u["census2011_town_code"].fillna("") + " ("
        + u["census2011_town_name"].fillna("") + ")", "")
    added = u["code_source"] != "LGD"
    src = src.where(~added, src + "; listed from " + u["list_source"].fillna(""))
    df = pd.DataFrame({
        "unit_code": u["unit_code"].astype(int), "unit_name_en": u["name_en"].map(nfc),
        "unit_name_hi": u["name_hi"].fillna("").map(nfc), "district": u["district_en"],
        "body_type": spec["type"], "pop": u["pop"].fillna(0).astype(np.int64),
        "sc": u["sc"].fillna(0).astype(np.int64), "st": u["st"].fillna(0).astype(np.int64),
        "women": u["women"].astype("Int64"), "figures": u["figures"], "pop_source": src})
    counts = u["figures"].value_counts()
    n_est, n_ct, n_none = (int(counts.get(k, 0)) for k in ("lgd_villages", "census_ct", "none"))
    notes.append(f"body list: {BODY_LIST} ({len(u)} {spec['unit']}s; LGD 2020-22 reviewed against Census 2011 "
                 f"and the cabinet decisions of 2021-22: data/README.md)")
    if added.any():
        notes.append(f"{int(added.sum())} {spec['unit']}(s) created after the LGD snapshot are listed from press "
                     f"reports of the cabinet decisions (codes 99xxxx are the project's, not LGD's)")
    if n_ct:
        notes.append(f"{n_ct} {spec['unit']}(s) take the figures of the Census 2011 Census Town they grew from")
    if n_est or n_none:
        notes.append(f"{n_est} {spec['unit']}(s) take the Census totals of the villages in their LGD coverage (an "
                     f"estimate); {n_none} have no figures at all: column 'figures' says so in every row")
    if df["women"].isna().any():
        k = int(df["women"].isna().sum())
        notes.append(f"female population missing for {k} {spec['unit']}(s) (no Census town): their share of "
                     f"women is taken as the State share of women among the bodies of the type, so they rank "
                     f"by the tie-break among equals")
    return df


def obc_share(body: str, opts: OptionSet) -> Fraction:
    """The OBC share of the body type: option ``obc_share``, or the Dedicated Commission's figure for the rules of
    the 2023 law (rules/params/law.toml ``<body>.obc_share``)."""
    return Fraction(opts["obc_share"] or value(f"{body.replace('-', '_')}.obc_share", URBAN_YEARS.law[-1])) / 100


def body_index(bodies: pd.DataFrame):
    """The crosswalk of urban bodies: an LGD code, a name (English or Hindi), ``"Name, District"`` or
    ``"Name (District)"`` where a name repeats (:class:`reservation.inputs.names.NameIndex`)."""
    from ..inputs.names import NameIndex
    return NameIndex.from_frame(bodies, kind="urban body", parent="district", weights="pop")
