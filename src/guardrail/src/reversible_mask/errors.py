"""The package's one error family. Each error carries a message meant for the operator or the
API client; `GuardError` catches any of them. The built-in bases stay as they were, so code
that catches `ValueError` or `RuntimeError` keeps working."""


class GuardError(Exception):
    """Any error this package raises on purpose."""


class GuardConfigError(GuardError, ValueError):
    """Start-up configuration is unusable (dictionary file, org key, params)."""


class DictionaryError(GuardConfigError):
    """The dictionary file is missing or does not follow the documented format."""


class ScopeError(GuardError, ValueError):
    """A request asked for a scope the dictionary does not define, or for two different ones."""


class MaskingError(GuardError, RuntimeError):
    """A request could not be masked (it is refused rather than sent unmasked)."""
