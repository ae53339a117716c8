"""Money: "$1,200", "1200 USD", "USD 1,200.00", "US$1,200", "1.2k dollars", "$1.2 million",
"four hundred dollars", "1.234,50 EUR", "EUR 1 234,50", "12,50 €", "12 480,50 $" (Canadian: the sign after the amount), "INR 30,00,000", "Rs. 5,00,000",
"₹2 crore", "30 lakh rupees" are all read as an amount and a currency. "$" alone means USD, or the one other
dollar its record names (``record_dollar``); "EUR"/"€"/
"euros" EUR; "GBP"/"£"/"pounds" GBP; "PLN"/"zł"/"zloty" PLN; "INR"/"Rs."/"₹"/"rupees" INR
(Indian grouping and lakh/crore: ``base.DIGITS``, ``base.SCALE``). A rate suffix ("per hour", "/h",
"an hour", "monthly") is kept in ``per``; a price per counted thing ("$0.28 per bag", "USD 1.10/unit",
"€4 each") has ``per == "unit"``. European decimal commas: see ``base.DIGITS``.
"""

from __future__ import annotations

import re
from typing import Iterable

from warrant.runtime.verify.text import sentence_bounds
from warrant.runtime.verify.rules.base import MONEY_NUM, MONEY_NUMW, SCALE, Claims, Found, I, free_numbers, per_after, per_before, scale

CURRENCY_SYMBOL = {"us$": "USD", "$": "USD", "€": "EUR", "£": "GBP", "c$": "CAD", "a$": "AUD", "nz$": "NZD", "s$": "SGD",
                   "hk$": "HKD", "¥": "JPY", "₹": "INR", "rs": "INR", "rs.": "INR"}
# ISO codes read beside an amount ("PHP" and "TRY" are left out: a language and a word before numbers)
CURRENCY_CODES = ("USD", "EUR", "GBP", "PLN", "CHF", "CAD", "AUD", "JPY", "SEK", "NOK", "DKK", "INR", "NZD", "SGD", "HKD",
                  "CNY", "ZAR", "AED", "SAR", "QAR", "MXN", "BRL", "KRW", "CZK", "HUF", "RON", "ILS", "TWD", "THB", "MYR", "IDR", "ISK")
_CODE_RE = "(?:" + "|".join(CURRENCY_CODES) + ")"
CURRENCY_WORD = {
    "dollar": "USD", "dollars": "USD", "euro": "EUR", "euros": "EUR", "pound": "GBP",
    "pounds": "GBP", "zloty": "PLN", "zlotys": "PLN", "zlotych": "PLN", "zł": "PLN",
    "franc": "CHF", "francs": "CHF", "rupee": "INR", "rupees": "INR",
}

_MINUS = r"(?:[-\u2212](?=\d))?"

_PATTERNS = [
    # $1,200 / US$ 1.2k / €300 / £1.5 million / Rs. 5,00,000 / ₹2 crore
    # "$-150" / "USD -150.00": a minus between the currency and the digits is part of the amount
    # (its sign is read by ``signs``)
    re.compile(rf"(?P<sym>US\$|NZ\$|HK\$|(?<![A-Za-z])S\$|C\$|A\$|\$|€|£|¥|₹|(?<![A-Za-z])Rs\.?)\s?{_MINUS}(?P<num>{MONEY_NUM})(?P<scale>{SCALE})?"),
    # USD 1,200.00 / USD $1,200 / EUR1.2m
    re.compile(rf"\b(?P<code>{_CODE_RE})\s?(?:\$|€|£)?\s?{_MINUS}(?P<num>{MONEY_NUM})(?P<scale>{SCALE})?"),
    # 1200 USD / 1.2k EUR / 300 zł
    re.compile(rf"(?P<num>{MONEY_NUM})(?P<scale>{SCALE})?\s?(?P<code>{_CODE_RE}\b|zł)"),
    # 12,50 € / 1.234,50 € (the symbol after the amount, as written in much of Europe)
    re.compile(rf"(?P<num>{MONEY_NUM})(?P<scale>{SCALE})?\s?(?P<sym>€|£)"),
    # 12 480,50 $ / 0,62 $ / 1 400,00 $ CAD: the dollar sign after the amount, as Quebec writes
    # Canadian dollars ("$ US" or "$ USD" after it for US dollars)
    re.compile(rf"(?P<num>{MONEY_NUM})(?P<scale>{SCALE})?\s?\$(?:\s?(?P<trail>CAD|CA|US|USD)\b)?(?![\w$])"),
    # 1.2k dollars / five hundred euros / 300 (three hundred) dollars
    re.compile(
        rf"(?P<num>{MONEY_NUMW})(?P<scale>{SCALE})?\s+(?:US\s+|U\.S\.\s+)?"
        r"(?P<word>dollars?|euros?|pounds?(?:\s+sterling)?|zloty|zlotys|zlotych|francs?|rupees?)\b", I),
]


