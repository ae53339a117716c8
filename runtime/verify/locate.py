"""Finding a typed slot's value in the evidence views of the cited records.

Where: the document the slot belongs to (a scope: "invoice INV-7", found by its title line and
own-id field, or a JSON object holding the id under an id key), then the row (a table row, a JSON
array element, a sentence that names the line), then the label (column header, "Key:", JSON key or
the words before a value in a sentence) matched against the slot's synonyms, never against a label
it excludes ("subtotal" is not "total"). What: the value parsed by kind with the quantities parser.
Every found value keeps the byte span it was read from.

Structured items (cells, fields, JSON leaves) outrank sentences; within the best rank, two different
values are an ambiguity, not a choice, unless the slot picks a volume tier by quantity.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from decimal import Decimal, InvalidOperation
from typing import Any

from warrant.runtime.verify.formula import Bound
from warrant.runtime.verify.rules import dates, extract_quantities
from warrant.runtime.verify.rules.base import SPACE_GROUPED, uses_decimal_comma
from warrant.runtime.verify.rules.money import CURRENCY_CODES
from warrant.runtime.verify.spec import ScopeSpec, SlotSpec
from warrant.runtime.verify.view import EvidenceView, Item

# -- labels ---------------------------------------------------------------------------------------

_ABBREV = {
    "qty": "quantity", "qnty": "quantity", "quantities": "quantity", "amt": "amount", "no": "number", "num": "number",
    "nbr": "number", "#": "number", "recv": "received", "rcvd": "received", "recd": "received", "desc": "description",
    "dt": "date", "pct": "percent", "%": "percent", "uom": "unit", "ext": "extended", "ea": "each", "id": "number",
    "ref": "reference", "sub": "sub", "excl": "excluding", "incl": "including", "min": "minimum", "max": "maximum",
    "exkl": "excluding", "inkl": "including",  # German "exkl. MWST"
}
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")  # "unitPrice", "PONumber" -> "PO Number"
_TOKEN = re.compile(r"[a-z0-9]+|[#%]")


def _stem(w: str) -> str:
    w = _ABBREV.get(w, w)
    if len(w) > 3 and w.endswith("ies"):
        return w[:-3] + "y"
    if len(w) > 3 and w.endswith("s") and not w.endswith("ss"):
        return w[:-1]
    return w


# German column and field labels of bilingual or German-only documents (a DACH vendor's invoice
# prints "Menge", "Preis/Stk", "Betrag"), read as the English words the synonym lists use
_GERMAN = {
    "menge": ("quantity",), "bestellmenge": ("ordered", "quantity"), "liefermenge": ("delivered", "quantity"),
    "preis": ("price",), "einzelpreis": ("unit", "price"), "stueckpreis": ("unit", "price"),
    "stk": ("each",), "betrag": ("amount",), "gesamtbetrag": ("total", "amount"), "gesamtpreis": ("line", "total"),
    "gesamt": ("total",), "artikel": ("item",), "artikelnummer": ("item", "number"), "bezeichnung": ("description",), "position": ("pos",),
    "nettowert": ("net", "value"), "nettobetrag": ("net", "amount"), "zahlbetrag": ("amount", "payable"),
    "rechnungsbetrag": ("invoice", "amount"), "bestellung": ("purchase", "order"), "rechnungsdatum": ("invoice", "date"),
    "lieferdatum": ("delivery", "date"), "liefertermin": ("delivery", "date"),
    # titles and header fields: "RECHNUNG RE-2026-0342", "Bestellnummer: 4500012904", "Zwischensumme: CHF 10'706.00"
    "rechnung": ("invoice",), "rechnungsnummer": ("invoice", "number"), "bestellnummer": ("purchase", "order", "number"),
    "lieferschein": ("delivery", "note"), "wareneingang": ("goods", "receipt"), "vertrag": ("contract",),
    "rahmenvertrag": ("framework", "agreement"), "vertragsnummer": ("contract", "number"), "zwischensumme": ("subtotal",),
    "mwst": ("vat",), "zahlungsbedingungen": ("payment", "terms"),
    # a German contract's term clause: "Die feste Grundlaufzeit endet am 31.12.2027."
    "laufzeit": ("term",), "grundlaufzeit": ("initial", "term"), "endet": ("ends",),
    "bestellwert": ("order", "value"), "netto": ("net",),
    "verspaetung": ("delay",), "kalendertag": ("calendar", "day"),
    "schwellenwert": ("threshold",), "freigabe": ("approval",), "freigabegrenze": ("approval", "threshold"),
}


_UMLAUT = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss"})

# French labels of Quebec and French documents ("Prix unitaire", "Bon de commande", "Total à payer"),
# read as the English words the synonym lists use: phrases whose English order differs first, then
# words; articles and prepositions ("de", "la", "à") say nothing
_FRENCH_PHRASES = [(re.compile(r"\b" + a.replace(" ", r"\s+") + r"\b"), b) for a, b in (
    (r"prix unitaires?", "unit price"), (r"bons? de commande", "purchase order"), (r"sous[- ]total", "subtotal"),
    (r"date de (?:la )?facture", "invoice date"), (r"date de livraison requise", "required delivery date"),
    (r"date de livraison", "delivery date"), (r"date de reception", "receipt date"), (r"date d'echeance", "due date"),
    (r"(?:numero|no|n) de facture", "invoice number"), (r"total a payer", "total due"), (r"montant total", "total amount"),
    (r"(?:quantite|qte) commandee", "ordered quantity"), (r"(?:quantite|qte) recue", "received quantity"),
    (r"(?:quantite|qte) livree", "delivered quantity"), (r"(?:quantite|qte) acceptee", "accepted quantity"),
    (r"(?:quantite|qte) facturee", "billed quantity"), (r"(?:modalites|conditions) de paiement", "payment terms"),
    (r"reception de(?:s)? marchandises", "goods receipt"), (r"bordereau de (?:livraison|reception)", "delivery note"),
    (r"frais de transport", "freight"), (r"montant de (?:la )?ligne", "line amount"),
    (r"entre(?:ra)? en vigueur", "effective"), (r"date d'entree en vigueur", "effective date"),
    (r"duree initiale", "initial term"), (r"se termine", "ends"),
)]
_FRENCH = {
    "facture": ("invoice",), "commande": ("order",), "ligne": ("line",), "qte": ("qty",), "quantite": ("quantity",),
    "prix": ("price",), "unitaire": ("unit",), "montant": ("amount",), "livraison": ("delivery",), "reception": ("receipt",),
    "requise": ("required",), "recue": ("received",), "recu": ("received",), "commandee": ("ordered",), "livree": ("delivered",),
    "acceptee": ("accepted",), "refusee": ("rejected",), "facturee": ("billed",), "fournisseur": ("supplier",), "vendeur": ("vendor",),
    "acheteur": ("buyer",), "contrat": ("contract",), "devise": ("currency",), "remise": ("discount",), "escompte": ("discount",),
    "transport": ("freight",), "frais": ("charges",), "echeance": ("due",), "modalites": ("terms",), "paiement": ("payment",),
    "politique": ("policy",), "seuil": ("threshold",), "approbation": ("approval",), "retard": ("delay",), "jour": ("day",),
    "plafond": ("cap",), "palier": ("tier",), "unite": ("unit",), "produit": ("product",), "numero": ("number",), "n": ("no",),
    "payer": ("payable",), "marchandises": ("goods",), "bordereau": ("note",), "duree": ("term",), "initiale": ("initial",),
    "responsabilite": ("liability",), "limitee": ("limited",), "preavis": ("notice",), "resiliation": ("termination",),
    "resilier": ("terminate",), "assujetti": ("taxable",), "plafonne": ("capped",), "plafonnee": ("capped",),
    "exigee": ("required",), "requis": ("required",), "defaut": ("breach",), "corrige": ("cured",), "renouveler": ("renew",),
    "lig": ("line",), "um": ("uom",), "signe": ("signed",), "signature": ("signed",), "assurance": ("insurance",), "acompte": ("deposit",),
}
_FRENCH_STOP = {"de", "du", "des", "la", "le", "les", "l", "d", "a", "au", "aux", "et", "en"}


def _fold(text: str) -> str:
    """Lower case without accents ("Qté reçue" -> "qte recue"); German umlauts as ae/oe/ue first."""
    text = unicodedata.normalize("NFKD", text.lower().translate(_UMLAUT)).replace("n°", "n ")  # "N° de facture"
    return "".join(c for c in text if not unicodedata.combining(c))


# one French word of the map is enough to read a text the French way ("Qté", "Montant"), but not one
# English writes too ("Transport charges", "Payer:", "Signature:" stay English)
_ENGLISH_TOO = {"reception", "devise", "transport", "signature", "assurance", "payer", "unite", "retard", "remise", "approbation"}
_FRENCH_HINT = re.compile(r"\b(?:sous|de|du|des|" + "|".join(w for w in _FRENCH if len(w) > 2 and w not in _ENGLISH_TOO) + r")s?\b")
_FRENCH_MARKS = re.compile(r"[éèêàâçôûîÉÈÊÀÂÇÔÛÎ]")  # French accents (German umlauts are not)


@lru_cache(maxsize=65536)
def tokens(label: str) -> tuple[str, ...]:
    # "Qty rec'd": an apostrophe inside a word abbreviates it, it does not split it; "Stückpreis" is
    # one word, written as "Stueckpreis"; a German genitive ("des Bestellwerts") is its noun
    raw = _CAMEL.sub(" ", re.sub(r"(?<=\w)['’](?=\w)", "", label))
    text = _fold(raw)
    french = _FRENCH_HINT.search(text) is not None or _FRENCH_MARKS.search(raw) is not None
    if french:
        for rx, en in _FRENCH_PHRASES:
            text = rx.sub(en, text)
    return tuple(_stem(t) for w in _TOKEN.findall(text) if not (french and w in _FRENCH_STOP)
                 for t in _foreign(w, _FRENCH if french else {}))


def _foreign(w: str, french: dict) -> tuple[str, ...]:
    """The English words of a German (or, in a French text, French) label word, else the word."""
    for table in (_GERMAN, french):
        if w in table:
            return table[w]
        if w.endswith("s") and w[:-1] in table:
            return table[w[:-1]]
    return (w,)


def label_score(label: str, synonyms: list[str], exclude: list[str]) -> int:
    """100 for an exact synonym (less its rank), 60 for a label holding a synonym's words, 0 when
    nothing matches or the label holds an excluded word."""
    toks = tokens(label)
    if not toks:
        return 0
    if toks[0] == "unit" and len(toks) > 1 and all(t in _CURRENCY_TOKENS for t in toks[1:]):
        toks = ("unit", "price", *toks[1:])  # a column "Unit EUR" holds unit prices, in euros
    if _excluded(toks, exclude):
        return 0
    best = 0
    for i, syn in enumerate(synonyms):
        st = tokens(syn)
        if not st:
            continue
        if st == toks:
            return 100 - i
        if set(st) <= set(toks):
            best = max(best, 60 - i - (len(toks) - len(st)))
    return max(best, 0)


_CURRENCY_TOKENS = frozenset(c.lower() for c in CURRENCY_CODES)


def _excluded(toks, exclude: list[str]) -> bool:
    """A label holds an excluded phrase when it holds all of its words ("order date")."""
    have = set(toks)
    return any((et := set(tokens(e))) and et <= have for e in exclude)


def key_of(value: Any) -> str:
    """Identifiers and row keys compared whole: case and spacing aside, every character counts
    (ORD-7702 is not ORD-7703); "2", "2.0" and "02" are the same line."""
    s = str(value).strip()
    s = re.sub(r"^(?:#|no\.?\s*|line\s+)", "", s, flags=re.I).strip()
    try:
        d = Decimal(s)
        if d == d.to_integral_value():
            return str(int(d))
        return str(d.normalize())
    except (InvalidOperation, ValueError):
        return re.sub(r"\s+", "", s).upper()


# legal forms that end a company's name ("Co.", "GmbH"): one list for name keys, firm detection and
# the full stops that end no field
LEGAL_FORMS = ("Co", "Company", "Inc", "Incorporated", "Corp", "Corporation", "Ltd", "Limited", "LLC", "LLP", "LP", "PLC",
               "GmbH", "AG", "SA", "SAS", "BV", "NV", "Pty", "AB", "Oy", "SpA", "Srl")
_LEGAL = {f.lower() for f in LEGAL_FORMS}


class Name(str):
    """A party or vendor name; equal names compare equal after case, punctuation, a leading "the"
    and a trailing legal form ("Co.", "Ltd", "Inc.") are set aside."""

    def key(self) -> str:
        words = re.findall(r"[a-z0-9&]+", self.lower())
        if words and words[0] == "the":
            words = words[1:]
        while words and words[-1] in _LEGAL:
            words.pop()
        return " ".join(words)


# -- found values ---------------------------------------------------------------------------------


@dataclass
class Found:
    value: Any
    record_id: str
    start: int  # byte span of the value in the record
    end: int
    text: str
    label: str
    score: float
    unit: str | None = None
    readings: tuple = ()  # other readings of an ambiguous numeric date
    tier: tuple | None = None  # (lo, lo_inclusive, hi, hi_inclusive) of a volume tier
    weak: bool = False  # may support, never contradict (a letterhead)
    scope: str = ""  # which scope region it came from


@dataclass
class Located:
    found: list[Found] = field(default_factory=list)  # one, or one per scope for `each` slots
    problem: str | None = None  # why not found / ambiguous (None when found)
    ambiguous: bool = False


# -- scopes ---------------------------------------------------------------------------------------

_SEG = re.compile(r'(\.[A-Za-z_][A-Za-z0-9_]*|\."(?:[^"\\]|\\.)*"|\[\d+\])$')
# an object its path names ("invoices[2]") is identified by a generic key, or by the vendor's own
# reference for it ("supplier_ref": the invoice number the vendor printed, beside the ERP's "doc_id")
_GENERIC_ID = ["number", "id", "reference", "document number", "doc number", "doc", "document", "supplier reference", "vendor reference", "external reference"]


def parent_path(path: str) -> str:
    m = _SEG.search(path)
    return path[: m.start()] if m else ""


def _path_keys(path: str) -> list[str]:
    return [k.strip('."') for k in re.findall(r'\.[A-Za-z_][A-Za-z0-9_]*|\."(?:[^"\\]|\\.)*"', path)]


def _has_words(toks: tuple[str, ...], words: list[str]) -> bool:
    for w in words:
        wt = tokens(w)
        n = len(wt)
        if n and any(toks[i:i + n] == wt for i in range(len(toks) - n + 1)):
            return True
        if n > 1 and "".join(wt) in toks:  # "purchaseorder", "goodsreceipt"
            return True
    return False


@dataclass
class Region:
    view: EvidenceView
    prefix: str | None  # JSON object path, or None for the whole record
    name: str  # for messages
    span: tuple[int, int] | None = None  # a section of a text record that holds several documents

    def items(self) -> list[Item]:
        if self.span is not None:
            a, b = self.span
            return [it for it in self.view.items if a <= it.start < b]
        if self.prefix is None:
            return self.view.items
        p = self.prefix
        return [it for it in self.view.items if it.path.startswith(p) and (len(it.path) == len(p) or it.path[len(p)] in ".[")]


_LEGAL_FORM = re.compile(r"\b(?:" + "|".join(LEGAL_FORMS) + r"|plc|S\.A)\b\.?")
_ABBREV_END = re.compile(r"\b(?:" + "|".join(LEGAL_FORMS) + r"|Bros)\.$", re.I)


def _doc_types(view: EvidenceView, scopes: dict[str, ScopeSpec]) -> set[str]:
    """The scope kinds a text document is, from its first title-like line naming one."""
    for it in view.items:
        if it.kind != "header":
            continue
        # a title is a short line, not a key-value line or a sentence of a letter (an upper-case
        # title may hold a colon: "FINANCE POLICY FIN-07: ACCOUNTS PAYABLE APPROVAL"); a long one may
        # name the document in one of its dash-separated parts ("Brindle Coast Seafood Ltd, Unit 4,
        # Harbour Road, Cuxhaven - Tax invoice BCS-INV-5520")
        for text in [it.text, *re.split(r"\s[-–—|]\s", it.text)]:
            if ":" in text and not text.isupper() and text.split(":", 1)[0].isupper():
                text = text.split(":", 1)[0]  # "ACCOUNTS PAYABLE POLICY AP-POL-04: Invoice Approval ...": the heading before its subtitle
            if (":" in text and not text.isupper()) or len(text.split()) > 12 or (text.endswith(".") and not _ABBREV_END.search(text)):
                continue  # ("TAX INVOICE QPK-25-1107 - Quillmark Packaging Co." ends with an abbreviation, not a sentence)
            toks = tokens(text)
            kinds = {name for name, s in scopes.items() if _has_words(toks, s.type_words)}
            if kinds:
                return kinds
    return set()


def _is_id_label(label: str, scope: ScopeSpec, generic_ok: bool) -> bool:
    if label_score(label, scope.id_labels, []) > 0:
        return True
    return generic_ok and tokens(label) in [tokens(g) for g in _GENERIC_ID]


def regions(views: list[EvidenceView], scope_name: str | None, id_value: Any, scopes: dict[str, ScopeSpec]) -> list[Region]:
    if scope_name is None:
        return [Region(v, None, v.record_id) for v in views if not v.problem]
    scope = scopes[scope_name]
    want = key_of(id_value) if id_value is not None else None
    out: list[Region] = []
    for v in views:
        if v.problem:
            continue
        if v.is_json:
            out.extend(_json_regions(v, scope_name, scope, want, scopes))
            continue
        if _is_message(v):
            continue  # an e-mail about an invoice is not the invoice: what it says is the sender's account of it
        if want is not None and (sections := _sections(v, scopes)):
            # a text record holding several documents: only the section that starts "GOODS RECEIPT GR-9120" is that receipt
            out.extend(Region(v, None, f"{scope_name} {id_value} ({v.record_id} section {line!r})", (a, b))
                       for a, b, kinds, line in sections if scope_name in kinds and _token_in(want, line))
            continue
        types = _doc_types(v, scopes)
        if types and scope_name not in types:
            continue
        if want is None:
            if scope_name in types:
                out.append(Region(v, None, f"{scope_name} {v.record_id}"))
            continue
        own = any(
            it.kind in ("field", "cell") and key_of(it.text) == want and _is_id_label(it.label, scope, bool(types))
            for it in v.items
        )
        titled = bool(types) and any(it.kind == "header" and _token_in(want, it.text) for it in v.items)
        if own or titled:
            out.append(Region(v, None, f"{scope_name} {id_value} ({v.record_id})"))
    return out


_MAIL_HEADER = re.compile(r"^(from|to|cc|subject|sent|date)\s*:", re.I)


def _is_message(view: EvidenceView) -> bool:
    """A record that opens with e-mail headers (From: and To: or Subject:). One whose first line is
    something else ("RESUBMITTED INVOICE QPK-1 (copy)" over "From:" and "To:" lines) is a document."""
    lines = [it.text for it in view.items if it.kind == "header"]
    if not lines or not _MAIL_HEADER.match(lines[0]):
        return False
    heads = {m[1].lower() for t in lines if (m := _MAIL_HEADER.match(t))}
    return "from" in heads and bool(heads & {"to", "subject"})


def _sections(view: EvidenceView, scopes: dict[str, ScopeSpec]) -> list[tuple[int, int, set[str], str]]:
    """The documents a text record holds, when it holds two or more of different kinds: each starts at a
    short line that begins with a document kind and carries an identifier ("PURCHASE ORDER PO-4471",
    "Goods receipt GR-9120 (against PO-4471)") and runs to the next such line. [] for an ordinary document."""
    starts = []
    for it in view.items:
        line = it.text.strip()
        if it.kind != "sentence" or "\n" in line or "  " in line or len(line.split()) > 10 or line.endswith((".", ";", ",")) or ":" in line:
            continue  # a field ("INVOICE NUMBER   KPG-1", "PO: PO-1") or a sentence, not a document's heading
        words = line.split()
        for n, sc in scopes.items():
            for w in sc.type_words:
                k = len(w.split())
                # in capitals, as a heading is written ("Invoice PP-1043 attached" in an e-mail starts nothing)
                if tokens(" ".join(words[:k])) == tokens(w) and " ".join(words[:k]).isupper() and len(words) > k and _is_id_like(words[k]):
                    starts.append((it.start, n, line))  # the kind, then at once the id: "PURCHASE ORDER PO-4471"
    merged: dict[int, tuple[int, set[str], str]] = {}
    for a, n, line in starts:
        merged.setdefault(a, (a, set(), line))[1].add(n)
    starts = list(merged.values())
    if len({frozenset(k) for _, k, _ in starts}) < 2:
        return []
    ends = [a for a, _, _ in starts[1:]] + [2**62]
    return [(a, b, kinds, line) for (a, kinds, line), b in zip(starts, ends)]


def _token_in(key: str, text: str) -> bool:
    return any(key_of(t) == key for t in re.findall(r"[A-Za-z0-9][\w./-]*[A-Za-z0-9]|\w", text))


_TOOL_KEYS = {("tool",), ("tool", "name"), ("endpoint",), ("operation",), ("function",)}
_ECHO_KEYS = {("query",), ("request",), ("param",), ("parameter",), ("filter",), ("criteria",), ("search",)}
_CONTAINER_KEYS = {("ref",), ("id",), ("ids",), ("header",), ("head",), ("meta",), ("metadata",), ("info",), ("detail",), ("attribute",), ("identification",), ("reference",), ("document",), ("doc",), ("summary",), ("key",), ("identifier",)}


def _json_regions(v: EvidenceView, scope_name: str, scope: ScopeSpec, want: str | None, scopes: dict[str, ScopeSpec]) -> list[Region]:
    by_parent: dict[str, list[Item]] = {}
    for it in v.items:
        by_parent.setdefault(parent_path(it.path), []).append(it)
    out, seen = [], set()
    # {"tool": "erp.fi.ap.invoice_register.query", "result": {"entries": [...]}}: the tool's name says
    # what the rows of its list are, where the rows do not say it themselves
    tool = " ".join(str(l.text) for l in by_parent.get("$", []) if tokens(l.label) in _TOOL_KEYS)
    rows_named = bool(tool) and _has_words(tokens(tool), scope.type_words)
    for obj, leaves in by_parent.items():
        if obj.endswith("]") and leaves and all(parent_path(l.path) == obj and l.path.endswith("]") for l in leaves):
            continue  # an array of scalars, not an object
        if any(tokens(k) in _ECHO_KEYS for k in _path_keys(obj)):
            continue  # the tool's echo of its request ({"query": {"vendorInvoiceNo": ...}}) is no document
        path_toks = tokens(" ".join(_path_keys(obj)))
        type_leaf = " ".join(str(l.text) for l in leaves if _is_type_key(l.label))
        named = _has_words(path_toks, scope.type_words) or _has_words(tokens(type_leaf), scope.type_words)
        if not named and rows_named and obj.endswith("]") and _type_kinds(leaves, scopes) is None:
            named = True
        if not named and _path_keys(obj) and not obj.endswith("]") and tokens(_path_keys(obj)[-1]) in _CONTAINER_KEYS:
            named = _typed_above(obj, by_parent, scope_name, scopes)  # {"docType": "GR", "header": {"number": ...}}
        ids = [l for l in leaves if any(label_score(l.label, s.id_labels, []) > 0 for s in scopes.values())]
        mine = [l for l in leaves if _is_id_label(l.label, scope, named)]
        others = [  # other kinds whose own id this object holds (a kind that also claims this one's id is a catch-all, not another)
            n for n, s in scopes.items()
            if n != scope_name and any(label_score(l.label, s.id_labels, []) > 0 and label_score(l.label, scope.id_labels, []) == 0 for l in leaves)
            and not any(label_score(l.label, s.id_labels, []) > 0 for l in mine)
        ]
        # an object holding the ids of several kinds is the one that quotes the others (an invoice row with
        # its PO number is the invoice); where the pack does not say, the kind whose id comes first
        quoted = set(others) <= set(scope.cites)
        quoting = any(scope_name in scopes[o].cites for o in others)
        own_first = bool(ids) and ids[0] in mine and not quoting
        if want is None:
            ok = named or (mine and not others) or (bool(mine) and (quoted or own_first))
        else:
            hit = [l for l in mine if key_of(_leaf_value(l)) == want]
            ok = bool(hit) and (named or not others or quoted or own_first)
        if ok and obj.endswith("]") and want is not None and any(l.label != (_path_keys(l.path) or [""])[-1] for l in hit):
            # {"fields": [{"name": "InvoiceNumber", "value": "INV-9"}, ...]}: the pair's owner is the object holding the list
            obj = parent_path(parent_path(obj)) or "$"
        if ok and not obj.endswith("]") and _path_keys(obj) and (
            tokens(_path_keys(obj)[-1]) in _CONTAINER_KEYS or _typed_above(obj, by_parent, scope_name, scopes)
        ):
            # {"invoice": {"header": {"invoice_no": ...}, "lines": [...]}}: the id's header names its parent,
            # unless the parent says it is another kind of document ({"docType": "GoodsReceipt", "reference": {"poNumber": ...}})
            parent = parent_path(obj)
            if _typed_as_other(by_parent.get(parent, []), scope_name, scopes):
                continue
            obj = parent
            # {"result": {"header": {"ids": {"po_number": ...}}, "body": {"items": [...]}}}: a header inside
            # a header names the object above both, up to the array element that is one row of a list
            while (obj and not obj.endswith("]") and _path_keys(obj) and tokens(_path_keys(obj)[-1]) in _CONTAINER_KEYS
                   and not _typed_as_other(by_parent.get(parent_path(obj), []), scope_name, scopes)):
                obj = parent_path(obj)
        if ok and obj not in seen:
            seen.add(obj)
            out.append(Region(v, obj or "$", f"{scope_name} {want or ''} ({v.record_id} {obj or '$'})".replace("  ", " ")))
    # nested matches: keep the innermost only when an outer one merely contains it
    return [r for r in out if not any(o is not r and o.prefix.startswith(r.prefix) and o.prefix != r.prefix for o in out)] if want else out


def _type_kinds(leaves: list[Item], scopes: dict[str, ScopeSpec]) -> set[str] | None:
    """The scope kinds an object's type field ("type": "INVOICE", "docType": "GoodsReceipt") names; None without one."""
    type_leaf = " ".join(str(l.text) for l in leaves if _is_type_key(l.label))
    kinds = {n for n, s in scopes.items() if _has_words(tokens(type_leaf), s.type_words)} if type_leaf else set()
    return kinds or None  # "paymentType": "ACH" names no document kind


