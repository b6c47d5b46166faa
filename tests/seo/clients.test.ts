import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import {
  addCommand,
  bundleManifest,
  CLIENT_KEYS,
  marketplace,
  mcpServersConfig,
  PACKAGE_SPEC,
  PACKAGE_VARIABLE,
  pluginManifest,
  pluginMcpConfig,
  shellLine,
  vscodeConfig,
} from "../../src/seo/clients.ts";
import { claude } from "./fakes/claude-cli.ts";
import { ensureBundle } from "./fakes/stdio.ts";
import { scriptEnv } from "../shared/script-env.ts";

const DOCS = "src/seo/TOOLS.md";
const GENERATED = [
  DOCS,
  "shim/mcpb/manifest.json",
  "shim/claude-plugin/.mcp.json",
  "shim/claude-plugin/.claude-plugin/plugin.json",
  ".claude-plugin/marketplace.json",
];
// The published package; its bin path is relative to its folder, and the repository's dist/ has the same layout.
const pkg = JSON.parse(readFileSync("packages/seo-audit-mcp/package.json", "utf8")) as {
  name: string;
  version: string;
  bin: Record<string, string>;
};

let scratch: string;
before(() => {
  ensureBundle();
  scratch = mkdtempSync(join(tmpdir(), "seo-clients-"));
});
after(() => rmSync(scratch, { recursive: true, force: true }));

interface Entry {
  type?: string;
  command: string;
  args: string[];
  env: Record<string, string>;
}
interface McpServersDoc {
  mcpServers: { seo: Entry };
}
interface VsCodeDoc {
  servers: { seo: Entry };
  inputs: { id: string; type: string; password: boolean }[];
}

/** The fenced blocks of the docs' generated client-configuration section, as a reader copies them. */
function documented() {
  const doc = readFileSync(DOCS, "utf8");
  const section = doc.slice(doc.indexOf("<!-- client-configs:begin"), doc.indexOf("<!-- client-configs:end -->"));
  const blocks = [...section.matchAll(/```(\w+)\n([\s\S]*?)\n```/g)].map((m) => ({ lang: m[1], body: m[2] ?? "" }));
  const jsons = blocks.filter((b) => b.lang === "json").map((b) => JSON.parse(b.body) as Record<string, unknown>);
  const texts = blocks.filter((b) => b.lang === "text").map((b) => b.body.trim());
  const find = <T>(items: T[], pick: (t: T) => boolean, what: string): T => {
    const found = items.find(pick);
    assert.ok(found, `${DOCS} documents ${what}`);
    return found;
  };
  const mcpServers = find(jsons, (j) => "mcpServers" in j, "an mcpServers JSON") as unknown as McpServersDoc;
  const vscode = find(jsons, (j) => "servers" in j, "a servers JSON") as unknown as VsCodeDoc;
  return {
    mcpServers,
    vscode,
    cursorLink: find(texts, (t) => t.startsWith("cursor://"), "a Cursor link"),
    vscodeLink: find(texts, (t) => t.startsWith("vscode:"), "a VS Code link"),
    addCommands: blocks
      .filter((b) => b.lang === "sh")
      .flatMap((b) => b.body.split("\n"))
      .filter((line) => line.startsWith("claude mcp add")),
  };
}

const run = (args: string[]) =>
  spawnSync(process.execPath, ["scripts/client-configs.ts", "--no-build", ...args], { encoding: "utf8", env: scriptEnv() });

test("client-configs --check: the docs and every shipped client file match their one source", () => {
  const check = run(["--check"]);
  assert.equal(check.status, 0, check.stderr);
});

test("client-configs --check fails naming each drifted file, and a regeneration repairs them", () => {
  const root = join(scratch, "tree");
  for (const path of ["package.json", ...GENERATED]) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    cpSync(path, join(root, path));
  }
  const docs = readFileSync(join(root, DOCS), "utf8");
  writeFileSync(join(root, DOCS), docs.replace('"-y",', '"--yes",'));
  const manifest = join(root, "shim/mcpb/manifest.json");
  writeFileSync(manifest, readFileSync(manifest, "utf8").replace('"sensitive": true', '"sensitive": false'));

  const drift = run(["--check", "--root", root]);
  assert.equal(drift.status, 1);
  assert.match(drift.stderr, /src\/seo\/TOOLS\.md differs/);
  assert.match(drift.stderr, /shim\/mcpb\/manifest\.json differs/);
  assert.doesNotMatch(drift.stderr, /plugin\.json differs|marketplace\.json differs|\.mcp\.json differs/);

  writeFileSync(join(root, DOCS), docs.replace("<!-- client-configs:end -->", ""));
  assert.match(run(["--check", "--root", root]).stderr, /markers .* are missing/);
  writeFileSync(join(root, DOCS), docs);

  assert.equal(run(["--root", root]).status, 0);
  assert.equal(run(["--check", "--root", root]).status, 0);
  assert.equal(readFileSync(manifest, "utf8"), readFileSync("shim/mcpb/manifest.json", "utf8"));
});

