/**
 * The verify pipeline: typecheck, lint, build, test, smoke. Stops at the first failing stage.
 * Progress goes to stderr; the last line on stdout is `verify ok: stage <n>`, where n is the
 * build stage marker that the smoke stage read back from the built server's GET /healthz.
 * @module
 */
import { spawnSync } from "node:child_process";

const stages: Array<[string, string[]]> = [
  ["typecheck", ["npm", "run", "--silent", "typecheck"]],
  ["lint", ["npm", "run", "--silent", "lint"]],
  ["build", ["npm", "run", "--silent", "build"]],
  ["test", ["npm", "run", "--silent", "test"]],
];

stages.forEach(([name, [cmd, ...args]], i) => {
  process.stderr.write(`verify: stage ${i + 1}/5 ${name}\n`);
  const run = spawnSync(cmd as string, args, { stdio: ["ignore", "inherit", "inherit"] });
  if (run.status !== 0) {
    process.stderr.write(`verify failed at stage ${i + 1} (${name})\n`);
    process.exit(1);
  }
});

process.stderr.write("verify: stage 5/5 smoke\n");
const smoke = spawnSync("node", ["scripts/smoke.ts"], {
  stdio: ["ignore", "pipe", "inherit"],
  encoding: "utf8",
});
const stage = /^stage (\d+)$/m.exec(smoke.stdout ?? "")?.[1];
if (smoke.status !== 0 || stage === undefined) {
  process.stderr.write("verify failed at stage 5 (smoke)\n");
  process.exit(1);
}
process.stdout.write(`verify ok: stage ${stage}\n`);