def _is_type_key(label: str) -> bool:
    """"type", "docType", "recordType", "document_type", "kind": a field saying what the object is."""
    t = tokens(label)
    return t in (("kind",), ("type",)) or (len(t) == 2 and t[1] == "type" and t[0] in ("doc", "document", "record", "object", "entry", "transaction", "txn"))


def _typed_as_other(leaves: list[Item], scope_name: str, scopes: dict[str, ScopeSpec]) -> bool:
    """An object whose type field names another document kind, and not this one."""
    kinds = _type_kinds(leaves, scopes)
    return bool(kinds) and scope_name not in kinds


def _typed_above(obj: str, by_parent: dict[str, list[Item]], scope_name: str, scopes: dict[str, ScopeSpec]) -> bool:
    """An enclosing object, up to the array element it sits in, whose type field names this document
    kind ({"type": "INVOICE", "vendorInvoice": {"number": ...}}, {"doc_type": "INV", "document": {"refs": {...}}})."""
    p = parent_path(obj)
    while p:
        kinds = _type_kinds(by_parent.get(p, []), scopes)
        if kinds is not None:
            return scope_name in kinds
        if p.endswith("]"):
            return False
        p = parent_path(p)
    return False


def _leaf_value(it: Item) -> str:
    t = it.text
    return t[1:-1] if t.startswith('"') and t.endswith('"') else t