# a dollar other than the US one, named by its prefix or code: "A$400.00", "AUD", "NZ$"
_OTHER_DOLLAR = re.compile(r"(?<![A-Za-z])(?:(?P<p>A|AU|C|CA|NZ|S|HK)\$|(?P<c>AUD|CAD|NZD|SGD|HKD)\b)")
_US_DOLLAR = re.compile(r"\bUS\$|\bUSD\b|\bU\.?S\.?\s+dollars?\b")
_PREFIX_CODE = {"A": "AUD", "AU": "AUD", "C": "CAD", "CA": "CAD", "NZ": "NZD", "S": "SGD", "HK": "HKD"}


def record_dollar(text: str) -> str | None:
    """The one non-US dollar ``text`` names ("Float: A$400.00", "Currency: AUD") where it never
    names US dollars: its bare "$" amounts are that dollar ("$5.00 shortfall" in an Australian
    petty-cash sheet is AUD 5.00). None when it names none, several, or US dollars too."""
    found = {_PREFIX_CODE[m["p"]] if m["p"] else m["c"] for m in _OTHER_DOLLAR.finditer(text)}
    return found.pop() if len(found) == 1 and not _US_DOLLAR.search(text) else None


def names_us_dollars(text: str) -> bool:
    return bool(_US_DOLLAR.search(text))


# "pounds" is a weight in a sentence about weight
_WEIGHT = re.compile(r"\b(?:weigh\w*|weight\w*|heav\w*|lbs?|kg|kilo\w*|tonnes?|tons?|ounces?|oz|mass|payload|gross|net\s+wt)\b", re.I)


def find_money(text: str, claims: Claims) -> Iterable[Found]:
    for rx in _PATTERNS:
        for m, num in free_numbers(rx, text, claims):
            a, b = m.start(), m.end()
            gd = m.groupdict()
            if "trail" in gd:  # an amount written before its dollar sign
                cur = "USD" if (gd["trail"] or "").upper() in ("US", "USD") else "CAD"
            elif gd.get("sym"):
                cur = claims.dollar if gd["sym"] == "$" else CURRENCY_SYMBOL[gd["sym"].lower()]
            elif gd.get("code"):
                cur = "PLN" if gd["code"].lower() == "zł" else gd["code"].upper()
            else:
                word = gd["word"].lower()
                if word.startswith("pound") and "sterling" not in word and _WEIGHT.search(text, *sentence_bounds(text, a)):
                    continue  # "weighs 41 pounds": a weight, read as a measure
                cur = CURRENCY_WORD[word.split()[0]]
                if cur == "USD" and not re.search(r"U\.?S\.?\s+$", text[a:m.start("word")]):
                    cur = claims.dollar
            per, _ = per_after(text, b, counts=True)
            per = per or per_before(text, a)
            claims.take(a, b)
            yield (a, b, "money", num * scale(gd.get("scale")), cur, per, ())
