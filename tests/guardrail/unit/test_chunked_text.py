from __future__ import annotations

import pytest

from reversible_mask import Masker, StreamUnmasker
from reversible_mask.chunked_text import viable_prefix

from conftest import make, request


def test_every_prefix_of_a_placeholder_is_viable(masker: Masker) -> None:
    for text in ["Globex", "Acme Corp", "ACME CORP"]:
        token = request(masker, text)[0]
        assert all(viable_prefix(token[:i]) for i in range(1, len(token)))


@pytest.mark.parametrize(
    "text",
    [
        "[a",
        "[[a",
        "[[CLIENTS-",
        "[[C_abc!",
        "[[C_aaaaaaaaaa]x",
        "[[C_aaaaaaaaaa_b]",
        "[[C_aaaaaaaaaa_" + "b" * 27,
        "[[C_aaaaaaaaaa_a1",
    ],
)
def test_non_placeholder_prefixes_are_not_held(text: str) -> None:
    assert not viable_prefix(text)


def test_holds_back_only_the_possible_placeholder(masker: Masker) -> None:
    stream = StreamUnmasker(masker, request(masker, "")[1])
    assert stream.feed("price [in EUR] is [") == "price [in EUR] is "
    assert stream.pending == "["
    assert stream.feed("x") == "[x"
    assert stream.pending == ""


def test_split_placeholder_is_emitted_whole_and_restored(masker: Masker) -> None:
    token, registry = request(masker, "Globex")
    stream = StreamUnmasker(masker, registry)
    outputs = [stream.feed(token[:5]), stream.feed(token[5:12]), stream.feed(token[12:] + " ok")]
    assert outputs == ["", "", "Globex ok"]


def test_flush_releases_an_unfinished_prefix(masker: Masker) -> None:
    stream = StreamUnmasker(masker, request(masker, "Globex")[1])
    assert stream.feed("tail [[CLIENTS_ab") == "tail "
    assert stream.flush() == "[[CLIENTS_ab"
    assert stream.flush() == ""


def test_json_stream_escapes_restored_text() -> None:
    masker = make({"a": {"whole_word": False, "terms": ['say "hi"']}})
    token, registry = request(masker, 'say "hi"')
    stream = StreamUnmasker(masker, registry, json_string=True)
    out = stream.feed('{"q": "' + token[:7]) + stream.feed(token[7:] + '"}') + stream.flush()
    assert out == '{"q": "say \\"hi\\""}'
