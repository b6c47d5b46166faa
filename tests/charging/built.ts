/**
 * Builds the charging bundles (Node server, CLI, Workers) when a test run finds them missing (npm test builds first).
 * Test files run in parallel, so one builds while the others wait for its lock to go.
 */
import { spawnSync } from "node:child_process";
import { request as httpRequest } from "node:http";
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { scriptEnv } from "../shared/script-env.ts";

const LOCK = "dist/.charging-build-lock";
const BUNDLES = ["dist/charging.js", "dist/charging-cli.js", "dist/charging-worker.js"];
const built = () => BUNDLES.every((file) => existsSync(file));
const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

export function ensureBuilt(): void {
  if (built()) return;
  mkdirSync("dist", { recursive: true });
  try {
    mkdirSync(LOCK);
  } catch {
    for (let waited = 0; existsSync(LOCK) && waited < 120_000; waited += 100) sleep(100);
    if (built()) return;
    throw new Error("another test file was building dist/charging*.js and did not finish");
  }
  try {
    const run = spawnSync(process.execPath, ["scripts/build.ts", "charging", "charging-cli", "charging-worker"], { stdio: "inherit", env: scriptEnv() });
    if (run.status !== 0) throw new Error(`building ${BUNDLES.join(", ")} failed`);
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

/** GET (or any method) through a real socket; the body parsed as JSON when there is one. */
export async function getJson(url: string, init?: RequestInit) {
  const response = await fetch(url, init);
  const text = await response.text();
  return {
    response,
    status: response.status,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : null,
  };
}

/** One request with node:http (no automatic accept-encoding, bodies as sent on the wire). */
export function rawHttp(
  url: string,
  headers: Record<string, string> = {},
  method = "GET",
): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers, method }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end();
  });
}
