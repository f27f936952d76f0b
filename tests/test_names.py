"""Names a user types (issue 13): one normalisation, one index for every kind of unit, did-you-mean, aliases."""
import csv
import re
import unicodedata

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import ROOT, shared_file
from reservation.inputs.names import NameIndex, district_index, load_aliases, name_key
from reservation.inputs.units import DATA_DIR, load_districts, loose_key

# LGD codes of the districts named below (data/districts.csv)
from reservation.inputs.names import crosswalk
MIRZAPUR, CHANDAULI, SAMBHAL, MAHARAJGANJ, AMBEDKAR_NAGAR, BULANDSHAHR = 170, 135, 659, 164, 121, 134
KAUSHAMBI, VARANASI, SHRAVASTI, GB_NAGAR, KANPUR_NAGAR, KANPUR_DEHAT = 158, 187, 181, 144, 157, 156


def blocks_index() -> NameIndex:
    b = pd.read_csv(DATA_DIR / "blocks_census2011.csv")
    return NameIndex(b["block_lgd_code"], b["block_name"], b["sec2015_block_hi"], kind="block",
                     parents=b["district_lgd_code"], parent_index=district_index())


def urban_index(types=(5,)) -> NameIndex:
    u = pd.read_csv(DATA_DIR / "ulbs_lgd.csv")
    u = u[u["lgd_type_code"].isin(types) & u["district_en"].notna()]
    return NameIndex.from_frame(u, kind="urban body", code="ulb_lgd_code", en="ulb_name", hi=None,
                                parent="district_en")


# --- name_key ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("a, b", [
    ("मिर्ज़ापुर", "मिर्जापुर"),            # nukta
    ("मिर्जापुर", "मीरजापुर"),               # halant, vowel length (the SEC-UP spelling)
    ("बाँदा", "बांदा"),                      # chandrabindu / anusvara
    ("चंदौली", "चन्दौली"),                   # anusvara = nasal half-letter of the class (dental)
    ("संभल", "सम्भल"), ("अंबेडकर नगर", "अम्बेडकर नगर"), ("कौशांबी", "कौशाम्बी"),   # labial
    ("बुलंदशहर", "बुलन्दशहर"), ("बुलंद शहर", "बुलन्दशहर"),
    ("गंगापुर", "गङ्गापुर"), ("पंजाब", "पञ्जाब"), ("कंठ", "कण्ठ"),   # velar, palatal, retroflex
    ("पीलीभीत", "पिलिभित"), ("बदायूं", "बदायुं"), ("ईसानगर", "इसानगर"), ("ऊंचाहार", "उंचाहार"),
    ("सिद्धार्थ नगर", "सिधार्थनगर"), ("उन्नाव", "उनाव"),     # a doubled consonant counts once
    ("Rae Bareli", "raebareli"), ("Bakshi-Ka-Talab", "Bakshi Ka Talab"), ("Muzzafarnagar", "Muzaffarnagar"),
    ("Siddharthnagar", "Sidharth Nagar"), ("Bārābankī", "Barabanki"), ("Fatehganj (West)", "fatehganj west"),
    ("\u0905\u0932\u0940\u0917\u095d", "\u0905\u0932\u0940\u0917\u0922\u093c"),  # precomposed / decomposed ढ़
    ("१२०", "120"), ("Kushi\u00a0Nagar", "Kushinagar"), ("कुशी\u200dनगर", "कुशीनगर"),
])
def test_name_key_forgives_the_usual_variants(a, b):
    assert name_key(a) == name_key(b)


@pytest.mark.parametrize("a, b", [
    ("कानपुर नगर", "कानपुर देहात"), ("Kanpur Nagar", "Kanpur Dehat"), ("Mau", "Mahoba"), ("सिंह", "सिन्हा"),
    ("तुम्हारा", "तुंहारा"),          # न्ह / म्ह is not a nasal of a class: not an anusvara
    ("Pali", "Pilibhit"), ("अमेठी", "अमेठा"), ("Lalitpur", "Litpur"), ("ललितपुर", "लितपुर"),
])
def test_name_key_keeps_different_names_apart(a, b):
    assert name_key(a) != name_key(b)


