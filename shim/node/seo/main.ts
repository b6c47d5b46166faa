/**
 * The `seo-audit-mcp` command, loaded by the launcher (bin.ts): `mcp` serves the SEO tools
 * over stdio, `audit <url>` runs the human CLI, `gateway` serves them over HTTP. Each command's
 * code is loaded only when it runs. In `mcp` mode stdout carries protocol only; logs go to stderr.
 * Every command answers `--help` and `--version`; every failure is one stderr line,
 * `CODE: what happened; what to do`.
 * @module
 */
import { ApiError, exitCodeOf, failureLine, metaFlagOf, SEO_SERVER_NAME as SERVER_NAME, VERSION } from "../../../src/seo/commands.ts";

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

async function audit(args: string[]): Promise<number> {
  const { audit: run } = await import("./audit.ts");
  return run(args);
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
  if (command === "audit") return audit(rest);
  if (command === "gateway") return runGateway(rest);
  if (command === "mcp") return mcp(rest);
  if (command === undefined) throw new ApiError("INVALID_USAGE", "a command is required: mcp, audit or gateway");
  const what = command.startsWith("-") ? `unknown option ${command} (the command comes first)` : `unknown command "${command}"`;
  throw new ApiError("INVALID_USAGE", `${what}; the commands are mcp, audit and gateway (see ${SERVER_NAME} --help)`);
}

const helpOf = (command: string | undefined) =>
  command !== undefined && COMMANDS.includes(command) ? `${SERVER_NAME} ${command} --help` : `${SERVER_NAME} --help`;

/** Runs the command line; sets the exit code when the command finishes (not in `mcp` mode). */
export const run = (): Promise<void> =>
  main(process.argv.slice(2)).then(
    (code) => {
      if (code >= 0) process.exitCode = code;
    },
    (err: unknown) => {
      process.stderr.write(`${failureLine(err, helpOf(process.argv[2]))}\n`);
      process.exitCode = exitCodeOf(err);
    },
  );