# -- rows -----------------------------------------------------------------------------------------


def _row_phrase(key: str) -> re.Pattern:
    k = re.escape(key)
    if key.isdigit():
        return re.compile(rf"\b(?:line|item|row|ln|no\.?|#|position|pos\.?)\s*(?:no\.?|number|#)?\s*0*{k}\b(?![.,]\d)", re.I)
    return re.compile(rf"(?<![\w-]){k}(?![\w-])", re.I)


_ITEM_CODE = re.compile(r"(?<![\w-])[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)+(?![\w-])")


def _item_codes(text: str) -> list[tuple[int, int, str]]:
    """Hyphenated codes in a sentence ("HY-UH-80", "GV-DN100", "VB-STD"; not "cast-iron"), as
    (start, end, key)."""
    return [(m.start(), m.end(), key_of(m.group())) for m in _ITEM_CODE.finditer(text)
            if _is_id_like(m.group()) or m.group().isupper()]


def _code_of(codes: list[tuple[int, int, str]], a: int, b: int) -> str | None:
    """The code a value at [a, b) belongs to: the last one named before it, else the first after."""
    before = [k for _, e, k in codes if e <= a]
    if before:
        return before[-1]
    return next((k for s, _, k in codes if s >= b), None)


def _is_id_like(key: str) -> bool:
    return bool(re.search(r"[A-Za-z]", key) and re.search(r"\d", key))


