from __future__ import annotations

from pathlib import Path

import pytest

from reversible_mask import Masker, Registry, load_dictionary, parse_dictionary

KEY = b"unit-test-org-key-0123456789abcdef"
EXAMPLE = Path(__file__).resolve().parents[3] / "shim" / "litellm" / "dictionary.yaml"


@pytest.fixture(scope="session")
def masker() -> Masker:
    return Masker(load_dictionary(EXAMPLE), KEY)


def make(
    categories: dict, scopes: dict | None = None, key: bytes = KEY, key_per_scope: bool = False
) -> Masker:
    document: dict = {"categories": categories}
    if scopes is not None:
        document |= {"scopes": scopes, "default_scope": next(iter(scopes))}
    return Masker(parse_dictionary(document), key, key_per_scope)


def request(masker: Masker, text: str, scope: str | None = None) -> tuple[str, Registry]:
    """Masks like a request's pre-call hook: returns the provider's text and the registry."""
    registry = Registry()
    return masker.mask(text, masker.target(scope), registry), registry


def round_trip(masker: Masker, text: str) -> str:
    masked, registry = request(masker, text)
    return masker.unmask(masked, registry)
