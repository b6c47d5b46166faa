"""Start-up parameters: `dictionary_path`, `org_key` and `key_per_scope`, wherever the proxy
version puts them.

* LiteLLM >= 1.80.17 / 1.81.0 passes custom `litellm_params` to the constructor (PR #18978).
* 1.80.15 / 1.80.16 pass only guardrail_name, event_hook and default_on; the same entry is then
  read from the proxy's loaded config (`proxy_config.config["guardrails"]`, already resolved for
  `os.environ/...` references), and last from env GUARD_DICTIONARY_PATH / GUARD_ORG_KEY.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .errors import GuardConfigError
from .routes import MODES

MIN_KEY_CHARS = 32
ENV_PREFIX = "os.environ/"


PARAMS = ("dictionary_path", "org_key", "key_per_scope", "unguarded_routes")


@dataclass(frozen=True)
class Settings:
    dictionary_path: str
    org_key: bytes
    key_per_scope: bool = False
    unguarded_routes: str = "refuse"


def resolve_settings(
    given: Mapping[str, Any],
    guardrail_name: str | None,
    proxy_entries: Callable[[], list[Any]],
    env: Mapping[str, str] = os.environ,
) -> Settings:
    missing = not given.get("dictionary_path") or not given.get("org_key")
    entry = _entry_params(proxy_entries(), guardrail_name) if missing else {}
    path = given.get("dictionary_path") or entry.get("dictionary_path")
    key = given.get("org_key") or entry.get("org_key") or env.get("GUARD_ORG_KEY")
    path = path or env.get("GUARD_DICTIONARY_PATH")
    if not path:
        raise GuardConfigError(
            f"guardrail {guardrail_name!r}: litellm_params.dictionary_path is not set; set it "
            "(or env GUARD_DICTIONARY_PATH) to your dictionary file, e.g. the example "
            "shim/litellm/dictionary.yaml"
        )
    per_scope = given.get("key_per_scope")
    if per_scope is None:
        per_scope = entry.get("key_per_scope")
    routes = given.get("unguarded_routes") or entry.get("unguarded_routes") or "refuse"
    return Settings(
        str(path),
        _org_key(key, guardrail_name, env),
        _flag(per_scope, guardrail_name),
        _unguarded(routes, guardrail_name),
    )


def _unguarded(value: Any, guardrail_name: str | None) -> str:
    if isinstance(value, str) and value.strip().lower() in MODES:
        return value.strip().lower()
    raise GuardConfigError(
        f"guardrail {guardrail_name!r}: unguarded_routes is {value!r}; set it to refuse (the "
        "default) or mask"
    )


def log_level(env: Mapping[str, str] = os.environ) -> int | None:
    """GUARD_LOG_LEVEL (DEBUG, INFO, WARNING, ERROR), None when unset."""
    name = env.get("GUARD_LOG_LEVEL", "").strip().upper()
    if not name:
        return None
    if name not in ("DEBUG", "INFO", "WARNING", "ERROR"):
        raise GuardConfigError(
            f"GUARD_LOG_LEVEL is {name!r}; set it to DEBUG, INFO, WARNING or ERROR, or unset it"
        )
    return int(logging.getLevelName(name))


def _flag(value: Any, guardrail_name: str | None) -> bool:
    if value is None or isinstance(value, bool):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    raise GuardConfigError(
        f"guardrail {guardrail_name!r}: key_per_scope must be true or false, not {value!r}"
    )


def _entry_params(entries: list[Any], guardrail_name: str | None) -> dict[str, Any]:
    for entry in entries:
        if isinstance(entry, dict) and entry.get("guardrail_name") == guardrail_name:
            params = entry.get("litellm_params")
            if isinstance(params, dict):
                return {k: params.get(k) for k in PARAMS}
    return {}


def _org_key(value: Any, guardrail_name: str | None, env: Mapping[str, str]) -> bytes:
    if isinstance(value, str) and value.startswith(ENV_PREFIX):
        variable = value[len(ENV_PREFIX) :]
        value = env.get(variable)
        if not value:
            raise GuardConfigError(
                f"guardrail {guardrail_name!r}: org_key refers to env {variable}, which is not set"
            )
    if not value:
        raise GuardConfigError(
            f"guardrail {guardrail_name!r}: litellm_params.org_key is required, e.g. "
            "org_key: os.environ/GUARD_ORG_KEY (generate one with: openssl rand -hex 32)"
        )
    if not isinstance(value, str) or len(value) < MIN_KEY_CHARS or value != value.strip():
        raise GuardConfigError(
            f"guardrail {guardrail_name!r}: org_key must be a string of at least {MIN_KEY_CHARS} "
            "characters without surrounding whitespace (generate one with: openssl rand -hex 32)"
        )
    return value.encode("utf-8")
