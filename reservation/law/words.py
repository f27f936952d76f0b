"""Every word the workbench shows in English and in Hindi, in one place, rendered from codes.

The engine and the rulebooks decide with numbers and codes (:mod:`reservation.law.decisions`, category codes, tier
numbers); this module turns them into words: the decisions, tiers and reasons of an allotment
(:mod:`reservation.allotment.render`), and everything the views, maps, reports and the explorer show (category labels, body
titles, table headers, map legends and notes, captions, rotation verdicts). A test checks that no module of the
presentation layer holds Devanagari text of its own, that every entry has both languages, and that the map font
covers every Hindi character. Light on purpose (no pandas): :mod:`reservation.law.categories` takes its labels from
here.

Use :func:`word` (``word("table.unit", "hi")``; entries with ``{placeholders}`` take keyword arguments) and
:func:`check_lang`. The Hindi that stands for codes inside Hindi sentences (category words, tie-break rules, the
frame of ``explain``) is in :mod:`reservation.law.words_codes`, beside this module (which is at its size limit).
"""

from __future__ import annotations

from .langs import LANGS, check_lang
from .words_allotment import (ALLOTMENT_WORDS, ANSWER_WORDS, DECISION_WORDS, OBC_NOTE_HI, STATUS_WORDS, TIER_WORDS,
                              UNIT_COUNT_WORDS, UNIT_KINDS_HI, ordinal, status_counts_line, units_word)

__all__ = ["LANGS", "LANG_NAMES", "CATEGORY_LABELS", "BODY_TITLES_HI", "TEXT", "VERDICT_TEXT", "ALL_DIVISIONS",
           "DEVANAGARI_SAMPLE", "check_lang", "word", "category_label", "verdict_text", "TIER_WORDS",
           "DECISION_WORDS", "ordinal", "ALLOTMENT_WORDS", "UNIT_KINDS_HI", "OBC_NOTE_HI", "UNIT_COUNT_WORDS",
           "units_word", "flag_meanings", "STATUS_WORDS", "ANSWER_WORDS", "status_counts_line", "UNPLACED_REASONS"]

#: How each language calls itself (the explorer's language switch).
LANG_NAMES = {"en": "English", "hi": "हिन्दी"}

#: The eight categories in the order of the GO 2021 (reservation.law.categories builds its Category records from this).
#: "Other Backward Classes" in both languages (अन्य पिछड़ा वर्ग), as the Constitution and the GO name the class.
CATEGORY_LABELS: dict[str, dict[str, str]] = {
    "ST_W": {"en": "Scheduled Tribes (women)", "hi": "अनुसूचित जनजाति महिला"},
    "ST": {"en": "Scheduled Tribes", "hi": "अनुसूचित जनजाति"},
    "SC_W": {"en": "Scheduled Castes (women)", "hi": "अनुसूचित जाति महिला"},
    "SC": {"en": "Scheduled Castes", "hi": "अनुसूचित जाति"},
    "OBC_W": {"en": "Other Backward Classes (women)", "hi": "अन्य पिछड़ा वर्ग महिला"},
    "OBC": {"en": "Other Backward Classes", "hi": "अन्य पिछड़ा वर्ग"},
    "W": {"en": "Women", "hi": "महिला"},
    "UR": {"en": "Unreserved", "hi": "अनारक्षित"},
}

#: Hindi titles of the bodies (the English title is the rulebook's, reservation.rules.rulebook). Unknown ids: English.
BODY_TITLES_HI: dict[str, str] = {
    "zp-chair": "जिला पंचायत अध्यक्ष", "kp-chair": "क्षेत्र पंचायत प्रमुख", "gp-pradhan": "ग्राम प्रधान",
    "gp-ward": "ग्राम पंचायत सदस्य (वार्ड)", "kp-ward": "क्षेत्र पंचायत सदस्य (वार्ड)",
    "zp-ward": "जिला पंचायत सदस्य (वार्ड)", "mayor": "महापौर (नगर निगम)", "pp-chair": "नगर पालिका परिषद अध्यक्ष",
    "np-chair": "नगर पंचायत अध्यक्ष",
}

#: Letters and signs a Hindi font must have (the map font is chosen by them).
DEVANAGARI_SAMPLE = "अआकखगजतदनपमयरलवसहािीुूेैोौंँ़्"

#: Words that mean "every division" where a division is asked for.
ALL_DIVISIONS = frozenset({"", "all", "*", "सभी", "सभी मंडल"})

