/**
 * The error registry and its one class: HTTP's conversion point here; a code outside the
 * registry fails to compile; the README's table and every status the docs give match it.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { test } from "node:test";
import ts from "typescript";
import { errorTable, README, withTable } from "../../scripts/error-codes.ts";
import {
  ApiError,
  ERROR_CODES,
  ERRORS,
  errorResponse,
  isApiError,
  statusOf,
  toErrorResponse,
} from "../../src/shared/errors.ts";

test("errorResponse() answers the envelope with the code's status", async () => {
  const res = errorResponse("RATE_LIMITED", "slow down", { "retry-after": "7" });
  assert.equal(res.status, 429);
  assert.equal(res.headers.get("retry-after"), "7");
  assert.deepEqual(await res.json(), { error: { code: "RATE_LIMITED", message: "slow down" } });
});

test("toErrorResponse() keeps ApiError details and headers and hides anything else", async () => {
  const known = toErrorResponse(new ApiError("NOT_FOUND", "no such site"));
  assert.equal(known.status, 404);
  assert.deepEqual(await known.json(), { error: { code: "NOT_FOUND", message: "no such site" } });
  const allowed = toErrorResponse(new ApiError("METHOD_NOT_ALLOWED", "GET only", { headers: { allow: "GET" } }));
  assert.equal(allowed.status, 405);
  assert.equal(allowed.headers.get("allow"), "GET");
  const unknown = toErrorResponse(new Error("secret token abc in stack"));
  assert.equal(unknown.status, 500);
  assert.doesNotMatch(await unknown.text(), /secret/);
});

test("ApiError carries its code, status, headers and cause; isApiError() narrows by code", () => {
  const cause = new Error("ECONNREFUSED");
  const err = new ApiError("UNREACHABLE", "could not reach it", { cause });
  assert.equal(err.name, "ApiError");
  assert.equal(err.status, 502);
  assert.equal(err.cause, cause);
  assert.deepEqual(err.headers, {});
  assert.ok(err instanceof Error);
  assert.ok(isApiError(err));
  assert.ok(isApiError(err, "UNREACHABLE", "NOT_FOUND"));
  assert.ok(!isApiError(err, "NOT_FOUND"));
  assert.ok(!isApiError(cause));
  assert.ok(!("cause" in new ApiError("INTERNAL", "no cause")), "no cause property unless one is given");
});

test("every code has a 4xx or 5xx status, when it is answered and a next step", () => {
  assert.deepEqual(ERROR_CODES, Object.keys(ERRORS));
  for (const code of ERROR_CODES) {
    const { status, when, hint } = ERRORS[code];
    assert.equal(statusOf(code), status);
    assert.ok(status >= 400 && status < 600, code);
    assert.match(code, /^[A-Z]+(_[A-Z]+)*$/, code);
    assert.ok(when.length > 10 && hint.length > 10, code);
  }
  const statuses = ERROR_CODES.map(statusOf);
  assert.deepEqual(statuses, [...statuses].sort((a, b) => a - b), "the registry (and the table) is in status order");
});

test("a code outside the registry is a compile error, for the class and for a tool's unavailable code", () => {
  const dir = mkdtempSync(join(tmpdir(), "error-codes-"));
  try {
    const file = join(dir, "typo.ts");
    const src = (path: string) => JSON.stringify(resolve(path));
    writeFileSync(
      file,
      [
        `import { ApiError } from ${src("src/shared/errors.ts")};`,
        `import type { ToolDef } from ${src("src/shared/mcp/tool.ts")};`,
        `export const ok = new ApiError("NOT_FOUND", "fine");`,
        `export const typo = new ApiError("NOT_FOUDN", "typo");`,
        `export const unavailable: ToolDef["unavailable"] = { code: "LOCAL_0NLY", message: "typo" };`,
      ].join("\n"),
    );
    const program = ts.createProgram([file], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2023,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      allowImportingTsExtensions: true,
      skipLibCheck: true,
      types: ["node"],
    });
    const errors = ts
      .getPreEmitDiagnostics(program)
      .filter((d) => d.file?.fileName === file)
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    assert.equal(errors.length, 2, errors.join("\n"));
    assert.match(errors[0] as string, /"NOT_FOUDN"/);
    assert.match(errors[1] as string, /"LOCAL_0NLY"/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("README's error table is the registry (node scripts/error-codes.ts rewrites it)", () => {
  const doc = readFileSync(README, "utf8");
  assert.equal(withTable(doc), doc, "run node scripts/error-codes.ts");
  for (const code of ERROR_CODES) assert.ok(errorTable().includes(`| \`${code}\` | ${statusOf(code)} |`), code);
  assert.throws(() => withTable("no markers"), /markers/);
});

test("scripts/error-codes.ts --check fails on a drifted table, and a run repairs it", () => {
  const dir = mkdtempSync(join(tmpdir(), "error-table-"));
  const script = resolve("scripts/error-codes.ts");
  const run = (...args: string[]) => spawnSync(process.execPath, [script, ...args], { cwd: dir, encoding: "utf8" });
  try {
    writeFileSync(join(dir, README), withTable(readFileSync(README, "utf8")).replace("| 404 |", "| 410 |"));
    const drifted = run("--check");
    assert.equal(drifted.status, 1, drifted.stderr);
    assert.match(drifted.stderr, /differs from src\/shared\/errors\.ts; run node scripts\/error-codes\.ts/);
    assert.equal(run().status, 0);
    assert.equal(readFileSync(join(dir, README), "utf8"), readFileSync(README, "utf8"));
    assert.equal(run("--check").status, 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

const DOCS = [
  "README.md",
  "src/charging/API.md",
  "src/charging/DATA.md",
  "src/seo/TOOLS.md",
  "src/seo/AUDIT.md",
  "shim/claude-plugin/skills/seo-check/SKILL.md",
];

test("every status the docs give for a code is the registry's, and every code they list as an error exists", () => {
  let checked = 0;
  for (const path of DOCS) {
    const doc = readFileSync(path, "utf8");
    // "`CODE` 404", "| `CODE` | 404 |", "404 `CODE`" and "(HTTP 501 in the envelope)" after a code.
    const pairs = [
      ...doc.matchAll(/`([A-Z][A-Z_]+)`(?: \| | \(HTTP | )(\d{3})\b/g),
      ...[...doc.matchAll(/\b(\d{3}) `([A-Z][A-Z_]+)`/g)].map((m) => [m[0], m[2], m[1]] as const),
    ];
    for (const [, code, status] of pairs) {
      assert.ok(Object.hasOwn(ERRORS, code as string), `${path}: ${code} is not in the registry`);
      assert.equal(String(statusOf(code as keyof typeof ERRORS)), status, `${path}: status of ${code}`);
      checked++;
    }
    // A code an error message starts with: "`CODE: ...`" or "starts with `CODE`".
    for (const [, code] of doc.matchAll(/`([A-Z][A-Z_]{3,}):/g)) {
      if (code === "CODE") continue; // the placeholder of "`CODE: message`"
      assert.ok(Object.hasOwn(ERRORS, code as string), `${path}: ${code} is not in the registry`);
      checked++;
    }
  }
  assert.ok(checked >= 20, `the patterns still find the docs' codes (${checked})`);
});
