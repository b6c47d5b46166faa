"""The package's one error family. Each error carries a message meant for the operator or the
API client; `GuardError` catches any of them."""


class GuardError(Exception):
    """Any error this package raises on purpose."""

    reason = "refused"  # the metrics' label when it refuses a request


class GuardConfigError(GuardError, RuntimeError):
    """Start-up configuration is unusable (dictionary file, org key, params).

    Deliberately neither a ValueError nor a TypeError: LiteLLM 1.104.5 and newer catch those two
    from a guardrail's constructor, log "Skipping guardrail" and start the proxy without it, so
    every term would reach the provider in clear. Any other error stops the proxy's start-up."""

    def one_line(self) -> str:
        """The message on one line (YAML parser errors span several)."""
        return " ".join(str(self).split())


class DictionaryError(GuardConfigError):
    """The dictionary file is missing or does not follow the documented format."""


class ScopeError(GuardError, ValueError):
    """A request asked for a scope the dictionary does not define, or for two different ones."""

    reason = "scope_invalid"


class ScopeForbiddenError(ScopeError):
    """A caller asked for a scope that masks less than the one its key, team or organization is
    bound to (HTTP 403)."""

    reason = "scope_forbidden"


class RefusedRequestError(GuardError, ValueError):
    """A request the guardrail cannot protect: refused with a 400 before anything leaves."""

    reason = "request_not_protectable"


class UnmaskableFieldError(RefusedRequestError):
    """A field whose format a placeholder would break holds a dictionary term: the request is
    refused rather than sent with the term in it."""

    reason = "field_not_maskable"

    def __init__(self, key: str) -> None:
        super().__init__(
            f"the request's field {key!r} holds a dictionary term, and a placeholder would break "
            "its format (a name, id, pattern, URL or opaque value); remove the term from that "
            "field or move it into message text"
        )
        self.key = key


class MaskingError(GuardError, RuntimeError):
    """A request could not be masked (it is refused rather than sent unmasked)."""

    reason = "masking_failed"
