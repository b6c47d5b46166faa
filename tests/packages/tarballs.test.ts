/**
 * Both npm packages from their tarballs: what each ships (and what it must not), its bins
 * started from an empty folder's install, and its library imported from a plain .mjs file and
 * type-checked from a .ts file against the installed declarations.
 */
import assert from "node:assert/strict";
import { execFile, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, test } from "node:test";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { fileText, type Installed, install, npmEnv, type Packed, pack, repoVersion, startServer } from "./npm.ts";
import { scriptEnv } from "../shared/script-env.ts";
import { serveSite } from "../seo/crawl/site-server.ts";
import { generatedSiteHandler } from "../seo/fakes/generated-site.ts";

const TSC = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const SHEBANG = "#!/usr/bin/env node\n";
// The embedded charging snapshot's magic ("CHGSNAP\0"), as it starts in a bundle's base64.
const SNAPSHOT_MAGIC = "Q0hHU05BUA";

let scratch: string;
let seo: { packed: Packed; installed: Installed };
let charging: { packed: Packed; installed: Installed };

before(async () => {
  scratch = mkdtempSync(join(tmpdir(), "npm-packages-"));
  const packedSeo = await pack("packages/seo-audit-mcp", join(scratch, "tarballs"), scratch);
  const packedCharging = await pack("packages/charging-sites", join(scratch, "tarballs"), scratch);
  seo = { packed: packedSeo, installed: install(packedSeo.tarball, join(scratch, "seo-user"), scratch) };
  charging = { packed: packedCharging, installed: install(packedCharging.tarball, join(scratch, "charging-user"), scratch) };
});
after(() => rmSync(scratch, { recursive: true, force: true }));

const paths = (p: Packed) => p.files.map((f) => f.path);
const report = (p: Packed) =>
  `${p.name}: ${(p.size / 1000).toFixed(1)} kB packed, ${(p.unpackedSize / 1e6).toFixed(2)} MB unpacked, ${p.files.length} files`;

function assertManifest(p: Packed, bins: Record<string, string>): void {
  const manifest = JSON.parse(fileText(p.tarball, "package.json")) as Record<string, unknown>;
  assert.equal(manifest.dependencies, undefined, "everything is bundled: nothing to install");
  assert.equal(manifest.version, repoVersion(), "the packages carry the repository's version, which the bundles report");
  assert.deepEqual(manifest.bin, bins);
  assert.ok(p.files.some((f) => f.path === "LICENSE"), "the MIT licence ships with the package");
  assert.match(fileText(p.tarball, "LICENSE"), /^MIT License\n\nCopyright \(c\) \d{4} the seo-charging-guardrail authors\n/);
  for (const target of Object.values(bins)) {
    const file = p.files.find((f) => f.path === target);
    assert.ok(file, `${target} ships`);
    assert.equal(file.mode & 0o111, 0o111, `${target} is executable in the tarball`);
    assert.ok(fileText(p.tarball, target).startsWith(SHEBANG), `${target} starts with ${SHEBANG.trim()}`);
  }
}

test("the seo-audit-mcp tarball carries the SEO server and library only", (t) => {
  const { packed } = seo;
  t.diagnostic(report(packed));
  assertManifest(packed, { "seo-audit-mcp": "dist/seo.js" });
  const files = paths(packed);
  const threads = ["dist/seo-audit-thread.js", "dist/seo-page-worker.js"];
  assert.ok(["dist/seo-lib.js", "dist/seo-lib.d.ts", ...threads].every((f) => files.includes(f)), files.join(", "));
  assert.ok(files.every((f) => ["package.json", "README.md", "LICENSE"].includes(f) || /^dist\/(seo\.js|seo-audit-thread\.js|seo-page-worker\.js|seo-lib\.(js|d\.ts)|seo-chunks\/[\w-]+\.js)$/.test(f)), files.join(", "));
  for (const file of files.filter((f) => f.endsWith(".js"))) {
    const text = fileText(packed.tarball, file);
    assert.ok(!text.includes(SNAPSHOT_MAGIC), `${file} carries no charging data`);
    assert.ok(!text.includes("find_nearby_sites"), `${file} carries no charging code`);
  }
});

test("the charging-sites tarball carries the charging CLI, data and library only", (t) => {
  const { packed } = charging;
  t.diagnostic(report(packed));
  assertManifest(packed, { charging: "dist/charging-cli.js" });
  const files = paths(packed);
  assert.ok(files.includes("dist/charging-lib.js") && files.includes("dist/charging-lib.d.ts"));
  assert.ok(files.every((f) => ["package.json", "README.md", "LICENSE"].includes(f) || /^dist\/(charging-cli\.js|charging-lib\.(js|d\.ts)|charging-chunks\/[\w-]+\.js)$/.test(f)), files.join(", "));
  const js = files.filter((f) => f.endsWith(".js")).map((f) => fileText(packed.tarball, f));
  assert.equal(js.filter((text) => text.includes(SNAPSHOT_MAGIC)).length, 1, "the embedded data ships once, shared by bin and library");
  assert.ok(js.every((text) => !text.includes("seo_audit_site")), "no SEO code");
});

