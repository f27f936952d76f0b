"""Checks for data/census2011_towns_female.csv (Census 2011 female population of UP towns).

Run from the repository root:  python data/build/check_towns_female.py
Uses only the standard library and pandas. Exits non-zero if a hard check fails.

1. Join: every census2011_town_code of data/census2011_towns.csv appears exactly once in the
   female file and vice versa; tot_f_with_og is filled exactly for the towns that have tot_p_with_og.
2. Bounds: tot_f <= tot_p, f_sc <= sc, f_st <= st; tot_f <= tot_f_with_og <= tot_p_with_og.
3. District totals: per Census 2011 district, statutory towns + census towns + outgrowths
   (sum of tot_f, plus tot_f_with_og - tot_f for towns with outgrowths) against the district
   Urban row of the Primary Census Abstract (pigshell/india-census-2011 pca/09.csv, commit
   5311eb6248f3e99445ae819728c8d90193c07a74, TRU = Urban rows, transcribed below).
   The same is done for tot_p (a check on the transcription of the table below) and, for the
   districts without outgrowths, for f_sc and f_st (the female file carries no SC/ST figures for
   outgrowths, so those two sums cannot be formed where a town has outgrowths).
"""
import sys
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[2]
TOWNS = ROOT / "data" / "census2011_towns.csv"
FEMALE = ROOT / "data" / "census2011_towns_female.csv"

# Census 2011 PCA, district rows with TRU = Urban (pigshell/india-census-2011 pca/09.csv):
# district code: (TOT_P, TOT_F, P_SC, F_SC, P_ST, F_ST)
DISTRICT_URBAN = {
    132: (1066526, 502223, 137079, 64306, 832, 389),
    133: (1191312, 562882, 102756, 48302, 69, 29),
    134: (925312, 442509, 71002, 33554, 84, 45),
    135: (1573623, 750459, 148706, 70349, 514, 236),
    136: (588647, 281636, 30098, 14142, 236, 95),
    137: (458713, 219803, 41718, 19756, 133, 59),
    138: (1759182, 828359, 276686, 128385, 3168, 1462),
    139: (275025, 128762, 23106, 10893, 1, 0),
    140: (3162547, 1481935, 485755, 226691, 3396, 1600),
    141: (974309, 443700, 87019, 40132, 1995, 922),
    142: (867429, 412659, 118927, 56017, 157, 67),
    143: (1217191, 574118, 190427, 89438, 355, 162),
    144: (332693, 156380, 69319, 32353, 35, 14),
    145: (755993, 350896, 105663, 49287, 1207, 544),
    146: (2024195, 944426, 486185, 225102, 6142, 2880),
    147: (833169, 392995, 140615, 65777, 2457, 1166),
    148: (288442, 137439, 48769, 23064, 2, 1),
    149: (644595, 307212, 69040, 32724, 51, 23),
    150: (1568409, 741100, 114728, 54181, 2862, 1394),
    151: (351415, 166202, 29285, 13919, 219, 109),
    152: (594092, 281403, 53321, 25221, 257, 120),
    153: (461035, 218527, 42395, 19868, 929, 405),
    154: (530784, 253643, 52850, 24775, 345, 179),
    155: (541806, 256511, 65298, 30334, 49, 17),
    156: (531646, 253456, 75016, 36274, 511, 243),
    157: (3038996, 1458272, 351022, 166395, 6498, 2980),
    158: (307995, 147902, 45947, 21930, 331, 160),
    159: (416185, 195246, 56284, 25931, 75, 29),
    160: (280841, 133310, 32167, 15141, 1, 1),
    161: (366299, 173183, 59624, 27924, 97, 47),
    162: (234222, 110676, 41048, 19168, 74, 32),
    163: (173423, 81676, 28572, 13355, 40, 19),
    164: (3015645, 1393099, 379032, 174458, 3268, 1429),
    165: (418900, 196464, 93052, 43316, 233, 114),
    166: (833484, 391677, 188260, 88720, 1904, 876),
    167: (175378, 83845, 25411, 12098, 1835, 887),
    168: (209848, 97684, 42505, 19708, 429, 194),
    169: (185381, 87032, 32117, 15046, 397, 185),
    170: (275755, 129122, 43798, 20543, 102, 47),
    171: (96332, 45405, 19755, 9440, 5, 2),
    172: (321993, 152961, 47241, 22312, 36, 14),
    173: (175242, 84740, 18053, 8904, 270, 125),
    174: (124456, 59306, 22803, 10756, 92, 39),
    175: (1472873, 682025, 201776, 94098, 3094, 1381),
    176: (330803, 157185, 30747, 14341, 102, 49),
    177: (340253, 159882, 35536, 17081, 210, 100),
    178: (280730, 136082, 28195, 13770, 56, 26),
    179: (199916, 95826, 19040, 9162, 15, 6),
    180: (284044, 135282, 15146, 7282, 198, 90),
    181: (38649, 18433, 1352, 627, 17, 10),
    182: (166391, 79613, 8600, 4098, 137, 85),
    183: (225029, 106941, 16204, 7758, 244, 104),
    184: (160691, 77737, 16113, 7689, 1431, 709),
    185: (138097, 65671, 20055, 9545, 380, 172),
    186: (128531, 61484, 15579, 7399, 32, 11),
    187: (134730, 65102, 17111, 8324, 1398, 689),
    188: (836129, 397078, 86812, 40826, 3673, 1779),
    189: (168107, 80429, 11021, 5324, 3418, 1586),
    190: (316803, 152478, 27709, 13053, 6948, 3320),
    191: (393401, 191104, 47925, 22879, 1051, 509),
    192: (499208, 243342, 51880, 24805, 1613, 786),
    193: (304109, 145225, 27975, 13257, 10936, 5166),
    194: (346580, 167332, 30641, 14730, 250, 124),
    195: (274360, 130936, 26628, 12664, 1494, 703),
    196: (242553, 115278, 34067, 16086, 4037, 1948),
    197: (1597051, 751720, 128346, 59805, 9473, 4393),
    198: (229302, 108792, 30321, 14414, 115, 49),
    199: (347567, 162403, 47539, 21932, 944, 437),
    200: (314342, 146343, 36845, 17264, 10102, 4801),
    201: (268142, 126392, 35340, 16469, 106, 39),
    202: (288207, 136598, 31424, 14655, 30, 16),
}
STATE_URBAN_P, STATE_URBAN_F = 44495063, 21007548  # Uttar Pradesh, Census 2011 PCA, Urban


