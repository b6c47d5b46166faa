"""Scopes bound by the operator: a caller may narrow (mask more), never widen (mask less)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from reversible_mask.errors import ScopeError, ScopeForbiddenError
from reversible_mask.scope import effective_scope, operator_scopes

SCOPES = {
    "standard": frozenset({"clients", "projects"}),
    "strict": frozenset({"clients", "projects", "people"}),
    "clients_only": frozenset({"clients"}),
    "people_only": frozenset({"people"}),
}


def categories_for(scope: str | None) -> frozenset[str]:
    if scope not in SCOPES:
        raise ScopeError(f"unknown guard scope {scope!r}")
    return SCOPES[scope]


def test_bindings_are_read_from_key_team_and_organization_metadata() -> None:
    caller = SimpleNamespace(
        metadata={"guard_scope": "strict"},
        team_metadata={"guard_scope": " standard "},
        organization_metadata=None,
    )
    assert operator_scopes(caller) == [("key", "strict"), ("team", "standard")]
    assert operator_scopes(None) == [] and operator_scopes(SimpleNamespace(metadata={})) == []


@pytest.mark.parametrize(
    ("requested", "bound", "expected"),
    [
        (None, [], None),
        ("standard", [], "standard"),
        (None, [("key", "strict")], "strict"),
        ("strict", [("key", "standard")], "strict"),  # narrowing: masks more
        ("standard", [("team", "standard")], "standard"),
        (None, [("key", "clients_only"), ("team", "standard")], "standard"),
    ],
)
def test_allowed(requested: str | None, bound: list, expected: str | None) -> None:
    assert effective_scope(requested, bound, categories_for) == expected


@pytest.mark.parametrize(
    ("requested", "bound"),
    [
        ("standard", [("key", "strict")]),
        ("clients_only", [("team", "standard")]),
        ("standard", [("key", "clients_only"), ("organization", "people_only")]),
        (None, [("key", "clients_only"), ("organization", "people_only")]),
    ],
)
def test_widening_or_conflicting_bindings_are_forbidden(requested: str | None, bound: list) -> None:
    with pytest.raises(ScopeForbiddenError):
        effective_scope(requested, bound, categories_for)


def test_an_undefined_scope_is_still_a_plain_scope_error() -> None:
    with pytest.raises(ScopeError) as raised:
        effective_scope("nope", [("key", "strict")], categories_for)
    assert not isinstance(raised.value, ScopeForbiddenError)
