/**
 * Drives the bundled server the way clients do: `node dist/seo.js mcp` spawned by the SDK's
 * StdioClientTransport, its stderr captured. Rebuilds a bundle first when its sources are newer.
 * @module
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { type CallResult, callTool } from "./client.ts";
import { scriptEnv } from "../../shared/script-env.ts";

export const BUNDLE = "dist/seo.js";

function newest(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
}

const fresh = (outfile: string) =>
  existsSync(outfile) &&
  statSync(outfile).mtimeMs > Math.max(newest("src"), newest("shim"), newest("deps.ts"), newest("package.json"));

/**
 * Builds `outfile` (the scripts/build.ts entry `name`) unless it is newer than every source it
 * is made of. Test files run in parallel, so the build happens under a lock directory and the
 * check is repeated inside it.
 */
export function ensureBuilt(name: string, outfile: string): void {
  if (fresh(outfile)) return;
  const lock = `dist/.${name}-build.lock`;
  mkdirSync("dist", { recursive: true });
  for (let waited = 0; ; waited += 100) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (waited > 60_000) throw new Error(`${lock} held for a minute; remove it if no build is running`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
    }
  }
  try {
    if (!fresh(outfile)) {
      execFileSync(process.execPath, ["scripts/build.ts", name], { stdio: ["ignore", "ignore", "inherit"], env: scriptEnv() });
    }
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** Builds dist/seo.js unless it is fresh. */
export const ensureBundle = (): void => ensureBuilt("seo", BUNDLE);

export interface StdioServer {
  client: Client;
  stderr(): string;
  /** Transport-level errors, e.g. a non-protocol line on stdout. */
  errors: Error[];
  call(name: string, args: Record<string, unknown>): Promise<CallResult>;
  close(): Promise<void>;
}

export async function spawnServer(env: Record<string, string>): Promise<StdioServer> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BUNDLE, "mcp"],
    env: { PATH: process.env.PATH ?? "", ...env },
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const errors: Error[] = [];
  const client = new Client({ name: "seo-stdio-test", version: "1" });
  client.onerror = (err) => errors.push(err);
  await client.connect(transport);
  return {
    client,
    stderr: () => stderr,
    errors,
    call: (name, args) => callTool(client, name, args),
    close: () => client.close(),
  };
}
