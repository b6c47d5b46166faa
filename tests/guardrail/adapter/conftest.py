"""Adapter tests run inside each pinned LiteLLM venv (.venvs/litellm-<version>)."""

from __future__ import annotations

from pathlib import Path

import pytest

from reversible_mask.guardrail import ReversibleMaskGuardrail

DICTIONARY = Path(__file__).resolve().parents[3] / "shim" / "litellm" / "dictionary.yaml"
KEY = "adapter-test-org-key-0123456789abcdef"
NEEDLES = ("acme", "globex", "bluebird", "skyhook", "initech")


@pytest.fixture
def guard() -> ReversibleMaskGuardrail:
    return ReversibleMaskGuardrail(
        guardrail_name="reversible-mask",
        event_hook=["pre_call", "post_call"],
        default_on=True,
        dictionary_path=str(DICTIONARY),
        org_key=KEY,
    )


def clean(text: str, needles: tuple[str, ...] = NEEDLES) -> bool:
    lowered = text.lower()
    return not [n for n in needles if n in lowered]


async def masked_chat(
    guard: ReversibleMaskGuardrail, text: str, **extra: object
) -> tuple[str, dict]:
    """Runs the pre-call hook on a one-message chat request: (provider text, request data)."""
    data = {"model": "m", "messages": [{"role": "user", "content": text}], "metadata": {}, **extra}
    await guard.async_pre_call_hook(None, None, data, "acompletion")
    return data["messages"][0]["content"], data


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"