# -- values ---------------------------------------------------------------------------------------


@dataclass
class _Val:
    value: Any
    a: int  # character offsets within the item text
    b: int
    unit: str | None = None
    op: str | None = None
    frame: str | None = None
    per: str | None = None
    readings: tuple = ()


_SPACE_GROUPED = re.compile(rf"{SPACE_GROUPED}(?:\s*[^\W\d_]{{1,5}}\.?)?")


def _parse(kind: str, text: str, label: str, leaf: bool, decimal_comma: bool = False) -> list[_Val]:
    """The values of one kind in a cell, field value, JSON literal or sentence; ``decimal_comma``:
    the record writes decimals with a comma (``rules.base.uses_decimal_comma``)."""
    raw = text
    if leaf:
        if raw in ("true", "false"):
            return [_Val(raw == "true", 0, len(raw))] if kind == "bool" else []
        if raw == "null":
            return []
        if not raw.startswith('"'):
            try:
                d = Decimal(raw)
            except InvalidOperation:
                return []
            if kind == "business_days":
                return [_Val(d, 0, len(raw), unit="business_day")] if "business" in tokens(label) else []
            if kind == "days" and not {"day", "term"} & set(tokens(label)):
                return []  # {"totals": {"net": 13782.0}} is no payment term: a bare number is days only under a days/terms key
            if kind in ("amount", "number", "percent", "days"):
                return [_Val(d, 0, len(raw), unit="day" if kind == "days" else None)]
            if kind in ("id", "text", "name"):
                return [_Val(Name(raw) if kind == "name" else raw, 0, len(raw))]
            return []
        if kind == "date" and (m := re.match(r'"(\d{4}-\d{2}-\d{2})T\d{2}:\d{2}', raw)):
            try:  # an ERP timestamp "2026-04-17T08:25:00-07:00": its date as printed (the local date)
                return [_Val(dt.date.fromisoformat(m[1]), 1, 11)]
            except ValueError:
                return []
        text = raw  # keep the quotes: offsets stay inside the literal
    if kind in ("text", "name", "id"):
        inner = text[1:-1] if leaf else text
        s = inner.strip()
        if kind == "name":  # "Acme Supply Co., PO Box 99, Springfield": the name, not the address
            m = re.match(r"(.+?)(?:,\s+(?!(?:inc|ltd|llc|llp|co|corp|plc|gmbh)\b)|\s+-\s+|\s*\()", s, re.I)
            s = m.group(1).strip() if m else s
            if not _ADDRESS.match(s):  # "Vendor: 20417 Tordell Tyre Supply Ltd": the vendor's number first ("400 Canyon Drive" is an address)
                s = re.sub(r"^\d{3,}\s+(?=[A-Z][a-z])", "", s)
        if not s or (kind == "name" and (not re.search(r"[^\W\d_]{2}", s) or _ADDRESS.match(s) or _CODE.fullmatch(s) or s.endswith(":"))):
            return []  # a name has letters ("2026-03-01" under a "from" key is a date) and is no address, code ("SUP-19") or label ("Pour le Fournisseur :")
        off = (1 if leaf else 0) + inner.index(s)
        return [_Val(Name(s) if kind == "name" else s, off, off + len(s))]
    if kind == "bool":
        m = re.fullmatch(r'\s*"?(yes|no|true|false|y|n)"?\s*', text, re.I)
        return [_Val(m.group(1).lower() in ("yes", "true", "y"), m.start(1), m.end(1))] if m else []
    out = []
    if _SPACE_GROUPED.fullmatch(text.strip()):
        decimal_comma = True  # a cell or field of one number, "6 000" (kg): its thousands grouped by a space
    for q in extract_quantities(text, decimal_comma):
        if q.unit == "ref":
            continue
        v = _Val(q.value, q.start, q.end, q.unit, q.op, q.frame, q.per, tuple(q.alt))
        if kind == "date" and q.kind == "date":
            out.append(v)
        elif kind == "amount" and q.kind in ("money", "number"):
            out.append(v)
        elif kind == "number" and q.kind in ("number", "duration", "money"):
            out.append(v)
        elif kind == "percent" and (q.kind == "percent" or (q.kind == "number" and {"percent", "%"} & set(tokens(label)))):
            out.append(v)
        elif kind == "eom_days" and q.kind == "duration" and q.unit == "day":
            if _FROM_MONTH_END.match(text[q.end:q.end + 60]):
                out.append(v)  # days counted from the end of the invoice's month
        elif kind in ("days", "business_days") and q.kind == "duration" and q.unit == ("day" if kind == "days" else "business_day"):
            # calendar days only for "days": 30 business days or 1 month is not 30 days; and terms counted
            # from the end of the month ("Net 30 EOM", "30 days prox") are not days from the invoice date
            if _MONTH_END.match(text[q.end:q.end + 60]):
                v.value = None  # stated, but not as days from the invoice date: the terms are unsettled, not absent
            out.append(v)
        elif kind == "days" and q.kind == "number" and "day" in tokens(label):
            v.unit = "day"
            out.append(v)
    if kind in ("days", "business_days", "eom_days") and len(out) > 1:
        # "2% 10 days, Net 30 days": the days after a discount rate are the discount period, the
        # net days are the terms; several periods that nothing tells apart are no terms at all
        out = [v for v in out if not _DISCOUNT_BEFORE.search(text[max(0, v.a - 12):v.a])]
        net = [v for v in out if re.search(r"\bnet\s*$", text[max(0, v.a - 6):v.a], re.I) or re.match(r"net\b", text[v.a:v.b], re.I)]
        if len(out) > 1 and None not in (vals := {v.value for v in out}) and len(vals) == 1:
            out = out[:1]  # "within forty-five (45) calendar days ... (Net 45)": one term stated twice
        out = net if len(net) == 1 and len(out) > 1 else out if len(out) == 1 else []
    return out


_DISCOUNT_BEFORE = re.compile(r"(?:\d(?:\.\d+)?\s*%|\d\s*/)\s*(?:discount\s+)?(?:if paid within\s+|within\s+)?$", re.I)


_CODE = re.compile(r"[A-Za-z]{1,6}[-_/ ]?\d{2,}")
_ADDRESS = re.compile(r"(?:P\.?\s*O\.?\s*Box\b|\d+\s+(?:[A-Z][\w.]*\s+){1,3}(?:Street|St|Road|Rd|Avenue|Ave|Drive|Dr|Boulevard|Blvd|Lane|Ln|Way|Suite)\b)", re.I)
# terms not counted from the invoice date: from month end ("Net 30 EOM", "30 days prox") or from an
# event whose date the invoice does not give ("30 days after receipt of the goods")
_AFTER_TERM = r"^\s*(?:(?:calendar\s+)?days?\s*)?(?:net\s*)?"
# counted from the end of the invoice's month: "Net 30 EOM", "30 days end of month", "30 days after
# the end of the month", "thirty days after the last day of the calendar month"
_FROM_MONTH_END = re.compile(
    _AFTER_TERM + r"(?:\(?\s*(?:EOM|E\.O\.M\.?)\b"
    r"|(?:(?:from|after|following)\s+(?:the\s+)?)?(?:end\s+of\s+(?:the\s+)?(?:invoice\s+|calendar\s+)?month|month[-\s]end)"
    r"|(?:from|after|following)\s+the\s+last\s+day\s+of\s+the\s+(?:invoice\s+|calendar\s+)?month)", re.I)
