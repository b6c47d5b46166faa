"""Reversible dictionary masking for LLM traffic (engine) and its LiteLLM proxy guardrail.

The engine (`Masker`, `load_dictionary`, `Registry`, `StreamUnmasker`) has no LiteLLM
dependency; the proxy class lives in `reversible_mask.guardrail` and is imported only by the
proxy shim.
"""

from .chunked_text import StreamUnmasker
from .dictionary import Dictionary, Entity, load_dictionary, parse_dictionary
from .engine import EVERYTHING, Masker, Target
from .errors import DictionaryError, GuardConfigError, GuardError, MaskingError, ScopeError
from .placeholder import Registry

__all__ = [
    "EVERYTHING",
    "Dictionary",
    "DictionaryError",
    "Entity",
    "GuardConfigError",
    "GuardError",
    "Masker",
    "MaskingError",
    "Registry",
    "ScopeError",
    "StreamUnmasker",
    "Target",
    "load_dictionary",
    "parse_dictionary",
]
__version__ = "0.2.0"