test("the Cursor and VS Code install links decode to the documented JSON", () => {
  const docs = documented();
  const entry = docs.mcpServers.mcpServers.seo;
  assert.deepEqual(entry, {
    command: "npx",
    args: ["-y", PACKAGE_SPEC, "mcp"],
    env: { SEO_PSI_KEY: "", SEO_CRUX_KEY: "", SEO_OPR_KEY: "" },
  });

  const cursor = new URL(docs.cursorLink);
  assert.equal(`${cursor.protocol}//${cursor.host}${cursor.pathname}`, "cursor://anysphere.cursor-deeplink/mcp/install");
  assert.equal(cursor.searchParams.get("name"), "seo");
  const config = Buffer.from(cursor.searchParams.get("config") ?? "", "base64").toString("utf8");
  assert.deepEqual(JSON.parse(config), entry);

  const prefix = "vscode:mcp/install?";
  assert.ok(docs.vscodeLink.startsWith(prefix));
  // VS Code's handler: JSON.parse(decodeURIComponent(query)), then { name, inputs, ...config }.
  const { name, inputs, ...server } = JSON.parse(decodeURIComponent(docs.vscodeLink.slice(prefix.length))) as Entry & {
    name: string;
    inputs: unknown;
  };
  assert.equal(name, "seo");
  assert.deepEqual(server, docs.vscode.servers.seo);
  assert.deepEqual(inputs, docs.vscode.inputs);
  assert.deepEqual({ ...server, env: undefined }, { type: "stdio", ...entry, env: undefined });

  const ids = docs.vscode.inputs.map((i) => i.id);
  assert.deepEqual(Object.keys(server.env), Object.keys(entry.env), "the same three keys");
  for (const value of Object.values(server.env)) {
    const id = /^\$\{input:([\w-]+)\}$/.exec(value)?.[1];
    assert.ok(id && ids.includes(id), `${value} names a declared input`);
  }
  assert.ok(docs.vscode.inputs.every((i) => i.type === "promptString" && i.password === true));
});

