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

# One job per LiteLLM version, GUARD_TEST_JOBS (default 2) at a time: a version's suite spends most
# of its time waiting on proxies it started, so two side by side halve the wall time on two cores.
# Each job's output is printed whole when it ends.
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
suite() {
  local version=$1
  say "adapter tests inside litellm $version"
  ".venvs/litellm-$version/bin/python" -m pytest "${pytest_flags[@]}" tests/guardrail/adapter || return
  say "integration tests: real proxy litellm $version"
  LITELLM_VERSION="$version" .venv/bin/python -m pytest "${pytest_flags[@]}" tests/guardrail/integration
}
run_version() {
  local version=$1 started status=0
  started=$(date +%s)
  suite "$version" >"$logs/$version.log" 2>&1 || status=$?
  echo "$status" >"$logs/$version.rc"
  cat "$logs/$version.log" >&2
  say "litellm $version: $([ "$status" = 0 ] && echo ok || echo FAILED) in $(($(date +%s) - started))s"
}

versions=$(grep -v '^#' src/guardrail/litellm-versions.txt | grep .)
# Longest first, so the last job to end is a short one: the newest and the oldest release (they
# send 1,000 requests in test_in_flight.py, the others 250), then the rest newest first.
versions="$(echo "$versions" | tail -n 1) $(echo "$versions" | head -n 1) $(echo "$versions" | sed '1d;$d' | tac)"
jobs_at_once=${GUARD_TEST_JOBS:-2}
say "litellm suites: $(echo $versions), $jobs_at_once at a time"
for version in $versions; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs_at_once" ]; do wait -n || true; done
  run_version "$version" &
done
wait
failed=()
for version in $versions; do
  [ "$(cat "$logs/$version.rc" 2>/dev/null)" = 0 ] || failed+=("$version")
done
if [ "${#failed[@]}" -gt 0 ]; then
  say "failed on litellm ${failed[*]}"
  exit 1
fi
