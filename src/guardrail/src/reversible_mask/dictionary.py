"""Dictionary file: categories of terms (with aliases and matching options) and named scopes.

Format (YAML or JSON, chosen by the file extension; see the package README):

    version: 1
    default_scope: standard
    scopes:
      standard: [clients, people]
      strict: [clients, people, projects]
    categories:
      clients:
        case_sensitive: false   # default false
        whole_word: true        # default true
        terms:
          - Acme Corp
          - term: Globex Corporation
            aliases: [Globex, GLOBEX Inc]
      customers:
        patterns: ['CUST-[0-9]{6}']   # RE2 syntax, see patterns.py; with or without terms
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from .errors import DictionaryError
from .fold_tables import is_mark
from .patterns import PatternEntry, compile_pattern
from .placeholder import LITERAL

CATEGORY_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9]{0,31}$")
SCOPE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
MAX_TERM_CHARS = 200


@dataclass(frozen=True)
class Entity:
    """One dictionary term: its canonical spelling plus aliases, all in one category."""

    category: str
    term: str
    aliases: tuple[str, ...]
    case_sensitive: bool
    whole_word: bool

    @property
    def forms(self) -> tuple[str, ...]:
        """Form 0 is the canonical term, form i >= 1 is alias i."""
        return (self.term, *self.aliases)


@dataclass(frozen=True)
class Dictionary:
    entities: tuple[Entity, ...]
    scopes: dict[str, frozenset[str]]
    default_scope: str
    patterns: tuple[PatternEntry, ...] = ()

    @property
    def categories(self) -> frozenset[str]:
        return frozenset(e.category for e in self.entities) | {p.category for p in self.patterns}


SETTING = "litellm_params.dictionary_path (or env GUARD_DICTIONARY_PATH)"
FIX = "fix the file (format: the guardrail README) or point the setting at another"


def load_dictionary(path: str | Path) -> Dictionary:
    file = Path(path)
    try:
        raw = file.read_text(encoding="utf-8")
    except FileNotFoundError as error:
        raise DictionaryError(
            f"dictionary file not found: {file}; set {SETTING} to an existing dictionary file"
        ) from error
    except (OSError, UnicodeDecodeError) as error:
        raise DictionaryError(f"dictionary file {file} cannot be read: {error}; {FIX}") from error
    try:
        document = json.loads(raw) if file.suffix.lower() == ".json" else yaml.safe_load(raw)
    except (json.JSONDecodeError, yaml.YAMLError) as error:
        raise DictionaryError(f"dictionary file {file} is not valid: {error}; {FIX}") from error
    return parse_dictionary(document, source=str(file))


def parse_dictionary(document: Any, source: str = "<dictionary>") -> Dictionary:
    def fail(message: str) -> DictionaryError:
        return DictionaryError(f"{source}: {message}; {FIX}")

    if not isinstance(document, dict):
        raise fail("top level must be a mapping with 'categories'")
    unknown = set(document) - {"version", "default_scope", "scopes", "categories"}
    if unknown:
        raise fail(f"unknown top-level keys: {sorted(unknown)}")
    if document.get("version", 1) != 1:
        raise fail("only version 1 is supported")
    categories = document.get("categories")
    if not isinstance(categories, dict) or not categories:
        raise fail("'categories' must be a non-empty mapping of category name to terms")
    entities: list[Entity] = []
    patterns: list[PatternEntry] = []
    for name, body in categories.items():
        entities.extend(_parse_category(name, body, fail))
        patterns.extend(_parse_patterns(name, body, fail))
    names = {e.category for e in entities} | {str(n) for n in categories}
    scopes = _parse_scopes(document.get("scopes"), names, fail)
    default_scope = document.get("default_scope", "default")
    if default_scope not in scopes:
        raise fail(f"default_scope {default_scope!r} is not a defined scope: {sorted(scopes)}")
    return Dictionary(tuple(entities), scopes, default_scope, tuple(patterns))


def _parse_category(name: Any, body: Any, fail: Any) -> list[Entity]:
    if not isinstance(name, str) or not CATEGORY_NAME.match(name):
        raise fail(
            f"category name {name!r} must be 1-32 ASCII letters/digits, starting with a letter"
        )
    if name.upper() == LITERAL:
        raise fail(f"category name {name!r} is reserved (placeholders of placeholder-like text)")
    if isinstance(body, list):
        body = {"terms": body}
    if not isinstance(body, dict):
        raise fail(f"category {name!r} must be a mapping with 'terms' (or a list of terms)")
    unknown = set(body) - {"terms", "patterns", "case_sensitive", "whole_word"}
    if unknown:
        raise fail(f"category {name!r}: unknown keys {sorted(unknown)}")
    case_sensitive = body.get("case_sensitive", False)
    whole_word = body.get("whole_word", True)
    if not isinstance(case_sensitive, bool) or not isinstance(whole_word, bool):
        raise fail(f"category {name!r}: case_sensitive and whole_word must be booleans")
    terms = body.get("terms", [] if "patterns" in body else None)
    if not isinstance(terms, list) or not (terms or body.get("patterns")):
        raise fail(f"category {name!r}: 'terms' (or 'patterns') must be a non-empty list")
    entities = []
    for index, item in enumerate(terms):
        where = f"category {name!r} term #{index + 1}"
        term, aliases = _parse_term(item, where, fail)
        entities.append(Entity(name, term, aliases, case_sensitive, whole_word))
    return entities


def _parse_patterns(name: str, body: Any, fail: Any) -> list[PatternEntry]:
    sources = body.get("patterns", []) if isinstance(body, dict) else []
    if not isinstance(sources, list):
        raise fail(f"category {name!r}: 'patterns' must be a list of regular expressions")
    for index, source in enumerate(sources):
        try:
            compile_pattern(source, f"category {name!r} pattern #{index + 1}")
        except DictionaryError as error:
            raise fail(str(error)) from error
    return [PatternEntry(name, source) for source in sources]


def _parse_term(item: Any, where: str, fail: Any) -> tuple[str, tuple[str, ...]]:
    if isinstance(item, str):
        item = {"term": item}
    if not isinstance(item, dict) or set(item) - {"term", "aliases"}:
        raise fail(f"{where}: must be a string or a mapping with 'term' and optional 'aliases'")
    aliases = item.get("aliases", [])
    if not isinstance(aliases, list):
        raise fail(f"{where}: 'aliases' must be a list of strings")
    forms = [item.get("term"), *aliases]
    for form in forms:
        _check_form(form, where, fail)
    return forms[0], tuple(forms[1:])


def _check_form(form: Any, where: str, fail: Any) -> None:
    if not isinstance(form, str) or not form.strip():
        raise fail(f"{where}: terms and aliases must be non-empty strings")
    if form != form.strip():
        raise fail(f"{where}: {form!r} has leading or trailing whitespace")
    if len(form) > MAX_TERM_CHARS:
        raise fail(f"{where}: longer than {MAX_TERM_CHARS} characters")
    if "[[" in form or "]]" in form:
        raise fail(f"{where}: {form!r} contains '[[' or ']]', which placeholders use")
    if is_mark(form[0]):
        raise fail(f"{where}: {form!r} starts with a combining mark")


def _parse_scopes(scopes: Any, categories: set[str], fail: Any) -> dict[str, frozenset[str]]:
    if scopes is None:
        return {"default": frozenset(categories)}
    if not isinstance(scopes, dict) or not scopes:
        raise fail("'scopes' must be a non-empty mapping of scope name to a list of categories")
    parsed: dict[str, frozenset[str]] = {}
    for scope, members in scopes.items():
        if not isinstance(scope, str) or not SCOPE_NAME.match(scope):
            raise fail(f"scope name {scope!r} must match {SCOPE_NAME.pattern}")
        if not isinstance(members, list) or not all(isinstance(m, str) for m in members):
            raise fail(f"scope {scope!r} must list category names")
        missing = set(members) - categories
        if missing:
            raise fail(f"scope {scope!r} names unknown categories {sorted(missing)}")
        parsed[scope] = frozenset(members)
    return parsed
