/**
 * Smoke test of the BUILT server: starts `dist/charging.js` on a free port, checks
 * /healthz, a sites query, one site, its status and MCP tools/list, then stops it.
 * Prints `stage <n>` alone on a stdout line (scripts/verify.ts reads it); progress on stderr.
 * Exit code 0 only when every check passed.
 * @module
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";

const say = (line: string) => process.stderr.write(`smoke: ${line}\n`);

/**
 * Starts the built server (`entry` plus `args`) with PORT=0 and resolves its URL from the
 * start-up line, which must come within `startMs` (longer for a server run from source).
 */
export function startBuilt(
  env: Record<string, string> = {},
  entry = "dist/charging.js",
  args: string[] = [],
  startMs = 15_000,
): Promise<{ child: ChildProcess; url: string; stderr: () => string }> {
  const child = spawn(process.execPath, [entry, ...args], {
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let log = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`no start-up line within ${startMs / 1000} s; stderr: ${log}`));
    }, startMs);
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (chunk: string) => {
      log += chunk;
      const url = /listening on (http:\/\/\S+)/.exec(log)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve({ child, url, stderr: () => log });
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}: ${log}`));
    });
  });
}

/** Stops a child and waits for it to exit. */
export function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

async function getJson(url: string, init?: RequestInit): Promise<Record<string, unknown>> {
  const response = await fetch(url, init);
  if (!response.ok)
    throw new Error(`${init?.method ?? "GET"} ${url} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as Record<string, unknown>;
}

async function main(): Promise<number> {
  if (!existsSync("dist/charging.js")) {
    say("dist/charging.js is missing; run npm run build first");
    return 1;
  }
  const { child, url } = await startBuilt();
  try {
    const health = await getJson(`${url}/healthz`);
    if (health.ok !== true || !Number.isInteger(health.stage))
      throw new Error(`bad health ${JSON.stringify(health)}`);
    say(`healthz ok, stage ${health.stage}`);
    const sites = await getJson(`${url}/api/v1/sites?limit=5`);
    const first = (sites.data as { id: string }[])[0];
    if (!first) throw new Error("the sites query returned no site");
    say(`sites ok: ${(sites.page as { total: number }).total} in total`);
    const site = await getJson(`${url}/api/v1/sites/${encodeURIComponent(first.id)}`);
    if ((site.data as { id: string }).id !== first.id) throw new Error(`site ${first.id} came back wrong`);
    const status = await getJson(`${url}/api/v1/status/${encodeURIComponent(first.id)}`);
    if (typeof (status.data as { stale: unknown }).stale !== "boolean")
      throw new Error("status has no stale flag");
    say(`site and status ok for ${first.id}`);
    const mcp = await getJson(`${url}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    const tools = (mcp.result as { tools: { name: string }[] }).tools.map((t) => t.name);
    if (tools.length !== 4) throw new Error(`MCP lists ${tools.length} tools`);
    say(`mcp ok: ${tools.join(", ")}`);
    process.stdout.write(`stage ${health.stage}\n`);
    return 0;
  } finally {
    await stop(child);
  }
}

if (import.meta.main) {
  main().then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      say(`failed: ${err instanceof Error ? err.message : String(err)}`);
      process.exitCode = 1;
    },
  );
}
