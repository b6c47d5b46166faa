from __future__ import annotations

import pytest

from reversible_mask.errors import DictionaryError, GuardConfigError
from reversible_mask.guardrail import ReversibleMaskGuardrail
from reversible_mask.settings import resolve_settings

from conftest import DICTIONARY, KEY


def test_params_from_constructor(guard: ReversibleMaskGuardrail) -> None:
    assert guard.masker.mask("Globex").startswith("[[CLIENTS_")
    assert guard.guardrail_name == "reversible-mask" and not guard.masker.key_per_scope


@pytest.mark.parametrize("value", [True, "true", "True"])
def test_key_per_scope(value: object) -> None:
    guard = ReversibleMaskGuardrail(
        guardrail_name="g", dictionary_path=str(DICTIONARY), org_key=KEY, key_per_scope=value
    )
    masker = guard.masker
    assert masker.key_per_scope
    assert masker.mask("Globex", masker.target("standard")) != masker.mask(
        "Globex", masker.target("strict")
    )


def test_bad_key_per_scope_is_a_start_up_error() -> None:
    with pytest.raises(GuardConfigError, match="key_per_scope must be true or false"):
        ReversibleMaskGuardrail(
            guardrail_name="g", dictionary_path=str(DICTIONARY), org_key=KEY, key_per_scope="yes"
        )


def test_unknown_litellm_params_are_accepted() -> None:
    guard = ReversibleMaskGuardrail(
        guardrail_name="g", dictionary_path=str(DICTIONARY), org_key=KEY, api_base=None, foo=1
    )
    assert guard.masker.scopes


def test_floor_version_reads_its_entry_from_the_loaded_proxy_config(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """1.80.15/16 construct custom guardrails with three kwargs only."""
    from litellm.proxy import proxy_server

    entry = {
        "guardrail_name": "mine",
        "litellm_params": {
            "dictionary_path": str(DICTIONARY),
            "org_key": KEY,
            "key_per_scope": True,
        },
    }
    monkeypatch.setattr(proxy_server.proxy_config, "config", {"guardrails": [entry]}, raising=False)
    guard = ReversibleMaskGuardrail(guardrail_name="mine", event_hook=["pre_call"], default_on=True)
    assert guard.masker.mask("Globex") != "Globex" and guard.masker.key_per_scope


def test_env_fallback_and_os_environ_reference() -> None:
    env = {"GUARD_DICTIONARY_PATH": str(DICTIONARY), "MY_KEY": KEY}
    settings = resolve_settings({"org_key": "os.environ/MY_KEY"}, "g", list, env)
    assert settings.dictionary_path == str(DICTIONARY) and settings.org_key == KEY.encode()
    assert settings.key_per_scope is False


@pytest.mark.parametrize(
    ("params", "env", "message"),
    [
        ({"org_key": KEY}, {}, "dictionary_path is not set"),
        ({"dictionary_path": "x"}, {}, "org_key is required"),
        ({"dictionary_path": "x", "org_key": "short"}, {}, "at least 32"),
        ({"dictionary_path": "x", "org_key": " " + KEY}, {}, "whitespace"),
        ({"dictionary_path": "x", "org_key": "os.environ/NOPE"}, {}, "NOPE, which is not set"),
    ],
)
def test_bad_settings_are_clear_start_up_errors(params: dict, env: dict, message: str) -> None:
    with pytest.raises(GuardConfigError, match=message):
        resolve_settings(params, "g", list, env)


def test_missing_dictionary_fails_construction(tmp_path) -> None:  # noqa: ANN001
    with pytest.raises(DictionaryError, match="not found"):
        ReversibleMaskGuardrail(
            guardrail_name="g", dictionary_path=str(tmp_path / "x.yaml"), org_key=KEY
        )


def test_config_errors_are_not_the_kinds_newer_proxies_skip() -> None:
    """LiteLLM >= 1.104.5 starts without a guardrail whose constructor raises ValueError or
    TypeError; a configuration error must stop the proxy instead."""
    assert not issubclass(GuardConfigError, (ValueError, TypeError))
    assert not issubclass(DictionaryError, (ValueError, TypeError))


def test_bad_configuration_prints_one_line_naming_the_fix(tmp_path, capsys) -> None:  # noqa: ANN001
    broken = tmp_path / "broken.yaml"
    broken.write_text("categories:\n  clients: [Acme\n", encoding="utf-8")
    with pytest.raises(DictionaryError):
        ReversibleMaskGuardrail(guardrail_name="g", dictionary_path=str(broken), org_key=KEY)
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("reversible_mask: the proxy cannot start: dictionary file")
    assert "fix the file" in lines[0]


def test_a_route_guard_that_cannot_be_installed_stops_the_proxy(monkeypatch, capsys) -> None:  # noqa: ANN001
    import reversible_mask.startup as adapter

    def broken(mode: str, mask_body: object) -> bool:
        raise ValueError("no app")  # the kind LiteLLM would skip

    monkeypatch.setattr(adapter, "install_route_guard", broken)
    with pytest.raises(GuardConfigError, match="route guard could not be put in front"):
        ReversibleMaskGuardrail(guardrail_name="g", dictionary_path=str(DICTIONARY), org_key=KEY)
    assert capsys.readouterr().err.startswith("reversible_mask: the proxy cannot start: ")
