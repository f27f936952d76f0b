"""The words of the district sheet (``reservation sheet``, :mod:`reservation.views.sheet`), in English and Hindi.
Part of the words of :mod:`reservation.law.words` (kept beside it: that module is at its size limit); the status
words themselves are :data:`reservation.law.words.STATUS_WORDS`, the category labels
:data:`reservation.law.words.CATEGORY_LABELS`. ``tests/test_hindi.py``'s rule holds here too: a category code
appears in Hindi only where it names itself (the key's "{code}"), never inside a sentence.
"""

from __future__ import annotations

from .langs import check_lang

__all__ = ["SHEET_WORDS", "STATUS_MARKS", "sheet_word"]

#: the mark of each answer status in the sheet's tables (the key says what each means)
STATUS_MARKS = {
    "en": {"determined": "a", "depends_obc": "b", "depends_list": "c", "partial_figures": "d",
           "differs_published": "e"},
    "hi": {"determined": "क", "depends_obc": "ख", "depends_list": "ग", "partial_figures": "घ",
           "differs_published": "ङ"},
}

SHEET_WORDS = {
    "en": {
        "title": "{district} district ({division} division)",
        "subtitle": "Reserved local offices: panchayats {panchayat_year}, urban bodies {urban_year}",
        "computed_by": "Computed by the reservation workbench {version} from the law and public data; not the "
                       "State's list. Figures: Census 2011. Published lists held: {lists}.",
        "list_item": "{body} {year} ({date})",
        "list_item_undated": "{body} {year}",
        "no_lists": "none for these elections",
        "zp": "Zila Panchayat chair (adhyaksh), {year}",
        "computed": "computed: {code} ({label}); how sure: {status} ({mark})",
        "possible": "the law allows with public data: {codes}",
        "published": "published: {code} ({label}), list of {date}",
        "published_undated": "published: {code} ({label}), the list we hold",
        "record": "record of {year}: {code} ({label}), from the lists we hold",
        "no_published": "published: no list of this election is held",
        "not_in_published": "published: the list held does not name this office",
        "earlier": "earlier: {items}",
        "earlier_item": "{year} {code}",
        "unknown_item": "{year} unknown",
        "kp": "Block pramukhs (Kshetra Panchayat chairs), {year}: {n} blocks",
        "urban": "Urban chairs, {year}: {n} bodies",
        "urban_none": "Urban chairs, {year}: no urban body of the district is listed",
        "col.block": "block",
        "col.town": "town",
        "col.kind": "body",
        "col.computed": "computed",
        "col.sure": "how sure",
        "col.possible": "possible",
        "col.published": "published {year}",
        "kind.mayor": "Nagar Nigam",
        "kind.pp-chair": "N. Palika Parishad",
        "kind.np-chair": "Nagar Panchayat",
        "gp": "Gram pradhans {year}: {n} gram panchayats, computed on partial, name-matched Census figures "
              "({partial} partial, {none} none), not the State's list: {counts}.",
        "gp_none": "Gram pradhans {year}: LGD lists no gram panchayat of this district.",
        "key": "Key",
        "key.status": "How sure: {items}.",
        "key.cells": "In the tables: possible is shown where it is more than the computed category; "
                     "published: the State's list of that election, else its record in the lists we hold; "
                     "? = a list is held but names no office placed here (or ships unplaced); "
                     "– = we hold no list of that year; blank published = no list of this election is held.",
        "key.codes": "Categories: {items}.",
        "key.obc": "OBC population by district, block or town is not public: where it decides (b), the computed "
                   "category takes every unit at the State share, and the published list may well differ. "
                   "Read every computed category as a computation, never as the State's list.",
        "index.sheets": "District sheets (one-page PDF each)",
        "key.command": "Made with: reservation sheet --district \"{district}\" --panchayat-year {panchayat_year} "
                       "--urban-year {urban_year} --lang en",
    },
    "hi": {
        "title": "जिला {district} ({division} मण्डल)",
        "subtitle": "आरक्षित स्थानीय पद: पंचायतें {panchayat_year}, नगरीय निकाय {urban_year}",
        "computed_by": "आरक्षण वर्कबेंच {version} द्वारा विधि और सार्वजनिक आँकड़ों से संगणित; यह राज्य की सूची नहीं है। "
                       "आँकड़े: जनगणना 2011। उपलब्ध प्रकाशित सूचियाँ: {lists}।",
        "list_item": "{body} {year} ({date})",
        "list_item_undated": "{body} {year}",
        "no_lists": "इन निर्वाचनों की कोई नहीं",
        "zp": "जिला पंचायत अध्यक्ष, {year}",
        "computed": "संगणित: {label}; कितना निश्चित: {status} ({mark})",
        "possible": "सार्वजनिक आँकड़ों के साथ विधि जो अनुमति देती है: {labels}",
        "published": "प्रकाशित: {label}, {date} की सूची",
        "published_undated": "प्रकाशित: {label}, हमारे पास की सूची",
        "record": "{year} का अभिलेख: {label}, हमारे पास की सूचियों से",
        "no_published": "प्रकाशित: इस निर्वाचन की कोई सूची उपलब्ध नहीं",
        "not_in_published": "प्रकाशित: उपलब्ध सूची में यह पद नहीं है",
        "earlier": "पहले: {items}",
        "earlier_item": "{year} {label}",
        "unknown_item": "{year} अज्ञात",
        "kp": "क्षेत्र पंचायत प्रमुख, {year}: {n} विकास खण्ड",
        "urban": "नगरीय निकायों के अध्यक्ष, {year}: {n} निकाय",
        "urban_none": "नगरीय निकायों के अध्यक्ष, {year}: जिले का कोई नगरीय निकाय सूची में नहीं",
        "col.block": "विकास खण्ड",
        "col.town": "नगर",
        "col.kind": "निकाय",
        "col.computed": "संगणित",
        "col.sure": "कितना निश्चित",
        "col.possible": "संभव",
        "col.published": "प्रकाशित {year}",
        "kind.mayor": "नगर निगम",
        "kind.pp-chair": "नगर पालिका परिषद",
        "kind.np-chair": "नगर पंचायत",
        "gp": "ग्राम प्रधान {year}: {n} ग्राम पंचायतें, अधूरे और नाम से मिलाए गए जनगणना आँकड़ों पर संगणित ({partial} "
              "अधूरे, {none} बिना आँकड़ों के), राज्य की सूची नहीं: {counts}।",
        "gp_none": "ग्राम प्रधान {year}: एलजीडी में इस जिले की कोई ग्राम पंचायत नहीं।",
        "key": "संकेत",
        "key.status": "कितना निश्चित: {items}।",
        "key.cells": "तालिकाओं में: संभव वर्ग वहीं दिखाए गए हैं जहाँ वे संगणित वर्ग से अधिक हैं; प्रकाशित: उस निर्वाचन की "
                     "राज्य की सूची, अन्यथा हमारे पास की सूचियों में उसका अभिलेख; ? = सूची उपलब्ध है पर उसमें यहाँ बैठाया "
                     "गया कोई पद नहीं (या वह अभी बैठाई नहीं गई); – = उस वर्ष की सूची हमारे पास नहीं; प्रकाशित खाली = इस "
                     "निर्वाचन की कोई सूची उपलब्ध नहीं।",
        "key.codes": "वर्गों के कोड: {items}।",
        "key.obc": "जिले, विकास खण्ड या नगर की अन्य पिछड़ा वर्ग जनसंख्या सार्वजनिक नहीं है: जहाँ वह निर्णय करती है (ख), "
                   "संगणना हर इकाई में राज्य का अनुपात मानती है, और प्रकाशित सूची भिन्न हो सकती है। हर संगणित वर्ग को "
                   "संगणना ही पढ़ें, राज्य की सूची कभी नहीं।",
        "index.sheets": "जिलों के पृष्ठ (हर जिले की एक पृष्ठ की पीडीएफ़)",
        "key.command": "बनाने का आदेश: reservation sheet --district \"{district}\" --panchayat-year {panchayat_year} "
                       "--urban-year {urban_year} --lang hi",
    },
}


def sheet_word(key: str, lang: str = "en", **values) -> str:
    """The sheet's text of ``key`` in ``lang``, with ``{placeholders}`` filled from ``values``."""
    text = SHEET_WORDS[check_lang(lang)][key]
    return text.format(**values) if values else text
