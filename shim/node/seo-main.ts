/**
 * The `seo-audit-mcp` command, loaded by the launcher (seo-cli.ts): `mcp` serves the SEO tools
 * over stdio, `audit <url>` runs the human CLI. In `mcp` mode stdout carries protocol only;
 * logs go to stderr.
 * @module
 */
import { readFileSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { StdioServerTransport } from "../../deps.ts";
import { ConfigError, loadConfig, redact, type SeoConfig } from "../../src/seo/config.ts";
import type { HttpRequest } from "../../src/seo/crawl/fetch-page.ts";
import { abortableSleep } from "../../src/seo/providers/types.ts";
import { createSeoMcp, SERVER_NAME } from "../../src/seo/server.ts";
import { VERSION } from "../../src/shared/build-info.ts";
import type { NodeHttp } from "./crawl-request.ts";
import { fileReportStore } from "./report-store.ts";
import { fileRankStore } from "./tranco-store.ts";

const USAGE = `${SERVER_NAME} ${VERSION}

Usage:
  ${SERVER_NAME} mcp                 serve the five SEO tools over stdio (MCP)
  ${SERVER_NAME} audit <url> [...]   audit a site from the terminal (see: audit --help)
  ${SERVER_NAME} --help | --version

Optional environment: SEO_PSI_KEY, SEO_CRUX_KEY, SEO_OPR_KEY, SEO_BING_KEY, SEO_GSC_CREDENTIALS,
SEO_<PROVIDER>_ENDPOINT overrides, SEO_CACHE_DIR. See the README.
`;

function cacheDir(): string {
  const env = process.env;
  return env.SEO_CACHE_DIR || join(env.XDG_CACHE_HOME || join(homedir(), ".cache"), SERVER_NAME);
}

function readConfig(log: (line: string) => void): SeoConfig {
  return loadConfig({ env: process.env, readText: (path) => readFileSync(path, "utf8"), warn: log });
}

// The crawler's node:http client, loaded on the first crawl: node:https costs start-up time.
function lazyCrawlRequest(): HttpRequest {
  let client: Promise<NodeHttp> | undefined;
  return async (url, init) => {
    client ??= import("./crawl-request.ts").then((m) => m.nodeHttpRequest(16));
    return (await client).request(url, init);
  };
}

async function serveStdio(): Promise<void> {
  let secrets: readonly string[] = [];
  const log = (line: string) => process.stderr.write(`${SERVER_NAME}: ${redact(line, secrets)}\n`);
  const config = readConfig(log);
  secrets = config.secrets;
  const definition = createSeoMcp({
    provider: { fetch: globalThis.fetch, now: () => new Date(), sleep: abortableSleep },
    config,
    reports: fileReportStore(join(cacheDir(), "reports")),
    crawlRequest: lazyCrawlRequest(),
    rankStore: fileRankStore(cacheDir()),
    log,
  });
  // A stray rejection in one call must not take down the server other calls depend on.
  process.on("unhandledRejection", (err) => {
    log(`unexpected failure, server continues: ${err instanceof Error ? err.message : String(err)}`);
  });
  const server = definition.createServer();
  const transport = new StdioServerTransport();
  transport.onclose = () => process.exit(0);
  await server.connect(transport);
  log(`${VERSION} serving ${definition.tools.length} tools over stdio`);
}

async function runAudit(args: string[]): Promise<number> {
  const [{ runAuditCli }, { nodeHttpRequest }] = await Promise.all([
    import("../../src/seo/cli/audit.ts"),
    import("./crawl-request.ts"),
  ]);
  const http = nodeHttpRequest(16);
  const controller = new AbortController();
  process.once("SIGINT", () => controller.abort(new Error("interrupted")));
  try {
    return await runAuditCli(args, {
      stdout: (s) => process.stdout.write(s),
      stderr: (s) => process.stderr.write(s),
      fetch: globalThis.fetch,
      request: http.request,
      reports: fileReportStore(join(cacheDir(), "reports")),
      now: () => new Date(),
      isTTY: process.stderr.isTTY === true,
      readText: (path) => readFile(path, "utf8"),
      writeText: (path, text) => writeFile(path, text),
      signal: controller.signal,
    });
  } finally {
    // Idle keep-alive sockets would otherwise hold the process open.
    http.close();
  }
}

async function main(args: string[]): Promise<number> {
  const [command, ...rest] = args;
  if (command === "--version" || command === "-v") {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  if (command === "--help" || command === "-h" || command === "help") {
    process.stdout.write(USAGE);
    return 0;
  }
  if (command === "audit") return runAudit(rest);
  if (command === "mcp" && rest.length === 0) {
    await serveStdio();
    return -1;
  }
  process.stderr.write(
    `${SERVER_NAME}: ${command === undefined ? "a command is required" : `unknown command "${[command, ...rest].join(" ")}"`}\n\n${USAGE}`,
  );
  return 2;
}

/** Runs the command line; sets the exit code when the command finishes (not in `mcp` mode). */
export const run = (): Promise<void> =>
  main(process.argv.slice(2)).then(
    (code) => {
      if (code >= 0) process.exitCode = code;
    },
    (err: unknown) => {
      const message =
        err instanceof ConfigError ? err.message : err instanceof Error ? err.message : String(err);
      process.stderr.write(`${SERVER_NAME}: ${message}\n`);
      process.exitCode = err instanceof ConfigError ? 2 : 1;
    },
  );
