"""Dictionary hot reload: a changed dictionary file is picked up without a restart.

Checked at most once a second, on the request path (one `stat`; no thread, nothing to stop). A
file whose size, modification time or inode changed is loaded in full; if it does not load (a
half-written or broken file, or one that was removed), the last good dictionary stays in force
and one error line says why, once per change. Requests in flight keep restoring exactly: a
request's registry maps its own placeholders to its own originals, whatever the dictionary.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable
from pathlib import Path

from .dictionary import Dictionary
from .errors import GuardConfigError

log = logging.getLogger("reversible_mask")

CHECK_SECONDS = 1.0
Signature = tuple[int, int, int] | None


def signature(path: Path) -> Signature:
    try:
        status = os.stat(path)
    except OSError:
        return None
    return (status.st_mtime_ns, status.st_size, status.st_ino)


class DictionaryWatch:
    def __init__(
        self,
        path: str | Path,
        load: Callable[[str | Path], Dictionary],
        interval: float = CHECK_SECONDS,
        clock: Callable[[], float] = time.monotonic,
        reloaded: Callable[[bool], None] = lambda loaded: None,
    ) -> None:
        """`reloaded` is told whether each changed file loaded (the metrics)."""
        self.path, self._load, self.interval, self._clock = Path(path), load, interval, clock
        self._reloaded = reloaded
        self._signature = signature(self.path)
        self._checked = clock()

    def changed(self) -> Dictionary | None:
        """The new dictionary when the file changed and loads; None otherwise."""
        now = self._clock()
        if now - self._checked < self.interval:
            return None
        self._checked = now
        current = signature(self.path)
        if current == self._signature:
            return None
        self._signature = current
        try:
            dictionary = self._load(self.path)
        except GuardConfigError as error:
            log.error(
                "reversible_mask: the changed dictionary is not used, the last good one stays in "
                "force: %s",
                error.one_line(),
            )
            self._reloaded(False)
            return None
        self._reloaded(True)
        log.warning("reversible_mask: dictionary %s reloaded", self.path)
        return dictionary