_MONTH_END = re.compile(
    _FROM_MONTH_END.pattern + r"|" + _AFTER_TERM + r"(?:\(?\s*(?:MFI|prox\.?|proximo)\b"
    r"|(?:from|after|following|of)\s+(?:the\s+)?(?:date\s+of\s+)?(?:receipt|delivery|acceptance|arrival|shipment|installation))", re.I)


# -- tiers ----------------------------------------------------------------------------------------

_N = r"(\d[\d,]*)"
# two-ended ranges and the words of a tier column ("from 500", "min. 500", "max 999"); a one-sided
# bound ("over 1,000", "5,000 units or more", "not less than 500") is the rules' comparison reading
# a unit may stand after each end: "from 1,000 kg up to 2,499 kg", "between 50 and 99 boxes"
_UNIT_WORD = r"(?:\s*[A-Za-z]{1,12}\.?)?"
_NS = r"(\d{1,3}(?:[ \u00a0\u202f]\d{3})+|\d+)(?![\d,.])"  # "24 999": thousands grouped by a space
_FR_UNIT = r"(?:\s*[A-Za-z][A-Za-z.]{0,11})?"  # "kg", "t.m."
_RANGES = [
    (re.compile(rf"(?:\bfrom\s+)?{_N}{_UNIT_WORD}\s*(?:-|–|—|(?:up\s+)?to|through|thru|until)\s*{_N}", re.I), lambda m: (_d(m[1]), True, _d(m[2]), True)),
    (re.compile(rf"\bbetween\s+{_N}{_UNIT_WORD}\s+and\s+{_N}", re.I), lambda m: (_d(m[1]), True, _d(m[2]), True)),
    (re.compile(rf"\b(?:min\.?|from|ab)\s*{_N}", re.I), lambda m: (_d(m[1]), True, None, True)),  # German "ab 200": from 200
    (re.compile(rf"\b(?:max\.?|bis)\s*{_N}", re.I), lambda m: (None, True, _d(m[1]), True)),
    # one price for every quantity ("jede Menge": any quantity)
    (re.compile(r"\b(?:any|every|all|jede)\s+(?:quantity|quantities|volume|menge)\b", re.I), lambda m: (None, True, None, True)),
    # French: "10 000 à 24 999 kg", "25 000 kg et plus", "50 t.m. et plus", "toutes quantités"
    (re.compile(rf"(?:\bde\s+)?{_NS}{_FR_UNIT}\s+à\s+{_NS}", re.I), lambda m: (_d(m[1]), True, _d(m[2]), True)),
    (re.compile(rf"{_NS}{_FR_UNIT}\s+et\s+(?:plus|au-delà)\b", re.I), lambda m: (_d(m[1]), True, None, True)),
    (re.compile(r"\btoutes\s+(?:les\s+)?quantit[ée]s\b", re.I), lambda m: (None, True, None, True)),
]


def _bound(op: str, v: Decimal) -> tuple:
    return {">": (v, False, None, True), ">=": (v, True, None, True), "<": (None, True, v, False), "<=": (None, True, v, True)}[op]


def _tiers(text: str):
    """(start, end, (lo, lo_inclusive, hi, hi_inclusive)) of each quantity range in a text. A bound
    inside a two-ended range is part of it ("from 1,000 kg up to 2,499 kg" is one tier, not a
    tier from 1,000 and another up to 2,499)."""
    found = [(m.start(), m.end(), mk(m)) for rx, mk in _RANGES for m in rx.finditer(text)]
    two = [t for t in found if t[2][0] is not None and t[2][2] is not None]
    inside = lambda a, b: any(x <= a and b <= y and (x, y) != (a, b) for x, y, _ in two)  # noqa: E731
    yield from two
    yield from (t for t in found if (t[2][0] is None or t[2][2] is None) and not inside(t[0], t[1]))
    for q in extract_quantities(text):
        if q.kind == "number" and q.unit != "ref" and q.op is not None and not inside(q.start, q.end):
            yield q.start, q.end, _bound(q.op, q.value)


def _d(s: str) -> Decimal:
    return Decimal(re.sub(r"[,\s]", "", s))


def parse_range(text: str) -> tuple | None:
    return next((r for _, _, r in _tiers(text)), None)


def in_range(q: Decimal, r: tuple) -> bool:
    lo, lo_inc, hi, hi_inc = r
    if lo is not None and (q < lo or (q == lo and not lo_inc)):
        return False
    if hi is not None and (q > hi or (q == hi and not hi_inc)):
        return False
    return True


_TIER_LABELS = ["tier", "quantity", "volume", "quantity range", "range", "band", "break", "quantity break", "order quantity"]
_MIN_LABELS = ["minimum quantity", "minimum", "from", "quantity from", "lower"]
_MAX_LABELS = ["maximum quantity", "maximum", "to", "quantity to", "upper", "up to"]


_PRICE_WORDS = {"price", "unit", "rate", "cost", "amount", "usd", "eur", "gbp", "per", "each"}
_QTY_WORDS = {"quantity", "volume", "unit", "minimum", "maximum", "from", "to"}  # not "band"/"tier": they name the tier


def _tier_of_row(cells: list[Item], value_item: Item) -> tuple | None:
    # "Tier 2 qty | Tier 2 price": a row of several tiers pairs each price with the range whose label it shares
    own = set(tokens(value_item.label)) - _PRICE_WORDS
    if own:
        for c in cells:
            if c is not value_item and set(tokens(c.label)) - _QTY_WORDS == own and (r := parse_range(c.text.strip('"'))):
                return r
    lo = hi = None
    for c in cells:
        if c is value_item:
            continue
        lt = tokens(c.label)
        txt = c.text.strip('"')
        if label_score(c.label, _MIN_LABELS, ["price"]) >= 40 or lt[-1:] in (("minimum",), ("from",)):
            lo = _num_or_none(txt)
        elif label_score(c.label, _MAX_LABELS, ["price"]) >= 40 or lt[-1:] in (("maximum",), ("to",)):
            hi = _num_or_none(txt)
        elif label_score(c.label, _TIER_LABELS, ["price"]) > 0:
            r = parse_range(txt)
            if r:
                return r
    if lo is not None or hi is not None:
        return (lo, True, hi, True)
    return None


def _num_or_none(s: str) -> Decimal | None:
    m = re.search(r"\d[\d,]*(?:\.\d+)?", s)
    return Decimal(m.group(0).replace(",", "")) if m else None


def _tier_in_sentence(sentence: str, a: int, b: int) -> tuple | None:
    """The quantity range nearest a price inside its clause: "$2.40 per unit for 500-999 units"."""
    best = None
    for ma, mb, r in _tiers(sentence):
        if ma <= a < mb or ma < b <= mb:
            continue  # the price itself
        gap = text_gap(sentence, a, b, ma, mb)
        if gap is None:
            continue
        if best is None or gap < best[0]:
            best = (gap, r)
    return best[1] if best else None


def text_gap(s: str, a: int, b: int, ma: int, mb: int) -> int | None:
    lo, hi = (b, ma) if ma >= b else (mb, a)
    between = s[lo:hi]
    if ";" in between or re.search(r"\$|\d+\.\d{2}", between):
        return None  # another price or clause lies between them
    # "$0.31 per bag for up to 9,999 bags, $0.28 per bag for 10,000 to 24,999": a range across a comma
    # belongs to the price in its own clause, taken only when the price has none there
    # "... up to 499 kg and at EUR 1.32 per kg for orders from 500 kg": "and" opens the next price's clause
    return hi - lo + (1000 if "," in between or re.search(r"\band\b", between) else 0)


# -- the locator ----------------------------------------------------------------------------------


def locate(slot: SlotSpec, args: dict[str, Any], views: list[EvidenceView], scopes: dict[str, ScopeSpec], describe: str) -> Located:
    regs = regions(views, slot.scope, args.get(slot.id_arg) if slot.id_arg else None, scopes)
    if slot.id_arg and args.get(slot.id_arg) is None:
        return Located(problem=f"{describe}: argument {slot.id_arg} is null")
    if not regs and slot.quoted_in and (regs := _quoting(views, slot, args[slot.id_arg], scopes)):
        # read there under the quoting labels only, from a table, a field or a JSON leaf
        slot = slot.model_copy(update={"labels": slot.quoted_in.labels, "labels_by_arg": {}, "paths": [], "prose": False})
    if not regs:
        what = f"{slot.scope} {args.get(slot.id_arg)}" if slot.id_arg else (slot.scope or "a record")
        titles = "; ".join(f"{v.record_id}: {_title(v)!r}" for v in views)
        return Located(problem=f"{describe}: no cited record is {what} (cited: {titles})")
    per_region = [(r, _before_lines(slot, r, _candidates(slot, args, r, scopes))) for r in regs]
    if slot.each:
        out, problems = [], []
        for r, cands in per_region:
            pick = _pick(slot, args, cands)
            if isinstance(pick, Found):
                out.append(pick)
            else:
                problems.append(f"{r.name}: {pick}")
        # every cited record of the scope must answer: a vendor missing from one of two invoices
        # is no evidence that their vendors differ
        return Located(out) if out and not problems else Located(problem=f"{describe}: " + "; ".join(problems or ["not found"]))
    cands = [c for _, cs in per_region for c in cs]
    if slot.kind == "amount" and (cur := args.get(CURRENCY_KEY)):
        # a policy's "Threshold CHF: 10'000.00 / Threshold JPY: 1,700,000": the one in the currency of the
        # amounts already read; an amount in another currency is never compared with them
        cands = [c for c in cands if currency_of(c) in (None, cur)]
    pick = _pick(slot, args, cands)
    if isinstance(pick, Found):
        return Located([pick])
    return Located(problem=f"{describe}: {pick} in {', '.join(r.name for r in regs)}", ambiguous=pick.startswith("ambiguous"))