test("installed seo-audit-mcp: its bin, and `npx -y <tarball> mcp`, serve five tools over stdio", async () => {
  const env = { PATH: process.env.PATH ?? "", SEO_CACHE_DIR: join(scratch, "seo-cache") };
  const starts = [
    { command: seo.installed.bin("seo-audit-mcp"), args: ["mcp"], cwd: seo.installed.dir, env: { ...env, HOME: scratch } },
    // What a client config runs, with the tarball in place of the registry name (npx's own cache: empty, offline).
    {
      command: "npx",
      args: ["-y", `./${seo.packed.filename}`, "mcp"],
      cwd: dirname(seo.packed.tarball),
      env: { ...npmEnv(join(scratch, "npx")), ...env },
    },
  ];
  for (const start of starts) {
    const client = new Client({ name: "tarball-test", version: "1" });
    await client.connect(new StdioClientTransport({ ...start, stderr: "ignore" }));
    try {
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((tool) => tool.name).sort(), [
        "seo_audit_site",
        "seo_authority",
        "seo_keyword_ideas",
        "seo_page_report",
        "seo_rank_check",
      ]);
      const server = client.getServerVersion();
      assert.deepEqual([server?.name, server?.version], ["seo-audit-mcp", repoVersion()]);
    } finally {
      await client.close();
    }
  }
});

test("installed charging-sites: `charging serve` answers /healthz, `charging search` reads the embedded data", async () => {
  const env = { PATH: process.env.PATH ?? "", HOME: scratch };
  const stage = JSON.parse(readFileSync("package.json", "utf8")).stage;
  const starts: [string, string[], Record<string, string>][] = [
    [charging.installed.bin("charging"), ["serve", "--port", "0"], env],
    // npx runs a package's only bin whatever its name: `npx -y charging-sites serve`, from the tarball.
    ["npx", ["-y", `./${charging.packed.filename}`, "serve", "--port", "0"], { ...npmEnv(join(scratch, "npx")), ...env }],
  ];
  for (const [command, args, startEnv] of starts) {
    const server = await startServer(command, args, startEnv, dirname(charging.packed.tarball));
    try {
      const health = await fetch(`${server.url}/healthz`);
      assert.equal(health.status, 200);
      assert.deepEqual(await health.json(), { ok: true, stage });
    } finally {
      await server.stop();
    }
  }
  const search = spawnSync(charging.installed.bin("charging"), ["search", "--near", "52.52,13.40", "--limit", "2", "--json"], {
    encoding: "utf8",
    env,
  });
  assert.equal(search.status, 0, search.stderr);
  assert.equal((JSON.parse(search.stdout) as { data: unknown[] }).data.length, 2);
});

/** The package README's JavaScript example, as a reader copies it. */
function readmeExample(pkg: string): string {
  const readme = readFileSync(`packages/${pkg}/README.md`, "utf8");
  const example = /```js\n([\s\S]*?)\n```/.exec(readme)?.[1];
  assert.ok(example, `packages/${pkg}/README.md has a js example`);
  return example;
}

/** Runs `node <file>` in `cwd`; its stdout. */
function runNode(cwd: string, file: string, source: string): string {
  writeFileSync(join(cwd, file), source);
  const run = spawnSync(process.execPath, [file], { cwd, encoding: "utf8", env: { PATH: process.env.PATH ?? "", HOME: scratch } });
  assert.equal(run.status, 0, run.stderr);
  return run.stdout;
}

