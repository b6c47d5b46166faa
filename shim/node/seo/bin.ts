#!/usr/bin/env node
/**
 * Entry of dist/seo.js, the `seo-audit-mcp` bin: `mcp` serves the SEO tools over stdio
 * (`stdio.ts`), `audit <url>` runs the human CLI (`audit.ts`), `gateway` serves them over HTTP
 * (`gateway.ts`). Each command's code is loaded only when it runs. In `mcp` mode stdout carries
 * protocol only; logs go to stderr. Every command answers `--help` and `--version`; every
 * failure is one stderr line, `CODE: what happened; what to do`.
 *
 * V8's on-disk compile cache (Node 22.1+) is turned on before anything else is loaded, so from
 * the second start on the bundle is not parsed and compiled again: start-up is the MCP cold
 * start agents wait for. Hence the one dynamic import of the command-line face below. Not for
 * `audit`: a crawl runs for seconds to hours, and the cache's eagerly compiled code costs it
 * about 7 MB of peak memory (measured on a 10,000-page crawl) to save a few ms.
 * @module
 */
import module from "node:module";

if (process.argv[2] !== "audit") module.enableCompileCache?.();
const { ApiError, exitCodeOf, failureLine, metaFlagOf, SEO_SERVER_NAME: SERVER_NAME, VERSION } = await import(
  "../../../src/seo/commands.ts"
);

const USAGE = `${SERVER_NAME} ${VERSION}

Usage:
  ${SERVER_NAME} mcp                 serve the five SEO tools over stdio (MCP)
  ${SERVER_NAME} audit <url> [...]   audit a site from the terminal (see: audit --help)
  ${SERVER_NAME} gateway [...]       serve the tools over HTTP: POST /mcp and a REST subset (see: gateway --help)
  ${SERVER_NAME} --help | --version | <command> --help

Optional environment: SEO_PSI_KEY, SEO_CRUX_KEY, SEO_OPR_KEY, SEO_BING_KEY, SEO_GSC_CREDENTIALS,
SEO_<PROVIDER>_ENDPOINT overrides, SEO_CACHE_DIR; for the gateway GATEWAY_AUTH_TOKEN,
GATEWAY_ALLOWED_ORIGINS, GATEWAY_RATE_LIMIT, GATEWAY_TRUST_PROXY. See the README.
Exit codes: 0 ok, 1 failed (or audit --fail-on findings), 2 bad usage or settings, 130 interrupted (Ctrl-C).
`;

const MCP_USAGE = `Usage: ${SERVER_NAME} mcp

Serves the five SEO tools over stdio (MCP): an MCP client starts this command and speaks
JSON-RPC on its stdin and stdout; logs go to stderr. It takes no options; settings come from
the environment (see ${SERVER_NAME} --help). Closing stdin stops it.
`;

const COMMANDS = ["mcp", "audit", "gateway"];

async function runGateway(args: string[]): Promise<number> {
  const { GATEWAY_USAGE, serveGateway } = await import("./gateway.ts");
  if (metaFlagOf(args) === "help") {
    process.stdout.write(`Usage: ${SERVER_NAME} ${GATEWAY_USAGE}\n`);
    return 0;
  }
  await serveGateway(args);
  return -1;
}

async function mcp(args: string[]): Promise<number> {
  if (metaFlagOf(args) === "help") {
    process.stdout.write(MCP_USAGE);
    return 0;
  }
  const [first] = args;
  if (first !== undefined)
    throw new ApiError("INVALID_USAGE", first.startsWith("-") ? `unknown option ${first}` : `mcp takes no arguments (got "${first}")`);
  const { serveStdio } = await import("./stdio.ts");
  serveStdio();
  return -1;
}

/** `--help` or `--version`, asked at the top (also `help`, `-h`, `-v`) or after a command. */
function metaOf(args: string[]): "help" | "version" | undefined {
  if (args[0] === "help" || args[0] === "-h") return "help";
  if (args[0] === "-v") return "version";
  return metaFlagOf(args);
}

/** Answers the version anywhere and the overview's help; a command prints its own help. */
function answerMeta(args: string[]): number | undefined {
  const meta = metaOf(args);
  if (meta === "version") process.stdout.write(`${VERSION}\n`);
  else if (meta === "help" && !COMMANDS.includes(args[0] ?? "")) process.stdout.write(USAGE);
  else return undefined;
  return 0;
}

async function main(args: string[]): Promise<number> {
  const [command, ...rest] = args;
  const answered = answerMeta(args);
  if (answered !== undefined) return answered;
  if (command === "audit") return (await import("./audit.ts")).audit(rest);
  if (command === "gateway") return runGateway(rest);
  if (command === "mcp") return mcp(rest);
  if (command === undefined) throw new ApiError("INVALID_USAGE", "a command is required: mcp, audit or gateway");
  const what = command.startsWith("-") ? `unknown option ${command} (the command comes first)` : `unknown command "${command}"`;
  throw new ApiError("INVALID_USAGE", `${what}; the commands are mcp, audit and gateway (see ${SERVER_NAME} --help)`);
}

const helpOf = (command: string | undefined) =>
  command !== undefined && COMMANDS.includes(command) ? `${SERVER_NAME} ${command} --help` : `${SERVER_NAME} --help`;

// The exit code is set when the command finishes; `mcp` and `gateway` run on (-1).
try {
  const code = await main(process.argv.slice(2));
  if (code >= 0) process.exitCode = code;
} catch (err) {
  process.stderr.write(`${failureLine(err, helpOf(process.argv[2]))}\n`);
  process.exitCode = exitCodeOf(err);
}