def test_loose_key_is_the_one_normalisation():
    for s in ("मिर्ज़ापुर", "Rae Bareli", "बुलन्दशहर", "Sant Ravidas Nagar (Bhadohi)"):
        assert loose_key(s) == name_key(s)


@given(st.text(max_size=30))
@settings(max_examples=300, deadline=None)
def test_name_key_is_stable_under_unicode_forms_case_and_spacing(s):
    k = name_key(s)
    assert name_key(unicodedata.normalize("NFD", s)) == k == name_key(unicodedata.normalize("NFC", s))
    assert name_key(" " + s.upper() + " ") == name_key(s.upper())
    assert " " not in k and "," not in k


# --- the districts: every example of issue 13 ---------------------------------------------------------------

ISSUE_13 = [("मिर्ज़ापुर", MIRZAPUR), ("मिर्जापुर", MIRZAPUR), ("चंदौली", CHANDAULI), ("संभल", SAMBHAL),
            ("महाराजगंज", MAHARAJGANJ), ("अंबेडकर नगर", AMBEDKAR_NAGAR), ("बुलन्दशहर", BULANDSHAHR),
            ("कौशांबी", KAUSHAMBI), ("बनारस", VARANASI), ("Mirjapur", MIRZAPUR), ("Sravasti", SHRAVASTI),
            ("Bhim Nagar", SAMBHAL), ("Noida", GB_NAGAR)]


@pytest.mark.parametrize("name, code", ISSUE_13 + [
    ("Banaras", VARANASI), ("Benares", VARANASI), ("Bhimnagar", SAMBHAL), ("भीम नगर", SAMBHAL),
    ("Allahabad", 120), ("इलाहाबाद", 120), ("प्रयागराज", 120), ("Faizabad", 140), ("Panchsheel Nagar", 661),
    ("Prabuddh Nagar", 660), ("Chhatrapati Shahuji Maharaj Nagar", 640), ("Ramabai Nagar", KANPUR_DEHAT),
    ("रमाबाई नगर", KANPUR_DEHAT), ("महामायानगर (हाथरस)", 163), ("काशीरामनगर", 633), ("Kanpur Nagar", KANPUR_NAGAR),
    ("kanpur dehat", KANPUR_DEHAT), ("170", MIRZAPUR), (170, MIRZAPUR), (np.int64(170), MIRZAPUR),
    ("१७०", MIRZAPUR), (" Mirzapur ", MIRZAPUR), ("MIRZAPUR", MIRZAPUR), ("Sant Ravidas Nagar (Bhadohi)", 179),
    ("भदोही(संत रविदास नगर)", 179), ("Bhadohi (Sant Ravidas Nagar)", 179), ("Lakhimpur", 159),
])
def test_issue_13_names_resolve(name, code):
    assert district_index().resolve(name) == code
    assert crosswalk().resolve(name) == code


@pytest.mark.parametrize("name, message", [
    ("Kanpur", "'Kanpur' is ambiguous: Kanpur Nagar or Kanpur Dehat"),
    ("कानपुर", "'कानपुर' is ambiguous: कानपुर नगर or कानपुर देहात"),
    ("Kanpr", "unknown district 'Kanpr'; did you mean 'Kanpur Nagar' or 'Kanpur Dehat'?"),
    ("Lucknw", "unknown district 'Lucknw'; did you mean 'Lucknow'?"),
    ("Gajipur", "unknown district 'Gajipur'; did you mean 'Ghazipur'?"),
    ("लखनौ", "unknown district 'लखनौ'; did you mean 'लखनऊ'?"),
    ("Atlantis", "unknown district 'Atlantis'"),
    ("999", "unknown district code 999"),
])
def test_unknown_and_ambiguous_districts_answer_in_one_line(name, message):
    for resolve in (district_index().resolve, crosswalk().resolve):
        with pytest.raises(KeyError) as e:
            resolve(name)
        assert e.value.args[0] == message


