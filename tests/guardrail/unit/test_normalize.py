"""The fast view agrees with the reference definition on arbitrary text (hypothesis)."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from reversible_mask.normalize import view
from reversible_mask.text_view import reference_view

# Characters that exercise every branch: whitespace of several kinds, invisible characters,
# stable and composing marks, characters whose fold has another length, Hangul jamo,
# half-width kana with its voiced mark, astral letters, emoji, tags, the split sentinel.
TRICKY = (
    "aAbzß ﬁ\u00a0\u3000\u2028\n\t\r\u000b  é\u0301e\u0323\u0915\u093c\u093f\u0e31"
    "ＡＣ\ufe0f❤\u200d\u200b\u00ad\u2060\ufeff\u034f👨🏽가\u1100\u1161\u11a8ｶﾞ\uff9e"
    "İΣς¨\x00x\U00011038\U0001d400\U0001f130\U0001f200\U000e0041\U0001bca0\U000110ba"
)
LATIN1 = st.characters(max_codepoint=0xFF)  # folded by one table lookup per character
# Chat and German text is mostly ASCII with sparse other characters: emoji text whose other
# characters all fold to themselves takes one piece (ASCII letters lowered by a byte table),
# Latin-1 text with one kind of irregular character ("ß") is cut by a string split. BOUNDARY
# holds what changes or merges at the edge of such a stretch: an ASCII letter and a combining
# mark, ZWJ sequences, a ligature, "ß", full-width letters, Turkish I, sigma, whitespace, ...
CLEAN = [
    "Acme",
    "corp",
    "the ",
    "Launch",
    " ",
    " ",
    "ok!",
    "x",
    "für",
    "Straße",
    "GmbH",
    "ä",
]
EMOJI = [
    "🎉",
    "🙏🏽",
    "👍",
    "❤\ufe0f",
    "👨\u200d👩\u200d👧",
    "\u200d",
    "\ufe0f",
    "🚀",
    "✨",
]
BOUNDARY = [
    "e\u0301", "A\u0308", "\u0301", "\u0316", "ﬁ", "ß", "ẞ", "ＡＢ", "İ", "ı", "Σ", "ς", "ΟΔΟΣ",
    "\u00a0", "\n", "\t ", "  ", "\x00", "\u00ad", "\u200b", "ª", "½", "Ä", "É", "\U0001d400",
    "\U0001f130", "\U000e0041", "\u1100\u1161", "ｶﾞ", "\u0915\u093c", "가", "\ud800",
]  # fmt: skip
stretches = st.one_of(
    st.lists(st.sampled_from(CLEAN + EMOJI), max_size=10).map("".join),
    st.lists(st.sampled_from(CLEAN), max_size=10).map("".join),
    st.lists(st.sampled_from(CLEAN + EMOJI + BOUNDARY), max_size=8).map("".join),
    st.lists(st.sampled_from(CLEAN + ["ª", "½", "\x00", "\xa0", "\n"]), max_size=8).map("".join),
    # paragraphs: lone line breaks and tabs between words, emoji, marks
    st.lists(st.sampled_from(CLEAN + EMOJI + BOUNDARY + ["\n", "\t", "\r\n"]), max_size=10).map(
        "".join
    ),
)
texts = st.one_of(
    st.text(alphabet=TRICKY, max_size=24),
    st.text(max_size=24),
    st.text(LATIN1, max_size=24),
    stretches,
)
SETTINGS = settings(
    max_examples=int(os.environ.get("VIEW_EXAMPLES", "600")),  # more, once, before a commit
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def _spans(text: str, case_sensitive: bool) -> tuple[str, dict, dict]:
    fast, slow = view(text, case_sensitive), reference_view(text, case_sensitive)
    fast_spans, slow_spans = {}, {}
    for start in range(len(slow.folded)):
        for end in range(start + 1, len(slow.folded) + 1):
            # Terms never start or end with whitespace: those spans are not compared.
            if slow.folded[start] == " " or slow.folded[end - 1] == " ":
                continue
            fast_spans[start, end] = fast.span(start, end)
            slow_spans[start, end] = slow.span(start, end)
    assert fast.folded == slow.folded, (text, fast.folded, slow.folded)
    return fast.folded, fast_spans, slow_spans


@SETTINGS
@given(texts, st.booleans())
@example("Acme \u200b\n Corp", False)
@example("  \n\n\ufe0fＣ\u00a0Σि", False)
@example("\u0301abc", False)
@example("👨\u200d👩 ❤\ufe0f Acme", False)  # emoji: only joiners and selectors cut out
@example("👨\u200d👩 Ac\u200bme\ufe0f \u200b\u200d x", False)  # another invisible one: all
@example("🎉 Acme e\u0301 corp", False)  # an ASCII letter and a combining mark
@example("🎉 Ae\u0316\u200d\u0301 x", False)  # marks made adjacent by cutting a joiner
@example("🎉 ﬁle Straße ＡＣＭＥ İstanbul ΟΔΟΣ ς", False)
@example("🎉 ﬁle Straße ＡＣＭＥ İstanbul ΟΔΟΣ ς", True)
@example("🎉 \u200d \ufe0f x", False)  # a run of spaces once the joiner is cut
@example("Straße außen", False)  # one kind of irregular character: a string split
@example("Straße ª", False)
@example("Straße\x00ß", True)
@example("Acme\nCorp said\tyes\r\nok", False)  # lone whitespace read as spaces; a run is not
@example("Straße\nAcme GmbH\tß", False)  # Latin-1 with line breaks: still one string split
@example("Straße \nß\n\nx\x00\ty", True)
@example("great 🎉\njob ❤ Acme\tCorp", False)  # emoji text with lone line breaks
@example("great 🎉\n\u0316job \n❤", False)  # a mark after a line break: as it is
def test_fast_view_equals_the_reference(text: str, case_sensitive: bool) -> None:
    _, fast, slow = _spans(text, case_sensitive)
    assert fast == slow


@SETTINGS
@given(st.text(alphabet=TRICKY, min_size=200, max_size=600))
def test_long_mixed_texts_agree(text: str) -> None:
    assert view(text, False).folded == reference_view(text, False).folded


@SETTINGS
@given(
    st.lists(st.sampled_from(CLEAN + EMOJI + BOUNDARY), min_size=50, max_size=150),
    st.booleans(),
)
def test_long_stretchy_texts_agree(words: list[str], case_sensitive: bool) -> None:
    text = "".join(words)
    assert view(text, case_sensitive).folded == reference_view(text, case_sensitive).folded


@SETTINGS
@given(st.text(LATIN1, min_size=200, max_size=600), st.booleans())
def test_long_latin1_texts_agree(text: str, case_sensitive: bool) -> None:
    assert view(text, case_sensitive).folded == reference_view(text, case_sensitive).folded


def test_every_latin1_character_folds_as_defined() -> None:
    for code in range(1, 0x100):
        text = f"x{chr(code) * 3} é{chr(code)}"  # non-ASCII: the Latin-1 path
        for case_sensitive in (False, True):
            fast, slow = (
                view(text, case_sensitive),
                reference_view(text, case_sensitive),
            )
            assert fast.folded == slow.folded, (code, case_sensitive)


def test_the_definition_on_examples() -> None:
    assert view("ACME\u200b  Co\u00adrp\n", False).folded == "acme corp "
    assert view("ＡＣＭＥ\u3000Corp", False).folded == "acme corp"
    assert view("Straße", False).folded == "strasse"
    assert view("Straße", True).folded == "Straße"
    assert view("e\u0301", False).folded == "é"
    assert view("a\ufe0f\u200db", False).folded == "ab"
    assert view("🎉 ﬁle Straße ＡＣＭＥ", False).folded == "🎉 file strasse acme"
    assert view("🎉 ΟΔΟΣ İ", False).folded == reference_view("🎉 ΟΔΟΣ İ", False).folded
    assert view("👨\u200d👩 Acme\ufe0f", False).folded == "👨👩 acme"


@SETTINGS
@given(st.text(alphabet="aZ \t\n\r\x0b\x0c\x1c\x1f\x00_", max_size=24), st.booleans())
@example("Acme\x1c\nCorp", False)  # two lone-whitespace characters make a run
@example("Acme\x1fCorp\x00", True)
def test_ascii_view_equals_the_reference(text: str, case_sensitive: bool) -> None:
    """ASCII text: one byte table reads lone whitespace as spaces and lowers the letters; any
    run of whitespace or the sentinel sends it to the split."""
    _, fast, slow = _spans(text, case_sensitive)
    assert fast == slow
