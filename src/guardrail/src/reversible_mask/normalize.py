"""Matching view of a text: what the automaton scans, with a map back to original offsets.

The view is defined by `reference_view`, one step at a time:

1. invisible characters (Unicode Default_Ignorable_Code_Point: zero-width space, joiner and
   non-joiner, soft hyphen, word joiner, BOM, bidi controls, variation selectors, tags, ...) are
   removed;
2. what remains is cut into clusters (a character plus the combining marks after it), and each
   cluster is folded: NFKC, and unless case-sensitive, case folding then NFKC again;
3. every run of clusters that fold to whitespace becomes one space.

So "ACME  Corp", "acme\\ncorp", "Ac\\u200bme Corp" and full-width "ＡＣＭＥ Corp" all read
"acme corp". A match maps back to whole clusters only: it never starts at a combining mark or
ends just before one.

`view` computes the same thing fast. Invisible characters are cut out with one C regex call.
The rest is split (one more call) only where folding is not one character for one character
(whitespace other than a lone space, composed clusters, characters such as "ß" or "ﬁ" whose fold
has another length); everything in between is folded in one C call per text, offsets one to one.
Text that is mostly ASCII takes cheaper routes to the same pieces: Latin-1 text whose only
irregular character is one kind ("ß") is split with `str.split`; emoji text is encoded to UTF-8
once, its non-ASCII characters (the bytes above 127) are checked apart, and when they all fold
to themselves and none starts a piece, its fold lowers the ASCII letters by a byte table.
Which characters are irregular is computed once per process from the running Python's Unicode
tables (about 0.3 s), so the fast path agrees with `reference_view`; a property test checks it on
arbitrary text, and a length check falls back to the reference if they ever disagreed.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from itertools import accumulate
from operator import add

from .fold_tables import (
    INVISIBLE,
    INVISIBLE_BMP,
    SENTINEL,
    Tables,
    fold,
    fold_ascii,
    is_ignorable,
    is_mark,
    tables_for,
)

_ASCII_SPACE = "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f "
# ASCII characters that are not regular: the sentinel and whitespace other than a space.
_ASCII_IRREGULAR = ("\x00", "\t", "\n", "\x0b", "\x0c", "\r", "\x1c", "\x1d", "\x1e", "\x1f")
# `"  " in text` steps through a text one character at a time; `re` jumps between spaces.
_DOUBLE_SPACE = re.compile("  ")
_DOUBLE_SPACE_UTF8 = re.compile(b"  ")  # `b"  " in data` is three times slower
_JOINER, _PRESENTATION = "\u200d", "\ufe0f"  # zero-width joiner, variation selector 16
_ASCII_BYTES = bytes(range(128))
_ASCII_LOWER = bytes.maketrans(bytes(range(65, 91)), bytes(range(97, 123)))
# A lone ASCII whitespace character folds to one space, one to one: text whose whitespace
# characters stand alone (paragraphs, tabs) views as if they were spaces. Latin-1 has no mark
# that could follow one and change its fold.
_OTHER_SPACES = _ASCII_SPACE[:-1]
_AS_SPACES = str.maketrans(_OTHER_SPACES, " " * len(_OTHER_SPACES))
_AS_SPACES_BYTES = bytes.maketrans(_OTHER_SPACES.encode(), b" " * len(_OTHER_SPACES))
Fold = Callable[[str, bool], str]


def fold_term(term: str, case_sensitive: bool) -> str:
    return reference_view(term, case_sensitive).folded


@dataclass(frozen=True)
class TextView:
    """`folded` is what the automaton scans; `visible` is the text without invisible
    characters. The visible text is cut into pieces: piece k covers visible[orig[k]:orig[k+1]]
    and folded[fold[k]:fold[k+1]]; a linear piece maps offsets one to one, any other piece is
    atomic (a match may only start or end at its edges). `fold is None`: one to one throughout.
    `kept`/`at` map visible offsets back: visible[kept[j]:kept[j+1]] is text[at[j]:...]."""

    text: str
    folded: str
    visible: str = ""
    fold: list[int] | None = None
    orig: list[int] | None = None
    linear: bytes = b""
    kept: list[int] | None = None
    at: list[int] | None = None

    def span(self, start: int, end: int) -> tuple[int, int] | None:
        """Original offsets of folded[start:end], or None when that cuts through a piece or
        starts or ends next to a combining mark (inside a cluster)."""
        found = self._visible_span(start, end)
        if found is None:
            return None
        first, last = found
        visible = self.visible or self.text
        head = visible[first]
        if head >= "\u0300" and is_mark(head):
            return None
        if last < len(visible) and visible[last] >= "\u0300" and is_mark(visible[last]):
            return None
        if self.kept is None or self.at is None:
            return first, last
        k = bisect_right(self.kept, first) - 1
        j = bisect_right(self.kept, last - 1) - 1
        return self.at[k] + first - self.kept[k], self.at[j] + last - self.kept[j]

    def _visible_span(self, start: int, end: int) -> tuple[int, int] | None:
        if self.fold is None or self.orig is None:
            return start, end
        fold, orig = self.fold, self.orig
        k = bisect_right(fold, start) - 1
        if self.linear[k]:
            first = orig[k] + start - fold[k]
        elif start == fold[k]:
            first = orig[k]
        else:
            return None
        k = bisect_right(fold, end - 1) - 1
        if self.linear[k]:
            return first, orig[k] + end - fold[k]
        return (first, orig[k + 1]) if end == fold[k + 1] else None


def reference_view(text: str, case_sensitive: bool) -> TextView:
    """The definition of the view, one character and one cluster at a time (slow)."""
    kept = [i for i, char in enumerate(text) if not is_ignorable(char)]
    visible = "".join(text[i] for i in kept)
    clusters: list[str] = []
    for char in visible:
        if clusters and is_mark(char):
            clusters[-1] += char
        else:
            clusters.append(char)
    lengths: list[int] = []
    folds: list[str] = []
    for cluster in clusters:
        folded = fold(cluster, case_sensitive)
        if folded.isspace() and folds and folds[-1] == " ":
            lengths[-1] += len(cluster)  # a whitespace run is one space
            continue
        lengths.append(len(cluster))
        folds.append(" " if folded.isspace() else folded)
    return _assemble(text, visible, lengths, folds, bytes(len(folds)), list(range(len(kept))), kept)


def _assemble(
    text: str,
    visible: str,
    lengths: list[int],
    folds: list[str],
    linear: bytes,
    kept: list[int] | None,
    at: list[int] | None,
) -> TextView:
    return TextView(
        text,
        "".join(folds),
        visible,
        list(accumulate(map(len, folds), initial=0)),
        list(accumulate(lengths, initial=0)),
        linear,
        kept,
        at,
    )


def view(text: str, case_sensitive: bool) -> TextView:
    """Same result as `reference_view`, at C speed for the regular stretches."""
    if text.isascii():
        spaced = _DOUBLE_SPACE.search(text) is not None
        # one memchr per character: faster than any scan that tests a class per character
        if not spaced and not any(char in text for char in _ASCII_IRREGULAR):
            return TextView(text, text if case_sensitive else text.lower())
        plain = text.translate(_AS_SPACES)  # C speed: an ASCII table on ASCII text
        if not spaced and SENTINEL not in plain and _DOUBLE_SPACE.search(plain) is None:
            return TextView(text, plain if case_sensitive else plain.lower())
        pieces = _ASCII_SPLIT[spaced].split(text)
        return _split_view(text, text, case_sensitive, pieces, spaced, fold_ascii, None, None)
    tables = tables_for(case_sensitive)
    if len(text.encode("utf-16-le", "surrogatepass")) != 2 * len(text):
        return _astral_view(text, case_sensitive, tables)  # runs of spaces: in the visible text
    spaced = _DOUBLE_SPACE.search(text) is not None
    pieces = None if spaced else _latin1_pieces(text, tables)
    if pieces is None:
        pieces = tables.fast[spaced].split(text)
    if len(pieces) > 1 and tables.unusual.search("".join(pieces[1::2])):
        return _stripped_view(text, case_sensitive, tables, INVISIBLE_BMP.split(text))
    return _split_view(text, text, case_sensitive, pieces, spaced, tables.fold_regular, None, None)


def _latin1_pieces(text: str, tables: Tables) -> list[str] | None:
    """The fast pattern's pieces of a Latin-1 text without a run of spaces whose irregular
    characters are all one character that is a piece of its own (such as "ß" in German), once
    lone ASCII whitespace is read as spaces (`_AS_SPACES`): one C split instead of a regex
    scan. Latin-1 has no combining marks, so such a piece never takes a tail. The pieces are
    of that plain text, the same length as `text`. None for any other text."""
    try:
        data = text.encode("latin-1")
    except UnicodeEncodeError:
        return None
    # A whitespace run keeps its characters, none of them a piece of its own: None below.
    plain = _lone_spaces(data)
    irregular = plain.translate(None, tables.latin1_regular)  # the characters a piece starts at
    if not irregular:
        return [plain.decode("latin-1")]
    if irregular[0] not in tables.latin1_single or irregular.count(irregular[:1]) != len(irregular):
        return None
    char = chr(irregular[0])
    parts = plain.decode("latin-1").split(char)
    pieces = [char] * (2 * len(parts) - 1)
    pieces[0::2] = parts
    return pieces


def _astral_view(text: str, case_sensitive: bool, tables: Tables) -> TextView:
    """Emoji text: many invisible BMP characters (joiners, variation selectors), almost never
    an astral character the fast patterns do not handle. Mostly ASCII: when none of its other
    characters changes when folded, only ASCII letters change (one byte table)."""
    # Its invisible characters are nearly always joiners and emoji presentation selectors: cut
    # those with two string calls instead of a regex scan (any other one is found below).
    chunks = text.replace(_JOINER, _PRESENTATION).split(_PRESENTATION)
    visible = "".join(chunks) if len(chunks) > 1 else text
    # In UTF-8 every byte below 128 is an ASCII character: cut those out (one C pass) to get
    # the other characters, the astral ones and any that folding changes.
    data = visible.encode("utf-8", "surrogatepass")
    others = data.translate(None, _ASCII_BYTES).decode("utf-8", "surrogatepass")
    if tables.astral_trouble.search(others):
        return _stripped_view(text, case_sensitive, tables, INVISIBLE.split(text), slow=True)
    unchanged = case_sensitive or others.casefold() == others
    fold = _fold_ascii_letters if unchanged and unicodedata.is_normalized("NFKC", others) else None
    plain = data if tables.mark.search(others) else _lone_spaces(data)
    if fold is None or not _one_piece(plain, others, tables):
        return _stripped_view(text, case_sensitive, tables, chunks, partial=True, fold=fold)
    # No piece starts anywhere: the fast pattern would not cut it, one regular stretch whose
    # fold lowers ASCII letters only (`_fold_ascii_letters`, on the bytes at hand).
    folded = (plain if case_sensitive else plain.translate(_ASCII_LOWER)).decode(
        "utf-8", "surrogatepass"
    )
    kept, at = _offsets(chunks)
    if kept is None:
        return TextView(text, folded)
    return TextView(text, folded, visible, kept=kept, at=at)


def _lone_spaces(data: bytes) -> bytes:
    """Latin-1 or UTF-8 text without combining marks (one after a whitespace character would
    change its fold) with its lone ASCII whitespace read as spaces (`_AS_SPACES`); with a
    whitespace run, the text as it is."""
    plain = data.translate(_AS_SPACES_BYTES)
    return data if _DOUBLE_SPACE_UTF8.search(plain) else plain


def _one_piece(data: bytes, others: str, tables: Tables) -> bool:
    """No character of a text (`data`: its UTF-8) starts a piece of the fast pattern: no run
    of spaces, none of its non-ASCII characters `others`, none of its ASCII ones."""
    if tables.starts.search(others) or _DOUBLE_SPACE_UTF8.search(data):
        return False
    return not data.translate(None, tables.ascii_other)


def _fold_ascii_letters(text: str, case_sensitive: bool) -> str:
    """`fold_regular` of regular text whose non-ASCII characters all fold to themselves and
    that NFKC leaves alone: ASCII letters lowered, through UTF-8 (where every byte below 128
    is an ASCII character)."""
    if case_sensitive:
        return text
    return (
        text.encode("utf-8", "surrogatepass")
        .translate(_ASCII_LOWER)
        .decode("utf-8", "surrogatepass")
    )


def _stripped_view(
    text: str,
    case_sensitive: bool,
    tables: Tables,
    chunks: list[str],
    slow: bool = False,
    partial: bool = False,
    fold: Fold | None = None,
) -> TextView:
    """`chunks`: the text cut at each invisible character (one character per cut), or with
    `partial` at some of them: the fast pattern cuts at any other, which then sends the text
    back here cut at all of them. Composing marks and rare astral characters need the slow
    pattern, where any character may start a cluster. `fold`: folds the regular parts
    (default: `tables.fold_regular`)."""
    visible = "".join(chunks)
    spaced = _DOUBLE_SPACE.search(visible) is not None
    parts = [] if slow else tables.fast[spaced].split(visible)
    if slow or (len(parts) > 1 and tables.unusual.search("".join(parts[1::2]))):
        if partial:
            return _stripped_view(text, case_sensitive, tables, INVISIBLE_BMP.split(text))
        parts, spaced = tables.slow.split(visible), True
    kept, at = _offsets(chunks)
    fold_regular = fold or tables.fold_regular
    return _split_view(text, visible, case_sensitive, parts, spaced, fold_regular, kept, at)


def _offsets(chunks: list[str]) -> tuple[list[int] | None, list[int] | None]:
    """`kept` and `at` of a text cut at one invisible character between chunks."""
    if len(chunks) == 1:
        return None, None
    kept = list(accumulate(map(len, chunks), initial=0))[:-1]
    return kept, list(map(add, kept, range(len(kept))))  # chunk k: k invisible ones before


def _split_view(
    text: str,
    visible: str,
    case_sensitive: bool,
    pieces: list[str],
    spaced: bool,
    fold_regular: Fold,
    kept: list[int] | None,
    at: list[int] | None,
) -> TextView:
    """`pieces` alternate: regular text, an irregular piece, regular text, ... (of `visible`,
    or of a text that views alike and has its length)."""
    if len(pieces) == 1:
        folded = fold_regular(pieces[0], case_sensitive)
        if len(folded) != len(visible):
            return reference_view(text, case_sensitive)
        if kept is None:
            return TextView(text, folded)
        return TextView(text, folded, visible, kept=kept, at=at)
    parts = pieces[0::2]
    folded_parts = fold_regular(SENTINEL.join(parts), case_sensitive).split(SENTINEL)
    if list(map(len, folded_parts)) != list(map(len, parts)):
        return reference_view(text, case_sensitive)
    separators = pieces[1::2]
    folded_separators = list(map(_SEPARATOR_FOLDS[case_sensitive].__getitem__, separators))
    if not spaced and " " in folded_separators:  # a C-level test spares the Python loop
        _attach_leading_spaces(parts, folded_parts, separators, folded_separators)
        pieces[0::2], pieces[1::2] = parts, separators
    lengths = list(map(len, pieces))
    pieces[0::2], pieces[1::2] = folded_parts, folded_separators
    linear = b"\x01\x00" * (len(pieces) // 2) + b"\x01"
    return _assemble(text, visible, lengths, pieces, linear, kept, at)


def _attach_leading_spaces(
    parts: list[str], folded_parts: list[str], separators: list[str], folds: list[str]
) -> None:
    """Without a run of plain spaces in the text, no pattern match starts at a space (spaces
    are everywhere), so a space just before a whitespace run is still at the end of the
    regular part before it: move it into the run."""
    for k, folded in enumerate(folds):
        if folded == " " and parts[k][-1:] == " ":
            parts[k], folded_parts[k] = parts[k][:-1], folded_parts[k][:-1]
            separators[k] = " " + separators[k]


class _SeparatorFolds(dict[str, str]):
    """Fold of each irregular piece (a whitespace run folds to one space), cached: pieces
    repeat, and a dict hit costs no Python frame. Cleared when large (hostile input)."""

    def __init__(self, case_sensitive: bool) -> None:
        super().__init__()
        self.case_sensitive = case_sensitive

    def __missing__(self, piece: str) -> str:
        if len(self) > 8192:
            self.clear()
        spaces = all(fold(c, self.case_sensitive).isspace() for c in piece)
        if spaces and not any(map(is_mark, piece)):
            folded = " "
        else:
            folded = fold(piece, self.case_sensitive)
        self[piece] = folded
        return folded


_SEPARATOR_FOLDS = {flag: _SeparatorFolds(flag) for flag in (False, True)}

# The same pieces as the Unicode patterns below, for ASCII text (keyed by: has "  ").
_ASCII_SPLIT = {
    spaced: re.compile(
        rf"([\x00\t-\r\x1c-\x1f{' ' if spaced else ''}]"
        rf"(?:(?<=\x00)|(?<=[\t-\r\x1c-\x1f])[{_ASCII_SPACE}]*|(?<= )[{_ASCII_SPACE}]+))"
    )
    for spaced in (False, True)
}
