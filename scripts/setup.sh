# Sourced by scripts/dev (which .ci/run calls): makes this checkout runnable on a fresh machine.
# Idempotent. Always: Node 22 (from the npm registry's node@22 package when the machine's node is
# older) and npm deps (npm ci, skipped when the lockfile is unchanged). With SETUP_FOR=test (the
# default; scripts/dev sets run for commands that are not a full test run) also: the Debian packages
# in scripts/apt-packages.txt (apt-get update once, only when one is missing) and the Python venvs
# (scripts/setup-python.sh). Progress goes to stderr.

_repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
_say() { printf 'setup: %s\n' "$*" >&2; }
_for_tests() { [ "${SETUP_FOR:-test}" = test ]; }

_apt_missing() {
  local name
  sed -e 's/#.*//' "$_repo/scripts/apt-packages.txt" | while read -r name; do
    [ -z "$name" ] || dpkg-query -W -f='${Status}' "$name" 2>/dev/null | grep -q 'ok installed' || echo "$name"
  done
}

_missing=""
if _for_tests; then _missing=$(_apt_missing | tr '\n' ' '); fi
if [ -n "${_missing// /}" ]; then
  if [ "$(id -u)" -eq 0 ]; then
    _say "apt-get install $_missing"
    apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $_missing >&2 ||
      { _say "apt-get install failed"; return 1 2>/dev/null || exit 1; }
  else
    _say "missing Debian packages ($_missing) and not root: install them, or tests that need them fail"
  fi
fi

_node_major() { node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

if [ "$(_node_major)" -lt 22 ]; then
  _tools="$_repo/.tools/node"
  if [ ! -x "$_tools/node_modules/node/bin/node" ]; then
    _say "node $(node --version 2>/dev/null || echo none) is older than 22; installing node@22 from the npm registry"
    npm install --silent --no-save --no-package-lock --prefix "$_tools" node@22 >&2
  fi
  export PATH="$_tools/node_modules/node/bin:$PATH"
fi
_say "node $(node --version)"

_lock_sum=$(sha256sum "$_repo/package-lock.json" | cut -d' ' -f1)
if [ "$(cat "$_repo/node_modules/.lock-sum" 2>/dev/null)" != "$_lock_sum" ]; then
  _say "npm ci"
  (cd "$_repo" && npm ci --no-audit --no-fund --loglevel=error >&2) && echo "$_lock_sum" > "$_repo/node_modules/.lock-sum"
fi

if _for_tests && [ -f "$_repo/scripts/setup-python.sh" ]; then
  bash "$_repo/scripts/setup-python.sh" || return 1 2>/dev/null || exit 1
fi
