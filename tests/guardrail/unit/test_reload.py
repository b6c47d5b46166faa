"""Dictionary hot reload: picked up after a change, the last good one kept when broken."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import pytest

from reversible_mask import load_dictionary
from reversible_mask.reload import DictionaryWatch

FIRST = "version: 1\ncategories:\n  clients: [Globex]\n"
SECOND = "version: 1\ncategories:\n  clients: [Globex, Initech]\n"


def touch(path: Path, text: str, step: int) -> None:
    path.write_text(text, encoding="utf-8")
    stamp = 1_700_000_000 + step
    os.utime(path, (stamp, stamp))


def watch_of(path: Path) -> tuple[DictionaryWatch, list[float]]:
    now = [0.0]
    return DictionaryWatch(path, load_dictionary, interval=1.0, clock=lambda: now[0]), now


def test_a_changed_file_is_loaded_after_the_interval(tmp_path: Path) -> None:
    path = tmp_path / "d.yaml"
    touch(path, FIRST, 0)
    watch, now = watch_of(path)
    touch(path, SECOND, 1)
    assert watch.changed() is None  # checked at most once per interval
    now[0] = 1.5
    fresh = watch.changed()
    assert fresh is not None and {e.term for e in fresh.entities} == {"Globex", "Initech"}
    now[0] = 3.0
    assert watch.changed() is None  # unchanged since


@pytest.mark.parametrize("broken", ["categories: [", "version: 1\ncategories: {}\n", None])
def test_a_broken_or_removed_file_keeps_the_last_good_one(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, broken: str | None
) -> None:
    path = tmp_path / "d.yaml"
    touch(path, FIRST, 0)
    watch, now = watch_of(path)
    if broken is None:
        path.unlink()
    else:
        touch(path, broken, 1)
    now[0] = 2.0
    with caplog.at_level(logging.ERROR, logger="reversible_mask"):
        assert watch.changed() is None
    assert "the last good one stays in force" in caplog.text
    caplog.clear()
    now[0] = 4.0
    with caplog.at_level(logging.ERROR, logger="reversible_mask"):
        assert watch.changed() is None
    assert caplog.text == ""  # said once per change
    touch(path, SECOND, 2)
    now[0] = 6.0
    assert watch.changed() is not None  # fixed: taken
