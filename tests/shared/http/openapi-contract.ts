/**
 * Checking a served OpenAPI document from outside: real answers against the schemas it
 * declares (every object closed in the checking copy, so a field the document leaves out
 * fails), and Redocly's recommended lint run headless, with no way out to the network.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
// ajv comes with the MCP SDK; 2020-12 is the dialect OpenAPI 3.1 and MCP output schemas use.
import { Ajv2020 } from "ajv/dist/2020.js";

// Documents and answers are read loosely.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Loose = any;

/**
 * `schema` with `additionalProperties: false` on every object that lists its properties and
 * says nothing of others: the published schemas stay open for clients, the check does not.
 */
export function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (schema === null || typeof schema !== "object") return schema;
  const out: Record<string, unknown> = Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, closed(value)]));
  if ("properties" in out && !("additionalProperties" in out)) out.additionalProperties = false;
  return out;
}

/** A validator of values against schemas of `doc` (their `#/components/...` references resolve in it). */
export function validatorOf(doc: Loose): (schema: unknown, value: unknown) => string | undefined {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addSchema({ $id: "doc", components: closed(doc.components ?? {}) }, "doc");
  return (schema, value) => {
    const rewritten = JSON.parse(JSON.stringify(closed(schema)).replaceAll('"#/components/', '"doc#/components/'));
    const check = ajv.compile(rewritten);
    return check(value) ? undefined : ajv.errorsText(check.errors, { separator: "; " });
  };
}

/** The declared answer of `doc` for an operation and a status (`default` when the status is not listed). */
export function declaredAnswer(doc: Loose, path: string, method: string, status: number): Loose {
  const responses = doc.paths[path]?.[method]?.responses ?? {};
  return responses[String(status)] ?? responses.default;
}

/**
 * Fails loudly when a program connects anywhere but loopback: preloaded into the lint run,
 * so "runs offline" is checked, not assumed.
 */
const NO_NETWORK = `
import net from "node:net";
import dns from "node:dns";
const loopback = (host) => host === undefined || host === "localhost" || /^(127\\.|::1$|::ffff:127\\.)/.test(String(host));
const refuse = (what) => { process.stderr.write("NETWORK ATTEMPT: " + what + "\\n"); throw new Error("network refused: " + what); };
const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...args) {
  const options = typeof args[0] === "object" && args[0] !== null ? args[0] : { port: args[0], host: args[1] };
  if (!options.path && !loopback(options.host)) refuse(String(options.host) + ":" + String(options.port));
  return connect.apply(this, args);
};
const lookup = dns.lookup;
dns.lookup = function (host, ...rest) { if (!loopback(host)) refuse("dns " + host); return lookup.call(this, host, ...rest); };
const fetchOf = globalThis.fetch;
globalThis.fetch = async (input, init) => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  if (!loopback(url.hostname.replace("[", "").replace("]", ""))) refuse("fetch " + url.href);
  return fetchOf(input, init);
};
`;

export interface Run {
  code: number | null;
  output: string;
  stdout: string;
}

/**
 * Runs `node <args>` in `dir` with every non-loopback connection refused (and reported in
 * `output`). Asynchronous: a test's own event loop keeps running meanwhile (its HTTP client
 * keeps expiring idle connections the server has closed).
 */
export function runOffline(dir: string, args: readonly string[], env: Record<string, string> = {}): Promise<Run> {
  const guard = join(dir, "no-network.mjs");
  writeFileSync(guard, NO_NETWORK);
  const child = spawn(process.execPath, ["--import", guard, ...args], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? "", HOME: dir, NO_COLOR: "1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const timer = setTimeout(() => child.kill(), 180_000);
  return new Promise((done) =>
    child.once("close", (code) => {
      clearTimeout(timer);
      done({ code, output: `${stdout}${stderr}`, stdout });
    }),
  );
}

/** A path inside this repository's node_modules. */
export const installed = (path: string) => resolve("node_modules", path);

/**
 * Redocly's `lint --extends=recommended` of `doc`, headless and offline: telemetry and the
 * update notice off (the documented opt-outs), any other connection refused.
 */
export async function redoclyLint(doc: unknown): Promise<Run> {
  const dir = mkdtempSync(join(tmpdir(), "redocly-"));
  try {
    writeFileSync(join(dir, "openapi.json"), JSON.stringify(doc));
    const args = [installed("@redocly/cli/lib/index.js"), "lint", "--extends=recommended", "openapi.json"];
    return await runOffline(dir, args, { REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
