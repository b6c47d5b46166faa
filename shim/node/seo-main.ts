/**
 * The `seo-audit-mcp` command, loaded by the launcher (seo-cli.ts): `mcp` serves the SEO tools
 * over stdio, `audit <url>` runs the human CLI, `gateway` serves them over HTTP. Each command's
 * code is loaded only when it runs. In `mcp` mode stdout carries protocol only; logs go to stderr.
 * @module
 */
import { exitCodeOf, SEO_SERVER_NAME as SERVER_NAME, VERSION } from "../../src/seo/commands.ts";

const USAGE = `${SERVER_NAME} ${VERSION}

Usage:
  ${SERVER_NAME} mcp                 serve the five SEO tools over stdio (MCP)
  ${SERVER_NAME} audit <url> [...]   audit a site from the terminal (see: audit --help)
  ${SERVER_NAME} gateway [...]       serve the tools over HTTP: POST /mcp and a REST subset (see: gateway --help)
  ${SERVER_NAME} --help | --version

Optional environment: SEO_PSI_KEY, SEO_CRUX_KEY, SEO_OPR_KEY, SEO_BING_KEY, SEO_GSC_CREDENTIALS,
SEO_<PROVIDER>_ENDPOINT overrides, SEO_CACHE_DIR; for the gateway GATEWAY_AUTH_TOKEN,
GATEWAY_ALLOWED_ORIGINS, GATEWAY_RATE_LIMIT, GATEWAY_TRUST_PROXY. See the README.
`;

async function runGateway(args: string[]): Promise<number> {
  const { GATEWAY_USAGE, serveGateway } = await import("./seo-gateway.ts");
  if (args.includes("--help") || args.includes("-h")) {
    process.stdout.write(`Usage: ${SERVER_NAME} ${GATEWAY_USAGE}\n`);
    return 0;
  }
  await serveGateway(args);
  return -1;
}

async function audit(args: string[]): Promise<number> {
  const { audit: run } = await import("./audit-thread.ts");
  return run(args);
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
  if (command === "audit") return audit(rest);
  if (command === "gateway") return runGateway(rest);
  if (command === "mcp" && rest.length === 0) {
    const { serveStdio } = await import("./seo-stdio.ts");
    serveStdio();
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
      process.stderr.write(`${SERVER_NAME}: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exitCode = exitCodeOf(err);
    },
  );
