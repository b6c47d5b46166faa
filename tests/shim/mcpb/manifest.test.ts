import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { type Fakes, KEYS, startFakes } from "../../seo/fakes/providers.ts";
import { ensureBundle } from "../../seo/fakes/stdio.ts";
import { scriptEnv } from "../../shared/script-env.ts";

const MCPB_CLI = join(dirname(createRequire(import.meta.url).resolve("@anthropic-ai/mcpb")), "cli/cli.js");

interface Manifest {
  server: {
    type: string;
    entry_point: string;
    mcp_config: { command: string; args: string[]; env: Record<string, string> };
  };
  tools: { name: string; description?: string }[];
  user_config: Record<string, { type: string; sensitive?: boolean; required?: boolean; title: string }>;
}

let dir: string;
let bundle: string;
let packLog: string;
let unpacked: string;
let manifest: Manifest;
let fakes: Fakes;

before(async () => {
  ensureBundle();
  dir = mkdtempSync(join(tmpdir(), "seo-mcpb-"));
  const pack = spawnSync(process.execPath, ["scripts/pack-mcpb.ts", "--no-build", "--out", join(dir, "seo.mcpb")], {
    encoding: "utf8",
    env: scriptEnv(),
  });
  assert.equal(pack.status, 0, pack.stderr);
  bundle = pack.stdout.trim();
  packLog = pack.stderr;
  unpacked = join(dir, "unpacked");
  // Debian's unzip, not the packer's own zip library, reads the archive.
  execFileSync("unzip", ["-q", bundle, "-d", unpacked]);
  manifest = JSON.parse(readFileSync(join(unpacked, "manifest.json"), "utf8"));
  fakes = await startFakes();
});
after(async () => {
  await fakes.close();
  rmSync(dir, { recursive: true, force: true });
});

/** What the desktop app does: `${__dirname}` is the unpacked bundle, `${user_config.x}` the user's answer or empty. */
function resolveConfig(answers: Record<string, string>) {
  const fill = (text: string) =>
    text
      .replaceAll("${__dirname}", unpacked)
      .replace(/\$\{user_config\.(\w+)\}/g, (_, id: string) => answers[id] ?? "");
  const { command, args, env } = manifest.server.mcp_config;
  return {
    command: fill(command),
    args: args.map(fill),
    env: Object.fromEntries(Object.entries(env).map(([k, value]) => [k, fill(value)])),
  };
}

async function startFromBundle(answers: Record<string, string>) {
  const config = resolveConfig(answers);
  const transport = new StdioClientTransport({
    ...config,
    // Started outside the repository, as the desktop app would: nothing may come from this checkout.
    cwd: dir,
    env: { PATH: process.env.PATH ?? "", HOME: dir, SEO_CACHE_DIR: join(dir, "cache"), ...fakes.env, ...config.env },
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: "mcpb-host", version: "1" });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

test("pack-mcpb runs mcpb validate and pack; the archive holds the manifest and the built server only", () => {
  assert.match(packLog, /Manifest schema validation passes!/);
  assert.match(packLog, /total files: \d+/);
  const entries = execFileSync("unzip", ["-Z1", bundle], { encoding: "utf8" }).trim().split("\n").sort();
  const chunks = entries.filter((e) => e.startsWith("server/seo-chunks/"));
  assert.ok(chunks.length > 0 && chunks.every((e) => e.endsWith(".js")));
  assert.deepEqual(
    entries.filter((e) => !chunks.includes(e)),
    ["manifest.json", "server/package.json", "server/seo-audit-thread.js", "server/seo-page-worker.js", "server/seo.js"],
  );
  assert.equal(
    readFileSync(join(unpacked, "manifest.json"), "utf8"),
    readFileSync("shim/mcpb/manifest.json", "utf8"),
  );
  assert.ok(statSync(bundle).size < 1_000_000, `${statSync(bundle).size} bytes`);
});

test("mcpb validate rejects a manifest that breaks the schema", () => {
  const bad = join(dir, "bad", "manifest.json");
  mkdirSync(dirname(bad), { recursive: true });
  const broken = JSON.parse(readFileSync("shim/mcpb/manifest.json", "utf8"));
  delete broken.user_config.psi_key.title;
  writeFileSync(bad, JSON.stringify(broken));
  const validate = (path: string) => spawnSync(process.execPath, [MCPB_CLI, "validate", path], { encoding: "utf8" });
  const run = validate(bad);
  assert.equal(run.status, 1);
  assert.match(run.stdout, /user_config\.psi_key\.title/);
  const good = validate("shim/mcpb/manifest.json");
  assert.equal(good.status, 0, good.stdout);
});

test("the manifest runs the bundled entry with node; three optional, sensitive keys go in by name", () => {
  assert.equal(manifest.server.type, "node");
  assert.equal(manifest.server.entry_point, "server/seo.js");
  assert.deepEqual(manifest.server.mcp_config.command, "node");
  assert.deepEqual(manifest.server.mcp_config.args, ["${__dirname}/server/seo.js", "mcp"]);
  assert.deepEqual(manifest.server.mcp_config.env, {
    SEO_PSI_KEY: "${user_config.psi_key}",
    SEO_CRUX_KEY: "${user_config.crux_key}",
    SEO_OPR_KEY: "${user_config.opr_key}",
  });
  for (const [id, option] of Object.entries(manifest.user_config)) {
    assert.deepEqual([option.type, option.sensitive, option.required], ["string", true, false], id);
  }
});

test("started from the unpacked bundle, the server lists exactly the manifest's five tools", async () => {
  const { client, stderr } = await startFromBundle({});
  try {
    const { tools } = await client.listTools();
    assert.equal(tools.length, 5);
    assert.deepEqual(
      tools.map((t) => t.name),
      manifest.tools.map((t) => t.name),
    );
    assert.deepEqual(
      tools.map((t) => t.title),
      manifest.tools.map((t) => t.description),
    );
  } finally {
    await client.close();
  }
  assert.match(stderr(), /serving 5 tools over stdio/);
});

test("a key the user enters reaches its own provider under its variable name", async () => {
  const before = fakes.log.length;
  const { client, stderr } = await startFromBundle({ opr_key: KEYS.opr });
  try {
    const result = await client.callTool({ name: "seo_authority", arguments: { domains: ["example.com"] } });
    assert.equal(result.isError, undefined);
    assert.match(JSON.stringify(result.structuredContent), /"provenance":\{"kind":"provider","source":"open-pagerank"/);
  } finally {
    await client.close();
  }
  const calls = fakes.log.slice(before);
  const opr = calls.filter((c) => c.provider === "opr");
  assert.equal(opr.length, 1);
  assert.equal(opr[0]?.headers["api-opr"], KEYS.opr);
  assert.ok(!stderr().includes(KEYS.opr), "the key is never logged");
});
