"""The masking engine: dictionary -> Aho-Corasick automata -> mask / unmask. No LiteLLM here.

Matching is linear in the text (pyahocorasick, a C automaton, over the folded view of
`normalize`) for any dictionary size. All matches are collected, filtered (scope, whole word,
cluster alignment, overlap with placeholder-shaped text), then resolved leftmost-longest.

Two modes:

* request (`registry` given): every placeholder minted is recorded in the request's registry,
  and placeholder-shaped text already in the input is masked too (as a LITERAL placeholder), so
  every placeholder the provider sees was minted by this request;
* logging (no registry): placeholder-shaped text is left as it is, so re-masking is idempotent.

`unmask` restores only placeholders found in the given registry.
"""

from __future__ import annotations

import json
import threading
import unicodedata
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass
from heapq import merge

import ahocorasick

from .dictionary import Dictionary
from .errors import DictionaryError, MaskingError, ScopeError
from .normalize import fold_term, view
from .placeholder import LITERAL, PATTERN, TAG_LENGTHS, PlaceholderCodec, Registry

MEMO_MIN_CHARS = 512
MEMO_ENTRIES = 64
FIXPOINT_PASSES = 4


@dataclass(frozen=True)
class _Form:
    entity: int
    length: int  # folded length


@dataclass(frozen=True)
class Target:
    """What to mask and under which key: `categories` None means every category; `domain` is
    the key domain of the placeholders ("" for the org, or a scope with per-scope keys)."""

    categories: frozenset[str] | None = None
    domain: str = ""


EVERYTHING = Target()


