/**
 * The release workflow (.github/workflows/release.yml) and its dry run. The workflow is read as
 * GitHub reads it (YAML) and its steps checked: a `v*` tag, npm publish with provenance for
 * both packages, the guardrail built and sent to PyPI by trusted publishing, each job allowed
 * the OIDC token and nothing more. Then `npm publish --dry-run` runs for each workspace, as the
 * workflow's step would, against a registry on 127.0.0.1: npm 11's dry run still asks the
 * registry whether the version exists (GET /<name>; offline it retries for about a minute, then
 * goes on), so a local one keeps the test offline and shows that nothing was uploaded.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { load } from "js-yaml";
import { npmEnv, repoVersion, whileStaging } from "./npm.ts";

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}
interface Job {
  permissions?: Record<string, string>;
  environment?: string;
  steps: Step[];
}
interface Workflow {
  on: { push?: { tags?: string[]; branches?: string[] } };
  permissions?: Record<string, string>;
  jobs: Record<string, Job>;
}

const workflow = load(readFileSync(".github/workflows/release.yml", "utf8")) as Workflow;
const WORKSPACES = ["packages/seo-audit-mcp", "packages/charging-sites"];

let scratch: string;
let registry: { server: Server; url: string; requests: string[] };

before(async () => {
  scratch = mkdtempSync(join(tmpdir(), "release-dry-run-"));
  const requests: string[] = [];
  // Knows no package: the dry run learns the version is new, as for a first release.
  const server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    res.writeHead(404, { "content-type": "application/json" }).end('{"error":"Not found"}');
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  registry = { server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}/`, requests };
});
after(async () => {
  await new Promise((done) => registry.server.close(done));
  rmSync(scratch, { recursive: true, force: true });
});

const runs = (job: Job) => job.steps.flatMap((s) => (s.run ? [s.run.trim()] : []));

test("release.yml runs on a v* tag only, and nothing may write but the jobs' OIDC tokens", () => {
  assert.deepEqual(workflow.on, { push: { tags: ["v*"] } });
  assert.deepEqual(workflow.permissions, { contents: "read" });
  assert.deepEqual(Object.keys(workflow.jobs).sort(), ["npm", "pypi"]);
  for (const [name, job] of Object.entries(workflow.jobs)) {
    assert.deepEqual(job.permissions, { contents: "read", "id-token": "write" }, name);
    assert.equal(job.steps[0]?.uses, "actions/checkout@v4", `${name} starts from the tagged commit`);
  }
});

test("the npm job checks the tag against the versions, then publishes both packages with provenance", () => {
  const job = workflow.jobs.npm as Job;
  const node = job.steps.find((s) => s.uses === "actions/setup-node@v4");
  assert.deepEqual(node?.with, { "node-version": 22, "registry-url": "https://registry.npmjs.org" });
  const commands = runs(job);
  assert.ok(commands.includes("npm ci"));
  const check = commands.findIndex((c) => c.includes("$GITHUB_REF_NAME"));
  assert.ok(check > commands.indexOf("npm ci"), "the tag is checked before anything is published");
  for (const pkg of ["package.json", ...WORKSPACES.map((w) => `${w}/package.json`)]) assert.ok(commands[check]?.includes(pkg), pkg);
  const publishes = commands.filter((c) => c.startsWith("npm publish"));
  assert.deepEqual(publishes, WORKSPACES.map((w) => `npm publish --provenance --access public -w ${w}`));
  assert.ok(publishes.every((c) => commands.indexOf(c) > check));
  for (const step of job.steps.filter((s) => s.run?.startsWith("npm publish")))
    assert.deepEqual(step.env, { NODE_AUTH_TOKEN: "${{ secrets.NPM_TOKEN }}" });
});

test("the tag check refuses a tag that is not the packages' version, naming the fix", () => {
  const script = runs(workflow.jobs.npm as Job).find((c) => c.includes("$GITHUB_REF_NAME")) ?? "";
  const check = (tag: string) =>
    new Promise<{ code: number | null; stderr: string }>((done) => {
      // How GitHub Actions runs a `run:` step on Linux.
      const child = spawn("bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", script], {
        env: { PATH: process.env.PATH ?? "", GITHUB_REF_NAME: tag },
      });
      let stderr = "";
      child.stderr.on("data", (chunk: Buffer) => void (stderr += chunk.toString()));
      child.on("close", (code) => done({ code, stderr }));
    });
  return Promise.all([check(`v${repoVersion()}`), check("v99.0.0")]).then(([same, other]) => {
    assert.equal(same.code, 0, same.stderr);
    assert.equal(other.code, 1);
    assert.match(other.stderr, /^VERSION_MISMATCH: package\.json is v[\d.]+ but the tag is v99\.0\.0; set the version/);
  });
});

test("the pypi job builds the guardrail and publishes it by trusted publishing, without a stored token", () => {
  const job = workflow.jobs.pypi as Job;
  assert.equal(job.environment, "pypi");
  const commands = runs(job);
  assert.ok(commands.includes("python -m build src/guardrail"));
  const publish = job.steps.at(-1);
  assert.equal(publish?.uses, "pypa/gh-action-pypi-publish@release/v1");
  assert.deepEqual(publish?.with, { "packages-dir": "src/guardrail/dist/" });
  assert.ok(job.steps.every((s) => !JSON.stringify(s).includes("secrets.")), "trusted publishing needs no password");
  const project = readFileSync("src/guardrail/pyproject.toml", "utf8");
  assert.match(project, /^\[project\.urls\]\nHomepage = "https:\/\/github\.com\/[^"]+"\nRepository = "https:\/\/github\.com\/[^"]+"\nIssues = "https:\/\/github\.com\/[^"]+\/issues"\n/m);
  assert.match(readFileSync("src/guardrail/LICENSE", "utf8"), /^MIT License\n/);
});

interface DryRun {
  name: string;
  version: string;
  files: { path: string }[];
}

/** `npm publish --dry-run` of one workspace, prepack included, against the local registry. */
function publishDryRun(workspace: string): Promise<DryRun> {
  return whileStaging(
    () =>
      new Promise((done, fail) => {
        const args = ["publish", "--dry-run", "--json", "--access", "public", "-w", workspace, "--registry", registry.url];
        // Not offline: the dry run's one question goes to the local registry above.
        const env = { ...npmEnv(scratch), npm_config_offline: "false", npm_config_fetch_retries: "0" };
        const child = spawn("npm", args, { env, stdio: ["ignore", "pipe", "pipe"] });
        let stdout = "";
        let stderr = "";
        child.stdout.on("data", (chunk: Buffer) => void (stdout += chunk.toString()));
        child.stderr.on("data", (chunk: Buffer) => void (stderr += chunk.toString()));
        child.on("close", (code) => {
          if (code !== 0) return fail(new Error(`npm publish --dry-run -w ${workspace} exited ${code}: ${stderr}`));
          // prepack's progress lines come before npm's JSON on stdout.
          const answer = JSON.parse(stdout.slice(stdout.indexOf("{\n"))) as Record<string, DryRun>;
          const [only] = Object.values(answer);
          return only ? done(only) : fail(new Error(`no package in: ${stdout}`));
        });
      }),
  );
}

