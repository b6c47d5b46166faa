"""The logging side's shortcuts (memo.py, `Masker.log_mask`): what they answer without a scan
must be exactly what a scan answers, and a text known clean never shields an original that
sits beside it, inside it or in another value of the same payload."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from reversible_mask import Masker, Registry
from reversible_mask.log_copier import Copier
from reversible_mask.log_copies import masked_call_details
from reversible_mask.memo import MIN_CHARS

from conftest import request

NEEDLES = ("acme", "globex", "bluebird", "skyhook", "initech")
TERMS = ["Acme Corp", "ACME", "Globex", "Project Bluebird", "Skyhook", "Initech", "acme corp"]
FILLER = "The quarterly report shows steady growth across all regions. "
LONG = (FILLER * 12 + "Acme Corp met Globex. ") * 2  # over MIN_CHARS, with terms


def clean(text: str) -> bool:
    lowered = text.lower()
    return not any(needle in lowered for needle in NEEDLES)


def test_the_long_fixture_is_long() -> None:
    assert len(LONG) >= MIN_CHARS


texts = st.lists(
    st.one_of(st.sampled_from(TERMS), st.sampled_from(["", " ", "\n", "ß", "ＡＣＭＥ", "[[X]]"]),
              st.text(max_size=12)),
    max_size=40,
).map("".join)  # fmt: skip


@settings(max_examples=200, deadline=None)
@given(text=texts, long=st.booleans())
def test_log_mask_answers_what_mask_answers(masker: Masker, text: str, long: bool) -> None:
    text = FILLER * 10 + text if long else text
    target = masker.target(None)
    log = masker.log_mask(target)
    assert log(text) == masker.mask(text, target)
    assert log(text) == log(log(text))  # answered from the memo now, and idempotent


def test_a_known_clean_text_never_shields_an_original_next_to_it(masker: Masker) -> None:
    log = masker.log_mask()
    masked, _ = request(masker, LONG)  # remembered as clean, by identity
    assert clean(masked) and log(masked) is masked
    for text in (
        masked + " Acme Corp",
        "Globex " + masked,
        masked.replace("steady", "Skyhook", 1),
        masked[: len(masked) // 2] + " Initech " + masked[len(masked) // 2 :],
    ):
        assert clean(log(text)), text
    short, _ = request(masker, "hello Globex")
    assert log(short) == short  # now a known short text
    assert clean(log(short + " Initech")) and clean(log("ACME " + short))


def test_an_equal_copy_of_a_known_clean_text_is_known_and_a_one_letter_change_is_not(
    masker: Masker,
) -> None:
    """A provider's echo or a decoded raw response equals the masked prompt in another object:
    found by length and one comparison. A text of the same length that differs in one
    character (here: the one that spells a term) is scanned."""
    log = masker.log_mask()
    masked, _ = request(masker, LONG)
    echo = "".join(list(masked))  # equal, not the same object
    assert echo is not masked and log(echo) is echo
    at = masked.index("steady")
    for twin in (masked[:at] + "Globex" + masked[at + 6 :], masked[:-5] + " ACME"):
        assert len(twin) == len(masked) and not clean(twin)
        assert clean(log(twin)), twin


def test_a_payload_of_known_clean_texts_and_originals_is_masked_everywhere(
    masker: Masker,
) -> None:
    masked, _ = request(masker, LONG)
    short, _ = request(masker, "Project Bluebird ships")
    payload = {
        "messages": [{"role": "user", "content": masked}],
        "copy": masked,
        "beside": [masked, "Acme Corp", short, "Skyhook"],
        "joined": masked + "Initech",
        "nested": {"a": (short, "globex"), "json": json.dumps({"q": [masked, "Globex"]})},
    }
    copied = Copier(masker.log_mask()).copy(payload, "payload")
    assert clean(json.dumps(copied))
    assert copied["messages"] is payload["messages"]  # known clean: shared, not copied
    assert copied["copy"] is masked


def test_a_restored_reply_logs_as_its_provider_text_masked(masker: Masker) -> None:
    """The logging form of a restored reply is the provider's text masked: its restored
    originals stay placeholders, and an original the provider wrote itself is masked."""
    log = masker.log_mask()
    for prefix in ("", FILLER * 10):
        provider, registry = request(masker, prefix + "Globex asked about Initech.")
        provider += " Acme Corp replied."  # the model wrote an original itself
        restored = masker.unmask(provider, registry)
        assert "Globex" in restored and "Acme Corp" in restored
        assert log(restored) == log(provider) and clean(log(restored))


def test_restoring_leaves_unknown_and_foreign_tokens(masker: Masker) -> None:
    masked, registry = request(masker, "Globex and Initech")
    foreign = "[[CLIENTS_aaaaaaaaaa]] [[CLIENTS_bbbbbbbbbb_cccccccc]] [[x]]"
    restored = masker.unmask(f"{masked} {foreign} {masked}", registry)
    assert restored == f"Globex and Initech {foreign} Globex and Initech"
    assert masker.unmask(masked, Registry()) == masked


def test_the_walk_answers_known_short_texts_with_their_masked_form(masker: Masker) -> None:
    """The walk reads the log mask's memo itself: a text seen before gets its masked form
    (never the text, never another text's), a clean one is shared, a short one is skipped."""
    log = masker.log_mask()
    dirty, other = "Globex said hello", "Initech said hello"
    first = log(dirty)  # now in the memo
    payload = {"a": dirty, "b": "all quiet here", "c": other, "d": "ok", "e": [dirty]}
    log(payload["b"])
    copied = Copier(log).copy(payload, "payload")
    assert copied["a"] == first != dirty and clean(copied["a"]) and clean(copied["e"][0])
    assert copied["c"] == log(other) != first and clean(copied["c"])
    assert copied["b"] is payload["b"] and copied["d"] is payload["d"]


class _Unreadable(dict):
    def items(self):  # type: ignore[override]
        raise RuntimeError("cannot be read")


def test_call_details_fail_open_field_by_field(masker: Masker) -> None:
    """All fields are copied in one pass; when that raises, field by field: only the field that
    cannot be read is left as it was, every other one is still masked."""
    log = masker.log_mask()
    broken = _Unreadable(note="Globex")
    kwargs = {"a": "Globex said hello", "broken": broken, "b": ["Initech said hello"]}
    masked = masked_call_details(kwargs, log, Copier(log))
    assert masked["broken"] is broken
    assert clean(masked["a"]) and clean(masked["b"][0])
