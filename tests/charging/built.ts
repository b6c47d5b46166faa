/** Builds the charging bundles once when a test run finds them missing (npm test builds first). */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

export function ensureBuilt(): void {
  if (existsSync("dist/charging.js") && existsSync("dist/charging-cli.js")) return;
  const run = spawnSync(process.execPath, ["scripts/build.ts", "charging", "charging-cli"], {
    stdio: "inherit",
  });
  if (run.status !== 0) throw new Error("building dist/charging.js and dist/charging-cli.js failed");
}