# where typed.check keeps the currency of a predicate's first amount, for the amounts read after it
CURRENCY_KEY = "__currency__"


def currency_of(found: Found) -> str | None:
    """The currency an amount is in: written beside it ("CHF 9'944.00") or named by its label
    ("Schwellenwert JPY", "Amount (EUR)")."""
    if found.unit and found.unit.upper() in CURRENCY_CODES:
        return found.unit.upper()
    named = {t.upper() for t in tokens(found.label) if t in _CURRENCY_TOKENS}
    return named.pop() if len(named) == 1 else None


def _quoting(views: list[EvidenceView], slot: SlotSpec, id_value: Any, scopes: dict[str, ScopeSpec]) -> list[Region]:
    """The cited documents of ``slot.quoted_in``'s kinds that name the slot's document in one of its
    identifier fields ("Purchase order: 4500017321", "po_number": "4500017321")."""
    want, scope = key_of(id_value), scopes[slot.scope]
    out = []
    for kind in slot.quoted_in.scopes:
        for r in regions(views, kind, None, scopes):
            if any(it.kind in ("field", "cell", "leaf") and key_of(_leaf_value(it) if it.kind == "leaf" else it.text) == want
                   and _is_id_label(it.label, scope, False) for it in r.items()):
                out.append(Region(r.view, r.prefix, f"{r.name} quoting {slot.scope} {id_value}", r.span))
    return out


def _before_lines(slot: SlotSpec, region: Region, cands: list[Found]) -> list[Found]:
    """"Subtotal goods: 2,127.00 / Discount 2% / Freight / Net amount: 2,169.46": the net amount
    answers the subtotal's labels, but it comes after the lines the subtotal precedes."""
    if not slot.before or len(cands) < 2:
        return cands
    marks = [it.start for it in region.items() if it.kind == "field" and _excluded(tokens(it.label), slot.before)]
    if not marks:
        return cands
    first = min(marks)
    early = [c for c in cands if c.start < first]
    return early if early and len(early) < len(cands) else cands


def _title(v: EvidenceView) -> str:
    if v.problem:
        return v.problem
    t = v.title
    if not t and v.is_json:
        keys = [it.label for it in v.items[:6] if it.label]
        return "JSON with " + ", ".join(keys)
    return t[:60]


def _pick(slot: SlotSpec, args: dict[str, Any], cands: list[Found]) -> Found | str:
    if not cands:
        return "not found"
    top = max(c.score for c in cands)
    best = [c for c in cands if c.score >= top - 1e-9]
    if qualified := [c for c in best if c.value is None]:
        return f"ambiguous: stated with a qualification or in a form that cannot be used ({qualified[0].text[:80]!r})"
    if slot.tier is not None and any(c.tier for c in cands):
        # the tiers of one schedule are found with different label strengths ("priced at $1.20 for
        # 1-999; $1.10 for 1,000-4,999"): all ranged prices of the best class (table/JSON or prose) compete
        cls = max(c.score >= 100 for c in cands if c.tier)
        best = [c for c in cands if c.tier and (c.score >= 100) == cls]
        best = _by_tier(best, args.get(slot.tier.arg)) if len({_vkey(c) for c in best}) > 1 or args.get(slot.tier.arg) is not None else best
        if isinstance(best, str):
            return best
    if labels_first := _first_name(slot):
        # a value labelled by the slot's own first name ("Subtotal goods" for a subtotal) that another
        # label outscores ("Net amount", after the discount and freight): which one is meant is a reading
        named = [c for c in cands if c not in best and set(labels_first) <= set(tokens(c.label)) and _vkey(c) not in {_vkey(b) for b in best}]
        if named and not any(set(labels_first) <= set(tokens(b.label)) for b in best):
            return f"ambiguous: {best[0].text[:40]!r} ({best[0].label}) and {named[0].text[:40]!r} ({named[0].label})"
    values = {_vkey(c) for c in best}
    strong = [c for c in best if not c.weak]
    if len(values) > 1 and slot.pick != "only" and all(isinstance(c.value, Decimal) for c in best):
        return (min if slot.pick == "lowest" else max)(best, key=lambda c: c.value)
    if len(values) > 1:
        shown = ", ".join(sorted({c.text for c in best})[:5])
        return f"ambiguous: {len(values)} different values ({shown})"
    return (strong or best)[0]


def _first_name(slot: SlotSpec) -> tuple[str, ...]:
    return tokens(slot.labels[0]) if slot.labels and slot.kind in ("amount", "number") else ()


def _vkey(c: Found) -> Any:
    return c.value.key() if isinstance(c.value, Name) else (c.value, c.readings)


def _by_tier(cands: list[Found], qty: Any) -> list[Found] | str:
    ranged = [c for c in cands if c.tier]
    if not ranged:
        return cands
    if qty is None:
        base = min(ranged, key=lambda c: (c.tier[0] if c.tier[0] is not None else Decimal(-1)))
        return [c for c in ranged if c.tier == base.tier]
    q = Decimal(str(qty))
    hit = [c for c in ranged if in_range(q, c.tier)]
    return hit or f"no volume tier covers quantity {qty}"


def _labels_for(slot: SlotSpec, args: dict[str, Any]) -> list[str]:
    labels = list(slot.labels)
    for arg, table in slot.labels_by_arg.items():
        v = args.get(arg)
        if v is not None:
            labels += table.get(str(v).lower(), [])
    return labels


def _candidates(slot: SlotSpec, args: dict[str, Any], region: Region, scopes: dict[str, ScopeSpec]) -> list[Found]:
    view = region.view
    items = region.items()
    labels = _labels_for(slot, args)
    prose_labels = slot.prose_labels if slot.prose_labels is not None else labels
    row_key = key_of(args[slot.row.arg]) if slot.row and args.get(slot.row.arg) is not None else None
    if slot.row and row_key is None:
        return []
    out: list[Found] = []
    rows = view.table_rows() if not view.is_json else {}
    # the whole record's rows: a receipt nested under a PO line ("lines[2].schedules[0].receipts[0]")
    # takes its line number from that line, outside the receipt's own object
    json_rows = _json_rows(view.items) if view.is_json else {}
    dc = uses_decimal_comma(it.text for it in view.items if it.kind != "leaf")
    row_ok = False
    body_rows: dict[int, int] = {}
    for g, r in rows:
        body_rows[g] = body_rows.get(g, 0) + 1
    if slot.kind == "flag":
        return _flags(slot, items, view, region)
    for it in items:
        if it.kind in ("cell", "field", "leaf"):
            score = _structured_label_score(it, labels, slot, region.prefix)
            row_cells = rows.get((it.group, it.row), []) if it.kind == "cell" else []
            if it.kind == "cell" and slot.tier and score <= 0 and parse_range(it.label):
                score = 150  # a tier column ("500-999 units") of a price schedule
            if it.kind == "cell" and not slot.row:
                # a summary row ("| Total | 1,346.00 |") labels its value in a cell to the left;
                # a column label alone is a slot only in a one-row table (line totals are not the total)
                left = max((label_score(c.text, labels, slot.exclude) for c in row_cells if c.col < it.col), default=0)
                if left:
                    score = left + 100
                elif body_rows.get(it.group, 0) > 1:
                    score = 0
            if score <= 0 or (slot.kind == "name" and slot.avoid and _has_words(tokens(it.text), slot.avoid)):
                continue
            if slot.row:
                if it.kind == "cell" and not _row_matches(row_cells, row_key, slot.row.labels):
                    continue
                if it.kind == "leaf" and not _json_row_matches(it, json_rows, row_key, slot.row.labels):
                    continue
                if it.kind == "field" and not _row_phrase(row_key).search(it.heading or ""):
                    continue
            for val in _parse(slot.kind, it.text, it.label, it.kind == "leaf", dc)[:1]:
                tier = None
                if slot.tier:
                    tier = parse_range(it.label) if it.kind == "cell" else None
                    tier = tier or (_tier_of_row(row_cells, it) if it.kind == "cell" else None)
                    if it.kind == "leaf":
                        tier = _tier_of_row(json_rows.get(parent_path(it.path), []), it)
                out.append(_found(view, it, val, score, region, tier=tier))
        elif it.kind == "sentence" and slot.prose:
            # a sentence cut at ";" that goes on in lower case continues the row its first part named
            continued = row_ok and bool(it.prev) and not it.text[:1].isupper()
            row_ok = row_key is None or continued or bool(_row_phrase(row_key).search(it.text))
            if row_ok:
                out.extend(_from_sentence(slot, it, view, region, prose_labels, None, dc, item=row_key))
        elif it.kind == "header" and slot.letterhead and (head := _letterhead(items)) is not None and it is head[0]:
            # an invoice's letterhead is its issuer; a PO's or a receipt's is the buyer's own, never read
            issuer = bool(set(slot.letterhead_of) & _doc_types(view, scopes))
            if (issuer or not slot.letterhead_of) and (at := _letterhead_name(it, head[1])) is not None:
                for val in _parse("name", it.text[at[0]:at[1]], "", False)[:1]:
                    a, b = at[0] + val.a, at[0] + val.b
                    out.append(Found(val.value, view.record_id, it.start + a, it.start + b, it.text[a:b], "letterhead", 5,
                                     weak=not issuer, scope=region.name))
    if not out and view.is_json and region.prefix not in (None, "$") and not slot.row:
        # a field of the enclosing object applies to what it holds (the vendor of a list of invoices)
        parent = parent_path(region.prefix)
        while parent:
            for it in view.items:
                rest = it.path[len(parent):]
                if it.path.startswith(parent) and rest[:1] == "." and "[" not in rest and (score := _structured_label_score(it, labels, slot, None)) > 0:
                    for val in _parse(slot.kind, it.text, it.label, True, dc)[:1]:
                        out.append(_found(view, it, val, score - 1, region))
            if out:
                break
            parent = parent_path(parent)
    return out


