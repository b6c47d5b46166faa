"""The files a user puts beside the proxy: the shim, the example config and the container setup."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import yaml

from reversible_mask import load_dictionary

SHIM = Path(__file__).resolve().parents[3] / "shim" / "litellm"


def test_shim_is_one_absolute_import_reexporting_the_class() -> None:
    tree = ast.parse((SHIM / "reversible_mask_guardrail.py").read_text(encoding="utf-8"))
    assert len(tree.body) == 1
    statement = tree.body[0]
    assert isinstance(statement, ast.ImportFrom) and statement.level == 0
    assert statement.module == "reversible_mask.guardrail"
    assert [a.name for a in statement.names] == ["ReversibleMaskGuardrail"]


def test_example_config_references_the_shim_and_runs_every_hook() -> None:
    config = yaml.safe_load((SHIM / "config.yaml").read_text(encoding="utf-8"))
    entry = config["guardrails"][0]
    params = entry["litellm_params"]
    module, name = params["guardrail"].split(".")
    assert (SHIM / f"{module}.py").exists() and name == "ReversibleMaskGuardrail"
    assert params["mode"] == ["pre_call", "post_call", "logging_only"]
    assert params["default_on"] is True
    assert params["org_key"] == "os.environ/GUARD_ORG_KEY"
    assert params["dictionary_path"] == "os.environ/GUARD_DICTIONARY_PATH"
    assert config["general_settings"]["master_key"] == "os.environ/LITELLM_MASTER_KEY"


def test_compose_mounts_config_shim_and_dictionary() -> None:
    compose = yaml.safe_load((SHIM / "compose.yaml").read_text(encoding="utf-8"))
    service = compose["services"]["litellm"]
    mounts = {v.split(":")[0].removeprefix("./"): v.split(":")[1] for v in service["volumes"]}
    assert mounts == {
        "config.yaml": "/app/config.yaml",
        "reversible_mask_guardrail.py": "/app/reversible_mask_guardrail.py",
        "dictionary.yaml": "/app/dictionary.yaml",
    }
    assert all((SHIM / name).exists() for name in mounts)
    assert service["build"]["dockerfile"] == "shim/litellm/Dockerfile"
    dockerfile = (SHIM / "Dockerfile").read_text(encoding="utf-8")
    assert "pip install --no-cache-dir /tmp/guardrail" in dockerfile
    assert "litellm[proxy]==" in dockerfile


def test_example_dictionary_is_valid() -> None:
    assert len(load_dictionary(SHIM / "dictionary.yaml").entities) == 6


def recipes(markdown: str) -> list[str]:
    """The shell blocks of a README that start a proxy."""
    blocks = re.findall(r"```sh\n(.*?)```", markdown, flags=re.DOTALL)
    return [block for block in blocks if "litellm --config" in block]


def test_every_recipe_sets_what_the_example_config_reads() -> None:
    """Following a README's recipe exactly must start a guarded proxy: every guardrail and
    proxy variable the example config reads is set in it (GUARD_DICTIONARY_PATH was not)."""
    config = (SHIM / "config.yaml").read_text(encoding="utf-8")
    wanted = {
        n for n in re.findall(r"os\.environ/(\w+)", config) if n.startswith(("GUARD_", "LITELLM_"))
    }
    assert wanted == {"GUARD_DICTIONARY_PATH", "GUARD_ORG_KEY", "LITELLM_MASTER_KEY"}
    repo = SHIM.parents[1]
    found = [
        block
        for readme in (repo / "README.md", repo / "src" / "guardrail" / "README.md")
        for block in recipes(readme.read_text(encoding="utf-8"))
    ]
    assert len(found) == 2
    for block in found:
        assert all(f"{name}=" in block for name in wanted), block
