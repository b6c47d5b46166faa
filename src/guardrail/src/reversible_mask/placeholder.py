"""Placeholders: keyed, deterministic tokens, and the registry of those one request minted.

Shape: ``[[CATEGORY_hhhhhhhhhh]]`` or ``[[CATEGORY_hhhhhhhhhh_tttttttt]]``

* ``CATEGORY``: the category name in upper case (tells the model what kind of thing it is).
* ``hhhhhhhhhh``: 10 base32 characters of HMAC-SHA256 over the category and the canonical term,
  under a key derived from the org key (and, with per-scope keys, the scope): the entity id. The
  same term gets the same id in every request and on every replica.
* ``tttttttt`` (any spelling other than the canonical term: an alias, another case, odd
  whitespace or invisible characters): 8 base32 characters of an HMAC of the exact spelling,
  longer (16, 26) only if two spellings of one entity collide inside one request.

A placeholder carries no recoverable text: it is restored only through the `Registry` of the
request whose pre-call hook minted it (the response is handled by the same process), so a
placeholder copied from a log, or typed by a client, restores to nothing.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from collections import OrderedDict
from collections.abc import Callable, Iterable

ID_CHARS = 10
TAG_LENGTHS = (8, 16, 26)
CATEGORY = "[A-Z][A-Z0-9]{0,31}"
PATTERN = re.compile(rf"\[\[({CATEGORY})_([a-z2-7]{{{ID_CHARS}}})(?:_([a-z2-7]{{8,26}}))?\]\]")
# The same tokens as one group: `SPLIT.split(text)` alternates text and tokens.
SPLIT = re.compile(rf"(\[\[{CATEGORY}_[a-z2-7]{{{ID_CHARS}}}(?:_[a-z2-7]{{8,26}})?\]\])")
MAX_LENGTH = 2 + 32 + 1 + ID_CHARS + 1 + TAG_LENGTHS[-1] + 2
LITERAL = "LITERAL"  # category of placeholders that stand for placeholder-shaped client text
_CACHE_ENTRIES = 65536


def may_hold_token(text: str) -> bool:
    """False when `text` cannot hold a placeholder. A one-character test is one `memchr`
    (0.4 us for 20 KB), a two-character one a scan forty times slower: most texts have no "["."""
    return "[" in text and "[[" in text


def token_spans(text: str) -> list[tuple[int, int]]:
    """Where placeholder-shaped text is."""
    return [match.span() for match in PATTERN.finditer(text)] if may_hold_token(text) else []


def count_prefixes(categories: Iterable[str]) -> dict[str, str]:
    """What `Registry.counts` looks for: the masked categories' token starts, by upper-case
    name, in name order. LITERAL placeholders (client text shaped like a placeholder) are not
    masked terms and are not counted."""
    names = sorted({category.upper() for category in categories} - {LITERAL})
    return {name: f"[[{name}_" for name in names}


def b32(data: bytes) -> str:
    return base64.b32encode(data).decode("ascii").rstrip("=").lower()


class Registry:
    """The placeholders one request minted, each mapped to the exact text it replaced."""

    def __init__(self) -> None:
        self._originals: dict[str, str] = {}

    def claim(self, token: str, original: str) -> bool:
        """Record `token` for `original`; False when it already stands for another text."""
        known = self._originals.setdefault(token, original)
        return known == original

    def claimer(self) -> Callable[[str, str], str]:
        """`claim` for a loop over many matches: `setdefault(token, original)`; the token is
        claimed when that returns a text equal to `original`."""
        return self._originals.setdefault

    def get(self, token: str) -> str | None:
        return self._originals.get(token)

    def restore_all(self, tokens: list[str]) -> list[str]:
        """Each token's original, or the token itself when this request did not mint it."""
        originals = self._originals
        return [originals.get(token, token) for token in tokens]

    def __len__(self) -> int:
        return len(self._originals)

    def counts(self, prefixes: dict[str, str]) -> dict[str, int]:
        """Placeholders minted, by category: `prefixes` maps each category name (upper case,
        as in the tokens) to its tokens' start, "[[NAME_" (see `count_prefixes`); "[[" starts
        a token and nothing else in one, so one C count per category over all tokens."""
        tokens = "".join(self._originals)
        found = {name: tokens.count(prefix) for name, prefix in prefixes.items()}
        return {name: count for name, count in found.items() if count}

    def __contains__(self, token: object) -> bool:
        return token in self._originals


class PlaceholderCodec:
    def __init__(self, org_key: bytes) -> None:
        self._org_key = org_key
        self._keys: dict[str, tuple[bytes, bytes]] = {}
        self._ids: OrderedDict[tuple[str, str, str], str] = OrderedDict()

    def _domain_keys(self, domain: str) -> tuple[bytes, bytes]:
        """Id and tag keys of a key domain: "" is the whole org, else one scope."""
        keys = self._keys.get(domain)
        if keys is None:
            label = f"rmask/v2/{domain}".encode()
            id_key = hmac.new(self._org_key, label + b"/id", hashlib.sha256).digest()
            tag_key = hmac.new(self._org_key, label + b"/tag", hashlib.sha256).digest()
            keys = self._keys[domain] = (id_key, tag_key)
        return keys

    def entity_id(self, domain: str, category: str, term: str) -> str:
        cache_key = (domain, category, term)
        found = self._ids.get(cache_key)
        if found is None:
            message = f"{category}\x00{term}".encode()
            digest = hmac.new(self._domain_keys(domain)[0], message, hashlib.sha256).digest()
            found = self._ids[cache_key] = b32(digest)[:ID_CHARS]
            if len(self._ids) > _CACHE_ENTRIES:
                self._ids.popitem(last=False)
        return found

    def tag(self, domain: str, entity_id: str, surface: str) -> str:
        """26 base32 characters; placeholders use a prefix of it."""
        message = f"{entity_id}\x00{surface}".encode()
        return b32(hmac.new(self._domain_keys(domain)[1], message, hashlib.sha256).digest())[:26]

    @staticmethod
    def token(category: str, entity_id: str, tag: str = "") -> str:
        suffix = f"_{tag}" if tag else ""
        return f"[[{category.upper()}_{entity_id}{suffix}]]"