_DOC_HEADING = ["invoice", "purchase order", "receipt", "agreement", "contract", "statement"]


# "*** COPY - RE-SENT 12.03.2026 ***", "DUPLICATE", "PAYMENT REMINDER": a stamp on a copy names no issuer
_BANNER = re.compile(r"^\W*(?:\*{2,}|={2,}|#{2,}|-{3,})|\b(?:COPY|DUPLICATE|REMINDER|RE-?SENT|REPRINT(?:ED)?|ORIGINAL|VOID|PAID|KOPIE|DUPLIKAT|MAHNUNG)\b")


def _letterhead(items: list[Item]) -> tuple[Item, bool] | None:
    """The line naming the issuer, and whether it is the document's heading: the title; where the
    title is the heading ("INVOICE QPK-25-0912") the line under it, unless that is a field ("Bill
    to: ..."); else the heading itself, which may name the issuer after a dash."""
    lines = [it for it in items if it.kind == "header"]
    # a stamp above the letterhead ("*** DUPLIKAT / ERNEUT ZUGESTELLT ***") is skipped; a heading that
    # names the document keeps its place even with a stamp in it ("TAX INVOICE - COPY")
    heads = [h for i, h in enumerate(lines) if not _BANNER.search(h.text) or (i == 0 and _has_words(tokens(h.text), _DOC_HEADING))][:2]
    if heads and not _has_words(tokens(heads[0].text), _DOC_HEADING):
        # the first line, or the first under the stamps
        return (heads[0], False) if heads[0].text == heads[0].title or heads[0] is not lines[0] else None
    if len(heads) == 2 and ":" not in heads[1].text and not _has_words(tokens(heads[1].text), _DOC_HEADING):
        return heads[1], False
    return (heads[0], True) if heads else None


def _letterhead_name(it: Item, title: bool) -> tuple[int, int] | None:
    """Where the issuer's name sits in its line: the whole line, or in a heading that names the
    document and the issuer apart ("TAX INVOICE QPK-25-1107 - Quillmark Packaging Co.", "Acme Inc. -
    Tax Invoice 12") the part that is not the document's heading."""
    if not title:
        return 0, len(it.text)
    cuts = [0] + [x for m in re.finditer(r"\s[-–—|]\s+(?=[A-Z])", it.text) for x in (m.start(), m.end())] + [len(it.text)]
    parts = [(a, b) for a, b in zip(cuts[::2], cuts[1::2]) if not _has_words(tokens(it.text[a:b]), _DOC_HEADING)]
    if len(parts) == len(cuts) // 2:
        return None  # no part names the document: the line is no heading with an issuer in it
    # the part that is a company ("RESUBMISSION - Invoice No. X - Ostmark Millworks AG"), else the one other part
    firms = [p for p in parts if _LEGAL_FORM.search(it.text[p[0]:p[1]])]
    return firms[0] if len(firms) == 1 else parts[0] if len(parts) == 1 else None


def _in_context(toks: tuple[str, ...], context: list[str]) -> bool:
    """Every context entry has a word starting with one of its stems ("approv|authori|sign")."""
    return all(any(t.startswith(c) for t in toks for c in entry.split("|")) for entry in context)


def _flags(slot: SlotSpec, items: list[Item], view: EvidenceView, region: Region) -> list[Found]:
    """A rule the record states in so many words ("payment terms are counted in business days"):
    true where one sentence or "Key: value" line holds every `context` stem and no `avoid` phrase.
    Never false: a record that does not say it leaves the flag unfound."""
    out = []
    for it in items:
        if it.kind not in ("sentence", "field"):
            continue
        toks = tokens(f"{it.label} {it.text}")
        if _in_context(toks, slot.context):
            # stated with a qualification ("not", "except"): read as neither true nor false
            value = None if _has_words(toks, slot.avoid) else True
            out.append(Found(value, view.record_id, it.start, it.end, it.text, it.label or "sentence", 50, scope=region.name))
    return out


def _structured_label_score(it: Item, labels: list[str], slot: SlotSpec, prefix: str | None) -> float:
    if slot.paths and it.kind == "leaf":
        for i, pat in enumerate(slot.paths):
            if _path_match(pat, it.path):
                return 200 - i
    if not labels:
        return 0
    s = label_score(it.label, labels, slot.exclude)
    if it.kind == "leaf":
        if _bare_element(it):
            return 0  # an element of an array of scalars: its label is the array's, not its own
        keys = _path_keys(it.path)
        if tokens(it.label) in _VALUE_KEYS and len(keys) >= 2 and not parent_path(it.path).endswith("]"):
            # {"unitPrice": {"amount": "0.42", "currency": "USD"}}: the value is named by the object that wraps it
            s = max(label_score(keys[-2], labels, slot.exclude), label_score(f"{keys[-2]} {keys[-1]}", labels, slot.exclude))
            return s + (100 if s else 0)
        if s == 0:
            keys = _path_keys(it.path)
            if len(keys) >= 2:
                s = max(0, label_score(f"{keys[-2]} {keys[-1]}", labels, slot.exclude) - 5)
    return s + (100 if s else 0)


_VALUE_KEYS = {("amount",), ("value",), ("val",), ("date",)}  # not "number": "id" reads as number, and {"supplier": {"id": ...}} is no name


def _bare_element(it: Item) -> bool:
    """An array element labelled only by its array's key (not a cell of a JSON column table)."""
    keys = _path_keys(it.path)
    return it.path.endswith("]") and (not keys or it.label == keys[-1])


def _path_match(pattern: str, path: str) -> bool:
    rx = re.escape(pattern).replace(r"\[\*\]", r"\[\d+\]").replace(r"\.\.", r"(?:\.[^.\[]+|\[\d+\])*\.").replace(r"\*", r"[^.\[]+")
    return re.fullmatch(rx, path) is not None


def _row_matches(cells: list[Item], key: str, labels: list[str]) -> bool:
    for c in cells:
        if label_score(c.label, labels, []) > 0 and key_of(c.text) == key:
            return True
    return _is_id_like(key) and any(key_of(c.text) == key for c in cells)


def _json_rows(items: list[Item]) -> dict[str, list[Item]]:
    rows: dict[str, list[Item]] = {}
    for it in items:
        rows.setdefault(parent_path(it.path), []).append(it)
    return rows


_GENERIC_KEY = {"number", "no", "nr", "id", "code"}


@lru_cache(maxsize=1024)
def _row_key_label(label: str, labels: tuple[str, ...]) -> bool:
    """A row key's label: "LineNumber", "po_line", "ItemNumber"; not "ReceiptNumber" (a document's
    id) nor "ScheduleNumber" (a delivery schedule of the line), whatever their "number" says."""
    words = frozenset(t for lab in labels for t in tokens(lab))
    toks = set(tokens(label))
    return toks <= words | _GENERIC_KEY or bool(toks & (words - _GENERIC_KEY))


def _json_row_matches(it: Item, rows: dict[str, list[Item]], key: str, labels: list[str]) -> bool:
    """The leaf sits in an object (or an ancestor object) whose row-key field holds the key."""
    p = parent_path(it.path)
    while p:
        keyed = False
        # the row's key fields may sit in a sub-object of the row ({"poLine": {"line_no": 20}, "quantities": {...}})
        near = [s for q, leaves in rows.items() if q == p or (q.startswith(p) and q[len(p):len(p) + 1] == "." and "[" not in q[len(p):]) for s in leaves]
        for s in near:
            if _bare_element(s):
                continue
            if label_score(s.label, labels, []) > 0 and _row_key_label(s.label, tuple(labels)):
                keyed = True
                if key_of(_leaf_value(s)) == key:
                    return True
            elif _is_id_like(key) and key_of(_leaf_value(s)) == key:
                return True
        if keyed and p.endswith("]"):
            return False  # this array element is a row with another key
        p = parent_path(p)
    return False


