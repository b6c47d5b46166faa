"""Dictionary hot reload through the adapter: the next request uses the new dictionary, a request
in flight during the change is restored exactly, a broken file keeps the last good one."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from litellm import ModelResponse

from reversible_mask.guardrail import ReversibleMaskGuardrail

from conftest import KEY, masked_chat

pytestmark = pytest.mark.anyio

FIRST = "version: 1\ncategories:\n  clients: [Globex]\n"
SECOND = "version: 1\ncategories:\n  clients: [Initech]\n"


def write(path: Path, text: str, step: int) -> None:
    path.write_text(text, encoding="utf-8")
    os.utime(path, (1_700_000_000 + step, 1_700_000_000 + step))


@pytest.fixture
def reloading(tmp_path: Path) -> tuple[ReversibleMaskGuardrail, Path]:
    path = tmp_path / "dictionary.yaml"
    write(path, FIRST, 0)
    guard = ReversibleMaskGuardrail(
        guardrail_name="g", event_hook=["pre_call", "post_call"], default_on=True,
        dictionary_path=str(path), org_key=KEY,
    )  # fmt: skip
    guard.watch.interval = 0.0  # every request checks the file
    return guard, path


def reply(text: str) -> ModelResponse:
    message = {"role": "assistant", "content": text}
    return ModelResponse(choices=[{"index": 0, "finish_reason": "stop", "message": message}])


async def test_the_next_request_uses_the_changed_dictionary(reloading) -> None:  # noqa: ANN001
    guard, path = reloading
    before, in_flight = await masked_chat(guard, "Globex and Initech")
    assert "Globex" not in before and "Initech" in before
    write(path, SECOND, 1)
    after, _ = await masked_chat(guard, "Globex and Initech")
    assert "Globex" in after and "Initech" not in after
    restored = await guard.async_post_call_success_hook(in_flight, None, reply(before))
    assert restored.choices[0].message.content == "Globex and Initech"


async def test_a_broken_dictionary_keeps_the_last_good_one(reloading) -> None:  # noqa: ANN001
    guard, path = reloading
    write(path, "categories: [", 1)
    masked, _ = await masked_chat(guard, "Globex")
    assert "Globex" not in masked
