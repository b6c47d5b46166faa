/**
 * The README's promises to a newcomer: its first shell block is the two commands for a fresh
 * machine (run, test), CI runs exactly that test command, and within the first 60 lines it says
 * what each service is and gives each a quick start that uses only commands the repository has.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

const README = readFileSync("README.md", "utf8");
const TOP = README.split("\n").slice(0, 60).join("\n");
const shellBlocks = (markdown: string) => [...markdown.matchAll(/```sh\n(.*?)```/gs)].map((m) => m[1]!.trim());
/** The command of each line of a shell block, without its trailing comment. */
const commands = (block: string) => block.split("\n").map((line) => line.replace(/\s+#.*$/, "").trim());

test("the first shell block is the run command and the test command, and CI runs the latter", () => {
  const [first] = shellBlocks(README);
  assert.deepEqual(commands(first!), ["scripts/dev npm start", "scripts/dev npm test"]);
  const ci = readFileSync(".ci/run", "utf8").split("\n").filter((line) => line && !line.startsWith("#"));
  assert.equal(ci.at(-1), "exec scripts/dev npm test");
  const scripts = JSON.parse(readFileSync("package.json", "utf8")).scripts as Record<string, string>;
  assert.ok(scripts.start && scripts.test, "package.json defines start and test");
});

test("within 60 lines: what each service is, and a three-line quick start for each", () => {
  for (const service of ["SEO audit MCP server", "Charging-site API", "Masking guardrail for the LiteLLM proxy"]) {
    assert.ok(TOP.includes(`**${service}.**`), service);
  }
  const quickStarts = shellBlocks(TOP).slice(1);
  assert.equal(quickStarts.length, 3);
  for (const block of quickStarts) assert.equal(commands(block).length, 3, block);
});

test("the quick starts name files and npm scripts that exist", () => {
  const scripts = JSON.parse(readFileSync("package.json", "utf8")).scripts as Record<string, string>;
  for (const line of shellBlocks(TOP).flatMap(commands)) {
    const script = /npm (?:run )?([\w:]+)/.exec(line)?.[1];
    if (script) assert.ok(script in scripts, line);
  }
  const built = [...TOP.matchAll(/dist\/(seo|charging-cli|charging)\.js/g)].map((m) => m[1]!);
  const build = readFileSync("scripts/build.ts", "utf8");
  for (const name of new Set(built)) assert.ok(build.includes(`"${name}"`) || build.includes(`${name}.js`), `scripts/build.ts builds dist/${name}.js`);
  for (const file of ["shim/litellm/reversible_mask_guardrail.py", "shim/litellm/config.yaml", "shim/litellm/dictionary.yaml", "src/guardrail/pyproject.toml"]) {
    assert.ok(readFileSync(file, "utf8").length > 0, file);
  }
});
