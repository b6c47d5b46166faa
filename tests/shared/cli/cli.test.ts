/**
 * The one command-line parser and the command lines' conversion point (stderr line, exit code).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { metaFlagOf, parseArgs, valueOf } from "../../../src/shared/cli/args.ts";
import { exitCodeOf, failureLine, reportFailure, UNEXPECTED_NEXT_STEP, USAGE_CODES } from "../../../src/shared/cli/failure.ts";
import { ApiError, ERROR_CODES, ERRORS, isApiError } from "../../../src/shared/errors.ts";

const KNOWN = { json: { value: false }, limit: { value: true }, out: { value: true } };

const usageError = (message: RegExp) => (err: unknown) => isApiError(err, "INVALID_USAGE") && message.test(err.message);

test("parseArgs() splits positionals and options, honouring -- and -h", () => {
  const parsed = parseArgs(["site", "--json", "--", "--odd-id"], { json: { value: false } });
  assert.deepEqual(parsed, { positionals: ["site", "--odd-id"], options: { json: true } });
  assert.deepEqual(parseArgs(["-h"], {}).options, { help: true });
  assert.deepEqual(parseArgs(["-", "--limit=5", "--out", "x.json"], KNOWN), {
    positionals: ["-"],
    options: { limit: "5", out: "x.json" },
  });
});

test("parseArgs() refuses what it does not know, repeats, and options without their value", () => {
  const cases: [string[], RegExp][] = [
    [["--bogus"], /^unknown option --bogus$/],
    [["--bogus=1"], /^unknown option --bogus$/],
    [["-l", "5"], /^unknown option -l$/],
    [["--constructor"], /^unknown option --constructor$/],
    [["--json=yes"], /^--json takes no value$/],
    [["--limit"], /^--limit needs a value$/],
    [["--limit="], /^--limit needs a value$/],
    [["--limit", "--json"], /^--limit needs a value$/],
    [["--limit", "1", "--limit", "2"], /^--limit given more than once$/],
  ];
  for (const [argv, message] of cases) assert.throws(() => parseArgs(argv, KNOWN), usageError(message), argv.join(" "));
});

test("valueOf() reads a value option and nothing else", () => {
  const parsed = parseArgs(["--limit", "5", "--json"], KNOWN);
  assert.equal(valueOf(parsed, "limit"), "5");
  assert.equal(valueOf(parsed, "json"), undefined);
  assert.equal(valueOf(parsed, "out"), undefined);
});

test("parseArgs() on any argv answers or throws INVALID_USAGE, nothing else (fast-check)", () => {
  const token = fc.oneof(
    fc.string({ maxLength: 12 }),
    fc.constantFrom("--json", "--limit", "--out", "--", "-h", "--limit=", "--json=1", "--__proto__", "--toString"),
  );
  fc.assert(
    fc.property(fc.array(token, { maxLength: 8 }), (argv) => {
      try {
        const { positionals, options } = parseArgs(argv, KNOWN);
        for (const name of Object.keys(options)) assert.ok(name === "help" || Object.hasOwn(KNOWN, name), name);
        assert.ok(positionals.length <= argv.length);
      } catch (err) {
        assert.ok(isApiError(err, "INVALID_USAGE"), String(err));
      }
    }),
    { numRuns: 500 },
  );
});

test("reportFailure(): one line CODE: what happened; what to do; usage, configuration and data problems exit 2, the rest 1", () => {
  assert.deepEqual(USAGE_CODES, ["INVALID_USAGE", "INVALID_CONFIG", "INVALID_DATA"]);
  for (const code of ERROR_CODES) {
    const lines: string[] = [];
    const exit = reportFailure(new ApiError(code, "what happened; what to do"), "tool --help", (line) => lines.push(line));
    const usage: boolean = USAGE_CODES.includes(code);
    assert.deepEqual({ exit, lines }, { exit: usage ? 2 : 1, lines: [`${code}: what happened; what to do`] });
    assert.equal(exitCodeOf(new ApiError(code, "x")), usage ? 2 : 1);
  }
  const bug = new Error("a bug");
  assert.throws(() => reportFailure(bug, "tool --help", () => assert.fail("nothing written")), (err) => err === bug, "not ours: the entry point reports it");
  assert.equal(exitCodeOf(new Error("a bug")), 1);
  assert.equal(exitCodeOf("thrown text"), 1);
});

test("failureLine(): a message without a next step gets one; line breaks never split the line", () => {
  assert.equal(failureLine(new ApiError("INVALID_USAGE", "unknown option --x"), "tool sub --help"), "INVALID_USAGE: unknown option --x; see tool sub --help");
  assert.equal(failureLine(new ApiError("INVALID_CONFIG", "PORT is\nbad"), "tool --help"), `INVALID_CONFIG: PORT is bad; ${ERRORS.INVALID_CONFIG.hint}`);
  assert.equal(failureLine(new ApiError("NOT_FOUND", "gone; search first"), "tool --help"), "NOT_FOUND: gone; search first");
  assert.equal(failureLine(new Error("boom\nat x"), "tool --help"), `INTERNAL: boom at x; ${UNEXPECTED_NEXT_STEP}`);
  assert.equal(failureLine("thrown text", "tool --help"), `INTERNAL: thrown text; ${UNEXPECTED_NEXT_STEP}`);
});

test("metaFlagOf(): --help, -h and --version anywhere before --, the first one wins", () => {
  assert.equal(metaFlagOf(["search", "--bogus", "--help"]), "help");
  assert.equal(metaFlagOf(["-h"]), "help");
  assert.equal(metaFlagOf(["audit", "--version", "--help"]), "version");
  assert.equal(metaFlagOf(["site", "--", "--help"]), undefined, "after -- it is an argument");
  assert.equal(metaFlagOf(["search", "--limit", "5"]), undefined);
});
