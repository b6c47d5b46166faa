"""Where the dictionary's terms are in a text: Aho-Corasick automata over the folded view.

Matching is linear in the text (ahocorasick-rs, Rust's aho-corasick automaton, over the folded
view of `normalize`) for any dictionary size; one call returns every occurrence, overlapping
ones included. All matches are collected, filtered (scope, whole word, cluster alignment,
overlap with placeholder-shaped text), then resolved leftmost-longest.
Pattern entries (patterns.py) are matched on the text as sent, beside the automata, and take
part in the same resolution; their matches carry the form `pattern_form(index)`.
"""

from __future__ import annotations

import re
import unicodedata
from itertools import islice
from operator import itemgetter, le
from typing import NamedTuple

from ahocorasick_rs import AhoCorasick, BytesAhoCorasick

from .dictionary import Entity
from .errors import DictionaryError
from .mostly_ascii import plain_ascii
from .normalize import fold_term, view
from .patterns import PatternEntry, compile_pattern
from .placeholder import token_spans

Match = tuple[int, int, int]  # start, end, form index
_START, _END = itemgetter(0), itemgetter(1)
Span = tuple[int, int]
# A lone surrogate cannot be encoded for the automaton (no term holds one: see `_add`).
SURROGATE = re.compile("[\ud800-\udfff]")


class Automaton(NamedTuple):
    """One automaton's folded terms: pattern `k` of `search` is `keys[k]`, the form `first + k`.
    `ascii_search` holds the ASCII keys only, as bytes, for ASCII text (most text): a bytes
    haystack is scanned faster than a str, and only an ASCII key can occur in ASCII text. Its
    pattern `k` is `keys[ascii_keys[k]]`, or `keys[k]` when every key is ASCII (`ascii_keys`
    None)."""

    case_sensitive: bool
    keys: tuple[str, ...]
    search: AhoCorasick
    ascii_search: BytesAhoCorasick | None
    ascii_keys: tuple[int, ...] | None
    first: int
    stand_in: str  # a character in no term: stands for a lone surrogate of the text


class Form(NamedTuple):
    """One spelling in an automaton: the entity it belongs to and how to accept a match."""

    entity: int
    length: int  # folded length
    category: str
    whole_word: bool


def pattern_form(index: int) -> int:
    """The form of a match of pattern `index` (forms of terms are >= 0, -1 is a token)."""
    return -2 - index


def pattern_index(form: int) -> int:
    return -2 - form


class Matcher:
    def __init__(
        self, entities: tuple[Entity, ...], patterns: tuple[PatternEntry, ...] = ()
    ) -> None:
        self.entities = entities
        self.patterns = patterns
        self._compiled = [
            compile_pattern(p.source, f"category {p.category!r} pattern") for p in patterns
        ]
        self.forms: list[Form] = []
        self._owners: dict[tuple[bool, str], int] = {}
        self._automata = [
            automaton for flag in (False, True) if (automaton := self._build(flag)) is not None
        ]
        # Per form, side by side (a match reads one slot, not a Form and its Entity): the
        # entity's canonical term, and whether the form matches whole words only.
        self.form_terms = [entities[form.entity].term for form in self.forms]
        self._whole_word = bytes(form.whole_word for form in self.forms)
        # Only a substring match can make a neighbour a word boundary on a second pass.
        self.mixed_word_modes = len({entity.whole_word for entity in entities}) == 2
        self.shortest = 1 if patterns else min((form.length for form in self.forms), default=1)

    def find(
        self, text: str, categories: frozenset[str] | None, tokens: list[Span] | None = None
    ) -> list[Match]:
        """Matches to replace: leftmost first, longest first at one start, none touching a
        token (placeholder-shaped text: `tokens` if known, else found here only when a term
        was, as a text full of placeholders mostly holds none)."""
        found: list[Match] = []
        for automaton in self._automata:
            self._scan(text, automaton, categories, found)
        if self._compiled:
            self._scan_patterns(text, categories, found)
        if not found:
            return []
        if tokens is None:
            tokens = token_spans(text)
        if not tokens and _in_order_apart(found):  # most texts: nothing to choose between
            return found
        return _resolve(found, tokens)

    def plain_matches(self, text: str) -> list[Match] | None:
        """The common case: one automaton, no patterns, and a text whose view is one character
        for one (ASCII, no whitespace run: `plain_ascii`, scanned as the bytes it gives). Then
        its acceptable matches, in order, when no two overlap (nothing to choose between); None
        in any other case (the general path)."""
        if len(self._automata) != 1 or self._compiled or not text.isascii():
            return None
        automaton = self._automata[0]
        folded = plain_ascii(text, automaton.case_sensitive)
        if folded is None:
            return None
        first, whole_word, word, size = automaton.first, self._whole_word, WORD, len(text)
        # The whole-word rule as `_scan` applies it (offsets in `text` here are the view's).
        found = [
            (start, end, form)
            for pattern, start, end in _ascii_occurrences(automaton, folded)
            if not (
                whole_word[form := first + pattern]
                and (
                    (start and word[text[start]] and word[text[start - 1]])
                    or (end < size and word[text[end - 1]] and word[text[end]])
                )
            )
        ]
        return found if _in_order_apart(found) else None

    def _scan(
        self,
        text: str,
        automaton: Automaton,
        categories: frozenset[str] | None,
        found: list[Match],
    ) -> None:
        """Appends (start, end, form) for every acceptable match of one automaton."""
        text_view = view(text, automaton.case_sensitive)
        span = text_view.span
        direct = text_view.fold is None and text_view.kept is None and text.isascii()
        forms, whole_word, word = self.forms, self._whole_word, WORD
        size, append, first = len(text), found.append, automaton.first
        for pattern, start, end in _occurrences(automaton, text_view.folded):
            index = first + pattern
            if categories is not None and forms[index].category not in categories:
                continue
            if not direct:  # offsets move, or a match could split a cluster
                mapped = span(start, end)
                if mapped is None:
                    continue
                start, end = mapped
            if whole_word[index] and (
                (start and word[text[start]] and word[text[start - 1]])
                or (end < size and word[text[end - 1]] and word[text[end]])
            ):
                continue
            append((start, end, index))

    def _scan_patterns(
        self, text: str, categories: frozenset[str] | None, found: list[Match]
    ) -> None:
        for index, (entry, compiled) in enumerate(zip(self.patterns, self._compiled, strict=True)):
            if categories is not None and entry.category not in categories:
                continue
            for match in compiled.finditer(text):
                if match.end() > match.start():
                    found.append((match.start(), match.end(), pattern_form(index)))

    def _build(self, case_sensitive: bool) -> Automaton | None:
        keys: dict[str, int] = {}
        for index, entity in enumerate(self.entities):
            if entity.case_sensitive == case_sensitive:
                for form in entity.forms:
                    self._add(keys, index, form, case_sensitive)
        if not keys:
            return None
        first = len(self.forms) - len(keys)
        ordered = tuple(keys)  # insertion order: pattern k is the form first + k
        ascii_search, ascii_keys = _ascii_automaton(ordered)
        search = AhoCorasick(ordered)
        return Automaton(
            case_sensitive, ordered, search, ascii_search, ascii_keys, first, _stand_in(ordered)
        )

    def _add(self, keys: dict[str, int], index: int, form: str, case_sensitive: bool) -> None:
        key = fold_term(form, case_sensitive)
        if not key.strip() or key != key.strip():
            raise DictionaryError(
                f"term {form!r} is empty, or starts or ends with whitespace, after normalisation"
            )
        if SURROGATE.search(key):  # not text: the automaton would silently match nothing
            raise DictionaryError(f"term {form!r} holds a lone surrogate (not a character)")
        owner = self._owners.setdefault((case_sensitive, key), index)
        if owner != index:
            entity, other = self.entities[index], self.entities[owner]
            raise DictionaryError(
                f"{form!r} ({entity.category}) and {other.term!r} ({other.category}) are the "
                "same after case, Unicode, whitespace and invisible-character folding"
            )
        if key not in keys:
            entity = self.entities[index]
            self.forms.append(Form(index, len(key), entity.category, entity.whole_word))
            keys[key] = len(self.forms) - 1


