"""Start-up: the masker and settings from the proxy's configuration, the route guard in front
of the proxy's app, and the package's own log level. Every failure here stops the proxy with
one line on stderr (see GuardConfigError for why it must never be a ValueError)."""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable
from typing import Any

from .dictionary import load_dictionary
from .engine import Masker
from .errors import GuardConfigError
from .proxy_routes import install_route_guard
from .settings import Settings, log_level, resolve_settings

log = logging.getLogger("reversible_mask")


def _proxy_guardrail_entries() -> list[Any]:
    """The proxy's loaded, env-resolved config (1.80.15/16 do not pass custom params)."""
    try:
        from litellm.proxy.proxy_server import proxy_config

        return list((getattr(proxy_config, "config", None) or {}).get("guardrails") or [])
    except Exception:  # noqa: BLE001 - not running inside a proxy: fall back to env
        return []


def debug_logging_on() -> bool:
    import litellm
    from litellm._logging import verbose_logger, verbose_proxy_logger

    return bool(getattr(litellm, "set_verbose", False)) or any(
        logger.isEnabledFor(logging.DEBUG) for logger in (verbose_logger, verbose_proxy_logger)
    )


def _apply_log_level(level: int | None) -> None:
    """GUARD_LOG_LEVEL: this package's own lines (never request text) on stderr, at that level,
    without turning on LiteLLM's debug log (which writes raw request bodies)."""
    if level is None:
        return
    log.setLevel(level)
    if not any(getattr(h, "reversible_mask", False) for h in log.handlers):
        handler = logging.StreamHandler(sys.stderr)
        handler.reversible_mask = True  # type: ignore[attr-defined]
        handler.setFormatter(logging.Formatter("%(levelname)s %(message)s"))
        log.addHandler(handler)
        log.propagate = False


def _stop(error: GuardConfigError) -> GuardConfigError:
    print(f"reversible_mask: the proxy cannot start: {error.one_line()}", file=sys.stderr)
    sys.stderr.flush()
    return error


def guard_routes(
    mode: str,
    mask_body: Callable[[dict, Any], None],
    refused: Callable[[str], None],
) -> None:
    """The route guard is part of failing closed: a proxy it cannot be put in front of does
    not start (whatever the error, which LiteLLM might otherwise skip as a ValueError)."""
    try:
        install_route_guard(mode, mask_body, refused)
    except Exception as error:  # noqa: BLE001 - any failure here must stop the proxy
        raise _stop(
            GuardConfigError(
                f"the route guard could not be put in front of this proxy's app ({error!r}); "
                "this LiteLLM version is not supported: use a tested one (guardrail README)"
            )
        ) from error


def configured(given: dict[str, Any], guardrail_name: str | None) -> tuple[Masker, Settings]:
    """The masker and settings, or one line on stderr and an error that stops the proxy's
    start-up (see GuardConfigError for why it must not be a ValueError)."""
    try:
        _apply_log_level(log_level())
        settings = resolve_settings(given, guardrail_name, _proxy_guardrail_entries)
        dictionary = load_dictionary(settings.dictionary_path)
    except GuardConfigError as error:
        raise _stop(error) from None
    return Masker(dictionary, settings.org_key, settings.key_per_scope), settings
