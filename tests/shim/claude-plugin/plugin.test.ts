import assert from "node:assert/strict";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, test } from "node:test";
import { load } from "js-yaml";
import { PACKAGE_SPEC } from "../../../src/seo/clients.ts";
import { claude } from "../../seo/fakes/claude-cli.ts";

const PLUGIN = "shim/claude-plugin";
const SKILLS = join(PLUGIN, "skills");
const { version } = JSON.parse(readFileSync("package.json", "utf8")) as { version: string };
const mcpJson = JSON.parse(readFileSync(join(PLUGIN, ".mcp.json"), "utf8"));

let home: string;
before(() => {
  home = mkdtempSync(join(tmpdir(), "seo-plugin-home-"));
});
after(() => rmSync(home, { recursive: true, force: true }));

interface Report {
  success: boolean;
  manifest: { errors: unknown[]; warnings: unknown[] };
  contents: { file: string; type: string; errors: unknown[]; warnings: unknown[] }[];
  provides: { mcpServers: unknown[]; skills: string[] };
}

test("claude plugin validate --strict: the plugin's manifest, MCP server and skill pass", () => {
  const cli = claude(["plugin", "validate", "--strict", "--json", PLUGIN], home);
  assert.equal(cli.status, 0, cli.stdout + cli.stderr);
  const report = JSON.parse(cli.stdout) as Report;
  assert.equal(report.success, true);
  assert.deepEqual([report.manifest.errors, report.manifest.warnings], [[], []]);
  for (const item of report.contents) assert.deepEqual([item.errors, item.warnings], [[], []], item.file);
  assert.deepEqual(report.provides.mcpServers, [
    { name: "seo", type: "stdio", target: "npx", args: ["-y", `\${SEO_AUDIT_MCP_PACKAGE:-${PACKAGE_SPEC}}`, "mcp"] },
  ]);
  assert.deepEqual(report.provides.skills, ["seo-audit:seo-check"]);
});

test("claude plugin validate: the plugin directory's submission checks and the marketplace pass", () => {
  const directory = claude(["plugin", "validate", "--profile", "directory", PLUGIN], home);
  assert.equal(directory.status, 0, directory.stdout);
  const market = claude(["plugin", "validate", "--strict", "."], home);
  assert.equal(market.status, 0, market.stdout);
  assert.match(market.stdout, /Validating marketplace manifest: .*\.claude-plugin\/marketplace\.json/);
});

test("the validator is not a rubber stamp: a skill without a description fails --strict", () => {
  const copy = mkdtempSync(join(tmpdir(), "seo-plugin-bad-"));
  const skill = join(copy, "skills/seo-check/SKILL.md");
  try {
    cpSync(PLUGIN, copy, { recursive: true });
    assert.equal(claude(["plugin", "validate", "--strict", copy], home).status, 0);
    mkdirSync(dirname(skill), { recursive: true });
    writeFileSync(skill, "---\nname: seo-check\n---\nAudit the site.\n");
    const bad = claude(["plugin", "validate", "--strict", copy], home);
    assert.equal(bad.status, 1);
    assert.match(bad.stdout, /No description in frontmatter/);
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
});

test("Agent Skills frontmatter rules: name is the folder's, lowercase, 1-64; description 1-1024; body under 500 lines", () => {
  const skills = readdirSync(SKILLS);
  assert.deepEqual(skills, ["seo-check"]);
  for (const dir of skills) {
    const text = readFileSync(join(SKILLS, dir, "SKILL.md"), "utf8");
    const match = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text);
    assert.ok(match, "SKILL.md starts with YAML frontmatter");
    const front = load(match[1] ?? "") as Record<string, unknown>;
    const allowed = ["name", "description", "license", "compatibility", "metadata", "allowed-tools"];
    assert.deepEqual(
      Object.keys(front).filter((k) => !allowed.includes(k)),
      [],
    );
    assert.equal(front.name, dir);
    assert.match(String(front.name), /^(?=.{1,64}$)[a-z0-9]+(-[a-z0-9]+)*$/);
    assert.equal(typeof front.description, "string");
    const description = String(front.description);
    assert.ok(description.length >= 1 && description.length <= 1024, `${description.length} characters`);
    assert.match(description, /Use when/, "says when to use it");
    assert.ok((match[2] ?? "").split("\n").length < 500);
  }
});

test("adding the repository as a marketplace installs the plugin offline, with its server and skill", () => {
  const add = claude(["plugin", "marketplace", "add", process.cwd()], home);
  assert.equal(add.status, 0, add.stdout + add.stderr);
  assert.match(add.stdout, /Successfully added marketplace: seo-audit-mcp/);
  const install = claude(["plugin", "install", "seo-audit@seo-audit-mcp"], home);
  assert.equal(install.status, 0, install.stdout + install.stderr);
  const list = claude(["plugin", "list", "--json"], home);
  const listed = JSON.parse(list.stdout) as {
    id: string;
    version: string;
    enabled: boolean;
    installPath: string;
    mcpServers: unknown;
  }[];
  // Claude Code 2.1.332 lists the plugins it ships with (`…@builtin`) beside the installed ones.
  const [installed, ...others] = listed.filter((plugin) => !plugin.id.endsWith("@builtin"));
  assert.deepEqual(others, []);
  assert.equal(installed?.id, "seo-audit@seo-audit-mcp");
  assert.equal(installed?.version, version);
  assert.equal(installed?.enabled, true);
  assert.deepEqual(installed?.mcpServers, mcpJson.mcpServers);
  for (const file of ["skills/seo-check/SKILL.md", ".mcp.json"]) {
    assert.equal(
      readFileSync(join(installed?.installPath ?? "", file), "utf8"),
      readFileSync(join(PLUGIN, file), "utf8"),
      file,
    );
  }
});

test("the plugin's server passes every key from the user's environment, unset ones as empty", () => {
  const env = mcpJson.mcpServers.seo.env as Record<string, string>;
  assert.deepEqual(Object.keys(env), [
    "SEO_PSI_KEY",
    "SEO_CRUX_KEY",
    "SEO_OPR_KEY",
    "SEO_BING_KEY",
    "SEO_GSC_CREDENTIALS",
  ]);
  for (const [name, value] of Object.entries(env)) assert.equal(value, `\${${name}:-}`);
});