#: Everything else, by key: ``{key: {"en": ..., "hi": ...}}``. ``{name}`` placeholders are filled by :func:`word`.
TEXT: dict[str, dict[str, str]] = {
    # constitutional flags (reservation.allotment.flags): what each means, printed where the flags are printed
    "flag.above_half": {
        "en": "above_half: SC + ST + OBC hold more than half of the posts of the counting unit. The Supreme Court "
              "read a 50 % ceiling into Art. 243D(6)/243T(6) (K. Krishna Murthy, 2010; Vikas Kishanrao Gawali, "
              "2021); a rotation that follows the GO can still cross it in one district or block.",
        "hi": "above_half: गणना इकाई के आधे से अधिक पद अनुसूचित जाति, अनुसूचित जनजाति और अन्य पिछड़ा वर्ग के लिए "
              "आरक्षित हैं। सर्वोच्च न्यायालय ने अनुच्छेद 243घ(6)/243न(6) में 50 प्रतिशत की सीमा पढ़ी है (के. कृष्णमूर्ति, "
              "2010; विकास किशनराव गवली, 2021); शासनादेश के अनुसार चक्रानुक्रम भी किसी एक जिले या विकास खण्ड में "
              "यह सीमा पार कर सकता है।"},
    "flag.women_below_third": {
        "en": "women_below_third: women hold fewer than one-third of the posts of the counting unit, or of one "
              "reserved group's posts (Art. 243D(2)-(3), 243T(2)-(3): \"not less than one-third\").",
        "hi": "women_below_third: गणना इकाई के, या किसी आरक्षित वर्ग के, एक-तिहाई से कम पद महिलाओं के लिए हैं "
              "(अनुच्छेद 243घ(2)-(3), 243न(2)-(3): \"एक-तिहाई से कम नहीं\")।"},
    "flag.fewer_than_two": {
        "en": "fewer_than_two: a unit is given a category of which it has fewer than two persons (GO 2021, KP "
              "item 2); where its OBC population was assumed, the flag says so.",
        "hi": "fewer_than_two: किसी इकाई को ऐसा वर्ग दिया गया है जिसके दो से कम व्यक्ति उसमें हैं (शासनादेश 2021, "
              "क्षेत्र पंचायत मद 2); जहाँ अन्य पिछड़ा वर्ग की जनसंख्या मानी गई है, वहाँ यह कहा गया है।"},
    "flag.heading": {"en": "Constitutional flags", "hi": "संवैधानिक झंडे"},
    "flag.none": {
        "en": "No flag: SC + ST + OBC at most half of the posts, women at least a third, no group given to a unit "
              "with fewer than two of its persons.",
        "hi": "कोई झंडा नहीं: अनुसूचित जाति, अनुसूचित जनजाति और अन्य पिछड़ा वर्ग के पद आधे से अधिक नहीं, महिलाओं के "
              "पद कम से कम एक-तिहाई, और किसी इकाई को ऐसा वर्ग नहीं दिया गया जिसके दो से कम व्यक्ति उसमें हों।"},
    "flag.note": {
        "en": "A flag is a question to ask of a list, not a finding that it is unlawful: the rules of the GO can "
              "produce it, and courts have weighed such cases one by one.",
        "hi": "झंडा सूची से पूछा जाने वाला प्रश्न है, यह निष्कर्ष नहीं कि सूची विधि-विरुद्ध है: शासनादेश के नियम "
              "भी इसे जन्म दे सकते हैं, और न्यायालयों ने ऐसे मामलों को एक-एक कर तौला है।"},
    # table headers and cells
    "table.unit": {"en": "Unit", "hi": "इकाई"},
    "table.district": {"en": "District", "hi": "जनपद"},
    "table.division": {"en": "Division", "hi": "मंडल"},
    "table.category": {"en": "Category", "hi": "श्रेणी"},
    "table.code": {"en": "LGD code", "hi": "एलजीडी कोड"},
    "table.reason": {"en": "Reason", "hi": "कारण"},
    "table.reason_english": {"en": "Reason", "hi": "कारण (अंग्रेज़ी में)"},
    "table.clause": {"en": "Clause", "hi": "प्रावधान"},
    "table.count": {"en": "Count", "hi": "संख्या"},
    "table.state": {"en": "State", "hi": "प्रदेश"},
    "table.total": {"en": "Total", "hi": "योग"},
    "table.share": {"en": "Share", "hi": "अनुपात"},
    "table.why": {"en": "Why not drawn", "hi": "मानचित्र पर क्यों नहीं"},
    "table.units": {"en": "Units", "hi": "इकाइयाँ"},
    "table.reserved": {"en": "Reserved", "hi": "आरक्षित"},
    "table.women": {"en": "Women", "hi": "महिला"},
    "table.all": {"en": "all divisions", "hi": "सभी मंडल"},
    "table.in_division": {"en": "in the division", "hi": "मंडल में"},
    "table.in_state": {"en": "in the State", "hi": "प्रदेश में"},
    "table.category_code": {"en": "Code", "hi": "कोड"},
    "table.category_in": {"en": "In {year}", "hi": "{year} में"},
    "table.no_record": {"en": "no record", "hi": "अभिलेख नहीं"},
    "table.published": {"en": "Published", "hi": "प्रकाशित"},
    "table.no_published": {"en": "none held", "hi": "उपलब्ध नहीं"},
    "table.status": {"en": "Status", "hi": "स्थिति"},
    "table.possible": {"en": "Possible", "hi": "संभावित"},
    "table.probabilities": {"en": "Probabilities", "hi": "संभावनाएँ"},
    "table.kind": {"en": "Kind", "hi": "प्रकार"},
    "table.item": {"en": "Item", "hi": "विषय"},
    "table.value": {"en": "Value", "hi": "विवरण"},
    "table.reason_note": {
        "en": "",
        "hi": "इस तालिका के कारण अंग्रेज़ी में बने हैं; हिन्दी कारणों के लिए तालिका हिन्दी में बनाएँ "
              "(`allot --lang hi`)।"},
    # the heading of a division page
    "heading.no_history": {"en": "no history", "hi": "कोई इतिहास नहीं"},
    "heading.units": {"en": "{n} units; rotation against {years} (base year {base})",
                      "hi": "{n} इकाइयाँ; चक्रानुक्रम का आधार: {years} (आधार वर्ष {base})"},
    # assumptions
    "assume.assumption": {"en": "assumption", "hi": "मान्यता"},
    "assume.option": {"en": "option (not the default)", "hi": "विकल्प (डिफ़ॉल्ट नहीं)"},
    "assume.history": {"en": "history file", "hi": "इतिहास फ़ाइल"},
    "assume.units": {"en": "units file", "hi": "इकाई फ़ाइल"},
    # maps
    "map.category": {"en": "Category", "hi": "श्रेणी"},
    "map.name": {"en": "Unit", "hi": "इकाई"},
    "map.division": {"en": "Division", "hi": "मंडल"},
    "map.district": {"en": "District", "hi": "जनपद"},
    "map.reason": {"en": "Why", "hi": "कारण"},
    "map.division_line": {"en": "Division boundary", "hi": "मंडल की सीमा"},
    "map.absent": {"en": "Not in this allotment", "hi": "इस आवंटन में नहीं"},
    "map.outside": {"en": "Outside the division", "hi": "मंडल के बाहर"},
    "map.state": {"en": "Uttar Pradesh", "hi": "उत्तर प्रदेश"},
    "map.not_drawn": {"en": "{n} unit(s) not drawn (no polygon): {names}",
                      "hi": "{n} इकाई(याँ) मानचित्र पर नहीं (बहुभुज नहीं): {names}"},
    "map.source": {"en": "Boundaries: {package} {version} ({file}), cleaned and simplified ({tol}°). "
                         "Divisions dissolved from districts.",
                   "hi": "सीमाएँ: {package} {version} ({file}), साफ़ और सरलीकृत ({tol}°)। मंडल, जनपदों को मिलाकर।"},
    "map.points_district_note": {
        "en": "Position: the district's centre (the data have no coordinates for these units); "
              "size: population (Census 2011).",
        "hi": "स्थिति: जनपद का केंद्र (इन इकाइयों के निर्देशांक उपलब्ध नहीं); आकार: जनसंख्या (जनगणना 2011)।"},
    "map.points_coord_note": {"en": "Size: population.", "hi": "आकार: जनसंख्या।"},
    "map.size_key": {"en": "Population (Census 2011)", "hi": "जनसंख्या (जनगणना 2011)"},
    "map.no_population": {"en": "population not known", "hi": "जनसंख्या अज्ञात"},
    "map.measure_reserved": {"en": "Share of units reserved (any category)",
                             "hi": "आरक्षित इकाइयों का अनुपात (कोई भी श्रेणी)"},
    "map.measure_women": {"en": "Share of units reserved for women", "hi": "महिलाओं के लिए आरक्षित इकाइयों का अनुपात"},
    "map.measure_share_of": {"en": "Share of units: {label}", "hi": "इकाइयों का अनुपात: {label}"},
    "map.units": {"en": "units", "hi": "इकाइयाँ"},
    "map.n_of_total": {"en": "({n} of {total} units)", "hi": "({total} में से {n} इकाइयाँ)"},
    "map.no_units_here": {"en": "No units here", "hi": "यहाँ कोई इकाई नहीं"},
    "map.caption": {"en": "{drawn} of {units} units on the map ({mode}); not drawn: {not_drawn}",
                    "hi": "{units} में से {drawn} इकाइयाँ मानचित्र पर ({mode}); मानचित्र पर नहीं: {not_drawn}"},
    "map.mode.district": {"en": "district", "hi": "जनपद"},
    "map.mode.points": {"en": "points", "hi": "बिंदु"},
    "map.mode.district-points": {"en": "district-points", "hi": "जनपद में बिंदु"},
    "map.mode.aggregate": {"en": "aggregate", "hi": "जनपदवार योग"},
    "map.mode.empty": {"en": "empty", "hi": "रिक्त"},
    # how sure a map's categories are (views.maps.certainty): the frame's ``status`` column
    "map.status.title": {"en": "How sure", "hi": "कितना निश्चित"},
    "map.status.determined": {"en": "determined by public data", "hi": "सार्वजनिक आँकड़ों से तय"},
    "map.status.depends_obc": {"en": "depends on unpublished OBC figures",
                               "hi": "अप्रकाशित पिछड़ा वर्ग आँकड़ों पर निर्भर"},
    "map.status.depends_list": {"en": "depends on a list we do not hold", "hi": "ऐसी सूची पर निर्भर जो हमारे पास नहीं"},
    "map.status.partial_figures": {"en": "depends on partial figures", "hi": "अधूरे आँकड़ों पर निर्भर"},
    "map.status.differs_published": {"en": "differs from the published list", "hi": "प्रकाशित सूची से भिन्न"},
    "map.status.note": {"en": "Pale, hatched (printed maps) or dotted (interactive maps): the category shown rests on "
                              "assumed figures or lists, not on public data alone.",
                        "hi": "हल्का, रेखांकित (मुद्रित मानचित्र) या बिंदु वाला (इंटरैक्टिव मानचित्र): दिखाई गई श्रेणी "
                              "मान ली गई संख्याओं या सूचियों पर टिकी है, केवल सार्वजनिक आँकड़ों पर नहीं।"},
    "map.status.units_undetermined": {"en": "{n} of {total} units: category not determined",
                                      "hi": "{total} में से {n} इकाइयाँ: श्रेणी तय नहीं"},
    "map.measure_undetermined": {"en": "Share of units whose category is not determined",
                                 "hi": "जिन इकाइयों की श्रेणी तय नहीं, उनका अनुपात"},
    # the published list beside the computed one (views.maps.published)
    "map.published.computed": {"en": "Computed", "hi": "गणना"},
    "map.published.published": {"en": "Published list", "hi": "प्रकाशित सूची"},
    "map.published.missing": {"en": "Not in the published list", "hi": "प्रकाशित सूची में नहीं"},
    "map.published.differ": {"en": "{n} of {total} units differ from the computed map",
                             "hi": "{total} में से {n} इकाइयाँ गणना वाले मानचित्र से भिन्न"},
    # the projection map's shading (projection.project)
    "map.shade.title": {"en": "Shading: probability of the most likely category",
                        "hi": "छाया: सबसे संभावित श्रेणी की संभावना"},
    "map.shade.sample": {"en": "probability {p} %", "hi": "संभावना {p} %"},
    "map.shade.note": {"en": "Colour: the most likely category; lighter: less likely.",
                       "hi": "रंग: सबसे संभावित श्रेणी; हल्का: कम संभावित।"},
    "map.shade.uncertain": {"en": "not certain (depends on unpublished OBC figures)",
                            "hi": "निश्चित नहीं (अप्रकाशित पिछड़ा वर्ग आँकड़ों पर निर्भर)"},
    # the explorer
    "explorer.all_divisions": {"en": "all divisions", "hi": "सभी मंडल"},
    # where the data of a view are not real, or not whole (views.params.allotment_title, the explorer)
    "data.toy_units": {"en": "{title} {year}: MADE-UP TOY UNITS (not real data; no real place is shaded)",
                       "hi": "{title} {year}: काल्पनिक अभ्यास इकाइयाँ (वास्तविक आँकड़े नहीं; कोई वास्तविक स्थान नहीं रंगा गया)"},
    "data.toy_units_note": {
        "en": "These {n} units are invented for practice (data/toy/{file}): boxes grouped by their made-up parent, "
              "not a map. Give your own units file for real work.",
        "hi": "ये {n} इकाइयाँ अभ्यास के लिए गढ़ी गई हैं (data/toy/{file}): काल्पनिक मूल इकाई के अनुसार समूह में बक्से, "
              "मानचित्र नहीं। वास्तविक काम के लिए अपनी इकाई फ़ाइल दें।"},
    "data.toy_units_box": {"en": "made up", "hi": "काल्पनिक"},
    "data.partial_figures": {
        "en": "{title} {year}: partial Census figures, a computation, not the State's list",
        "hi": "{title} {year}: अधूरे जनगणना आँकड़े, यह गणना है, राज्य की सूची नहीं"},
    # the toy states, step by step (views.toy): the sentences of each step, rendered from the trace's codes
    "toy.title": {"en": "Toy state (made up, for teaching): {divisions}",
                  "hi": "अभ्यास के लिए काल्पनिक राज्य: {divisions}"},
    "toy.name.five": {"en": "Five districts: rotation", "hi": "पाँच जिले: चक्रानुक्रम"},
    "toy.name.division": {"en": "Five districts: the division rule", "hi": "पाँच जिले: मंडल का नियम"},
    "toy.step": {"en": "Step {step} of {n}: {text}", "hi": "{n} में से कदम {step}: {text}"},
    "toy.clause": {"en": "Clause: {clause}", "hi": "प्रावधान: {clause}"},
    "toy.counts": {"en": "State counts for {n} offices: {arith}.", "hi": "{n} पदों के लिए प्रदेश की संख्या: {arith}।"},
    "toy.no_posts": {"en": "Pass {pass_}: no posts of this group to fill, so no unit is ranked ({names}).",
                     "hi": "चरण {pass_}: इस वर्ग का कोई पद भरना नहीं, इसलिए किसी इकाई का क्रम नहीं बना ({names})।"},
    "toy.unreserved": {"en": "Every unit not reached by a category pass is unreserved (UR): {names}.",
                       "hi": "जिन इकाइयों तक किसी वर्ग का चरण नहीं पहुँचा, वे अनारक्षित हैं: {names}।"},
    "toy.ranked": {"en": "Pass {pass_}: {name} is number {rank} of {pool} by {share}",
                   "hi": "चरण {pass_}: {name}, {share}; क्रम में {pool} में से {rank} नंबर पर"},
    "toy.unit": {"en": "Pass {pass_}: {name} ({share})", "hi": "चरण {pass_}: {name} ({share})"},
    "toy.tier": {"en": "; rotation tier {tier} ({tier_reason})", "hi": "; चक्रानुक्रम स्तर {tier} ({tier_reason})"},
    "toy.decided": {"en": " -> {detail}.", "hi": " -> {detail}।"},
    "toy.tie": {"en": " Tie: {tie}.", "hi": " बराबरी: {tie}।"},
    "toy.ranked_by": {"en": "Ranked in this pass: {key_label}", "hi": "इस चरण का क्रम: {key_label}"},
    "toy.box_tier": {"en": "tier {tier}", "hi": "स्तर {tier}"},
    "toy.no_history": {"en": "no earlier election", "hi": "पिछला निर्वाचन नहीं"},
    "toy.col.earlier": {"en": "Last election", "hi": "पिछला निर्वाचन"},
    "toy.col.tier": {"en": "Tier in this pass", "hi": "इस चरण में स्तर"},
    "toy.col.final": {"en": "Final (check)", "hi": "अंतिम (जाँच)"},
    # the division rule in words (reservation.allotment.render, Hindi: the rulebook's reason is English)
    "reason.freed_by_division": {
        "en": "made unreserved by the division rule in an earlier pass",
        "hi": "पिछले चरण में मंडल के नियम से अनारक्षित किया गया (विकल्प `saturation_effect=unreserved`: "
              "'उस जिले को अनारक्षित कर दिया जायेगा')"},
    # the report index
    "index.pages": {"en": "Pages and maps", "hi": "पृष्ठ और मानचित्र"},
    "index.state_map": {"en": "The State: every unit of this allotment", "hi": "प्रदेश: इस आवंटन की हर इकाई"},
    "index.projection": {"en": "Projection: the most likely category where unpublished OBC data decide",
                         "hi": "अनुमान: जहाँ अप्रकाशित ओबीसी आँकड़े निर्णय करते हैं, वहाँ सबसे संभावित श्रेणी"},
    "index.projection_note": {
        "en": "{samples} samples (seed {seed}) of the OBC populations, which are not published; constrained by the "
              "published list(s) of: {years}.",
        "hi": "ओबीसी जनसंख्या (अप्रकाशित) के {samples} नमूने (बीज {seed}); इन वर्षों की प्रकाशित सूचियों से "
              "सीमित: {years}।"},
    "index.projection_backtest": {
        "en": "Backtest: the {year} list is in the history; the projection does not use it.",
        "hi": "पिछले आँकड़ों पर परीक्षण: {year} की सूची इतिहास में है; अनुमान उसका उपयोग नहीं करता।"},
    "index.none": {"en": "none", "hi": "कोई नहीं"},
    # the audit of a published list: a unit the list lacks (finding not_in_list) and the checks it prevents
    "audit.finding.not_in_list": {"en": "not in the published list", "hi": "प्रकाशित सूची में नहीं"},
    "audit.finding.match": {"en": "as computed, no rule broken", "hi": "संगणना के अनुसार, कोई नियम नहीं टूटा"},
    "audit.finding.violation_count": {"en": "a category total differs from the arithmetic",
                                      "hi": "किसी श्रेणी का योग विधि की गणना से भिन्न"},
    "audit.finding.violation_rotation": {"en": "a better rotation tier was left without the group",
                                         "hi": "चक्रानुक्रम के बेहतर स्तर की इकाई इस वर्ग के बिना छोड़ी गई"},
    "audit.finding.violation_order": {"en": "a higher public share was left without the group",
                                      "hi": "अधिक सार्वजनिक अनुपात वाली इकाई इस वर्ग के बिना छोड़ी गई"},
    "audit.finding.violation_women": {"en": "the women's posts are not the first of the group",
                                      "hi": "महिला पद इस वर्ग की सबसे ऊपर की इकाइयों को नहीं मिले"},
    "audit.finding.violation_division": {
        "en": "a division wholly reserved for one group, or the wrong district freed",
        "hi": "पूरा मंडल एक ही वर्ग के लिए आरक्षित, या गलत जिला मुक्त किया गया"},
    "audit.finding.explained_by_option": {"en": "lawful under another reading (named)",
                                          "hi": "किसी दूसरी (नामित) व्याख्या के अनुसार विधिसम्मत"},
    "audit.finding.depends_on_unpublished_data": {
        "en": "lawful for some OBC figures (not public)",
        "hi": "अन्य पिछड़ा वर्ग के कुछ आँकड़ों (जो सार्वजनिक नहीं हैं) के लिए विधिसम्मत"},
    "audit.finding.unexplained": {"en": "unexplained by the rules, an option or OBC figures",
                                  "hi": "नियमों, किसी विकल्प या अन्य पिछड़ा वर्ग के आँकड़ों से स्पष्ट नहीं"},
    # the audit's verdicts, one per rule of a pass (reservation.auditing.verdicts): {group} is a group's name
    "verdict.heading": {"en": "Verdicts, one per rule of the passes ({n} {units} in the list):",
                        "hi": "निष्कर्ष, हर चरण के हर नियम पर एक (सूची के {n} {units} पर):"},
    "verdict.rule.counts": {"en": "{group} count", "hi": "{group} के पदों की संख्या"},
    "verdict.rule.unchecked": {"en": "{group} count where the list lacks units",
                               "hi": "जहाँ सूची में इकाइयाँ नहीं हैं, वहाँ {group} के पदों की संख्या"},
    "verdict.rule.rotation": {"en": "{group} rotation", "hi": "{group} का चक्रानुक्रम"},
    "verdict.rule.order": {"en": "{group} order", "hi": "{group} का क्रम"},
    "verdict.rule.women": {"en": "{group} women's posts from the top", "hi": "{group} में महिला पद ऊपर से"},
    "verdict.rule.division": {"en": "{group} division rule", "hi": "{group} में मंडल का नियम"},
    "verdict.rule.eligibility": {"en": "{group} two-person rule", "hi": "{group} में दो व्यक्तियों का नियम"},
    "verdict.rule.pass": {"en": "{group} pass", "hi": "{group} का चरण"},
    "verdict.rule.tie": {"en": "{group} ties", "hi": "{group} में बराबरी"},
    "verdict.rule.knock_on": {"en": "Knock-on in the {group} pass", "hi": "{group} के चरण में पिछले चरणों का असर"},
    "verdict.rule.pin": {"en": "pinned by input", "hi": "इनपुट द्वारा नियत"},
    "verdict.group.GEN": {"en": "women's", "hi": "महिला वर्ग"},
    "verdict.group.UR": {"en": "unreserved", "hi": "अनारक्षित"},
    "verdict.held.yes": {"en": "{rule}: held in all {listed} {units}",
                         "hi": "{rule}: सभी {listed} {units} में पालन हुआ"},
    "verdict.held.no": {"en": "{rule}: held in {held} of {listed} {units}",
                        "hi": "{rule}: {listed} में से {held} {units} में पालन हुआ"},
    "verdict.held.not_public": {
        "en": "{rule}: depends on OBC figures, which are not public",
        "hi": "{rule}: अन्य पिछड़ा वर्ग के आँकड़ों पर निर्भर, जो सार्वजनिक नहीं हैं"},
    "verdict.held.lawful_for_some": {
        "en": "{rule}: cannot be checked without OBC figures, which are not public; some figures make the list lawful",
        "hi": "{rule}: अन्य पिछड़ा वर्ग के आँकड़ों के बिना जाँचा नहीं जा सकता, जो सार्वजनिक नहीं हैं; कुछ आँकड़ों के "
              "लिए सूची विधिसम्मत है"},
    "verdict.held.unlawful_for_all": {
        "en": "{rule}: cannot be checked without OBC figures, and no OBC figures make the list lawful",
        "hi": "{rule}: अन्य पिछड़ा वर्ग के आँकड़ों के बिना जाँचा नहीं जा सकता, और कोई भी आँकड़े सूची को विधिसम्मत "
              "नहीं बनाते"},
    "verdict.held.cannot_check": {
        "en": "{rule}: cannot be checked with the list's earlier passes as published",
        "hi": "{rule}: सूची के पिछले चरणों को प्रकाशित रूप में लेकर जाँचा नहीं जा सकता"},
    "verdict.held.not_in_list": {"en": "{rule}: not checked where the list lacks units",
                                 "hi": "{rule}: जहाँ सूची में इकाइयाँ नहीं हैं, वहाँ नहीं जाँचा गया"},
    "verdict.held.knock_on": {
        "en": "{rule}: lawful given the list's earlier passes as published, differing only because they differ",
        "hi": "{rule}: सूची के पिछले चरणों को प्रकाशित रूप में लेकर विधिसम्मत, अंतर केवल उन चरणों के अंतर से"},
    "verdict.part": {"en": "{finding} in {n} {units}: {names}", "hi": "{n} {units} में {finding}: {names}"},
    "verdict.also": {"en": "also named, with an earlier rule's finding: {names}",
                     "hi": "पहले के नियम के निष्कर्ष के साथ ये भी: {names}"},
    "verdict.more": {"en": "{names} and {n} more", "hi": "{names} और {n} अन्य"},
    "verdict.table_words": {
        "en": "",
        "hi": "तालिका के `rule` (नियम), प्रावधान और `detail` (विवरण) स्तंभ हिन्दी में हैं; स्तंभों के नाम और "
              "श्रेणियों के कोड अंग्रेज़ी में।"},
    # what the audit and the projection print (reservation.cli.audit, reservation.cli.project)
    "audit.title": {"en": "audit of {published} ({body} {year}, {n} units):",
                    "hi": "प्रकाशित सूची {published} की जाँच ({body}, {year}; {n} इकाइयाँ):"},
    "cli.wrote": {"en": "wrote {out} and {meta}", "hi": "लिखी गईं: {out} और {meta}"},
    "cli.assumed": {"en": "assumed: {text}", "hi": "मान्यता: {text}"},
    "cli.assumed_english": {"en": "assumed: {text}", "hi": "मान्यता (अंग्रेज़ी में): {text}"},
    "project.summary": {
        "en": "{body} {year}: {n} units, {samples} samples (seed {seed}); {certain} certain; constrained by the past "
              "list(s) of {years}",
        "hi": "{body}, {year}: {n} इकाइयों में से {certain} निश्चित; अन्य पिछड़ा वर्ग की जनसंख्या के {samples} नमूने "
              "(बीज {seed}); इन वर्षों की प्रकाशित सूचियों से सीमित: {years}"},
    "project.most_likely": {"en": "most likely: {counts}", "hi": "सबसे संभावित: {counts}"},
    "project.no_year": {"en": "no year", "hi": "कोई वर्ष नहीं"},
    "project.prior": {
        "en": "OBC share of each unit's population ~ Beta(a={a}, b={b}): mean {mean} % (the State share), standard "
              "deviation {sd} percentage points, truncated to [0, (pop - sc - st) / pop]; OBC persons = floor(share x "
              "pop); units independent a priori",
        "hi": "हर इकाई की जनसंख्या में अन्य पिछड़ा वर्ग का अनुपात बीटा बंटन (a={a}, b={b}) से: औसत {mean} % (राज्य का "
              "अनुपात), मानक विचलन {sd} प्रतिशत अंक, शून्य और (pop - sc - st) / pop के बीच सीमित; अन्य पिछड़ा वर्ग के "
              "व्यक्ति = अनुपात गुणा जनसंख्या, नीचे की ओर पूर्णांकित; इकाइयाँ पहले से एक-दूसरे से स्वतंत्र"},
    "project.sampled": {
        "en": "the unknown OBC population is sampled: {prior}; spread: the option --obc-sd",
        "hi": "अन्य पिछड़ा वर्ग की अज्ञात जनसंख्या के नमूने लिए गए: {prior}; फैलाव: विकल्प `--obc-sd`"},
    "audit.not_in_list": {
        "en": "the published list does not give this {unit_kind}{where}: its category is unknown, not unreserved; "
              "the rules are checked on the units the list gives",
        "hi": "प्रकाशित सूची में यह {unit_kind}{where} नहीं है: इसकी श्रेणी अज्ञात है, अनारक्षित नहीं; नियम सूची में दी "
              "गई इकाइयों पर जाँचे गए"},
    "audit.count_unchecked": {
        "en": "the list gives {listed} {posts} offices{where} where the law's arithmetic gives {need}, but it lacks "
              "units there, one of which may hold the post: the count is not checked, nor this unit, which the "
              "rules would give it",
        "hi": "सूची{where} {posts} के {listed} पद देती है, जबकि विधि की गणना {need} देती है, पर वहाँ सूची में कुछ "
              "इकाइयाँ नहीं हैं, जिनमें से एक के पास यह पद हो सकता है: संख्या नहीं जाँची गई, न यह इकाई, जिसे नियम "
              "यह पद देते"},
    "audit.knock_on_rule": {
        "en": "{step}: knock-on",
        "hi": "{step}: पिछले चरणों के अंतर का परिणाम"},
    "audit.rule_unchecked": {
        "en": "not checked where the list lacks units: {units}",
        "hi": "जहाँ सूची में इकाइयाँ नहीं हैं वहाँ नहीं जाँचा गया: {units}"},
    # one unit's history (reservation history; reservation.history.unit_render)
    "history.title": {"en": "{body}: {name}{where} (code {code})", "hi": "{body}: {name}{where} (कोड {code})"},
    "history.title_unplaced": {
        "en": "{body}: {name}{where}: a gram panchayat of the lists that LGD's list does not hold (the crosswalk: "
              "{reason}); its rows are those printing the same name in the block",
        "hi": "{body}: {name}{where}: सूचियों की ग्राम पंचायत जो LGD की सूची में नहीं (मिलान: {reason}); इसकी "
              "पंक्तियाँ वे हैं जिनमें विकास खण्ड में यही नाम छपा है"},
    "history.note.unplaced": {"en": "not placed: {reason}; nearest LGD name {best} ({score})",
                              "hi": "नहीं बैठाई गई: {reason}; निकटतम LGD नाम {best} ({score})"},
    "history.elections": {"en": "Category at each general election:", "hi": "प्रत्येक सामान्य निर्वाचन में श्रेणी:"},
    "history.status.not_in_list": {
        "en": "unknown: the {year} list is held, but no row of it is placed on this unit",
        "hi": "अज्ञात: {year} की सूची उपलब्ध है, पर उसकी कोई पंक्ति इस इकाई पर नहीं बैठाई जा सकी"},
    "history.status.no_list": {"en": "unknown: we hold no {year} list", "hi": "अज्ञात: {year} की सूची हमारे पास नहीं"},
    "history.status.not_placed": {
        "en": "unknown: the {year} list ships (data/history/), but no row of it could be placed on this body",
        "hi": "अज्ञात: {year} की सूची साथ है (data/history/), पर उसकी कोई पंक्ति इस निकाय पर नहीं बैठाई जा सकी"},
    "history.note.not_placed": {"en": "not placed: {reason}", "hi": "नहीं बैठाई गई: {reason}"},
    "history.note.urban2006": {"en": "SEC 2006: {name} ({district}), {page}",
                               "hi": "राज्य निर्वाचन आयोग 2006: {name} ({district}), {page}"},
    "history.note.link2006_district": {
        "en": "placed on the 2012 record ({row}): the Nagar Nigam of the same district",
        "hi": "2012 के अभिलेख ({row}) पर बैठाई गई: उसी जिले का नगर निगम"},
    "history.note.link2006_exact": {
        "en": "placed on the 2012 record ({row}): the same name, type and district",
        "hi": "2012 के अभिलेख ({row}) पर बैठाई गई: वही नाम, प्रकार और जिला"},
    "history.note.link2006_spelling": {
        "en": "placed on the 2012 record ({row}): the same type and district, the name spelled differently but alike "
              "(spelling key)",
        "hi": "2012 के अभिलेख ({row}) पर बैठाई गई: वही प्रकार और जिला, नाम की वर्तनी भिन्न पर "
              "मिलती-जुलती (वर्तनी-कुंजी)"},
    "history.note.link2006_spelling_state": {
        "en": "placed on the 2012 record ({row}): the same type, the name spelled alike (spelling key) and the only "
              "such body in the State, in another district (districts redrawn between the elections)",
        "hi": "2012 के अभिलेख ({row}) पर बैठाई गई: वही प्रकार, नाम की वर्तनी मिलती-जुलती "
              "(वर्तनी-कुंजी) और प्रदेश में ऐसा एकमात्र निकाय, दूसरे जिले में (निर्वाचनों के बीच जिले बदले)"},
    "history.give_list": {
        "en": "the {year} list is not shipped: give it with --history FILE (unit,year,category; district offices "
              "publish the lists block by block)",
        "hi": "{year} की सूची साथ नहीं दी गई: उसे `--history FILE` से दें (`unit,year,category`; जिला कार्यालय सूचियाँ "
              "विकास खण्डवार प्रकाशित करते हैं)"},
    "history.next": {"en": "Rotation at the next election ({year}), by the tiers of the law:",
                     "hi": "अगले निर्वाचन ({year}) में चक्रानुक्रम, विधि के स्तरों के अनुसार:"},
    "history.at": {"en": "Rotation at the election of {year}, by the tiers of the law:",
                   "hi": "{year} के निर्वाचन में चक्रानुक्रम, विधि के स्तरों के अनुसार:"},
    "history.base": {"en": "base year {base}{default}: previous elections {counted} ({clause})",
                     "hi": "आधार वर्ष {base}{default}: पिछले निर्वाचन {counted} ({clause})"},
    "history.default": {"en": " (the rulebook's default)", "hi": " (नियम-पुस्तिका का डिफ़ॉल्ट)"},
    "history.none_counted": {"en": "none", "hi": "कोई नहीं"},
    "history.group.ST": {"en": "ST", "hi": "अनुसूचित जनजाति"},
    "history.group.SC": {"en": "SC", "hi": "अनुसूचित जाति"},
    "history.group.OBC": {"en": "OBC", "hi": "अन्य पिछड़ा वर्ग"},
    "history.group.GEN": {"en": "women (general)", "hi": "महिला (सामान्य)"},
    "history.tier.0": {"en": "no election since the base year before {year}: nothing to rotate from",
                       "hi": "{year} से पहले आधार वर्ष के बाद कोई निर्वाचन नहीं: चक्रानुक्रम का आधार नहीं"},
    "history.tier.1": {"en": "tier 1: never reserved for it since {base}",
                       "hi": "स्तर 1: {base} से इस वर्ग के लिए कभी आरक्षित नहीं"},
    "history.tier.2": {"en": "tier 2: not reserved for it at the last election ({last}); it was in {held}",
                       "hi": "स्तर 2: पिछले निर्वाचन ({last}) में इस वर्ग के लिए आरक्षित नहीं; {held} में था"},
    "history.tier.3": {"en": "tier 3: reserved for it at the last election ({last})",
                       "hi": "स्तर 3: पिछले निर्वाचन ({last}) में इस वर्ग के लिए आरक्षित"},
    "history.range": {
        "en": "tier {tiers}: unknown, we hold no list of {missing} (not reserved for it in the lists held)",
        "hi": "स्तर {tiers}: अज्ञात, {missing} की सूची हमारे पास नहीं (उपलब्ध सूचियों में इस वर्ग के लिए आरक्षित नहीं)"},
    "history.range_held": {
        "en": "tier {tiers}: unknown, we hold no list of {missing} (reserved for it in {held})",
        "hi": "स्तर {tiers}: अज्ञात, {missing} की सूची हमारे पास नहीं ({held} में इस वर्ग के लिए आरक्षित)"},
    "history.or": {"en": "or", "hi": "या"},
    "history.note.list": {"en": "list: {source} ('{name}')", "hi": "सूची: {source} ('{name}')"},
    "history.note.published": {"en": "published list: {source} ('{name}')",
                               "hi": "प्रकाशित सूची: {source} ('{name}')"},
    "history.note.crosswalk": {"en": "crosswalk: rule {match}, score {score}", "hi": "मिलान: नियम `{match}`, अंक {score}"},
    "history.note.caveat": {"en": "caveat: {caveat}", "hi": "सावधानी: {caveat}"},
    "history.caveat.check": {"en": "the source's winner columns do not fit the seat",
                             "hi": "स्रोत के विजेता-स्तंभ पद से मेल नहीं खाते"},
    "history.caveat.uncertain": {"en": "the OCR cell held two labels, the first was taken",
                                 "hi": "OCR कक्ष में दो श्रेणियाँ थीं, पहली ली गई"},
    "history.note.stage_final": {"en": "final list of 17 Mar 2021", "hi": "17 मार्च 2021 की अंतिम सूची"},
    "history.note.confidence": {"en": "confidence {confidence}: {note}",
                                "hi": "विश्वसनीयता {confidence} (सूची-फ़ाइल की टिप्पणी: '{note}')"},
    "history.confidence.high": {"en": "high", "hi": "उच्च"},
    "history.confidence.low": {"en": "low", "hi": "निम्न"},
    "history.note.sec2012": {"en": "SEC 2012 serial {serial}: {name} ({district})",
                             "hi": "राज्य निर्वाचन आयोग 2012 क्रमांक {serial}: {name} ({district})"},
    "history.note.link": {"en": "linked by {source}, rule {match}, score {score}",
                          "hi": "{source} द्वारा जोड़ा गया, नियम `{match}`, अंक {score}"},
    "history.note.replaces": {"en": "replaces {source} ({category})", "hi": "{source} ({category}) के स्थान पर"},
    "history.short.0": {"en": "none before", "hi": "पहले कोई नहीं"},
    "history.short.1": {"en": "1 never since base", "hi": "1 आधार वर्ष से कभी नहीं"},
    "history.short.2": {"en": "2 not at the last", "hi": "2 पिछले में नहीं"},
    "history.short.3": {"en": "3 at the last", "hi": "3 पिछले में"},
    "history.short.range": {"en": "{tiers} unknown (no list of {missing})",
                            "hi": "{tiers} अज्ञात ({missing} की सूची नहीं)"},
    "timeline.no_list": {"en": "list not held", "hi": "सूची उपलब्ध नहीं"},
    "timeline.not_in_list": {"en": "not in the list held", "hi": "उपलब्ध सूची में नहीं"},
    "timeline.not_placed": {"en": "list held, not placed on this body", "hi": "सूची उपलब्ध, इस निकाय पर नहीं बैठाई गई"},
    "timeline.next": {"en": "next ({year})", "hi": "अगला ({year})"},
    "timeline.unknown": {"en": "unknown", "hi": "अज्ञात"},
    "timeline.no_unit": {"en": "No unit given: set `unit` (a name as people write it, or its code) to see its timeline.",
                         "hi": "कोई इकाई नहीं दी गई: उसका इतिहास देखने के लिए `unit` (नाम या कोड) दें।"},
    "timeline.no_block": {"en": "Gram panchayat histories are listed for a block (kp-chair) or a gram panchayat's block.",
                          "hi": "ग्राम पंचायतों का इतिहास विकास खण्ड (kp-chair) या ग्राम पंचायत के विकास खण्ड के लिए दिखाया जाता है।"},
    "timeline.title": {"en": "{name}: category at each election", "hi": "{name}: प्रत्येक निर्वाचन में श्रेणी"},
    "history.unknown_note": {
        "en": "A list we do not hold is unknown, never 'not reserved': a verdict it could change is given as a "
              "range.",
        "hi": "जो सूची हमारे पास नहीं वह अज्ञात है, 'आरक्षित नहीं' कभी नहीं: जिस निर्णय को वह बदल सकती है वह "
              "एक परास के रूप में दिया गया है।"},
    "history.tier_rule": {
        "en": "Tiers: {clause}; computed by the engine's tier rule (reservation/engine/steps.py tiers, "
              "reservation/law/rotation.py).",
        "hi": "स्तर: {clause}; इंजन के स्तर-नियम से गणना (`reservation/engine/steps.py` का `tiers`, "
              "reservation/law/rotation.py)।"},
    "history.user_file": {"en": "your list", "hi": "आपकी सूची"},
}