def _ascii_automaton(
    keys: tuple[str, ...],
) -> tuple[BytesAhoCorasick | None, tuple[int, ...] | None]:
    ascii_keys = [k for k, key in enumerate(keys) if key.isascii()]
    if not ascii_keys:
        return None, None
    search = BytesAhoCorasick([keys[k].encode("ascii") for k in ascii_keys])
    return search, None if len(ascii_keys) == len(keys) else tuple(ascii_keys)


def _occurrences(automaton: Automaton, folded: str) -> list[tuple[int, int, int]]:
    """(pattern, start, end) of every occurrence, overlapping ones included."""
    if folded.isascii():  # one byte per character: offsets are the same
        return _ascii_occurrences(automaton, folded.encode("ascii"))
    try:
        return automaton.search.find_matches_as_indexes(folded, overlapping=True)
    except UnicodeEncodeError:  # a lone surrogate, one character for one: offsets stay
        folded = SURROGATE.sub(automaton.stand_in, folded)
        return automaton.search.find_matches_as_indexes(folded, overlapping=True)


def _ascii_occurrences(automaton: Automaton, folded: bytes) -> list[tuple[int, int, int]]:
    """The same for an ASCII view, as bytes: only an ASCII key can occur there."""
    if automaton.ascii_search is None:
        return []
    found = automaton.ascii_search.find_matches_as_indexes(folded, overlapping=True)
    keys = automaton.ascii_keys
    return found if keys is None else [(keys[k], start, end) for k, start, end in found]


def _stand_in(keys: tuple[str, ...]) -> str:
    used = set("".join(keys))
    return next(char for char in map(chr, range(0xE000, 0x110000)) if char not in used)


def _in_order_apart(found: list[Match]) -> bool:
    """Each match starts at or after the end of the one before: then leftmost-longest
    resolution keeps them all, in this order (checked at C speed)."""
    return all(map(le, map(_END, found), map(_START, islice(found, 1, None))))


def _leftmost_longest(match: Match) -> tuple[int, int, int]:
    return match[0], -match[1], match[2]


def _resolve(found: list[Match], tokens: list[Span]) -> list[Match]:
    chosen: list[Match] = []
    position = 0
    next_token = 0
    for start, end, form in sorted(found, key=_leftmost_longest):
        if start < position:
            continue
        while next_token < len(tokens) and tokens[next_token][1] <= start:
            next_token += 1
        if next_token < len(tokens) and tokens[next_token][0] < end:
            continue
        chosen.append((start, end, form))
        position = end
    return chosen


class _WordChars(dict[str, bool]):
    """Whether a character continues a word: letters, digits, `_` and combining marks. A
    cached lookup (no Python frame per character); cleared when large (hostile input)."""

    def __missing__(self, char: str) -> bool:
        if len(self) > 65536:
            self.clear()
        is_word = char.isalnum() or char == "_" or unicodedata.combining(char) != 0
        self[char] = is_word
        return is_word


WORD = _WordChars()
