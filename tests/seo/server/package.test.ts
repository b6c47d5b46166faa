import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ensureBundle } from "../fakes/stdio.ts";

let dir: string;
before(() => {
  ensureBundle();
  dir = mkdtempSync(join(tmpdir(), "seo-pack-"));
});
after(() => rmSync(dir, { recursive: true, force: true }));

// npm's own cache in a scratch folder, offline: the package has no runtime dependencies.
const npmEnv = () => ({
  PATH: process.env.PATH ?? "",
  HOME: dir,
  npm_config_cache: join(dir, "cache"),
  npm_config_offline: "true",
  npm_config_update_notifier: "false",
  npm_config_fund: "false",
  npm_config_audit: "false",
});

test("npm pack ships the bundle without runtime dependencies, and npx -y ./tarball mcp serves five tools", async () => {
  const out = execFileSync("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", dir], {
    encoding: "utf8",
    env: { ...process.env, ...npmEnv() },
    stdio: ["ignore", "pipe", "ignore"],
  });
  const [packed] = JSON.parse(out) as { filename: string; files: { path: string }[] }[];
  assert.ok(packed);
  const paths = packed.files.map((f) => f.path);
  assert.ok(paths.includes("dist/seo.js"));
  assert.ok(paths.some((p) => p.startsWith("dist/seo-chunks/seo-main-")));
  assert.ok(!paths.some((p) => p.startsWith("src/") || p.startsWith("tests/")), "only built files ship");
  const pkg = JSON.parse(
    execFileSync("tar", ["-xOzf", join(dir, packed.filename), "package/package.json"], { encoding: "utf8" }),
  );
  assert.equal(pkg.dependencies, undefined, "everything is bundled");
  assert.equal(pkg.bin["seo-audit-mcp"], "dist/seo.js");

  const transport = new StdioClientTransport({
    command: "npx",
    args: ["-y", `./${packed.filename}`, "mcp"],
    cwd: dir,
    env: npmEnv(),
    stderr: "ignore",
  });
  const client = new Client({ name: "pack-test", version: "1" });
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    assert.equal(tools.length, 5);
    assert.equal(client.getServerVersion()?.name, "seo-audit-mcp");
  } finally {
    await client.close();
  }
});
