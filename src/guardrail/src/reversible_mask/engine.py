"""The masking engine: dictionary -> Aho-Corasick automata -> mask / unmask. No LiteLLM here.

Matching is linear in the text (pyahocorasick, a C automaton) for any dictionary size. All
matches are collected, filtered (scope, whole-word, cluster alignment), then resolved
leftmost-longest. Existing valid placeholders are opaque: masking skips them (idempotence),
unmasking restores them. Placeholder-shaped text that does not verify under the key is left
exactly as it is in both directions.
"""

from __future__ import annotations

import json
import re
import threading
import unicodedata
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass

import ahocorasick

from .dictionary import Dictionary, Entity
from .errors import DictionaryError, ScopeError
from .normalize import fold_term, view
from .placeholder import PATTERN, PlaceholderCodec

MEMO_MIN_CHARS = 512
MEMO_ENTRIES = 64


@dataclass(frozen=True)
class _Form:
    entity: int
    alias: int  # 0: canonical term, i: alias i
    length: int  # folded length


class Masker:
    def __init__(self, dictionary: Dictionary, org_key: bytes) -> None:
        self.dictionary = dictionary
        self._codec = PlaceholderCodec(org_key)
        self._entities = dictionary.entities
        self._ids: list[str] = []
        self._by_id: dict[tuple[str, str], int] = {}
        for index, entity in enumerate(self._entities):
            entity_id = self._codec.entity_id(entity.category, entity.term)
            key = (entity.category.upper(), entity_id)
            if key in self._by_id:
                other = self._entities[self._by_id[key]]
                raise DictionaryError(
                    f"terms {other.term!r} and {entity.term!r} collide in category "
                    f"{entity.category!r} (duplicate term, or a 50-bit id collision)"
                )
            self._by_id[key] = index
            self._ids.append(entity_id)
        self._forms: list[_Form] = []
        self._memo: OrderedDict[tuple[str, frozenset[str] | None], str] = OrderedDict()
        self._memo_lock = threading.Lock()
        self._all_categories = dictionary.categories
        self._automata = {flag: self._build(flag) for flag in (False, True)}

    @property
    def scopes(self) -> frozenset[str]:
        return frozenset(self.dictionary.scopes)

    def categories_for(self, scope: str | None) -> frozenset[str]:
        """`None` means the dictionary's default scope."""
        name = self.dictionary.default_scope if scope is None else scope
        if name not in self.dictionary.scopes:
            known = ", ".join(sorted(self.dictionary.scopes))
            raise ScopeError(f"unknown guard scope {name!r}; this proxy defines: {known}")
        return self.dictionary.scopes[name]

    def mask(self, text: str, categories: frozenset[str] | None = None) -> str:
        """Replace every dictionary term in `text` (restricted to `categories` when given)."""
        if categories is not None and categories >= self._all_categories:
            categories = None  # one memo key for "everything", whoever asks
        if len(text) < MEMO_MIN_CHARS:
            return self._mask(text, categories) if text else text
        # The logging hook sees the same large texts several times (messages, the standard
        # logging payload, the stored request body): remember recent results and fixed points.
        key = (text, categories)
        with self._memo_lock:
            cached = self._memo.get(key)
            if cached is not None:
                self._memo.move_to_end(key)
                return cached
        masked = self._mask(text, categories)
        with self._memo_lock:
            self._memo[key] = masked
            self._memo[(masked, categories)] = masked
            while len(self._memo) > MEMO_ENTRIES:
                self._memo.popitem(last=False)
        return masked

    def _mask(self, text: str, categories: frozenset[str] | None) -> str:
        out: list[str] = []
        position = 0
        for token in PATTERN.finditer(text):
            out.append(self._mask_plain(text[position : token.start()], categories))
            out.append(token.group())
            position = token.end()
        out.append(self._mask_plain(text[position:], categories))
        return "".join(out)

    def unmask(self, text: str, json_string: bool = False) -> str:
        """Restore every valid placeholder; inside a JSON string literal, escape the original."""
        if "[[" not in text:
            return text
        return PATTERN.sub(lambda m: self._restore(m, json_string), text)

    def restore_token(self, token: str, json_string: bool = False) -> str:
        match = PATTERN.fullmatch(token)
        return self._restore(match, json_string) if match else token

    def _restore(self, match: re.Match[str], json_string: bool) -> str:
        index = self._by_id.get((match.group(1), match.group(2)))
        if index is None:
            return match.group()
        entity, variant = self._entities[index], match.group(3)
        if variant is None:
            original: str | None = entity.term
        elif variant[0] == "a":
            alias = int(variant[1:])
            original = entity.aliases[alias - 1] if alias <= len(entity.aliases) else None
        else:
            original = self._codec.open(self._ids[index], variant)
        if original is None:
            return match.group()
        return json.dumps(original, ensure_ascii=False)[1:-1] if json_string else original

    def _mask_plain(self, text: str, categories: frozenset[str] | None) -> str:
        if not text:
            return text
        spans = sorted(self._matches(text, categories), key=lambda m: (m[0], -m[1]))
        out: list[str] = []
        position = 0
        for start, end, form in spans:
            if start < position:
                continue
            out.append(text[position:start])
            out.append(self._placeholder(form, text[start:end]))
            position = end
        out.append(text[position:])
        return "".join(out)

    def _matches(
        self, text: str, categories: frozenset[str] | None
    ) -> Iterable[tuple[int, int, _Form]]:
        for case_sensitive, automaton in self._automata.items():
            if automaton is None:
                continue
            tv = view(text, case_sensitive)
            for last, form_index in automaton.iter(tv.folded):
                form = self._forms[form_index]
                entity = self._entities[form.entity]
                if categories is not None and entity.category not in categories:
                    continue
                span = tv.span(last + 1 - form.length, last + 1)
                if span is None or (entity.whole_word and not _whole_word(text, *span)):
                    continue
                yield span[0], span[1], form

    def _placeholder(self, form: _Form, surface: str) -> str:
        entity = self._entities[form.entity]
        entity_id = self._ids[form.entity]
        if surface == entity.term:
            variant = ""
        elif form.alias and surface == entity.aliases[form.alias - 1]:
            variant = f"a{form.alias}"
        else:
            variant = self._codec.seal(entity_id, surface)
        return self._codec.token(entity.category, entity_id, variant)

    def _build(self, case_sensitive: bool) -> ahocorasick.Automaton | None:
        automaton = ahocorasick.Automaton()
        owners: dict[str, Entity] = {}
        for index, entity in enumerate(self._entities):
            if entity.case_sensitive != case_sensitive:
                continue
            for alias, form in enumerate(entity.forms):
                key = fold_term(form, case_sensitive)
                if not key:
                    raise DictionaryError(f"term {form!r} is empty after normalisation")
                owner = owners.setdefault(key, entity)
                if owner is not entity:
                    raise DictionaryError(
                        f"{form!r} ({entity.category}) and {owner.term!r} ({owner.category}) "
                        "are the same after case and Unicode folding"
                    )
                if automaton.exists(key):
                    continue
                self._forms.append(_Form(index, alias, len(key)))
                automaton.add_word(key, len(self._forms) - 1)
        if not owners:
            return None
        automaton.make_automaton()
        return automaton


def _is_word(char: str) -> bool:
    return char.isalnum() or char == "_" or unicodedata.combining(char) != 0


def _whole_word(text: str, start: int, end: int) -> bool:
    if _is_word(text[start]) and start > 0 and _is_word(text[start - 1]):
        return False
    return not (_is_word(text[end - 1]) and end < len(text) and _is_word(text[end]))
