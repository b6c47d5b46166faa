#!/usr/bin/env python3
"""Replays the install steps of shim/litellm/Dockerfile in a fresh venv, without a container
engine (CI machines have none): ARG defaults and ENV are applied, COPY sources are staged in a
temporary directory standing for the image's paths, and every RUN step is executed with the
venv's pip. Steps that only make sense inside an image (creating the runtime user) are listed
and skipped; anything else unknown is an error, so the Dockerfile cannot drift from what is
tested. Usage: replay-dockerfile.py <venv> (the venv must not exist yet).
Also importable: `parse(path)` returns the instructions, used by the layout test.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import venv
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DOCKERFILE = REPO / "shim" / "litellm" / "Dockerfile"
IMAGE_ONLY = ("useradd ",)  # the runtime user: nothing to replay outside an image


def parse(path: Path = DOCKERFILE) -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) per instruction, continuation lines joined."""
    text = re.sub(r"\\\n", " ", path.read_text(encoding="utf-8"))
    out = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            instruction, _, rest = line.partition(" ")
            out.append((instruction.upper(), rest.strip()))
    return out


def variables(instructions: list[tuple[str, str]]) -> dict[str, str]:
    """ARG defaults and ENV values, in order."""
    found: dict[str, str] = {}
    for instruction, rest in instructions:
        if instruction in ("ARG", "ENV"):
            for pair in shlex.split(rest):
                name, _, value = pair.partition("=")
                found[name] = value
    return found


def expand(text: str, values: dict[str, str]) -> str:
    return re.sub(r"\$\{(\w+)\}|\$(\w+)", lambda m: values.get(m[1] or m[2], ""), text)


def replay(target: Path) -> None:
    instructions = parse()
    values = variables(instructions)
    venv.create(target, with_pip=True)
    pip = target / "bin" / "pip"
    with tempfile.TemporaryDirectory() as stage:
        paths: dict[str, str] = {}
        for instruction, rest in instructions:
            if instruction == "COPY":
                source, destination = shlex.split(rest)
                staged = Path(stage) / destination.strip("/").replace("/", "_")
                shutil.copytree(REPO / source, staged)
                paths[destination] = str(staged)
            elif instruction == "RUN":
                _run(expand(rest, values), pip, paths)


def _run(command: str, pip: Path, paths: dict[str, str]) -> None:
    for step in command.split("&&"):
        step = step.strip()
        for image_path, staged in paths.items():
            step = step.replace(image_path, staged)
        if step.startswith(IMAGE_ONLY):
            print(f"replay-dockerfile: skipped (image only): {step}", file=sys.stderr)
            continue
        words = shlex.split(step)
        if words[:2] == ["pip", "install"]:
            print(f"replay-dockerfile: {step}", file=sys.stderr)
            env = {k: v for k, v in os.environ.items() if k != "PIP_REQUIRE_VIRTUALENV"}
            subprocess.run([str(pip), *words[1:]], check=True, env=env)
        elif words[:2] == ["rm", "-rf"]:
            continue  # the staging directory goes away on its own
        else:
            raise SystemExit(f"replay-dockerfile: do not know how to replay: {step}")


if __name__ == "__main__":
    if len(sys.argv) != 2 or Path(sys.argv[1]).exists():
        raise SystemExit("usage: replay-dockerfile.py <new venv directory>")
    replay(Path(sys.argv[1]))
