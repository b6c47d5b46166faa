"""Reversible dictionary masking for LLM traffic (engine) and its LiteLLM proxy guardrail.

The engine (`Masker`, `load_dictionary`, `StreamUnmasker`) has no LiteLLM dependency; the proxy
class lives in `reversible_mask.guardrail` and is imported only by the proxy shim.
"""

from .dictionary import Dictionary, Entity, load_dictionary, parse_dictionary
from .engine import Masker
from .errors import DictionaryError, GuardConfigError, ScopeError
from .stream import StreamUnmasker

__all__ = [
    "Dictionary",
    "DictionaryError",
    "Entity",
    "GuardConfigError",
    "Masker",
    "ScopeError",
    "StreamUnmasker",
    "load_dictionary",
    "parse_dictionary",
]
__version__ = "0.1.0"