#: The gram pradhan crosswalk's reasons for a row it left unplaced (data/history/gp_unplaced.csv.gz ``reason``, parts
#: joined by "; "), as reservation history shows them.
UNPLACED_REASONS: dict[str, dict[str, str]] = {
    "no LGD gram panchayat alike": {"en": "no LGD gram panchayat alike",
                                    "hi": "LGD की कोई मिलती-जुलती ग्राम पंचायत नहीं"},
    "fits two LGD gram panchayats": {"en": "fits two LGD gram panchayats", "hi": "LGD की दो ग्राम पंचायतों से मेल"},
    "two rows on one LGD gram panchayat": {"en": "two rows on one LGD gram panchayat",
                                           "hi": "LGD की एक ग्राम पंचायत पर दो पंक्तियाँ"},
    "too close to call": {"en": "too close to call", "hi": "निर्णय के लिए बहुत निकट"},
    "no LGD gram panchayat in the block": {"en": "no LGD gram panchayat in the block",
                                           "hi": "विकास खण्ड में LGD की कोई ग्राम पंचायत नहीं"},
    "block not placed": {"en": "block not placed", "hi": "विकास खण्ड नहीं बैठाया गया"},
    "category blank in the source": {"en": "category blank in the source", "hi": "स्रोत में श्रेणी रिक्त"},
    # the 2006 urban chairs (reservation.history.urban2006.REASONS)
    "no 2012 row links to this body": {
        "en": "the 2006 list is placed through the SEC 2012 list, and no 2012 row links to this body (created "
              "after 2012, or its 2012 row not linked)",
        "hi": "2006 की सूची 2012 की राज्य निर्वाचन आयोग सूची के माध्यम से बैठाई जाती है, और 2012 की कोई पंक्ति "
              "इस निकाय से नहीं जुड़ी (2012 के बाद बना, या उसकी 2012 पंक्ति नहीं जुड़ी)"},
    "no 2006 body of its type alike": {
        "en": "no 2006 body of the type of its 2012 row has a name alike (created between 2006 and 2012, "
              "upgraded, or spelled past the spelling key)",
        "hi": "इसकी 2012 पंक्ति के प्रकार के किसी 2006 निकाय का नाम मिलता-जुलता नहीं (2006 और 2012 के बीच बना, "
              "उच्चीकृत, या वर्तनी-कुंजी से परे भिन्न)"},
    "two 2006 bodies alike": {
        "en": "two 2006 bodies (or two 2012 rows) bear a name alike: too close to call",
        "hi": "दो 2006 निकायों (या दो 2012 पंक्तियों) के नाम मिलते-जुलते: निर्णय के लिए बहुत निकट"},
}

