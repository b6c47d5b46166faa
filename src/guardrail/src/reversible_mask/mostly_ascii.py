"""Cheaper routes to the same view for text that is mostly ASCII, each one checked to reach
the pieces the general route would: ASCII text is read with byte tables and one ASCII split;
Latin-1 text whose only irregular character is one kind ("ß") is split with `str.split`; emoji
text is encoded to UTF-8 once, its non-ASCII characters (the bytes above 127) are checked
apart, and when they all fold to themselves and none starts a piece, its fold lowers the ASCII
letters by a byte table.
"""

from __future__ import annotations

import re
import unicodedata

from .fold_tables import INVISIBLE, SENTINEL, Tables, fold_ascii
from .piece_fold import DOUBLE_SPACE, offsets, split_view, stripped_view
from .text_view import TextView

_ASCII_SPACE = "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f "
_DOUBLE_SPACE_UTF8 = re.compile(b"  ")  # `b"  " in data` is three times slower
_SENTINEL_BYTE = SENTINEL.encode("ascii")
_JOINER, _PRESENTATION = "\u200d", "\ufe0f"  # zero-width joiner, variation selector 16
_ASCII_BYTES = bytes(range(128))
_ASCII_LOWER = bytes.maketrans(bytes(range(65, 91)), bytes(range(97, 123)))
# A lone ASCII whitespace character folds to one space, one to one: text whose whitespace
# characters stand alone (paragraphs, tabs) views as if they were spaces. Latin-1 has no mark
# that could follow one and change its fold.
_OTHER_SPACES = _ASCII_SPACE[:-1]
_AS_SPACES_BYTES = bytes.maketrans(_OTHER_SPACES.encode(), b" " * len(_OTHER_SPACES))
# The same, and ASCII letters lowered unless case-sensitive: the view of regular ASCII text.
_PLAIN = {
    False: bytes.maketrans(
        _OTHER_SPACES.encode() + bytes(range(65, 91)),
        b" " * len(_OTHER_SPACES) + bytes(range(97, 123)),
    ),
    True: _AS_SPACES_BYTES,
}
# The same pieces as the Unicode patterns of fold_tables, for ASCII text (keyed by: has "  ").
_ASCII_SPLIT = {
    spaced: re.compile(
        rf"([\x00\t-\r\x1c-\x1f{' ' if spaced else ''}]"
        rf"(?:(?<=\x00)|(?<=[\t-\r\x1c-\x1f])[{_ASCII_SPACE}]*|(?<= )[{_ASCII_SPACE}]+))"
    )
    for spaced in (False, True)
}


def ascii_view(text: str, case_sensitive: bool) -> TextView:
    """The view of an ASCII text: `plain_ascii` when it applies; else cut by one ASCII split."""
    plain = plain_ascii(text, case_sensitive)
    if plain is not None:
        return TextView(text, plain.decode("ascii"))
    spaced = DOUBLE_SPACE.search(text) is not None
    pieces = _ASCII_SPLIT[spaced].split(text)
    return split_view(text, text, case_sensitive, pieces, spaced, fold_ascii, None, None)


def plain_ascii(text: str, case_sensitive: bool) -> bytes | None:
    """The folded view of an ASCII text, as bytes, when it is one character for one: lone
    whitespace read as spaces leaves no run of spaces (nor the sentinel); the text so read and
    lowered, one byte table over its bytes. None otherwise."""
    plain = text.encode("ascii").translate(_PLAIN[case_sensitive])
    if _DOUBLE_SPACE_UTF8.search(plain) is None and _SENTINEL_BYTE not in plain:
        return plain
    return None


def latin1_pieces(text: str, tables: Tables) -> list[str] | None:
    """The fast pattern's pieces of a Latin-1 text without a run of spaces whose irregular
    characters are all one character that is a piece of its own (such as "ß" in German), once
    lone ASCII whitespace is read as spaces (`_AS_SPACES_BYTES`): one C split instead of a regex
    scan. Latin-1 has no combining marks, so such a piece never takes a tail. The pieces are
    of that plain text, the same length as `text`. None for any other text."""
    try:
        data = text.encode("latin-1")
    except UnicodeEncodeError:
        return None
    # A whitespace run keeps its characters, none of them a piece of its own: None below.
    plain = lone_spaces(data)
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


def astral_view(text: str, case_sensitive: bool, tables: Tables) -> TextView:
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
        return stripped_view(text, case_sensitive, tables, INVISIBLE.split(text), slow=True)
    unchanged = case_sensitive or others.casefold() == others
    fold = _fold_ascii_letters if unchanged and unicodedata.is_normalized("NFKC", others) else None
    plain = data if tables.mark.search(others) else lone_spaces(data)
    if fold is None or not one_piece(plain, others, tables):
        return stripped_view(text, case_sensitive, tables, chunks, partial=True, fold=fold)
    # No piece starts anywhere: the fast pattern would not cut it, one regular stretch whose
    # fold lowers ASCII letters only (`_fold_ascii_letters`, on the bytes at hand).
    folded = (plain if case_sensitive else plain.translate(_ASCII_LOWER)).decode(
        "utf-8", "surrogatepass"
    )
    kept, at = offsets(chunks)
    if kept is None:
        return TextView(text, folded)
    return TextView(text, folded, visible, kept=kept, at=at)


def lone_spaces(data: bytes) -> bytes:
    """Latin-1 or UTF-8 text without combining marks (one after a whitespace character would
    change its fold) with its lone ASCII whitespace read as spaces (`_AS_SPACES_BYTES`); with a
    whitespace run, the text as it is."""
    plain = data.translate(_AS_SPACES_BYTES)
    return data if _DOUBLE_SPACE_UTF8.search(plain) else plain


def one_piece(data: bytes, others: str, tables: Tables) -> bool:
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