test("the documented one-line add commands, run by the real CLI, write the documented entry", () => {
  const docs = documented();
  assert.equal(docs.addCommands.length, 2);
  const entry = docs.mcpServers.mcpServers.seo;
  const added: Entry[] = [];
  for (const [i, line] of docs.addCommands.entries()) {
    assert.doesNotMatch(line, /['"\\$<>]/, "a plain line a shell passes through unchanged");
    const [, mcp, add, ...rest] = line.split(" ");
    const project = join(scratch, `project-${i}`);
    mkdirSync(project);
    const cli = claude([mcp ?? "", add ?? "", "--scope", "project", ...rest], join(scratch, "home"), project);
    assert.equal(cli.status, 0, cli.stderr);
    added.push(JSON.parse(readFileSync(join(project, ".mcp.json"), "utf8")).mcpServers.seo);
  }
  assert.deepEqual(added[0], { type: "stdio", command: entry.command, args: entry.args, env: {} });
  assert.deepEqual(Object.keys(added[1]?.env ?? {}), Object.keys(entry.env));
  assert.deepEqual(added[1]?.args, entry.args);
});

/** What each client hands the server for an unset key: empty, or the placeholder it could not expand. */
function shapes(): [string, Entry][] {
  const docs = documented();
  const plugin = JSON.parse(readFileSync("shim/claude-plugin/.mcp.json", "utf8")).mcpServers.seo as Entry;
  const expanded = Object.fromEntries(Object.keys(plugin.env).map((k) => [k, ""]));
  return [
    ["mcpServers JSON and the Cursor link", docs.mcpServers.mcpServers.seo],
    ["servers JSON and the VS Code link, inputs not resolved", docs.vscode.servers.seo],
    ["plugin .mcp.json, ${VAR:-} expanded", { ...plugin, args: ["-y", PACKAGE_SPEC, "mcp"], env: expanded }],
    ["plugin .mcp.json, placeholders passed verbatim", plugin],
  ];
}

test("every client shape starts the server with unset keys and lists the five tools", async () => {
  for (const [shape, entry] of shapes()) {
    // `npx -y <tarball> <args>` runs the package's bin; here the built bin of this checkout.
    const spec = [PACKAGE_SPEC, `\${${PACKAGE_VARIABLE}:-${PACKAGE_SPEC}}`];
    assert.deepEqual([entry.command, entry.args[0]], ["npx", "-y"], shape);
    assert.ok(spec.includes(entry.args[1] ?? ""), shape);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [pkg.bin[pkg.name] ?? "", ...entry.args.slice(2)],
      env: { PATH: process.env.PATH ?? "", SEO_CACHE_DIR: join(scratch, "cache"), ...entry.env },
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const client = new Client({ name: "shape-test", version: "1" });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      assert.equal(tools.length, 5, shape);
    } finally {
      await client.close();
    }
    assert.match(stderr, /serving 5 tools over stdio/, shape);
    assert.doesNotMatch(stderr, /Error|exit code/, shape);
    const verbatim = Object.values(entry.env).some((value) => value.startsWith("${"));
    assert.equal(/unexpanded placeholder; treated as unset/.test(stderr), verbatim, shape);
  }
});

test("an add command with awkward key values survives a real shell word for word", () => {
  const awkward = ["", "a b", "it's", '"quoted"', "$HOME", "`id`", "x; exit 7", "$(exit 9)", "line\nbreak", "back\\slash", "ü✓"];
  for (const value of awkward) {
    const argv = addCommand({ SEO_PSI_KEY: value });
    // printf prints each word the shell passed, NUL-terminated, so empty words and newlines stay visible.
    const out = spawnSync("sh", ["-c", `printf '%s\\0' ${shellLine(argv)}`], { encoding: "utf8" });
    assert.equal(out.status, 0, out.stderr);
    assert.deepEqual(out.stdout.split("\0").slice(0, -1), argv, JSON.stringify(value));
  }
});

test("every shape carries the same command, the version given and the keys it is meant to", () => {
  const asked = CLIENT_KEYS.filter((k) => k.asked).map((k) => k.env);
  assert.deepEqual(asked, ["SEO_PSI_KEY", "SEO_CRUX_KEY", "SEO_OPR_KEY"]);
  const entries = [mcpServersConfig().mcpServers.seo, vscodeConfig().servers.seo, pluginMcpConfig().mcpServers.seo];
  // Not on the registry yet: every shape runs the packed tarball (the plugin's path from a variable).
  assert.equal(PACKAGE_SPEC, `/path/to/${pkg.name}-${pkg.version}.tgz`);
  for (const e of entries.slice(0, 2)) assert.deepEqual([e.command, ...e.args], ["npx", "-y", PACKAGE_SPEC, "mcp"]);
  assert.deepEqual(entries[2]?.args, ["-y", `\${SEO_AUDIT_MCP_PACKAGE:-${PACKAGE_SPEC}}`, "mcp"]);
  assert.deepEqual(Object.keys(mcpServersConfig().mcpServers.seo.env), asked);
  assert.deepEqual(Object.keys(pluginMcpConfig().mcpServers.seo.env), CLIENT_KEYS.map((k) => k.env));

  const manifest = bundleManifest("9.8.7", [{ name: "a_tool", title: "A tool" }, { name: "untitled" }]);
  assert.equal(manifest.version, "9.8.7");
  assert.deepEqual(manifest.tools, [{ name: "a_tool", description: "A tool" }, { name: "untitled" }]);
  assert.deepEqual(Object.keys(manifest.server.mcp_config.env), asked);
  assert.equal(pluginManifest("9.8.7").version, "9.8.7");
  const [entry] = marketplace("9.8.7").plugins;
  assert.deepEqual([entry?.name, entry?.version, entry?.source], [pluginManifest("1").name, "9.8.7", "./shim/claude-plugin"]);
  assert.deepEqual(addCommand().slice(-4), ["npx", "-y", PACKAGE_SPEC, "mcp"]);
});
