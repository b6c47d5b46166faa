/**
 * scripts/test.ts, the runner behind `npm test` and `npm run test:quick`: the Python step runs
 * after a failed build or a failed TypeScript test, the run still fails, and the summary names
 * both sides; the quick tier leaves out exactly the listed system tests, which must exist.
 */
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { countsOf, quickFiles, run, runSteps, type Step, SYSTEM, typescriptLine } from "../scripts/test.ts";

/** A step that runs real node printing `out` and exiting with `code`. */
const step = (name: string, code: number, out = ""): Step => ({
  name,
  command: [process.execPath, "-e", `process.stdout.write(${JSON.stringify(out)}); process.exit(${code})`],
  keep: name === "typescript",
  line: name === "typescript" ? (c, o) => typescriptLine("typescript", c, o) : (c) => `${name}: ${c === 0 ? "ok" : "failed"}`,
});
/** The real runner, kept quiet: the steps' output would mix into this test's own report. */
const quiet: typeof run = (command, args, keep) => run(command, args, keep, false);
const TAP = (pass: number, fail: number) => `not ok 1 - x\n# tests ${pass + fail}\n# pass ${pass}\n# fail ${fail}\n# cancelled 0\n`;

test("a failing TypeScript test: python still runs, the run fails, the summary names both", async () => {
  const { ok, lines } = await runSteps([step("build", 0), step("typescript", 1, TAP(7, 2)), step("python", 0)], quiet);
  assert.equal(ok, false);
  assert.deepEqual(lines, ["typescript: 7 passed, 2 failed", "python: ok"]);
});

test("a failed build: no TypeScript tests, python still runs", async () => {
  const { ok, lines } = await runSteps([step("build", 2), step("typescript", 0, TAP(1, 0)), step("python", 1)], quiet);
  assert.equal(ok, false);
  assert.deepEqual(lines, ["build: failed", "typescript: not run (the build failed)", "python: failed"]);
});

test("everything green: ok, and the summary is one line per side", async () => {
  const { ok, lines } = await runSteps([step("build", 0), step("typescript", 0, TAP(5, 0)), step("python", 0)], quiet);
  assert.equal(ok, true);
  assert.deepEqual(lines, ["typescript: 5 passed, 0 failed", "python: ok"]);
});

test("the totals come from the last summary, TAP or spec; the coverage gate is named when it alone failed", () => {
  assert.deepEqual(countsOf(`# pass 1\n# fail 0\n${TAP(40, 1)}`), { passed: 40, failed: 1 });
  assert.deepEqual(countsOf("ℹ pass 3\nℹ fail 0\nℹ cancelled 1\n"), { passed: 3, failed: 1 });
  assert.equal(countsOf("no totals here"), undefined);
  const gate = `${TAP(9, 0)}ERROR: Coverage for lines (94.2%) does not meet global threshold (95%)\n`;
  assert.equal(typescriptLine("typescript", 1, gate), "typescript: 9 passed, 0 failed; coverage of lines 94.2 % is under 95 %");
  assert.equal(typescriptLine("typescript", 1, "crashed"), "typescript: no test totals (exit 1)");
});

test("the quick tier: every test file but the system tests, each of which exists", () => {
  const all = readdirSync("tests", { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".test.ts"))
    .map((f) => join("tests", f).replaceAll("\\", "/"));
  const quick = quickFiles(all);
  assert.equal(quick.length, all.length - SYSTEM.length);
  assert.ok(quick.includes("tests/test-tiers.test.ts") && !quick.includes("tests/packages/tarballs.test.ts"));
  assert.throws(() => quickFiles(["tests/a.test.ts"], ["tests/gone.test.ts"]), /tests\/gone\.test\.ts/);
});
