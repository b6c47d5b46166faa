#!/usr/bin/env bash
# Python side of the repo (the LiteLLM guardrail): .venv with the package (editable) and the test
# tools, one .venvs/litellm-<version>/ per pinned LiteLLM with litellm[proxy] and the package
# installed as a user would (pip install ./src/guardrail), and .venvs/container-replay/ made by
# replaying the container image's install steps. A version with a file in
# src/guardrail/litellm-overrides/ gets litellm[proxy] through uv with those pins overridden
# (the file says why). Idempotent and fast when nothing changed: each step is skipped while its
# stamp matches. Progress goes to stderr.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
pkg="$repo/src/guardrail"
say() { printf 'setup-python: %s\n' "$*" >&2; }

pick_python() {
  for candidate in python3.13 python3.12 python3.11 python3.10 python3; do
    if command -v "$candidate" >/dev/null 2>&1 &&
      "$candidate" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)' 2>/dev/null; then
      command -v "$candidate"
      return 0
    fi
  done
  say "no python >= 3.10 found"
  return 1
}

hash_of() { cat "$@" | sha256sum | cut -d' ' -f1; }
sources_hash() {
  (cd "$pkg" && find pyproject.toml README.md src -type f -name '*' ! -path '*/__pycache__/*' |
    LC_ALL=C sort | xargs cat) | sha256sum | cut -d' ' -f1
}

python=$(pick_python)
pip_flags=(--quiet --disable-pip-version-check --no-input)

dev_stamp="$(hash_of "$pkg/requirements-dev.txt" "$pkg/pyproject.toml")"
if [ "$(cat "$repo/.venv/.setup-stamp" 2>/dev/null)" != "$dev_stamp" ]; then
  say "creating .venv ($("$python" --version))"
  [ -x "$repo/.venv/bin/python" ] || "$python" -m venv "$repo/.venv"
  "$repo/.venv/bin/pip" install "${pip_flags[@]}" -r "$pkg/requirements-dev.txt" >&2
  "$repo/.venv/bin/pip" install "${pip_flags[@]}" --no-deps --no-build-isolation -e "$pkg" >&2
  echo "$dev_stamp" >"$repo/.venv/.setup-stamp"
fi

src_stamp=$(sources_hash)
grep -v '^#' "$pkg/litellm-versions.txt" | while read -r version; do
  [ -n "$version" ] || continue
  venv="$repo/.venvs/litellm-$version"
  overrides="$pkg/litellm-overrides/$version.txt"
  # prometheus_client: what the proxy's `prometheus` callback needs, so the tests read the
  # guardrail's counters from the proxy's own /metrics.
  requirements=("litellm[proxy]==$version" pytest==9.2.0 hypothesis==6.170.15 hatchling==1.33.0 prometheus_client==0.26.0)
  stamp="${requirements[*]}"
  [ ! -f "$overrides" ] || stamp="$stamp $(hash_of "$overrides") bytecode"
  if [ "$(cat "$venv/.litellm-stamp" 2>/dev/null)" != "$stamp" ]; then
    [ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
    # uv, not pip, for LiteLLM and its ~150 dependencies: the same resolution (newest versions that
    # fit, compared on 2026-11-27) in a fraction of the time; a version with an overrides file needs
    # it anyway (pip has no way to override a dependency's pin, see the file's comment). The
    # guardrail itself is installed with pip below, as a user would. --system-certs: trust the
    # machine's CA store as pip does, not only uv's bundled roots.
    override=()
    [ ! -f "$overrides" ] || override=(--override "$overrides")
    say "installing litellm[proxy]==$version into .venvs/litellm-$version with uv${override:+ and $(basename "$overrides")}"
    "$repo/.venv/bin/uv" pip install --quiet --system-certs --python "$venv/bin/python" \
      "${override[@]}" "${requirements[@]}" >&2
    # uv does not compile bytecode at install (pip does); the tests run with PYTHONDONTWRITEBYTECODE=1,
    # so an uncompiled venv compiled LiteLLM again at every proxy start (twice the CPU).
    "$venv/bin/python" -m compileall -q -j 0 "$venv/lib" >/dev/null
    echo "$stamp" >"$venv/.litellm-stamp"
    rm -f "$venv/.package-stamp"
  fi
  if [ "$(cat "$venv/.package-stamp" 2>/dev/null)" != "$src_stamp" ]; then
    say "installing the guardrail package into .venvs/litellm-$version"
    "$venv/bin/pip" install "${pip_flags[@]}" --no-build-isolation --force-reinstall --no-deps "$pkg" >&2
    "$venv/bin/pip" install "${pip_flags[@]}" --no-build-isolation "$pkg" >&2
    echo "$src_stamp" >"$venv/.package-stamp"
  fi
done

# The container image's install steps, replayed without a container engine (CI has none): see
# scripts/replay-dockerfile.py; tests/guardrail/container runs a proxy from the result.
replay="$repo/.venvs/container-replay"
replay_stamp="$(hash_of "$repo/shim/litellm/Dockerfile" "$repo/scripts/replay-dockerfile.py") $src_stamp"
if [ "$(cat "$replay/.replay-stamp" 2>/dev/null)" != "$replay_stamp" ]; then
  say "replaying shim/litellm/Dockerfile into .venvs/container-replay (about a minute)"
  rm -rf "$replay"
  "$python" "$repo/scripts/replay-dockerfile.py" "$replay" >&2
  echo "$replay_stamp" >"$replay/.replay-stamp"
fi
