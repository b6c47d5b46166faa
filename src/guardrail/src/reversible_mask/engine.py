"""The masking engine: mask a text's dictionary terms (found by `matcher`) into placeholders,
and unmask a request's own placeholders. No LiteLLM here.

Two modes:

* request (`registry` given): every placeholder minted is recorded in the request's registry,
  and placeholder-shaped text already in the input is masked too (as a LITERAL placeholder), so
  every placeholder the provider sees was minted by this request;
* logging (no registry): placeholder-shaped text is left as it is, so re-masking is idempotent.

`unmask` restores only placeholders found in the given registry.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from .dictionary import Dictionary
from .errors import MaskingError, ScopeError
from .matcher import Match, Matcher, pattern_index
from .memo import MIN_CHARS, LogMemo
from .placeholder import (
    LITERAL,
    SPLIT,
    TAG_LENGTHS,
    PlaceholderCodec,
    Registry,
    count_prefixes,
    may_hold_token,
    token_spans,
)

FIXPOINT_PASSES = 4
_TOKEN = -1  # the form of placeholder-shaped text in a list of matches


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
        self._matcher = Matcher(dictionary.entities, dictionary.patterns)
        self._all_categories = dictionary.categories
        self._count_prefixes = count_prefixes(self._all_categories)
        self.shortest = self._matcher.shortest
        self._memo = LogMemo()
        self._targets: dict[tuple[frozenset[str] | None, str], Target] = {}
        # Canonical placeholder of each form's entity, per key domain: most matches are
        # canonical.
        self._canonical: dict[str, list[str | None]] = {}

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
        short = len(text) < self.shortest and text.isascii()  # folds one to one or shorter
        if registry is not None:
            if short and not may_hold_token(text):
                return text  # too short for any term, and holds no placeholder-shaped text
            masked = self._fixpoint(self._mask_once(text, target, registry, True), target, registry)
            if target.categories is None:  # also a valid logging form: the hook reuses it
                self._memo.remember(masked, target)
            return masked
        if short:
            return text  # too short for any term
        cached = self._memo.get(text, target)
        if cached is not None:
            return cached or text  # "": the text itself is its logging form
        source = self._memo.restored_from(text)
        if source is not None:  # text a response restored: its provider text masks the same
            masked = self.mask(source, target)
        else:
            masked = self._fixpoint(self._mask_once(text, target, None, False), target, None)
        self._memo.seed(text, masked, target)
        return masked

    def log_mask(self, target: Target = EVERYTHING) -> Callable[[str], str]:
        """`mask` in logging mode under one target. The logging walk asks for hundreds of
        short texts per request, nearly all of them known: those are answered without a call.
        The function carries what it answers from (`known`: short text -> its logging form, ""
        for the text itself; `shortest`: ASCII text shorter than this holds no term), so that
        the walk (`log_copier.Copier`) can answer them without calling it."""
        known = self._memo.small(target)
        shortest, mask = self.shortest, self.mask

        def masked(text: str) -> str:
            size = len(text)
            if size < shortest and text.isascii():
                return text
            if size < MIN_CHARS:  # a long text is not hashed here (see LogMemo.remember)
                found = known.get(text)
                if found is not None:
                    return found or text
            return mask(text, target)

        masked.known = known  # type: ignore[attr-defined]
        masked.shortest = shortest  # type: ignore[attr-defined]
        return masked

    def counts(self, registry: Registry) -> dict[str, int]:
        """The request's placeholders by category (upper case, as in the tokens): numbers only;
        LITERAL ones (placeholder-shaped client text) are not masked terms."""
        return registry.counts(self._count_prefixes)

    def unmask(self, text: str, registry: Registry, json_string: bool = False) -> str:
        """Restore the placeholders of `registry`; inside a JSON string literal, escaped."""
        if not len(registry) or not may_hold_token(text):
            return text
        parts = SPLIT.split(text)  # text, token, text, ...: no call per token
        if len(parts) == 1:
            return text
        tokens = parts[1::2]
        if json_string:
            parts[1::2] = [self.restore_token(token, registry, True) for token in tokens]
        else:
            parts[1::2] = registry.restore_all(tokens)
        restored = "".join(parts)
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
        if not self._matcher.mixed_word_modes:
            return masked
        for _ in range(FIXPOINT_PASSES):
            again = self._mask_once(masked, target, registry, False)
            if again == masked:
                break
            masked = again
        return masked

    def _mask_once(self, text: str, target: Target, registry: Registry | None, escape: bool) -> str:
        """One pass; with `escape`, placeholder-shaped text becomes a LITERAL placeholder."""
        tokens = token_spans(text) if escape else None
        if target.categories is None and not (tokens if escape else may_hold_token(text)):
            plain = self._mask_plain(text, target.domain, registry)
            if plain is not None:
                return plain
        chosen = self._matcher.find(text, target.categories, tokens)
        if tokens:
            chosen = sorted([*chosen, *((start, end, _TOKEN) for start, end in tokens)])
        if not chosen:
            return text
        return self._replace(text, chosen, target.domain, registry)

    def _replace(
        self, text: str, chosen: list[Match], domain: str, registry: Registry | None
    ) -> str:
        """Most matches are an entity's canonical spelling whose placeholder is known: those
        are replaced inline; the rest (tags, literals, collisions) go through `_placeholder`."""
        out: list[str] = []
        append = out.append
        position = 0
        terms = self._matcher.form_terms
        canonical = self._canonical_tokens(domain)
        claim = None if registry is None else registry.claimer()
        for start, end, form in chosen:
            append(text[position:start])
            surface = text[start:end]
            position = end
            if form < 0:
                append(self._special_token(form, surface, domain, registry))
                continue
            token = canonical[form] if surface == terms[form] else None
            if token is None or (claim is not None and claim(token, surface) != surface):
                token = self._placeholder(form, surface, domain, registry)
            append(token)
        append(text[position:])
        return "".join(out)

    def _special_token(
        self, form: int, surface: str, domain: str, registry: Registry | None
    ) -> str:
        """Placeholder-shaped text (a LITERAL placeholder) or a pattern's match."""
        if form == _TOKEN:
            return self._literal(surface, domain, registry)
        return self._pattern_token(form, surface, domain, registry)

    def _mask_plain(self, text: str, domain: str, registry: Registry | None) -> str | None:
        """Most requests: every category, no placeholder-shaped text, and a text the matcher
        scans as it is, whose matches need no choosing (`Matcher.plain_matches`). None when
        that does not apply (then the general path)."""
        chosen = self._matcher.plain_matches(text)
        if chosen is None:
            return None
        return self._replace(text, chosen, domain, registry) if chosen else text

    def _placeholder(self, form: int, surface: str, domain: str, registry: Registry | None) -> str:
        index = self._matcher.forms[form].entity
        entity = self._matcher.entities[index]
        if surface == entity.term:  # the common case: no tag to compute
            token = self._canonical_token(form, domain)
            if registry is None or registry.claim(token, surface):
                return token
        entity_id = self._codec.entity_id(domain, entity.category, entity.term)
        return self._mint(entity.category, entity_id, surface, False, domain, registry)

    def _pattern_token(
        self, form: int, surface: str, domain: str, registry: Registry | None
    ) -> str:
        """A pattern's match is its own entity: the same text gets the same placeholder."""
        category = self._matcher.patterns[pattern_index(form)].category
        entity_id = self._codec.entity_id(domain, category, surface)
        return self._mint(category, entity_id, surface, True, domain, registry)

    def _canonical_tokens(self, domain: str) -> list[str | None]:
        """By form: its entity's canonical placeholder in a key domain, None until needed."""
        tokens = self._canonical.get(domain)
        if tokens is None:
            tokens = self._canonical[domain] = [None] * len(self._matcher.forms)
        return tokens

    def _canonical_token(self, form: int, domain: str) -> str:
        tokens = self._canonical_tokens(domain)
        token = tokens[form]
        if token is None:
            entity = self._matcher.entities[self._matcher.forms[form].entity]
            entity_id = self._codec.entity_id(domain, entity.category, entity.term)
            token = tokens[form] = self._codec.token(entity.category, entity_id)
        return token

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