class Masker:
    def __init__(self, dictionary: Dictionary, org_key: bytes, key_per_scope: bool = False) -> None:
        self.dictionary = dictionary
        self.key_per_scope = key_per_scope
        self._codec = PlaceholderCodec(org_key)
        self._entities = dictionary.entities
        self._forms: list[_Form] = []
        self._automata = [
            (flag, automaton) for flag in (False, True) if (automaton := self._build(flag))
        ]
        modes = {entity.whole_word for entity in self._entities}
        # Only a substring match can make a neighbour a word boundary on a second pass.
        self._needs_fixpoint = len(modes) == 2
        self._all_categories = dictionary.categories
        self._memo: OrderedDict[tuple[str, Target], str] = OrderedDict()
        self._memo_lock = threading.Lock()

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

    def target(self, scope: str | None, every_category: bool = False) -> Target:
        """The categories a scope masks (or all), under the scope's key domain."""
        categories = self.categories_for(scope)
        name = self.dictionary.default_scope if scope is None else scope
        domain = name if self.key_per_scope else ""
        if every_category or categories >= self._all_categories:
            return Target(None, domain)
        return Target(categories, domain)

    def mask(self, text: str, target: Target = EVERYTHING, registry: Registry | None = None) -> str:
        """Replace every dictionary term in `text`; see the module docstring for the modes."""
        if not text:
            return text
        if registry is not None:
            return self._fixpoint(self._mask_once(text, target, registry, True), target, registry)
        if len(text) < MEMO_MIN_CHARS:
            return self._fixpoint(self._mask_once(text, target, None, False), target, None)
        # The logging hook sees the same large texts several times (messages, the standard
        # logging payload, the stored request body): remember recent results and fixed points.
        with self._memo_lock:
            cached = self._memo.get((text, target))
            if cached is not None:
                self._memo.move_to_end((text, target))
                return cached
        masked = self._fixpoint(self._mask_once(text, target, None, False), target, None)
        with self._memo_lock:
            self._memo[(text, target)] = masked
            self._memo[(masked, target)] = masked
            while len(self._memo) > MEMO_ENTRIES:
                self._memo.popitem(last=False)
        return masked

    def unmask(self, text: str, registry: Registry, json_string: bool = False) -> str:
        """Restore the placeholders of `registry`; inside a JSON string literal, escaped."""
        if "[[" not in text or not len(registry):
            return text
        return PATTERN.sub(lambda m: self.restore_token(m.group(), registry, json_string), text)

    @staticmethod
    def restore_token(token: str, registry: Registry, json_string: bool = False) -> str:
        original = registry.get(token)
        if original is None:
            return token
        return json.dumps(original, ensure_ascii=False)[1:-1] if json_string else original

    def _fixpoint(self, masked: str, target: Target, registry: Registry | None) -> str:
        """Masking a mixed dictionary again can find a whole word next to a new placeholder
        (a substring term glued to it was replaced): repeat until nothing changes."""
        if not self._needs_fixpoint:
            return masked
        for _ in range(FIXPOINT_PASSES):
            again = self._mask_once(masked, target, registry, False)
            if again == masked:
                break
            masked = again
        return masked

    def _mask_once(self, text: str, target: Target, registry: Registry | None, escape: bool) -> str:
        tokens = [m.span() for m in PATTERN.finditer(text)] if "[[" in text else []
        chosen = self._resolve(self._matches(text, target.categories), tokens)
        if not chosen and not (escape and tokens):
            return text
        out: list[str] = []
        position = 0
        for start, end, form in merge(chosen, ((s, e, -1) for s, e in tokens)):
            out.append(text[position:start])
            if form >= 0:
                out.append(self._placeholder(form, text[start:end], target.domain, registry))
            elif escape:
                out.append(self._literal(text[start:end], target.domain, registry))
            else:
                out.append(text[start:end])
            position = end
        out.append(text[position:])
        return "".join(out)

    def _matches(self, text: str, categories: frozenset[str] | None) -> list[tuple[int, int, int]]:
        found: list[tuple[int, int, int]] = []
        entities, forms = self._entities, self._forms
        for case_sensitive, automaton in self._automata:
            text_view = view(text, case_sensitive)
            for last, form_index in automaton.iter(text_view.folded):
                form = forms[form_index]
                entity = entities[form.entity]
                if categories is not None and entity.category not in categories:
                    continue
                span = text_view.span(last + 1 - form.length, last + 1)
                if span is None or (entity.whole_word and not _whole_word(text, *span)):
                    continue
                found.append((span[0], -span[1], form_index))
        return found

    @staticmethod
    def _resolve(
        found: list[tuple[int, int, int]], tokens: list[tuple[int, int]]
    ) -> list[tuple[int, int, int]]:
        """Leftmost first, longest first at one start; nothing that touches a token."""
        chosen: list[tuple[int, int, int]] = []
        position = 0
        next_token = 0
        for start, negative_end, form in sorted(found):
            end = -negative_end
            if start < position:
                continue
            while next_token < len(tokens) and tokens[next_token][1] <= start:
                next_token += 1
            if next_token < len(tokens) and tokens[next_token][0] < end:
                continue
            chosen.append((start, end, form))
            position = end
        return chosen

    def _placeholder(self, form: int, surface: str, domain: str, registry: Registry | None) -> str:
        entity = self._entities[self._forms[form].entity]
        entity_id = self._codec.entity_id(domain, entity.category, entity.term)
        return self._mint(
            entity.category, entity_id, surface, surface == entity.term, domain, registry
        )

    def _literal(self, token: str, domain: str, registry: Registry | None) -> str:
        entity_id = self._codec.entity_id(domain, LITERAL, token)
        return self._mint(LITERAL, entity_id, token, True, domain, registry)

    def _mint(
        self,
        category: str,
        entity_id: str,
        surface: str,
        canonical: bool,
        domain: str,
        registry: Registry | None,
    ) -> str:
        for token in self._candidates(category, entity_id, surface, canonical, domain):
            if registry is None or registry.claim(token, surface):
                return token
        raise MaskingError(f"no free placeholder for a {category} term in this request")

    def _candidates(
        self, category: str, entity_id: str, surface: str, canonical: bool, domain: str
    ) -> Iterator[str]:
        if canonical:
            yield self._codec.token(category, entity_id)
        tag = self._codec.tag(domain, entity_id, surface)
        for length in TAG_LENGTHS:
            yield self._codec.token(category, entity_id, tag[:length])

    def _build(self, case_sensitive: bool) -> ahocorasick.Automaton | None:
        automaton = ahocorasick.Automaton()
        owners: dict[str, int] = {}
        for index, entity in enumerate(self._entities):
            if entity.case_sensitive != case_sensitive:
                continue
            for form in entity.forms:
                key = fold_term(form, case_sensitive)
                if not key.strip() or key != key.strip():
                    raise DictionaryError(
                        f"term {form!r} is empty, or starts or ends with whitespace, "
                        "after normalisation"
                    )
                owner = owners.setdefault(key, index)
                if owner != index:
                    other = self._entities[owner]
                    raise DictionaryError(
                        f"{form!r} ({entity.category}) and {other.term!r} ({other.category}) "
                        "are the same after case, Unicode, whitespace and invisible-character "
                        "folding"
                    )
                if automaton.exists(key):
                    continue
                self._forms.append(_Form(index, len(key)))
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
