"""The package's shape rules, read from the source with `ast`: short functions, one error
family, LiteLLM only in the adapter. Each checker is also run on a small fixture it must
reject, so a rule that silently stopped checking would fail here."""

from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
PACKAGE = REPO / "src" / "guardrail" / "src" / "reversible_mask"
CHECKED = [REPO / "src" / "guardrail" / "src", REPO / "shim" / "litellm"]
MAX_LINES = 60
ADAPTER_MODULES = {
    "guardrail.py",
    "callbacks.py",
    "proxy_routes.py",
    "startup.py",
}  # the only ones that may import LiteLLM


def python_files() -> list[Path]:
    files: list[Path] = []
    for path in CHECKED:
        files.extend(sorted(path.rglob("*.py")) if path.is_dir() else [path])
    return files


def long_functions(source: str, name: str = "<fixture>") -> list[str]:
    """Every function or method longer than MAX_LINES lines (decorators excluded)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            length = node.end_lineno - node.lineno + 1  # type: ignore[operator]
            if length > MAX_LINES:
                found.append(f"{name}:{node.lineno} {node.name} ({length} lines)")
    return found


def stray_errors(source: str, name: str = "<fixture>") -> list[str]:
    """Classes deriving from an exception type outside errors.py (one error family)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ClassDef):
            bases = {ast.unparse(base) for base in node.bases}
            if any(base.endswith(("Error", "Exception")) for base in bases):
                found.append(f"{name}:{node.lineno} {node.name}")
    return found


def litellm_imports(source: str, name: str = "<fixture>") -> list[str]:
    found = []
    for node in ast.walk(ast.parse(source)):
        modules = []
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            modules = [node.module]
        for module in modules:
            if module.split(".")[0] in ("litellm", "fastapi"):
                found.append(f"{name}:{node.lineno} {module}")
    return found


def _function(lines: int) -> str:
    body = "".join(f"    x{index} = {index}\n" for index in range(lines - 2))
    return f"@decorator\ndef f():\n{body}    return 0\n"


def test_the_length_check_counts_lines_as_the_rule_says() -> None:
    assert long_functions(_function(MAX_LINES)) == []
    assert long_functions(_function(MAX_LINES + 1)) == ["<fixture>:2 f (61 lines)"]
    nested = "class C:\n    async def m(self):\n" + "        pass\n" * MAX_LINES
    assert long_functions(nested) == ["<fixture>:2 m (61 lines)"]


def test_no_function_is_longer_than_the_rule() -> None:
    files = python_files()
    assert len(files) > 20  # the globs found the package and the shim
    found = [hit for path in files for hit in long_functions(path.read_text("utf-8"), path.name)]
    assert found == []


def test_the_error_check_finds_an_error_class() -> None:
    assert stray_errors("class Oops(ValueError):\n    pass\n") == ["<fixture>:1 Oops"]
    assert stray_errors("class Fine(dict):\n    pass\n") == []


def test_errors_are_one_family_defined_in_errors_py() -> None:
    import reversible_mask.errors as errors

    found = []
    for path in python_files():
        if path.name != "errors.py":
            found.extend(stray_errors(path.read_text("utf-8"), path.name))
    assert found == []
    family = [value for value in vars(errors).values() if isinstance(value, type)]
    assert len(family) == 8
    assert all(issubclass(error, errors.GuardError) for error in family)


def test_the_import_check_finds_litellm() -> None:
    assert litellm_imports("import litellm\nfrom fastapi import X\n") == [
        "<fixture>:1 litellm",
        "<fixture>:2 fastapi",
    ]


def test_only_the_adapter_imports_litellm() -> None:
    found = []
    for path in sorted(PACKAGE.glob("*.py")):
        if path.name not in ADAPTER_MODULES:
            found.extend(litellm_imports(path.read_text("utf-8"), path.name))
    assert found == []
