"""Pattern entries: a dictionary category may list regular expressions (emails, IBANs,
customer ids) beside its terms; every match is masked reversibly and deterministically, as a
term is (the matched text is the entity).

Patterns run on RE2 (google-re2), whose matching is linear in the text for every pattern: no
input can make one backtrack, so no pattern can stall a request. What RE2 cannot run
(backreferences, lookaround) is refused when the dictionary loads, with the pattern named, as is
a pattern that matches the empty string or is longer than MAX_PATTERN_CHARS.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import re2

from .errors import DictionaryError

MAX_PATTERN_CHARS = 1000
MAX_MEMORY_BYTES = 8 << 20  # RE2's budget for one compiled pattern


@dataclass(frozen=True)
class PatternEntry:
    category: str
    source: str


def compile_pattern(source: Any, where: str) -> Any:
    """The compiled RE2 pattern, or a DictionaryError naming it and the fix."""
    if not isinstance(source, str) or not source:
        raise DictionaryError(f"{where}: patterns must be non-empty strings")
    if len(source) > MAX_PATTERN_CHARS:
        raise DictionaryError(f"{where}: pattern longer than {MAX_PATTERN_CHARS} characters")
    options = re2.Options()
    options.max_mem = MAX_MEMORY_BYTES
    options.log_errors = False
    try:
        compiled = re2.compile(source, options)
    except re2.error as error:
        reason = (
            error.args[0].decode() if error.args and isinstance(error.args[0], bytes) else error
        )
        raise DictionaryError(
            f"{where}: pattern {source!r} cannot be used ({reason}); patterns run on RE2 in "
            "linear time, without backreferences or lookaround: rewrite it without them"
        ) from error
    if compiled.search("") is not None:
        raise DictionaryError(f"{where}: pattern {source!r} matches the empty string")
    return compiled
