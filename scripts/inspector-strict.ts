/**
 * MCP Inspector's strict check, run for real: `mcp-inspector --cli --strict --method tools/list`
 * (version pinned below, fetched by npx, so the network is needed once) against the SEO stdio
 * server and the charging server over HTTP, both from source. Prints what the Inspector
 * reports; exit 1 when it reports any portability finding, error or warning. The test suite
 * runs the same rules offline (tests/shared/mcp/portability.ts).
 *
 *   node scripts/inspector-strict.ts
 * @module
 */
import { spawnSync } from "node:child_process";
import { startBuilt, stop } from "./smoke.ts";

const INSPECTOR = "@modelcontextprotocol/inspector@2.12.0";

/** Runs the Inspector's strict listing against `target`; the findings it printed, or none. */
function inspect(label: string, target: string[]): boolean {
  const args = ["--yes", INSPECTOR, "--cli", "--strict", "--method", "tools/list", ...target];
  const run = spawnSync("npx", args, { encoding: "utf8", timeout: 300_000, env: { ...process.env, NO_COLOR: "1" } });
  const tools = run.status === 0 ? (JSON.parse(run.stdout) as { tools: { name: string }[] }).tools.map((t) => t.name) : [];
  const findings = /^(Warning|Error): /m.test(run.stderr);
  process.stdout.write(`== ${label}: exit ${run.status}, tools ${tools.join(", ") || "none"}\n`);
  process.stdout.write(findings ? run.stderr : "no schema portability findings\n");
  return run.status === 0 && !findings;
}

const seo = inspect("seo-audit-mcp over stdio", [process.execPath, "--import", "tsx", "shim/node/seo/bin.ts", "mcp"]);
const charging = await startBuilt({}, "--import", ["tsx", "shim/node/charging/server.ts"]);
let chargingClean: boolean;
try {
  chargingClean = inspect("charging over HTTP", ["--transport", "http", `${charging.url}/mcp`]);
} finally {
  await stop(charging.child);
}
process.exitCode = seo && chargingClean ? 0 : 1;