test("installed seo-audit-mcp: `audit` crawls a local site on its audit thread, pages parsed on the main thread", async () => {
  const site = await serveSite(generatedSiteHandler(60));
  try {
    const env = { PATH: process.env.PATH ?? "", HOME: scratch, SEO_CACHE_DIR: join(scratch, "seo-cache") };
    const { stdout, stderr } = await promisify(execFile)(seo.installed.bin("seo-audit-mcp"), ["audit", `${site.origin}/`, "--json"], {
      cwd: seo.installed.dir,
      env,
      timeout: 60_000,
    });
    assert.doesNotMatch(stderr, /main thread|audit's thread/);
    assert.match(stderr, /done: 60 pages/);
    assert.equal((JSON.parse(stdout) as { target: string }).target, `${site.origin}/`);
  } finally {
    await site.close();
  }
});

test("installed seo-audit-mcp: the library from plain JavaScript, its README example included", () => {
  const { dir } = seo.installed;
  assert.equal(runNode(dir, "readme.mjs", readmeExample("seo-audit-mcp")), "200 seo-audit-mcp gateway\n");
  const out = runNode(
    dir,
    "use.mjs",
    `import { sleep, createSeoHandler, loadSeoConfig, VERSION } from "seo-audit-mcp";
const handler = createSeoHandler({
  provider: { fetch, now: () => new Date(), sleep: sleep },
  config: loadSeoConfig({ env: {} }),
  egress: "open",
});
const health = await handler(new Request("http://localhost/healthz"));
console.log(JSON.stringify({ health: [health.status, await health.json()], version: VERSION }));
`,
  );
  const stage = JSON.parse(readFileSync("package.json", "utf8")).stage;
  assert.deepEqual(JSON.parse(out), { health: [200, { ok: true, stage }], version: repoVersion() });
});

test("installed charging-sites: the library from plain JavaScript serves the embedded data, its README example included", () => {
  const { dir } = charging.installed;
  assert.match(runNode(dir, "readme.mjs", readmeExample("charging-sites")), /^200 \S.*\n$/);
  const out = runNode(
    dir,
    "use.mjs",
    `import { createChargingHandler, createChargingServices, createStore, loadEmbeddedSnapshot, openSnapshot } from "charging-sites";
const store = createStore(openSnapshot(await loadEmbeddedSnapshot()));
const handler = createChargingHandler(createChargingServices(store, { now: () => new Date() }));
const health = await handler(new Request("http://localhost/healthz"));
const site = await handler(new Request("http://localhost/api/v1/sites/ocm%3A120077"));
console.log(JSON.stringify({ health: health.status, size: store.size, site: [site.status, (await site.json()).data.id] }));
`,
  );
  assert.deepEqual(JSON.parse(out), { health: 200, size: 4461, site: [200, "ocm:120077"] });
});

/** tsc --noEmit in the install folder, strict and with the declarations checked (no skipLibCheck). */
function typecheck(dir: string, source: string): { status: number | null; out: string } {
  writeFileSync(join(dir, "use.ts"), source);
  const options = {
    strict: true,
    noEmit: true,
    skipLibCheck: false,
    target: "es2023",
    lib: ["es2023", "dom"],
    module: "nodenext",
    moduleResolution: "nodenext",
    types: [],
  };
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: options, files: ["use.ts"] }));
  const run = spawnSync(process.execPath, [TSC, "-p", "tsconfig.json"], { cwd: dir, encoding: "utf8" });
  return { status: run.status, out: run.stdout + run.stderr };
}

test("installed packages type-check a TypeScript consumer against their declarations alone", () => {
  const seoUse = `import { createSeoHandler, loadSeoConfig, type FetchHandler, type SeoConfig } from "seo-audit-mcp";
const config: SeoConfig = loadSeoConfig({ env: { SEO_PSI_KEY: "k" } });
const handler: FetchHandler = createSeoHandler({ provider: { fetch, now: () => new Date(), sleep: async () => {} }, config, egress: "open" });
export const status: Promise<number> = handler(new Request("http://localhost/healthz")).then((r) => r.status);
`;
  const chargingUse = `import { createChargingHandler, createChargingServices, storeOfSites, type Store } from "charging-sites";
const store: Store = storeOfSites([]);
const first: Promise<string | null | undefined> = store.search({ limit: 1, offset: 0 }).then((page) => page.data[0]?.name);
export const handler = createChargingHandler({ ...createChargingServices(store, { now: () => new Date() }), ratePerMinute: 10 });
export { first };
`;
  for (const [dir, source] of [
    [seo.installed.dir, seoUse],
    [charging.installed.dir, chargingUse],
  ] as const) {
    const ok = typecheck(dir, source);
    assert.equal(ok.status, 0, ok.out);
    // The declarations are real types, not `any`: a wrong option is a compile error.
    const wrong = typecheck(dir, source.replace(/egress: "open"|ratePerMinute: 10/, (m) => m.replace(/"open"|10/, "true")));
    assert.equal(wrong.status, 2, wrong.out);
    assert.match(wrong.out, /use\.ts\(\d+,\d+\): error TS2322/);
  }
});

test("each install holds its package alone: no dependency was fetched", () => {
  for (const [name, dir] of [
    ["seo-audit-mcp", seo.installed.dir],
    ["charging-sites", charging.installed.dir],
  ] as const) {
    const ls = spawnSync("npm", ["ls", "--all", "--json"], { cwd: dir, encoding: "utf8", env: npmEnv(scratch) });
    const tree = JSON.parse(ls.stdout) as { dependencies: Record<string, { dependencies?: unknown }> };
    assert.deepEqual(Object.keys(tree.dependencies), [name]);
    assert.equal(tree.dependencies[name]?.dependencies, undefined);
  }
});

test("staging an unknown package fails with the known names", () => {
  const run = spawnSync(process.execPath, ["scripts/pack-package.ts", "seo"], { encoding: "utf8", env: scriptEnv() });
  assert.equal(run.status, 1);
  assert.equal(run.stderr, "pack-package: unknown package seo; known: seo-audit-mcp, charging-sites\n");
});
