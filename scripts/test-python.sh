#!/usr/bin/env bash
# Every Python check of the repo (npm test runs this last): ruff, the engine unit and property
# tests, the container layout (the image's install steps replayed), the adapter tests inside
# each pinned LiteLLM, and the real-proxy integration and leak suites on each pinned LiteLLM. Any failure, including "no tests collected" (pytest exit 5), fails the run.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
say() { printf 'test-python: %s\n' "$*" >&2; }

bash scripts/setup-python.sh
config=src/guardrail/pyproject.toml
lint_paths=(src/guardrail tests/guardrail shim/litellm scripts/bench-guardrail.py scripts/replay-dockerfile.py)
pytest_flags=(-c "$config" --rootdir tests/guardrail -p no:cacheprovider -q)
# Offline: litellm must not fetch its remote model cost map (or anything else) at import.
export LITELLM_LOCAL_MODEL_COST_MAP=True LITELLM_TELEMETRY=False DO_NOT_TRACK=1
export PYTHONDONTWRITEBYTECODE=1 HYPOTHESIS_STORAGE_DIRECTORY="$repo/.hypothesis"

say "ruff check + format --check"
.venv/bin/ruff check --config "$config" "${lint_paths[@]}"
.venv/bin/ruff format --check --config "$config" "${lint_paths[@]}"

say "engine unit + property tests (.venv, no LiteLLM)"
.venv/bin/python -m pytest "${pytest_flags[@]}" tests/guardrail/unit

say "container layout: the image's install steps replayed, a proxy from the compose mounts"
.venv/bin/python -m pytest "${pytest_flags[@]}" tests/guardrail/container

grep -v '^#' src/guardrail/litellm-versions.txt | while read -r version; do
  [ -n "$version" ] || continue
  say "adapter tests inside litellm $version"
  ".venvs/litellm-$version/bin/python" -m pytest "${pytest_flags[@]}" tests/guardrail/adapter
  say "integration tests: real proxy litellm $version"
  started=$(date +%s)
  LITELLM_VERSION="$version" .venv/bin/python -m pytest "${pytest_flags[@]}" tests/guardrail/integration
  say "integration litellm $version took $(($(date +%s) - started))s"
done
