#!/usr/bin/env bash
# Builds the guardrail's proxy image from shim/litellm/Dockerfile with rootful podman and runs a
# proxy from it, config, shim and dictionary volume-mounted as in shim/litellm/compose.yaml, one
# request through it against the tests' fake upstream. Manual (not part of npm test: about
# 3.5 minutes from scratch, needs root). Progress on stderr.
#
# Where no registry serves base images, BASE_IMAGE is built locally: debootstrap of Debian
# bookworm with python3 and pip, carrying this machine's CA bundle (pip behind a TLS-inspecting
# egress). PODMAN_FLAGS holds what podman needed on the machine this was tried on (a Firecracker
# VM: crun rejects its hybrid cgroups, containers may not raise rlimits, no overlay).
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
work=${CONTAINER_WORK:-/tmp/guardrail-container}
base_image=${BASE_IMAGE:-localhost/bookworm-python:local}
image=localhost/litellm-reversible-mask:local
say() { printf 'container-guardrail: %s\n' "$*" >&2; }
mkdir -p "$work"
cat >"$work/containers.conf" <<'EOF'
[containers]
default_ulimits = []
EOF
export CONTAINERS_CONF="$work/containers.conf"
read -r -a podman <<<"podman ${PODMAN_FLAGS:---storage-driver vfs --cgroup-manager cgroupfs --runtime runc}"

for tool in podman runc debootstrap; do
  command -v "$tool" >/dev/null || { say "apt-get install $tool"; apt-get install -y -qq "$tool" >&2; }
done

if ! "${podman[@]}" image exists "$base_image"; then
  say "building $base_image with debootstrap (about a minute)"
  rm -rf "$work/rootfs"
  debootstrap --variant=minbase --include=python3,python3-pip bookworm "$work/rootfs" \
    http://deb.debian.org/debian >&2
  cp /etc/ssl/certs/ca-certificates.crt "$work/rootfs/etc/ssl/certs/ca-certificates.crt"
  tar -C "$work/rootfs" -c . |
    "${podman[@]}" import --change "ENV PIP_BREAK_SYSTEM_PACKAGES=1" - "$base_image" >&2
fi

say "building $image from shim/litellm/Dockerfile (about two minutes)"
"${podman[@]}" build --network host --pull=never --build-arg "BASE_IMAGE=$base_image" \
  -f "$repo/shim/litellm/Dockerfile" -t "$image" "$repo" >&2

say "running a proxy from $image"
REPO="$repo" PODMAN="${podman[*]}" IMAGE="$image" "$repo/.venv/bin/python" - <<'EOF'
import json, os, subprocess, sys, time, urllib.request
from pathlib import Path

repo = Path(os.environ["REPO"])
sys.path[:0] = [str(repo / "tests/guardrail"), str(repo / "tests/guardrail/integration")]
from fake_upstream import FakeUpstream  # noqa: E402
from proxy import MASTER_KEY, ORG_KEY, free_port  # noqa: E402

podman, shim, port = os.environ["PODMAN"].split(), repo / "shim/litellm", free_port()
mounts = [f"{shim}/{name}:/app/{name}:ro"
          for name in ("config.yaml", "reversible_mask_guardrail.py", "dictionary.yaml")]
with FakeUpstream() as upstream:
    env = {"GUARD_ORG_KEY": ORG_KEY, "LITELLM_MASTER_KEY": MASTER_KEY, "OPENAI_API_KEY": "sk-x",
           "OPENAI_API_BASE": f"{upstream.url}/v1", "ANTHROPIC_API_KEY": "sk-x",
           "ANTHROPIC_API_BASE": upstream.url, "LITELLM_TELEMETRY": "False"}
    command = [*podman, "run", "--rm", "-d", "--network", "host"]
    command += [a for m in mounts for a in ("-v", m)] + [a for k, v in env.items() for a in ("-e", f"{k}={v}")]
    command += [os.environ["IMAGE"], "--config", "/app/config.yaml", "--host", "127.0.0.1",
                "--port", str(port), "--num_workers", "1"]
    container = subprocess.run(command, check=True, capture_output=True, text=True).stdout.strip()
    try:
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/health/liveliness", timeout=2)
                break
            except OSError:
                time.sleep(1)
        text = "Ask Acme  Corp about Project\nBluebird"
        body = {"model": "gpt-4o-mini", "messages": [{"role": "user", "content": text}]}
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/v1/chat/completions", json.dumps(body).encode(),
            {"content-type": "application/json", "authorization": f"Bearer {MASTER_KEY}"})
        reply = json.loads(urllib.request.urlopen(request, timeout=60).read())
        answer = reply["choices"][0]["message"]["content"]
        sent = upstream.recorder.bodies("/chat/completions")[0]["messages"][-1]["content"]
        assert answer == "ECHO: " + text, answer
        assert "Acme" not in sent and "Bluebird" not in sent, sent
        print(f"container ok: the provider saw {sent!r}; the client got its text back")
    finally:
        subprocess.run([*podman, "stop", "-t", "5", container], capture_output=True)
EOF
