/**
 * The real Claude Code CLI (npm `@anthropic-ai/claude-code`, a devDependency), run offline in a
 * scratch home: its plugin validator, marketplace and plugin installer, and `mcp add`.
 * Started through the package's own fallback launcher, which finds the platform binary even
 * when npm skipped the postinstall that puts it in place.
 * @module
 */
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const LAUNCHER = join(
  dirname(createRequire(import.meta.url).resolve("@anthropic-ai/claude-code/package.json")),
  "cli-wrapper.cjs",
);

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `claude <args>` with HOME in `home`, telemetry and every non-essential request off. */
export function claude(args: string[], home: string, cwd = process.cwd()): CliResult {
  const run = spawnSync(process.execPath, [LAUNCHER, ...args], {
    cwd,
    encoding: "utf8",
    timeout: 60_000,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: home,
      DISABLE_TELEMETRY: "1",
      DISABLE_ERROR_REPORTING: "1",
      DISABLE_AUTOUPDATER: "1",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    },
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}
