import assert from "node:assert/strict";
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { envFor } from "../../../seo/fakes/setup.ts";
import { BUNDLE, ensureBundle } from "../../../seo/fakes/stdio.ts";
import { mcpClient, refusedUrls, startWorld, type World } from "../../../seo/http/harness.ts";

// Responses are read loosely in assertions.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = any;

const TOKEN = "node-gateway-token-0123456789";
let world: World;
let cache: string;

before(async () => {
  ensureBundle();
  world = await startWorld();
  cache = mkdtempSync(join(tmpdir(), "seo-gateway-"));
});
after(async () => {
  await world.close();
  rmSync(cache, { recursive: true, force: true });
});

interface Gateway {
  url: string;
  child: ChildProcess;
  stderr(): string;
  stop(): Promise<number | null>;
}

/** Starts `seo-audit-mcp gateway` on a free port and waits for its start-up line. */
async function startGateway(args: string[], env: Record<string, string> = {}): Promise<Gateway> {
  const child = spawn(process.execPath, [BUNDLE, "gateway", "--port", "0", ...args], {
    env: { PATH: process.env.PATH ?? "", SEO_CACHE_DIR: cache, ...envFor(world.fakes, false), ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      const found = /gateway listening on (http:\/\/\S+) /.exec(stderr);
      if (found) resolve(found[1] as string);
    });
    child.once("exit", (code) => reject(new Error(`gateway exited ${code}: ${stderr}`)));
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  return {
    url,
    child,
    stderr: () => stderr,
    stop: () => {
      child.kill("SIGTERM");
      return exited;
    },
  };
}

test("gateway on Node: MCP over a real socket, bearer token, LOCAL_ONLY audit, REST and a clean SIGTERM", async () => {
  const gateway = await startGateway([], { GATEWAY_AUTH_TOKEN: TOKEN, SEO_PSI_KEY: "deployer-psi-HHHH8888" });
  try {
    assert.match(gateway.stderr(), /bearer token required; site audit off/);
    assert.equal((await fetch(`${gateway.url}/healthz`)).status, 200);
    assert.equal((await fetch(`${gateway.url}/api/v1/openapi.json`)).status, 401);
    const session = await mcpClient(gateway.url, { authorization: `Bearer ${TOKEN}` });
    try {
      assert.equal((await session.client.listTools()).tools.length, 5);
      const ideas = await session.call("seo_keyword_ideas", { query: "ev charging", expand: false });
      assert.equal(ideas.isError, undefined, ideas.text);
      const audit = await session.call("seo_audit_site", { url: `${world.site.url}/page` });
      assert.match(audit.text, /^LOCAL_ONLY/);
    } finally {
      await session.close();
    }
    const rest = await fetch(`${gateway.url}/api/v1/keyword-ideas?q=heat%20pump&expand=false`, {
      headers: { authorization: `Bearer ${TOKEN}`, origin: "https://app.example" },
    });
    assert.equal(rest.status, 200);
    assert.equal(rest.headers.get("access-control-allow-origin"), "*");
    assert.ok(((await rest.json()) as Loose).ideas.length > 0);
  } finally {
    assert.equal(await gateway.stop(), 0);
  }
  assert.doesNotMatch(gateway.stderr(), /deployer-psi-HHHH8888/);
});

test("gateway on Node: the egress guard refuses local targets through node:dns and guarded sockets", async () => {
  const gateway = await startGateway([]);
  const before = world.trap.requests.length;
  try {
    for (const url of refusedUrls(world.trap.url)) {
      const answer = await fetch(`${gateway.url}/api/v1/page-report?url=${encodeURIComponent(url)}`);
      const body = (await answer.json()) as Loose;
      assert.equal(answer.status, 403, `${url}: ${JSON.stringify(body)}`);
      assert.equal(body.error.code, "UPSTREAM_BLOCKED");
    }
  } finally {
    await gateway.stop();
  }
  assert.equal(world.trap.requests.length, before, "no connection reached the loopback site");
});

test("gateway --allow-audit on loopback crawls a local site; on another interface it refuses to start", async () => {
  const gateway = await startGateway(["--allow-audit", "--host", "127.0.0.1"]);
  try {
    assert.match(gateway.stderr(), /site audit on/);
    const session = await mcpClient(gateway.url);
    const audit = await session.call("seo_audit_site", { url: `${world.site.url}/page`, max_pages: 2 });
    await session.close();
    assert.equal(audit.isError, undefined, audit.text);
    assert.match(String(audit.structured.report_id), /^audit-/);
  } finally {
    await gateway.stop();
  }
  const run = (args: string[], env: Record<string, string> = {}) =>
    spawnSync(process.execPath, [BUNDLE, "gateway", ...args], {
      encoding: "utf8",
      env: { PATH: process.env.PATH ?? "", SEO_CACHE_DIR: cache, ...env },
    });
  const exposed = run(["--allow-audit", "--host", "0.0.0.0"]);
  assert.equal(exposed.status, 2);
  assert.match(exposed.stderr, /--allow-audit needs a loopback --host/);
  assert.equal(run(["--port", "http"]).status, 2);
  assert.equal(run(["--verbose"]).stderr, "INVALID_USAGE: unknown option --verbose; see seo-audit-mcp gateway --help\n");
  const badEnv = run([], { GATEWAY_ALLOWED_ORIGINS: "app.example" });
  assert.equal(badEnv.status, 2);
  assert.match(badEnv.stderr, /GATEWAY_ALLOWED_ORIGINS: "app.example" is not an origin/);
  const help = run(["--help"]);
  assert.equal(help.status, 0);
  assert.match(help.stdout, /--allow-audit/);
});