test("npm publish --dry-run of each workspace would upload LICENSE, README and the built files, and uploads nothing", async () => {
  for (const workspace of WORKSPACES) {
    const manifest = JSON.parse(readFileSync(`${workspace}/package.json`, "utf8")) as {
      name: string;
      version: string;
      bin: Record<string, string>;
      files: string[];
      repository: { url: string; directory: string };
      homepage: string;
      bugs: { url: string };
    };
    const run = await publishDryRun(workspace);
    assert.deepEqual([run.name, run.version], [manifest.name, repoVersion()], "the version the tag check compares");
    const files = run.files.map((f) => f.path);
    for (const needed of ["LICENSE", "README.md", "package.json", ...Object.values(manifest.bin)]) assert.ok(files.includes(needed), `${workspace}: ${needed}`);
    for (const entry of manifest.files) assert.ok(files.some((f) => f === entry || f.startsWith(entry)), `${workspace}: ${entry}`);
    assert.equal(manifest.repository.directory, workspace);
    assert.match(manifest.repository.url, /^git\+https:\/\/github\.com\/[\w.-]+\/[\w.-]+\.git$/);
    assert.ok(manifest.homepage.startsWith(manifest.repository.url.slice(4, -4)), "homepage in the repository");
    assert.equal(manifest.bugs.url, `${manifest.repository.url.slice(4, -4)}/issues`);
  }
  assert.ok(registry.requests.length > 0, "the dry run asked the local registry, not the public one");
  assert.ok(registry.requests.every((r) => r.startsWith("GET ")), `nothing uploaded: ${registry.requests.join(", ")}`);
});
