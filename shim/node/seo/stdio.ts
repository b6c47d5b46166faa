/**
 * `seo-audit-mcp mcp`: the SEO handler over stdio. stdin lines go through the stdio bridge to
 * the handler (with the local crawl, egress open: auditing localhost is the headline use);
 * every answer message goes to stdout, one per line. stdout carries protocol only; logs go to
 * stderr. Closing stdin aborts whatever runs and exits.
 * @module
 */
import { createInterface } from "node:readline";
import { createStdioBridge, VERSION } from "../../../src/seo/mod.ts";
import { nodeSeoHandler } from "./handler.ts";

/** Room for an earlier report object passed back as `compare_to`. */
const STDIO_MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

export function serveStdio(): void {
  const { handler, log } = nodeSeoHandler({ crawl: true, egress: "open", maxBodyBytes: STDIO_MAX_MESSAGE_BYTES });
  const bridge = createStdioBridge({
    handler: (request) => handler(request),
    write: (message) => void process.stdout.write(`${message}\n`),
  });
  // A stray rejection in one call must not take down the server other calls depend on.
  process.on("unhandledRejection", (err) => {
    log(`unexpected failure, server continues: ${err instanceof Error ? err.message : String(err)}`);
  });
  // The client went away mid-answer: nobody is left to answer.
  process.stdout.on("error", () => process.exit(0));
  const lines = createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY });
  lines.on("line", (line) => bridge.receive(line));
  lines.once("close", () => void bridge.close().finally(() => process.exit(0)));
  log(`${VERSION} serving 5 tools over stdio`);
}