_WINDOW = 8


def _from_sentence(slot: SlotSpec, it: Item, view: EvidenceView, region: Region, labels: list[str], row_key: str | None, dc: bool = False,
                   item: str | None = None) -> list[Found]:
    """`item`: the row (item code) the values must belong to, where the sentence names several."""
    text = it.text
    if row_key is not None and not _row_phrase(row_key).search(text):
        return []
    if slot.context and not _in_context(tokens(" ".join([text, it.heading, it.prev])), slot.context):
        return []
    if slot.avoid and _has_words(tokens(text), slot.avoid):
        return []  # "1% for each week of delay" is not a daily credit
    if slot.kind == "name":
        return _names_in_sentence(slot, it, view, region, labels)
    if slot.kind in ("text", "id", "bool"):
        return []
    out = []
    vals = _parse(slot.kind, text, "", False, dc)
    allq = extract_quantities(text, dc)
    codes = _item_codes(text) if item is not None else []
    for v in vals:
        if len({k for _, _, k in codes}) > 1 and key_of(item) in {k for _, _, k in codes} and _code_of(codes, v.a, v.b) != key_of(item):
            continue  # "HY-UH-80 at EUR 734.00 per unit, and VB-STD at EUR 48.60": each price is its own item's
        before = [q for q in allq if q.end <= v.a]
        start = max([q.end for q in before], default=0)
        window = text[start:v.a]
        wt = tokens(window)[-_WINDOW:]
        after = [q.start for q in allq if q.start >= v.b]
        tail = re.split(r"[,;:.()](?:\s|$)", text[v.b:min(after, default=len(text))])[0]
        at = tokens(tail)[:3]
        if slot.kind == "date" and re.fullmatch(r"\s*on\s+", text[:v.a], re.I):
            at = _clause_verb(tokens(tail), labels, slot.exclude) or at
        near = [t for t in wt if t not in ("on", "the", "of")][-1:]
        if _excluded(wt, slot.exclude) and not (slot.kind == "date" and near and any(tokens(syn) == tuple(near) for syn in labels)):
            continue  # ("from the Effective Date until 31 January 2028": "until" right before the date outweighs "effective")
        s = 0
        if labels:
            s = max((60 - i for i, syn in enumerate(labels) if tokens(syn) and set(tokens(syn)) <= set(wt)), default=0)
            if not s:
                s = max((40 - i for i, syn in enumerate(labels) if tokens(syn) and set(tokens(syn)) <= set(at)), default=0)
        if re.match(r"\s*[.)]\s", text[v.b:v.b + 3]) and not text[:v.a].strip():
            continue  # "2. Invoices above ...": the clause number
        if slot.kind == "amount" and v.unit is None and not s:
            continue  # a bare number in prose is an amount only where a label says so
        unit_ok = slot.per is not None and (v.per == slot.per or v.unit == slot.per)
        if slot.per is not None and not unit_ok and not s:
            continue
        if slot.frame == "limit" and not (v.frame == "limit" or v.op in ("<=", "<")):
            continue
        if slot.frame == "value" and (v.frame == "limit"):
            continue
        if s == 0 and not unit_ok and not (slot.context and not labels):
            continue
        score = (s or 20) / 2
        tier = _tier_in_sentence(text, v.a, v.b) if slot.tier else None
        out.append(_found(view, it, v, score, region, tier=tier))
    return out


def _clause_verb(tt: tuple[str, ...], labels: list[str], exclude: list[str], reach: int = 8) -> tuple[str, ...] | None:
    """"On 12-Mar-2026 the cold store received the delivery ...": a date opening its sentence is the
    date of what the clause's verb says, when a label word comes within ``reach`` words and nothing
    before it is an excluded word ("On 2 March the order was confirmed and the goods received ...")."""
    for i in range(min(len(tt), reach + 1)):
        if any((st := tokens(syn)) and set(st) <= set(tt[:i + 1]) for syn in labels):
            return None if _excluded(tt[:i], exclude) else tt[:i + 1]
    return None


_ROLE_PAREN = re.compile(
    r"\(\s*(?:the\s+|(?:hereinafter|nachfolgend)\s+(?:the\s+)?|referred to as\s+(?:the\s+)?)?"
    r"(?:[\"“'‘]?[^\W\d_][^\"”'’()/]{1,29}[\"”'’]?\s*/\s*(?:the\s+)?)?"  # a bilingual contract's first name: ("Lieferant" / the "Supplier")
    r"[\"“'‘]?(?P<role>[A-Za-z ]{2,30}?)[\"”'’]?\s*\)")
# a French contract's: 'ci-après appelée « l'Acheteur »'
_ROLE_FR = re.compile(r"\bci-apr[èe]s\s+(?:appel|d[ée]sign|nomm)[ée]e?s?\s+«\s*(?:l['’]|le\s+|la\s+)?(?P<role>[^»]{2,30}?)\s*»")
# the lines that open a party of a cover page's parties block ("between", "and", "zwischen / between")
_PARTY_JOIN = re.compile(r"^(?:(?:between|and|by|among|zwischen|und|entre|et)\s*/?\s*)+:?$", re.I)


def _names_in_sentence(slot: SlotSpec, it: Item, view: EvidenceView, region: Region, labels: list[str]) -> list[Found]:
    """Parties defined in a sentence: `Acme Supply Co., a Delaware corporation ("Supplier")`."""
    out = []
    text = it.text
    for m in [*_ROLE_PAREN.finditer(text), *_ROLE_FR.finditer(text)]:
        if label_score(m["role"], labels, slot.exclude) < 100 - len(labels):
            if label_score(m["role"], labels, slot.exclude) == 0:
                continue
        head = text[: m.start()]
        if _DEFINED_AFTER.search(head) and head[:1].isupper():
            # "Régie de l'eau potable ..., organisme municipal ..., ci-après appelée « l'Acheteur »
            # (the "Buyer")": the party opens the sentence, its description follows a comma
            seg = re.sub(r"\s*\([^()]*\)$", "", head.split(",", 1)[0].strip())  # "... inc. (Boréalis Chemicals Inc.)"
            out.append(_found(view, it, _Val(Name(seg), 0, len(seg)), 40, region))
            continue
        if (not head.strip() or re.search(r"\n[ \t]*$", head)) and (above := _party_above(view, it)) is not None:
            # a cover page names the party on its own line, its address under it, the role last:
            # "Glattal Laborbedarf AG / Industriestrasse 27 ... / (the "Supplier")", the role on a line of
            # its own (its address line may have joined it)
            out.append(_found(view, above, _Val(Name(above.text), 0, len(above.text)), 40, region))
            continue
        cut = max((head.rfind(w) + len(w) for w in (" between ", " and ", " by ", ": ", "among ", "\n") if head.rfind(w) >= 0), default=0)
        seg = head[cut:]
        seg = re.split(r",\s+(?:a|an|the)\s+", seg)[0].strip().rstrip(",").strip()
        if not seg or not seg[0].isupper():
            continue
        a = cut + head[cut:].index(seg)
        out.append(_found(view, it, _Val(Name(seg), a, a + len(seg)), 40, region))
    return out


_DEFINED_AFTER = re.compile(r"\bci-apr[èe]s\b|\bhereinafter\b", re.I)


def _party_above(view: EvidenceView, it: Item, reach: int = 4) -> Item | None:
    """The name line a role line closes: the topmost line under "between" / "and" (or the previous
    role line) that is no address, number or field."""
    before = [x for x in view.items if x.kind == "sentence" and x.end <= it.start][-reach:]
    name = None
    for x in reversed(before):
        if _PARTY_JOIN.match(x.text.strip()) or _ROLE_PAREN.search(x.text):
            return name
        if not re.search(r"[\d:@]", x.text) and x.text[:1].isupper() and len(x.text.split()) <= 8:
            name = x
    return None


def _found(view: EvidenceView, it: Item, v: _Val, score: float, region: Region, tier: tuple | None = None) -> Found:
    # the item text is the record's bytes [start:end] decoded, so character offsets in it map back exactly
    a = it.start + len(it.text[: v.a].encode("utf-8"))
    b = it.start + len(it.text[: v.b].encode("utf-8"))
    value = v.value
    if isinstance(value, Decimal) and v.op in (">", ">=", "<", "<="):
        value = Bound.of(value, v.op)
    return Found(value, view.record_id, a, b, it.text[v.a:v.b], it.label, score, v.unit, v.readings, tier, False, region.name)


def resolve_dates(found: Found, view: EvidenceView) -> list[Any]:
    """The readings of a date value: one, unless a numeric date can be read two ways and the
    record's other dates do not settle the order."""
    if not isinstance(found.value, dt.date) or not found.readings:
        return [found.value]
    sep = re.search(r"[/.-]", found.text)
    order = _date_order(view, sep[0] if sep else None)
    if order == "dmy":
        return [found.value]
    if order == "mdy":
        return [found.readings[0]]
    return [found.value, *found.readings]


def _date_order(view: EvidenceView, sep: str | None = None) -> str | None:
    return dates.numeric_order((it.text for it in view.items), sep)
