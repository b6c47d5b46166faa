"""The Unicode tables behind the matching view: which characters are invisible, which fold one
character to one, and the split patterns built from them once per process and case mode.

`normalize.view` cuts a text with these patterns and folds the pieces; everything here is
computed from the running Python's Unicode data, so the fast view agrees with
`text_view.reference_view` whatever the Python version.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

# Default_Ignorable_Code_Point (Unicode DerivedCoreProperties.txt): invisible in rendering.
IGNORABLE_RANGES = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160),
    (0x17B4, 0x17B5), (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E),
    (0x2060, 0x206F), (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)  # fmt: skip
IGNORABLE = frozenset(cp for low, high in IGNORABLE_RANGES for cp in range(low, high + 1))
_SCANNED = 0x30000  # above: CJK ideographs, tags (ignorable), private use or unassigned
SENTINEL = "\x00"  # joins the regular parts of a text for one fold call; always irregular


def is_ignorable(char: str) -> bool:
    return ord(char) in IGNORABLE


def is_mark(char: str) -> bool:
    """A combining mark that is not invisible (variation selectors and CGJ are removed)."""
    return unicodedata.category(char)[0] == "M" and ord(char) not in IGNORABLE


@lru_cache(maxsize=65536)
def fold(cluster: str, case_sensitive: bool) -> str:
    """NFKC, then (case-insensitive) casefold and NFKC again."""
    text = unicodedata.normalize("NFKC", cluster)
    if case_sensitive:
        return text
    return unicodedata.normalize("NFKC", text.casefold())


def fold_ascii(text: str, case_sensitive: bool) -> str:
    return text if case_sensitive else text.lower()


@dataclass(frozen=True)
class Tables:
    """Split patterns. `re` checks the astral members of a class one range at a time for every
    character, so the fast patterns use classes of the Basic Multilingual Plane only: any
    astral character they meet is regular and none is a mark (`astral_trouble` sends other text
    to the slow pattern). They also cut at each invisible character and composing mark, which
    sends the text to the stripped path. A lone space, which is everywhere, starts no match
    attempt unless the text has a run of spaces. The slow pattern lets every character start
    a cluster."""

    unusual: re.Pattern[str]  # an invisible character or a composing mark (BMP)
    mark: re.Pattern[str]  # a combining mark (BMP)
    astral_trouble: re.Pattern[str]  # an astral character the fast patterns do not handle
    fast: dict[bool, re.Pattern[str]]  # keyed by: has "  "
    slow: re.Pattern[str]
    latin1: bytes | None  # translation table: the fold of each regular Latin-1 character
    latin1_regular: bytes  # Latin-1 characters no piece starts at (in text without "  ")
    latin1_single: bytes  # Latin-1 characters that are a piece of their own in Latin-1 text
    starts: re.Pattern[str]  # a character a piece starts at (BMP, in text without "  ")
    ascii_other: bytes  # every byte but the ASCII characters that start a piece

    def fold_regular(self, text: str, case_sensitive: bool) -> str:
        """`fold` of a stretch of regular characters and stable marks, cheaper: each of them
        is left alone by NFKC after case folding, and case folding keeps the order of marks,
        so the second NFKC is the identity. Latin-1 text has no marks and every regular
        character folds to one Latin-1 character: one table lookup per character."""
        if text.isascii():
            return fold_ascii(text, case_sensitive)
        if self.latin1 is not None:
            try:
                return text.encode("latin-1").translate(self.latin1).decode("latin-1")
            except UnicodeEncodeError:
                pass
        text = unicodedata.normalize("NFKC", text)
        return text if case_sensitive else text.casefold()

    @staticmethod
    def fold(text: str, case_sensitive: bool) -> str:
        if text.isascii():
            return fold_ascii(text, case_sensitive)
        text = unicodedata.normalize("NFKC", text)
        if case_sensitive:
            return text
        return unicodedata.normalize("NFKC", text.casefold())


@lru_cache(maxsize=2)
def tables_for(case_sensitive: bool) -> Tables:
    """Classify every code point below _SCANNED once, with this Python's Unicode data.

    Regular characters fold to one character and never combine with the one before, so a
    stretch of them folds in one call, offsets one to one. Stable marks (fold to themselves,
    never composed) may stay in such a stretch (matches never start or end next to a mark).
    Everything else is split out and folded as its own piece."""
    chars = [chr(cp) for cp in range(1, _SCANNED) if cp not in IGNORABLE]
    # Isolated by the sentinel, so these are the per-character folds.
    folds = Tables.fold(SENTINEL.join(chars), case_sensitive).split(SENTINEL)
    composers = _backward_composers(chars)
    spaces = [" "]
    marks: list[str] = []
    composing: list[str] = []
    odd = [SENTINEL]
    for char, folded in zip(chars, folds, strict=True):
        if folded.isspace():
            spaces.append(char)
        elif is_mark(char):
            marks.append(char)
            if folded != char or char in composers:
                composing.append(char)
        elif not _regular(char, folded, composers, case_sensitive):
            odd.append(char)
    mark_bmp = _char_class(_bmp(marks))
    astral = [c for c in [*marks, *odd, *spaces] if c >= "\U00010000"]
    astral += [chr(cp) for cp in IGNORABLE if cp >= 0x10000]
    invisible = [chr(cp) for cp in IGNORABLE if cp < 0x10000]
    unusual = invisible + _bmp(composing)
    starts = {*spaces, *odd, *unusual} - {" "}  # where the fast pattern (no "  ") starts a piece
    return Tables(
        unusual=re.compile(_char_class(unusual)),
        mark=re.compile(mark_bmp),
        astral_trouble=re.compile(_negated_class(_cover(astral))),
        fast={spaced: _fast(spaces, odd, unusual, mark_bmp, spaced) for spaced in (False, True)},
        slow=_slow(spaces, odd, composing, _char_class(marks)),
        latin1=_latin1_table(chars, folds, {*spaces, *marks, *odd}),
        latin1_regular=bytes(cp for cp in range(256) if chr(cp) not in starts),
        latin1_single=bytes(ord(c) for c in odd if c <= "\xff" and c not in {*spaces, *unusual}),
        starts=re.compile(_char_class(_bmp(starts))),
        ascii_other=bytes(b for b in range(256) if b > 127 or chr(b) not in starts),
    )


def _latin1_table(chars: list[str], folds: list[str], irregular: set[str]) -> bytes | None:
    """None if some regular Latin-1 character folds outside Latin-1 (no Unicode version so
    far: then `fold_regular` takes the general path)."""
    table = bytearray(range(256))
    for char, folded in zip(chars, folds, strict=True):
        if char > "\xff":
            break
        if char in irregular:
            continue
        if len(folded) != 1 or folded > "\xff":
            return None
        table[ord(char)] = ord(folded)
    return bytes(table)


# Astral blocks real text uses a lot (emoji, regional indicators, CJK extensions): no range of
# `_cover` may reach into them.
_BUSY_ASTRAL = ((0x1D400, 0x1D7FF), (0x1F1E6, 0x1F1FF), (0x1F300, 0x1FAFF), (0x20000, 0x3FFFF))


def _cover(chars: list[str]) -> list[tuple[int, int]]:
    """A few ranges that hold every given astral character (and some unassigned or rare
    ones between them)."""
    codes = sorted({ord(c) for c in chars})
    astral: list[tuple[int, int]] = []
    for code in codes:
        if astral and code - astral[-1][1] <= 0x1000 and not _busy(astral[-1][1] + 1, code - 1):
            astral[-1] = (astral[-1][0], code)
        else:
            astral.append((code, code))
    return astral


def _negated_class(ranges: list[tuple[int, int]]) -> str:
    """The class of the given ranges, written as the complement of its complement. `re` tests
    a class's astral ranges one by one (no bitmap) and stops at the first hit; listing what
    is NOT in the class, BMP first (`re` tests it by bitmap before any astral range), then
    the gaps holding most of the busy astral blocks, rejects the usual character (an emoji
    too) after one or two tests."""
    gaps: list[tuple[int, int]] = []
    previous = -1
    for low, high in sorted(ranges):
        if low > previous + 1:
            gaps.append((previous + 1, low - 1))
        previous = max(previous, high)
    if previous < 0x10FFFF:
        gaps.append((previous + 1, 0x10FFFF))
    gaps.sort(key=lambda gap: (gap[0] > 0xFFFF, -_busy_overlap(*gap)))  # stable: else in order
    return "[^" + "".join(f"\\U{low:08x}-\\U{high:08x}" for low, high in gaps) + "]"


def _busy_overlap(low: int, high: int) -> int:
    return sum(
        max(0, min(high, busy_high) - max(low, busy_low) + 1)
        for busy_low, busy_high in _BUSY_ASTRAL
    )


def _busy(low: int, high: int) -> bool:
    return any(low <= busy_high and busy_low <= high for busy_low, busy_high in _BUSY_ASTRAL)


def _bmp(chars: Iterable[str]) -> list[str]:
    return [c for c in chars if c < "\U00010000"]


def _fast(
    spaces: list[str], odd: list[str], unusual: list[str], mark: str, spaced: bool
) -> re.Pattern[str]:
    """One piece per whitespace run, cluster on a space, irregular character (+ marks), or
    unusual character (then the caller takes another path). Text on this path has no astral
    mark or irregular character, so the classes are BMP only."""
    space = _char_class(_bmp(spaces))
    run = rf"(?:{space}(?!{mark}))"
    not_space = _char_class(_bmp(c for c in spaces if c != " "))
    tails = (
        rf"(?<={space}){mark}+|(?<={not_space}){run}*|(?<= ){run}+"
        rf"|(?<={_char_class(_bmp(odd))}){mark}*|(?<={_char_class(unusual)})"
    )
    starts = _char_class(c for c in _bmp([*spaces, *odd, *unusual]) if spaced or c != " ")
    return re.compile(rf"({starts}(?:{tails}))")


def _slow(spaces: list[str], odd: list[str], composing: list[str], mark: str) -> re.Pattern[str]:
    """For visible text (invisible characters removed): composed clusters too."""
    space = _char_class(spaces)
    run = rf"(?:{space}(?!{mark}))"
    not_space = _char_class(c for c in spaces if c != " ")
    tails = (
        rf"(?<={space}){mark}+|(?<={not_space}){run}*|(?<= ){run}+|(?<={_char_class(odd)}){mark}*"
    )
    starts = _char_class([*spaces, *odd], any_astral=True)
    composed = rf".{mark}*{_char_class(composing)}{mark}*"
    return re.compile(rf"(?s)({composed}|{starts}(?:{tails}))")


def _regular(char: str, folded: str, composers: frozenset[str], case_sensitive: bool) -> bool:
    """Folds to one character, cannot combine with the character before it, and is left alone
    by NFKC (before and after case folding): a stretch of such characters passes NFKC's quick
    check, which is what makes folding it fast. (NFKC rewrites a whole string once one
    character fails the check: a single full-width comma made a 20 KB text 30x slower.)"""
    if char in composers or len(folded) != 1 or folded in composers or is_mark(folded):
        return False
    if unicodedata.normalize("NFKC", char) != char:
        return False
    if not case_sensitive:
        lowered = char.casefold()
        if unicodedata.normalize("NFKC", lowered) != lowered:
            return False
    decomposed = unicodedata.normalize("NFKD", char)
    return not decomposed or unicodedata.combining(decomposed[0]) == 0


def _backward_composers(chars: list[str]) -> frozenset[str]:
    """Characters that canonical composition merges into the character before them: second
    halves of primary composites (those NFC recomposes), and Hangul vowel and final jamo."""
    found = {chr(cp) for cp in range(0x1161, 0x1176)} | {chr(cp) for cp in range(0x11A8, 0x11C3)}
    for char in chars:
        parts = unicodedata.decomposition(char).split()
        if len(parts) != 2 or parts[0].startswith("<"):
            continue
        if unicodedata.normalize("NFC", unicodedata.normalize("NFD", char)) == char:
            found.add(chr(int(parts[1], 16)))
    return frozenset(found)


def _char_class(chars: Iterable[str], any_astral: bool = False) -> str:
    """A regex class; with `any_astral`, only its BMP members plus every astral character."""
    codes = sorted({ord(c) for c in chars if not any_astral or c < "\U00010000"})
    ranges: list[tuple[int, int]] = []
    for code in codes:
        if ranges and code == ranges[-1][1] + 1:
            ranges[-1] = (ranges[-1][0], code)
        else:
            ranges.append((code, code))
    if any_astral:
        ranges.append((0x10000, 0x10FFFF))
    if not ranges:
        return "[^\\x00-\\U0010ffff]"  # matches nothing
    body = "".join(
        f"\\U{low:08x}" + (f"-\\U{high:08x}" if high > low else "") for low, high in ranges
    )
    return f"[{body}]"


INVISIBLE = re.compile(_negated_class(list(IGNORABLE_RANGES)))
INVISIBLE_BMP = re.compile(_char_class(chr(cp) for cp in IGNORABLE if cp < 0x10000))
