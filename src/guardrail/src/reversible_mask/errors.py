"""Typed errors. Each carries a message meant for the operator or the API client."""


class GuardConfigError(ValueError):
    """Start-up configuration is unusable (dictionary file, org key, params)."""


class DictionaryError(GuardConfigError):
    """The dictionary file is missing or does not follow the documented format."""


class ScopeError(ValueError):
    """A request asked for a scope the dictionary does not define, or for two different ones."""


class MaskingError(RuntimeError):
    """A request could not be masked (it is refused rather than sent unmasked)."""