def main() -> int:
    towns = pd.read_csv(TOWNS)
    fem = pd.read_csv(FEMALE)
    hard = 0

    # 1. join
    dup = fem[fem.census2011_town_code.duplicated(keep=False)]
    missing = sorted(set(towns.census2011_town_code) - set(fem.census2011_town_code))
    extra = sorted(set(fem.census2011_town_code) - set(towns.census2011_town_code))
    print(f"[join] towns file {len(towns)} rows, female file {len(fem)} rows; "
          f"duplicated codes {len(dup)}, missing {len(missing)}, extra {len(extra)}")
    if len(dup) or missing or extra:
        hard += 1
        print("  duplicated:", sorted(set(dup.census2011_town_code)), "missing:", missing, "extra:", extra)
    m = towns.merge(fem, on="census2011_town_code", how="inner", validate="one_to_one")
    blank = m[m[["tot_f", "f_sc", "f_st"]].isna().any(axis=1)]
    print(f"[join] towns with blank female figures: {len(blank)}")
    if len(blank):
        print(blank[["census2011_town_code", "town_name", "note"]].to_string(index=False))
    og_mismatch = m[m.tot_p_with_og.notna() != m.tot_f_with_og.notna()]
    print(f"[join] towns with outgrowths: {int(m.tot_p_with_og.notna().sum())}; "
          f"tot_f_with_og filled: {int(m.tot_f_with_og.notna().sum())}; mismatched: {len(og_mismatch)}")
    if len(og_mismatch):
        hard += 1
        print(og_mismatch[["census2011_town_code", "town_name"]].to_string(index=False))

    # 2. bounds
    f = m.dropna(subset=["tot_f", "f_sc", "f_st"])
    og = f[f.tot_p_with_og.notna()]
    checks = [
        ("tot_f <= tot_p", f, f.tot_f <= f.tot_p),
        ("f_sc <= sc", f, f.f_sc <= f.sc),
        ("f_st <= st", f, f.f_st <= f.st),
        ("tot_f >= 0, f_sc >= 0, f_st >= 0", f, (f.tot_f >= 0) & (f.f_sc >= 0) & (f.f_st >= 0)),
        ("tot_f <= tot_f_with_og <= tot_p_with_og (towns with outgrowths)", og,
         (og.tot_f <= og.tot_f_with_og) & (og.tot_f_with_og <= og.tot_p_with_og)),
    ]
    for name, frame, ok in checks:
        bad = frame[~ok]
        print(f"[bounds] {name}: {int(ok.sum())} ok, {len(bad)} fail")
        if len(bad):
            hard += 1
            print(bad[["census2011_town_code", "town_name", "tot_p", "tot_f", "sc", "f_sc", "st", "f_st"]].to_string(index=False))
    share = f.tot_f / f.tot_p
    lo, hi = share.idxmin(), share.idxmax()
    print(f"[info] female share of town population: min {share[lo]:.4f} ({f.town_name[lo]}, {f.census2011_town_code[lo]}), "
          f"median {share.median():.4f}, max {share[hi]:.4f} ({f.town_name[hi]}, {f.census2011_town_code[hi]})")

    # 3. district urban totals
    m = m.assign(
        p_all=m.tot_p + (m.tot_p_with_og - m.tot_p).fillna(0),
        f_all=m.tot_f + (m.tot_f_with_og - m.tot_f).fillna(0),
    )
    print("[district] Census district: towns(+OG) sum vs district Urban row  (diff = sum - PCA)")
    print(f"  {'dist':>4} {'towns':>5} {'og':>3} {'tot_p diff':>10} {'tot_f sum':>10} {'tot_f PCA':>10} {'tot_f diff':>10} {'f_sc diff':>9} {'f_st diff':>9}")
    nonzero = 0
    sp = sf = 0
    for d, g in m.groupby("census2011_district_code"):
        P, F, SC, FSC, ST, FST = DISTRICT_URBAN[d]
        p_sum, f_sum = int(g.p_all.sum()), int(g.f_all.sum())
        sp += p_sum
        sf += f_sum
        n_og = int(g.tot_p_with_og.notna().sum())
        if n_og:
            dsc = dst = "n/a"
        else:
            dsc, dst = int(g.f_sc.sum()) - FSC, int(g.f_st.sum()) - FST
        diffs = [p_sum - P, f_sum - F] + ([dsc, dst] if not n_og else [])
        if any(x != 0 for x in diffs):
            nonzero += 1
        print(f"  {d:>4} {len(g):>5} {n_og:>3} {p_sum - P:>10} {f_sum:>10} {F:>10} {f_sum - F:>10} {str(dsc):>9} {str(dst):>9}")
    print(f"[district] {len(DISTRICT_URBAN)} districts in table, {m.census2011_district_code.nunique()} in towns file; "
          f"districts with any non-zero difference: {nonzero}")
    print(f"[state] urban tot_p: towns(+OG) {sp} vs PCA {STATE_URBAN_P} (diff {sp - STATE_URBAN_P}); "
          f"urban tot_f: towns(+OG) {sf} vs PCA {STATE_URBAN_F} (diff {sf - STATE_URBAN_F})")
    if nonzero or sp != STATE_URBAN_P or sf != STATE_URBAN_F:
        hard += 1
    print("RESULT:", "all checks passed" if hard == 0 else f"{hard} check group(s) failed")
    return 1 if hard else 0


if __name__ == "__main__":
    sys.exit(main())
