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
from typing import NamedTuple

import ahocorasick

from .dictionary import Dictionary
from .errors import DictionaryError, MaskingError, ScopeError
from .normalize import fold_term, view
from .placeholder import LITERAL, PATTERN, TAG_LENGTHS, PlaceholderCodec, Registry

MEMO_MIN_CHARS = 512
MEMO_ENTRIES = 128
SMALL_ENTRIES = 16384
FIXPOINT_PASSES = 4


class _Form(NamedTuple):
    entity: int
    length: int  # folded length
    category: str
    whole_word: bool


@dataclass(frozen=True, eq=False)
class Target:
    """What to mask and under which key: `categories` None means every category; `domain` is
    the key domain of the placeholders ("" for the org, or a scope with per-scope keys).
    Compared by identity (memo keys): `Masker.target` hands out one object per value."""

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
        self._shortest = min((form.length for form in self._forms), default=1)
        self._memo = _Memo()
        self._targets: dict[tuple[frozenset[str] | None, str], Target] = {}

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
            categories = None
        if categories is None and domain == "":
            return EVERYTHING
        return self._targets.setdefault((categories, domain), Target(categories, domain))

    def mask(self, text: str, target: Target = EVERYTHING, registry: Registry | None = None) -> str:
        """Replace every dictionary term in `text`; see the module docstring for the modes."""
        if not text:
            return text
        if registry is not None:
            masked = self._fixpoint(self._mask_once(text, target, registry, True), target, registry)
            if target.categories is None:  # also a valid logging form: the hook reuses it
                self._memo.remember(masked, target)
            return masked
        if len(text) < self._shortest and text.isascii():
            return text  # ASCII folds one to one or shorter: too short for any term
        cached = self._memo.get(text, target)
        if cached is not None:
            return cached
        source = self._memo.restored_from(text)
        if source is not None:  # text a response restored: its provider text masks the same
            masked = self.mask(source, target)
        else:
            masked = self._fixpoint(self._mask_once(text, target, None, False), target, None)
        self._memo.seed(text, masked, target)
        return masked

    def unmask(self, text: str, registry: Registry, json_string: bool = False) -> str:
        """Restore the placeholders of `registry`; inside a JSON string literal, escaped."""
        if "[[" not in text or not len(registry):
            return text
        restored = PATTERN.sub(lambda m: self.restore_token(m.group(), registry, json_string), text)
        self._memo.remember_restored(restored, text)
        return restored

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
        append, forms = found.append, self._forms
        for case_sensitive, automaton in self._automata:
            text_view = view(text, case_sensitive)
            span = text_view.span
            direct = text_view.fold is None and text_view.kept is None and text.isascii()
            for last, form_index in automaton.iter(text_view.folded):
                _, length, category, whole_word = forms[form_index]
                if categories is not None and category not in categories:
                    continue
                end = last + 1
                start = end - length
                if not direct:  # offsets move, or a match could split a cluster
                    mapped = span(start, end)
                    if mapped is None:
                        continue
                    start, end = mapped
                if whole_word and not _whole_word(text, start, end):
                    continue
                append((start, -end, form_index))
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
        if surface == entity.term:  # the common case: no tag to compute
            token = self._codec.token(entity.category, entity_id)
            if registry is None or registry.claim(token, surface):
                return token
        return self._mint(entity.category, entity_id, surface, False, domain, registry)

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
                self._forms.append(_Form(index, len(key), entity.category, entity.whole_word))
                automaton.add_word(key, len(self._forms) - 1)
        if not owners:
            return None
        automaton.make_automaton()
        return automaton


class _Memo:
    """What the logging hook would otherwise mask again and again. One logging payload holds
    the same large texts several times (messages, the standard logging payload, the stored
    request body) and many short ones that repeat across requests (header values, metadata);
    the pre-call hook already masked the request's texts, and a restored response came from a
    provider text the hook masks anyway. Large texts: a small LRU; short ones: a dict, cleared
    when full. Thread-safe (the proxy runs a sync logging hook in a worker thread)."""

    def __init__(self) -> None:
        self._large: OrderedDict[tuple[str, Target], str] = OrderedDict()
        self._small: dict[tuple[str, Target], str] = {}
        self._restored: OrderedDict[str, str] = OrderedDict()
        # Texts the pre-call hook masked, by identity: the logging payload holds the very same
        # string objects, so no hashing of large texts on the request path.
        self._fixed: OrderedDict[int, tuple[str, Target]] = OrderedDict()
        self._lock = threading.Lock()

    def remember(self, masked: str, target: Target) -> None:
        """`masked` is its own logging form (masking is idempotent)."""
        if len(masked) < MEMO_MIN_CHARS:
            return
        with self._lock:
            self._fixed[id(masked)] = (masked, target)
            while len(self._fixed) > MEMO_ENTRIES:
                self._fixed.popitem(last=False)

    def get(self, text: str, target: Target) -> str | None:
        if len(text) < MEMO_MIN_CHARS:
            return self._small.get((text, target))
        fixed = self._fixed.get(id(text))
        if fixed is not None and fixed[0] is text and fixed[1] is target:
            return text
        with self._lock:
            found = self._large.get((text, target))
            if found is not None:
                self._large.move_to_end((text, target))
            return found

    def seed(self, text: str, masked: str, target: Target) -> None:
        """`masked` is a logging form of `text`, and of itself (masking is idempotent)."""
        if len(text) < MEMO_MIN_CHARS:
            if len(self._small) > SMALL_ENTRIES:
                self._small.clear()
            self._small[text, target] = masked
            return
        with self._lock:
            self._large[text, target] = masked
            self._large[masked, target] = masked
            while len(self._large) > MEMO_ENTRIES:
                self._large.popitem(last=False)

    def remember_restored(self, restored: str, source: str) -> None:
        if len(restored) < MEMO_MIN_CHARS:
            return
        with self._lock:
            self._restored[restored] = source
            while len(self._restored) > MEMO_ENTRIES:
                self._restored.popitem(last=False)

    def restored_from(self, text: str) -> str | None:
        if len(text) < MEMO_MIN_CHARS:
            return None
        with self._lock:
            return self._restored.get(text)


def _is_word(char: str) -> bool:
    return char.isalnum() or char == "_" or (char > "\u02ff" and unicodedata.combining(char) != 0)


def _whole_word(text: str, start: int, end: int) -> bool:
    if start and _is_word(text[start]) and _is_word(text[start - 1]):
        return False
    return not (end < len(text) and _is_word(text[end - 1]) and _is_word(text[end]))
