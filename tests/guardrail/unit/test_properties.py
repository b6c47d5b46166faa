"""Property tests: round trip, no term survives masking, any chunking unmasks the same."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reversible_mask import Masker, StreamUnmasker, parse_dictionary
from reversible_mask.placeholder import PATTERN

from conftest import KEY

LETTERS = "abcAB ßéÉ\u0301-"
terms = st.text(alphabet="abcABé", min_size=1, max_size=6).filter(lambda t: t.strip() == t)
noise = st.text(alphabet=LETTERS + "[]_.x2", max_size=8)


@st.composite
def dictionaries(draw: st.DrawFn) -> Masker:
    whole_word = draw(st.booleans())
    case_sensitive = draw(st.booleans())
    words = draw(st.lists(terms, min_size=1, max_size=8, unique_by=str.casefold))
    document = {
        "categories": {
            "cat": {"whole_word": whole_word, "case_sensitive": case_sensitive, "terms": words}
        }
    }
    try:
        return Masker(parse_dictionary(document), KEY)
    except ValueError:  # two spellings fold to the same key
        return Masker(parse_dictionary({"categories": {"cat": ["fallback"]}}), KEY)


@st.composite
def masker_and_text(draw: st.DrawFn) -> tuple[Masker, str]:
    masker = draw(dictionaries())
    forms = [f for e in masker.dictionary.entities for f in e.forms]
    pieces = draw(st.lists(st.one_of(st.sampled_from(forms), noise), max_size=12))
    separators = draw(
        st.lists(st.sampled_from(["", " ", "x", "["]), min_size=len(pieces), max_size=len(pieces))
    )
    return masker, "".join(p + s for p, s in zip(pieces, separators, strict=True))


SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(masker_and_text())
def test_unmask_of_mask_is_identity(case: tuple[Masker, str]) -> None:
    masker, text = case
    assert masker.unmask(masker.mask(text)) == text


@SETTINGS
@given(masker_and_text())
def test_masking_is_idempotent(case: tuple[Masker, str]) -> None:
    masker, text = case
    once = masker.mask(text)
    assert masker.mask(once) == once


@SETTINGS
@given(masker_and_text())
def test_no_substring_term_survives_outside_placeholders(case: tuple[Masker, str]) -> None:
    masker, text = case
    entity = masker.dictionary.entities[0]
    if entity.whole_word or entity.case_sensitive:
        return  # the independent check below is plain case-insensitive substring search
    masked = masker.mask(text)
    for segment in PATTERN.split(masked)[::4]:
        folded = segment.casefold()
        for e in masker.dictionary.entities:
            for form in e.forms:
                if form.isascii() and segment.isascii():
                    assert form.casefold() not in folded, (text, masked, form)


@SETTINGS
@given(masker_and_text(), st.lists(st.integers(min_value=0, max_value=400), max_size=12))
def test_any_chunking_of_a_masked_stream_unmasks_the_same(
    case: tuple[Masker, str], cuts: list[int]
) -> None:
    masker, text = case
    masked = masker.mask(text)
    points = sorted({min(c, len(masked)) for c in cuts} | {0, len(masked)})
    stream = StreamUnmasker(masker)
    out = "".join(stream.feed(masked[a:b]) for a, b in zip(points, points[1:], strict=False))
    assert out + stream.flush() == text