#: Rotation verdicts (reservation.views.rotation): code -> (symbol, words in each language).
VERDICT_TEXT: dict[str, dict[str, str]] = {
    "first": {"en": "no earlier election in the history since the base year: nothing to rotate from",
              "hi": "आधार वर्ष के बाद इतिहास में कोई पिछला निर्वाचन नहीं: चक्रानुक्रम का आधार नहीं"},
    "unreserved": {"en": "unreserved: no rotation question", "hi": "अनारक्षित: चक्रानुक्रम का प्रश्न नहीं"},
    "never": {"en": "rotated: never reserved for this group in the earlier elections",
              "hi": "चक्रानुक्रम हुआ: पिछले निर्वाचनों में इस वर्ग के लिए कभी आरक्षित नहीं"},
    "not_last": {"en": "rotated: not reserved for this group at the last election (held it earlier)",
                 "hi": "चक्रानुक्रम हुआ: पिछले निर्वाचन में इस वर्ग के लिए आरक्षित नहीं (उससे पहले रहा)"},
    "repeat": {"en": "repeat: reserved for this group at the last election too",
               "hi": "पुनरावृत्ति: पिछले निर्वाचन में भी इस वर्ग के लिए आरक्षित"},
    "repeat_allowed": {"en": "repeat, allowed: tiers 1-2 could not fill the posts ('as far as possible')",
                       "hi": "पुनरावृत्ति, अनुमत: स्तर 1-2 से पद नहीं भरे ('जहाँ तक हो सके')"},
    "pinned": {"en": "fixed by a pin file, not by the rules", "hi": "पिन फ़ाइल द्वारा निश्चित, नियमों द्वारा नहीं"},
    "no_record": {"en": "no record for this unit in this election", "hi": "इस निर्वाचन में इस इकाई का कोई अभिलेख नहीं"},
}

def word(key: str, lang: str = "en", **values) -> str:
    """The text of ``key`` in ``lang``, with ``{placeholders}`` filled from ``values``."""
    text = TEXT[key][check_lang(lang)]
    return text.format(**values) if values else text


def flag_meanings(kinds, lang: str = "en") -> list[str]:
    """What each kind of constitutional flag means (once per kind, in the order given), then that a flag is a
    question, not a finding: the one text of every place a flag is shown (allot, audit, report, notebooks)."""
    kinds = list(dict.fromkeys(kinds))
    return [word(f"flag.{k}", lang) for k in kinds] + ([word("flag.note", lang)] if kinds else [])


def category_label(code: str, lang: str = "en") -> str:
    return CATEGORY_LABELS[code][check_lang(lang)]


def verdict_text(code: str, lang: str = "en") -> str:
    return VERDICT_TEXT[code][check_lang(lang)]