def test_suggestions_are_in_the_script_of_the_query():
    with pytest.raises(KeyError, match="did you mean 'मीरजापुर'"):
        district_index().resolve("मिरजपुर")
    with pytest.raises(KeyError, match="did you mean 'Mirzapur'"):
        district_index().resolve("Mirzpur")


def test_a_bad_history_row_says_what_was_meant(tmp_path, capsys):
    from reservation.cli.commands import main
    h = tmp_path / "h.csv"
    h.write_text("unit,year,category\nAgra,2015,UR\nKanpr,2015,SC\n", encoding="utf-8")
    code = main(["allot", "--body", "zp-chair", "--year", "2021", "--history", str(h), "--out", str(tmp_path / "o.csv")])
    err = capsys.readouterr().err.strip()
    assert code == 2 and len(err.splitlines()) == 1
    assert "row 3" in err and "'unit'" in err and "did you mean 'Kanpur Nagar' or 'Kanpur Dehat'?" in err


# --- the alias table --------------------------------------------------------------------------------------------

def alias_rows():
    with open(DATA_DIR / "district_aliases.csv", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def test_every_alias_row_cites_where_the_name_is_met_and_resolves_to_its_district():
    rows = alias_rows()
    codes = set(load_districts()["unit_code"])
    by_alias: dict[str, set[int]] = {}
    for r in rows:
        assert r["kind"] in {"former name", "spelling variant", "other name", "ambiguous"}, r
        assert len(r["source"].strip()) > 10, r
        assert int(r["district_lgd_code"]) in codes, r
        by_alias.setdefault(r["alias"], set()).add(int(r["district_lgd_code"]))
    for alias, want in by_alias.items():
        if len(want) == 1:
            assert district_index().resolve(alias) == next(iter(want)), alias
        else:
            assert all(r["kind"] == "ambiguous" for r in rows if r["alias"] == alias)
            with pytest.raises(KeyError, match="is ambiguous"):
                district_index().resolve(alias)
    assert len(load_aliases()) == len(rows)


def test_no_alias_takes_the_name_of_another_district():
    d = load_districts()
    own = {}
    for code, en, hi in zip(d["unit_code"], d["unit_name_en"], d["unit_name_hi"]):
        for n in (en, hi):
            own[name_key(n)] = int(code)
    for alias, code in load_aliases():
        k = name_key(alias)
        assert own.get(k, code) == code, (alias, code, own[k])


# --- no two units share a key -----------------------------------------------------------------------------------

def _collisions(df, code, names, by=None):
    out = []
    for _, g in (df.groupby(by) if by else [(None, df)]):
        keys: dict[str, set] = {}
        for _, r in g.iterrows():
            for n in names:
                v = r[n]
                if isinstance(v, str) and v.strip():
                    keys.setdefault(name_key(v), set()).add((r[code], v))
        out += [sorted(s) for s in keys.values() if len({c for c, _ in s}) > 1]
    return out


def test_no_two_districts_share_a_key():
    assert _collisions(load_districts(), "unit_code", ["unit_name_en", "unit_name_hi"]) == []


def test_no_two_blocks_of_a_district_share_a_key():
    b = pd.read_csv(DATA_DIR / "blocks_census2011.csv")
    assert _collisions(b, "block_lgd_code", ["block_name", "sec2015_block_hi"], "district_lgd_code") == []
    lgd = pd.read_csv(DATA_DIR / "blocks_lgd.csv")
    assert _collisions(lgd, "block_lgd_code", ["block_name"], "district_lgd_code") == []


def test_urban_bodies_of_a_district_share_a_key_only_where_lgd_lists_the_same_name_twice():
    u = pd.read_csv(DATA_DIR / "ulbs_lgd.csv")
    pairs = _collisions(u, "ulb_lgd_code", ["ulb_name", "ulb_name_local"], "district_en")
    for pair in pairs:        # the normalisation adds no collision: the names differ only in case and spaces
        assert len({re.sub(r"\s+", "", n.casefold()) for _, n in pair}) == 1, pair
    same_type = _collisions(u, "ulb_lgd_code", ["ulb_name", "ulb_name_local"], ["district_en", "lgd_type_code"])
    assert same_type == [[(297052, "Kurthi Jafarpur"), (299071, "Kurthijafarpur")]]   # two LGD codes, one town


def test_the_2015_block_names_find_the_same_blocks_as_before(shared_data):
    """reservation.rules.synthetic places the 59,019 gram panchayats of 2015 in blocks by the block name: the new key
    must place every one of the 823 (district, block) names of the list exactly as the old key did."""
    def old_key(s):       # loose_key before issue 13: NFC, lower case, nukta, candrabindu, spaces/punctuation
        k = unicodedata.normalize("NFD", unicodedata.normalize("NFC", str(s)).strip().lower())
        k = unicodedata.normalize("NFC", k.replace("\u093c", "").replace("\u0901", "\u0902"))
        return re.sub(r"[\s.\-_,'’()\[\]/]+", "", k)

    g = pd.read_csv(shared_file(shared_data, "history", "gp_pradhan_2015.csv.gz"), usecols=["district_hi", "block_no", "block_hi"])
    g = g.drop_duplicates()
    g["d"] = [crosswalk().resolve(x) for x in g["district_hi"]]
    b = pd.read_csv(DATA_DIR / "blocks_census2011.csv")

    def place(key):
        names = {(int(d), key(h)): int(c) for d, h, c in
                 zip(b["district_lgd_code"], b["sec2015_block_hi"].fillna(""), b["block_lgd_code"]) if h}
        names.update({(int(d), key(n)): int(c) for d, n, c in zip(b["district_lgd_code"], b["block_name"],
                                                                   b["block_lgd_code"])})
        return [names.get((d, key(h))) for d, h in zip(g["d"], g["block_hi"])]
    assert len(g) == 823
    assert place(name_key) == place(old_key)


def test_urban_bodies_of_the_2023_list_share_a_key_only_across_body_types():
    u = pd.read_csv(DATA_DIR / "urban_bodies_2023.csv")
    assert _collisions(u, "unit_code", ["name_en", "name_hi"], ["district_en", "body_type"]) == []
    assert _collisions(u, "unit_code", ["name_en", "name_hi"], "district_en") == [
        [(249136, "Faridpur"), (249156, "Faridpur")],        # a Palika Parishad and a Nagar Panchayat, Bareilly,
        [(249136, "फरीदपुर"), (249156, "फरीदपुर")]]          # named alike by the SEC 2012 list too


def test_an_urban_body_whose_lgd_name_names_a_district_lies_in_it():
    u = pd.read_csv(DATA_DIR / "urban_bodies_2023.csv")
    wrong = []
    for name, district, note in zip(u["name_en"], u["district_en"], u["note"].fillna("")):
        m = re.search(r"LGD name: .*\(([^()]+)\)\s*$", note)
        if not m:
            continue
        try:
            named = district_index().resolve(m.group(1))
        except KeyError:
            continue                      # "(Maunath Bhanjan)", "(Suchittaganj)": not a district
        if named != district_index().resolve(district):
            wrong.append((name, district, note))
    assert wrong == []


# --- blocks and urban bodies: "Name, District" and "Name (District)" ---------------------------------------------

@pytest.mark.parametrize("name, district", [
    ("Chinhat, Lucknow", 162), ("चिनहट, लखनऊ", 162), ("Chinhat (Lucknow)", 162), ("चिनहट (लखनऊ)", 162),
    ("Chinhat", 162), ("सदर, गाजीपुर", 146), ("Sadat, Gazipur", 146), ("Bakshi Ka Talab", 162),
    ("Haldaur", 132), ("हल्दौर", 132), ("Kon, Mirzapur", 170), ("कोन, मिर्ज़ापुर", 170), ("1330", 162),
])
def test_blocks_resolve_by_name_and_district(name, district):
    index = blocks_index()
    assert index.parent(index.resolve(name)) == district


def test_a_block_name_shared_by_districts_asks_for_the_district():
    with pytest.raises(KeyError) as e:
        blocks_index().resolve("Nawabganj")
    msg = e.value.args[0]
    assert msg.startswith("'Nawabganj' is ambiguous: ") and msg.endswith("; write 'Name, District'")
    assert "Nawabganj (Bareilly)" in msg and "Nawabganj (Gonda)" in msg


@pytest.mark.parametrize("name, message", [
    ("Chinht, Lucknow", "unknown block 'Chinht' in district 'Lucknow'; did you mean 'Chinhat'?"),
    ("Chinhat, Lucknw", "unknown district 'Lucknw'; did you mean 'Lucknow'?"),
    ("Chinhat, Agra", "unknown block 'Chinhat' in district 'Agra'"),
    ("Chinht", "unknown block 'Chinht'; did you mean 'Chinhat (Lucknow)'?"),
])
def test_unknown_blocks_name_the_nearest(name, message):
    with pytest.raises(KeyError) as e:
        blocks_index().resolve(name)
    assert e.value.args[0] == message


@pytest.mark.parametrize("name, code", [
    ("Nawabganj, Bareilly", 249154), ("Nawabganj (Bareilly)", 249154), ("Nawabganj(Bareilly)", 249154),
    ("nawabganj, बरेली", 249154), ("Nawabganj, Gonda", 249422), ("Saidpur, Ghazipur", None),
    ("Mau, Mau", 249488), ("Maunath Bhanjan", 249488), ("Mughalsarai", 249518), ("249154", 249154),
])
def test_urban_bodies_resolve_by_name_and_district(name, code):
    index = urban_index((5,))
    if code is None:
        with pytest.raises(KeyError, match="unknown urban body 'Saidpur' in district 'Ghazipur'"):
            index.resolve(name)
    else:
        assert index.resolve(name) == code


def test_the_2023_urban_list_resolves_in_both_scripts():
    u = pd.read_csv(DATA_DIR / "urban_bodies_2023.csv")
    nps = NameIndex.from_frame(u[u["body_type"] == 7], kind="urban body", code="unit_code", en="name_en",
                               hi="name_hi", parent="district_en")
    assert nps.resolve("मूसानगर") == nps.resolve("Musanagar")
    assert nps.resolve("खिरौनी") == nps.resolve("Khirauni (Suchittaganj)") == nps.resolve("Suchittaganj")
    assert nps.resolve("Nawabganj, Unnao") == nps.resolve("Nawabganj (उन्नाव)") == 249222
    with pytest.raises(KeyError) as e:
        nps.resolve("Nawabganj")
    assert e.value.args[0] == ("'Nawabganj' is ambiguous: Nawabganj (Farrukhabad) or Nawabganj (Unnao); "
                               "write 'Name, District'")


def test_an_urban_name_in_two_districts_is_ambiguous():
    with pytest.raises(KeyError) as e:
        urban_index((5,)).resolve("Nawabganj")
    assert e.value.args[0] == ("'Nawabganj' is ambiguous: Nawabganj(Bareilly) or Nawabganj(Gonda); "
                               "write 'Name, District'")
    nps = urban_index((7,))
    assert nps.resolve("Amethi, Lucknow") == 249236 and nps.resolve("Amethi (Amethi)") == 249402
    assert nps.resolve("Saidpur, Ghazipur") == 249510


# --- codes: resolve_many ------------------------------------------------------------------------------------------

def test_name_index_basics():
    idx = NameIndex([30, 10, 20], ["Cee", "Ay", "Bee"], ["सी", "ए", ""], kind="ward")
    assert list(idx.codes) == [10, 20, 30] and len(idx) == 3 and 20 in idx and 25 not in idx
    assert idx.name_en(30) == "Cee" and idx.name_hi(10) == "ए" and idx.name_hi(20) == ""
    assert idx.label(20, "hi") == "Bee" and idx.label(30, "hi") == "सी"
    assert idx("Ay") == 10 and idx.resolve("सी") == 30 and idx.suggest("Bea") == [20]
    with pytest.raises(KeyError, match="unknown ward code 25"):
        idx.resolve("25")
    with pytest.raises(KeyError, match="empty ward name"):
        idx.resolve("  ")
    with pytest.raises(ValueError, match="ward code 10 is given twice"):
        NameIndex([10, 10], kind="ward")
    codes_only = NameIndex([1, 2], kind="gram panchayat")
    with pytest.raises(KeyError, match=r"unknown gram panchayat 'x' \(gram panchayats are given by their integer code\)"):
        codes_only.resolve("x")


def test_resolve_many_takes_every_column_type():
    idx = NameIndex([10, 20, 30], ["Ay", "Bee", "Cee"], kind="ward")
    want = [10, -1, 30]
    assert idx.resolve_many(np.array([10, 11, 30])).tolist() == want
    assert idx.resolve_many([10, 11, 30]).tolist() == want
    assert idx.resolve_many(pd.Series(["10", "11", " 30 "])).tolist() == want
    assert idx.resolve_many(pd.Series([10.0, np.nan, 30.0])).tolist() == want
    assert idx.resolve_many(pd.Series([10, None, 30], dtype="Int64")).tolist() == want
    assert idx.resolve_many(pd.Series(["Ay", "", "cee"])).tolist() == want
    assert idx.resolve_many(pd.Series(["१०", None, "Cee"], dtype=object)).tolist() == want
    assert idx.resolve_many([10, "Nope", "30"]).tolist() == want
    assert idx.resolve_many(pd.Series([10.5, -10.0, 1e30])).tolist() == [-1, -1, -1]
    assert idx.resolve_many([]).tolist() == []


@pytest.mark.parametrize("span", [3, 1_000_000])
def test_resolve_many_on_732000_codes(span):
    rng = np.random.default_rng(span)
    n = 732_000
    codes = np.sort(rng.choice(span * n, n, replace=False)) + 5
    idx = NameIndex(codes, kind="ward")
    q = rng.permutation(codes)
    q[::997] = codes[-1] + 1 + np.arange(len(q[::997]))         # unknown codes
    q[1::1009] = 4                                              # below every code
    want = np.where(np.isin(q, codes), q, -1)
    assert np.array_equal(idx.resolve_many(q), want)
    s = np.sort(q)                                              # sorted input takes the binary search
    assert np.array_equal(idx.resolve_many(s), np.where(np.isin(s, codes), s, -1))
    assert np.array_equal(idx.resolve_many(pd.Series(q.astype(str))), want)


@given(st.lists(st.one_of(st.integers(-3, 40), st.sampled_from(["Ay", "bee", "सी", "Cee, X", "", " 20", "x", "1e1"])),
                max_size=25))
@settings(max_examples=200, deadline=None)
def test_resolve_many_agrees_with_resolve(values):
    idx = NameIndex([10, 20, 30], ["Ay", "Bee", "Cee"], ["ए", "बी", "सी"], kind="ward")
    want = []
    for v in values:
        try:
            want.append(idx.resolve(v))
        except KeyError:
            want.append(-1)
    assert idx.resolve_many(values).tolist() == want
    assert idx.resolve_many(pd.Series([str(v) for v in values], dtype="str")).tolist() == [
        w if not (isinstance(v, int) and v < 0) else -1 for v, w in zip(values, want)]


def test_a_toy_state_ignores_the_aliases_of_other_codes(toy):
    dist = load_districts(toy / "five.csv")
    cw = district_index(dist)
    assert cw.resolve("1") == 1 and cw.resolve("अल्फा") == 1 and cw.resolve("beta") == 2
    with pytest.raises(KeyError) as e:
        cw.resolve("Allahabad")
    assert e.value.args[0] == "unknown district 'Allahabad'"
    with pytest.raises(KeyError, match="did you mean 'Alpha'"):
        cw.resolve("Alpa")


# --- docs/: the project's own account of the law ----------------------------------------------------------------

DOCS = ROOT / "docs"


def test_docs_link_only_to_files_that_ship():
    pages = sorted(DOCS.glob("*.md"))
    assert {p.name for p in pages} >= {"README.md", "panchayat.md", "urban.md", "dpc.md", "ambiguities.md"}
    for page in pages:
        text = page.read_text(encoding="utf-8")
        for target in re.findall(r"\]\(([^)]+)\)", text):
            assert "://" not in target, (page.name, target)
            if target.startswith("#"):            # a place in the same page: an anchor of its own must stand there
                assert f'<a id="{target[1:]}"></a>' in text, (page.name, target)
                continue
            assert (page.parent / target.split("#")[0]).resolve().is_file(), (page.name, target)
        not_shipped = [f"{name}.md" for name in ("RULES", "TOOLING", "DESIGN", "DEVELOPERS", "SOURCES")]
        for outside in not_shipped + ["../shared", "seed a", "seed b", "seed c"]:
            assert outside not in text, (page.name, outside)


def _doc_options() -> dict[tuple[str, str], str]:
    text = (DOCS / "ambiguities.md").read_text(encoding="utf-8").split("## All options", 1)[1]
    out = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[0].startswith("`"):
            default = "" if cells[2] == "(empty)" else cells[2].strip("`")
            for body in cells[1].split():
                assert (body, cells[0].strip("`")) not in out, (body, cells[0])
                out[(body, cells[0].strip("`"))] = default
    return out


def test_the_options_table_of_the_docs_is_the_code_s():
    """docs/ambiguities.md lists every option of every body with its current default, and nothing else: a
    changed default must change the page."""
    import contextlib
    import io

    from reservation.cli.commands import main
    from reservation.dpc.seats import DPC_OPTIONS
    code = {}
    for body in ("zp-chair", "kp-chair", "gp-pradhan", "gp-ward", "kp-ward", "zp-ward", "pp-chair", "np-chair",
                 "mayor"):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            assert main(["options", "--body", body]) == 0
        for r in csv.DictReader(io.StringIO(out.getvalue())):
            code[(body, r["option"])] = r["default"]
    for o in DPC_OPTIONS.values():
        code[("dpc", o.name)] = o.default
    assert _doc_options() == code


def test_the_zp_chair_example_of_the_docs_is_what_the_workbench_counts(capsys):
    from reservation.cli.commands import main
    assert main(["counts", "--body", "zp-chair", "--year", "2021"]) == 0
    n = {r["category"]: int(r["count"]) for r in csv.DictReader(capsys.readouterr().out.splitlines())}
    text = (DOCS / "panchayat.md").read_text(encoding="utf-8")
    table = text.split("| step | arithmetic | result |", 1)[1].split("\n\n", 1)[0]
    bold = [int(x) for x in re.findall(r"\*\*(\d+)\*\*", table)]
    assert bold == [n["SC_W"] + n["SC"], n["ST_W"] + n["ST"], n["OBC_W"] + n["OBC"], n["SC_W"], n["OBC_W"], n["W"],
                    n["SC"], n["OBC"], n["UR"]] == [16, 0, 20, 6, 7, 12, 10, 13, 27]
