/**
 * `charging refresh` over in-memory I/O: downloads in the providers' formats, the real import,
 * the snapshot read back, the count check against the file it replaces, the rename, and what
 * is left behind (nothing but the new file) whether it succeeds or not.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { ApiError } from "../../../src/shared/errors.ts";
import { countDrop, DEFAULT_OCM_REFERENCE_URL, DEFAULT_OCM_URL, DEFAULT_OSM_URL, type DownloadOptions, type RefreshIo, runRefresh } from "../../../src/charging/import/refresh.ts";
import { openSnapshot } from "../../../src/charging/snapshot/read.ts";
import { chunked } from "../data/helpers.ts";
import { OCM_POI, OCM_REFERENCE, overpassAnswer } from "./providers.ts";

type Answer = Uint8Array | Error;

interface Run {
  code: number;
  stderr: string[];
  stdout: string[];
  files: Map<string, Uint8Array>;
  downloads: { url: string; options: DownloadOptions }[];
}

const OUT = "/data/charging.snapshot";

const PROVIDERS: Record<string, Answer> = {
  [DEFAULT_OCM_URL]: OCM_POI,
  [DEFAULT_OCM_REFERENCE_URL]: OCM_REFERENCE,
  [DEFAULT_OSM_URL]: overpassAnswer(),
};

function memoryIo(run: Run, answers: Record<string, Answer>, env: Record<string, string>): RefreshIo {
  const { files } = run;
  return {
    env,
    async openFile(path) {
      const bytes = files.get(path);
      if (!bytes) throw new Error(`ENOENT: ${path}`);
      return { size: bytes.byteLength, stream: chunked(bytes, 65_536) };
    },
    async writeFile(path, data) {
      files.set(path, data instanceof Uint8Array ? data : new TextEncoder().encode([...data].join("")));
    },
    stderr: (line) => run.stderr.push(line),
    stdout: (line) => run.stdout.push(line),
    now: () => new Date("2026-11-27T12:00:00.000Z"),
    async download(url, to, options) {
      run.downloads.push({ url, options });
      const answer = answers[url];
      if (answer === undefined) throw new ApiError("UPSTREAM_UNAVAILABLE", `GET ${url} failed: HTTP 404; check the URL`);
      if (answer instanceof Error) throw answer;
      files.set(to, answer);
      return answer.byteLength;
    },
    async inspect(path) {
      const bytes = files.get(path);
      if (!bytes) return undefined;
      const snapshot = openSnapshot(bytes);
      return { counts: snapshot.header.counts, importedAt: snapshot.header.importedAt, version: snapshot.version };
    },
    async rename(from, to) {
      files.set(to, files.get(from) as Uint8Array);
      files.delete(from);
    },
    async remove(path) {
      files.delete(path);
    },
    async workDir(beside) {
      const path = `${beside.slice(0, beside.lastIndexOf("/"))}/.charging-refresh-1`;
      return { path, remove: async () => [...files.keys()].filter((f) => f.startsWith(`${path}/`)).forEach((f) => files.delete(f)) };
    },
  };
}

async function refresh(
  args: string[],
  { answers = PROVIDERS, files = new Map<string, Uint8Array>(), env = {} as Record<string, string> } = {},
): Promise<Run> {
  const run: Run = { code: -1, stderr: [], stdout: [], files, downloads: [] };
  run.code = await runRefresh(args, memoryIo(run, answers, env));
  return run;
}

const countsOf = (bytes: Uint8Array | undefined) => openSnapshot(bytes as Uint8Array).header.counts;

test("refresh downloads OCM and OSM from the public endpoints, imports, and puts the snapshot in place", async () => {
  const run = await refresh([], { env: { CHARGING_DATA: OUT, OCM_API_KEY: "k-123" } });
  assert.equal(run.code, 0, run.stderr.join("\n"));
  assert.deepEqual(
    run.downloads.map((d) => new URL(d.url).host),
    ["api.openchargemap.io", "api.openchargemap.io", "overpass-api.de"],
  );
  assert.match(new URL(DEFAULT_OSM_URL).searchParams.get("data") ?? "", /^\[out:json\].*nwr\["amenity"="charging_station"\];out center meta;$/);
  assert.deepEqual(run.downloads.map((d) => d.options.headers), [{ "x-api-key": "k-123" }, { "x-api-key": "k-123" }, {}], "the key goes to OCM only");
  assert.deepEqual(run.downloads[0]?.options, { headers: { "x-api-key": "k-123" }, idleTimeoutMs: 120_000, retries: 3, backoffMs: 5000 });
  assert.deepEqual([...run.files.keys()], [OUT], "the downloads and the candidate are gone");
  assert.deepEqual(countsOf(run.files.get(OUT)), { sites: 182, ocm: 100, osm: 82 });
  const summary = JSON.parse(run.stdout.join("")) as Record<string, unknown>;
  assert.deepEqual(summary.counts, { sites: 182, ocm: 100, osm: 82 });
  assert.equal(summary.previous, null);
  assert.equal(summary.importedAt, "2026-11-27T12:00:00.000Z");
  assert.match(run.stderr.at(-1) ?? "", /^refresh: replaced \/data\/charging\.snapshot: 182 sites \(ocm 100, osm 82\); a server serving it swaps on its own$/);
});

test("refresh takes its URLs, key and download settings from flags", async () => {
  const answers = { "http://127.0.0.1:1/poi": OCM_POI, "http://127.0.0.1:1/ref": OCM_REFERENCE, "http://127.0.0.1:1/osm": overpassAnswer() };
  const flags = ["--ocm-url", "http://127.0.0.1:1/poi", "--ocm-reference-url", "http://127.0.0.1:1/ref", "--osm-url", "http://127.0.0.1:1/osm"];
  const run = await refresh(["--out", OUT, ...flags, "--ocm-key", "flag-key", "--timeout", "2", "--retries", "0", "--backoff", "0.5"], {
    answers,
    env: { OCM_API_KEY: "env-key" },
  });
  assert.equal(run.code, 0, run.stderr.join("\n"));
  assert.deepEqual(run.downloads[1], { url: "http://127.0.0.1:1/poi", options: { headers: { "x-api-key": "flag-key" }, idleTimeoutMs: 2000, retries: 0, backoffMs: 500 } });
});

test("a new cut with too few sites, in total or per source, is refused and the old file stays", async () => {
  const first = await refresh(["--out", OUT]);
  const before = first.files.get(OUT);
  const shrunk = { ...PROVIDERS, [DEFAULT_OSM_URL]: overpassAnswer(10) };
  const refused = await refresh(["--out", OUT], { answers: shrunk, files: first.files });
  assert.equal(refused.code, 2);
  assert.equal(refused.stderr.at(-1), `INVALID_DATA: refused the new data: osm sites fell from 82 to 10, more than the 10% --max-drop allows; ${OUT} is unchanged (check the downloads, or raise --max-drop if the drop is real)`);
  assert.equal(refused.files.get(OUT), before);
  assert.deepEqual([...refused.files.keys()], [OUT]);
  const allowed = await refresh(["--out", OUT, "--max-drop", "90"], { answers: shrunk, files: first.files });
  assert.equal(allowed.code, 0, allowed.stderr.join("\n"));
  assert.deepEqual(countsOf(allowed.files.get(OUT)), { sites: 110, ocm: 100, osm: 10 });
  assert.deepEqual(JSON.parse(allowed.stdout.join("")).previous, { sites: 182, ocm: 100, osm: 82 });
  assert.match(allowed.stderr.at(-1) ?? "", /\(was 182, imported 2026-11-27T12:00:00\.000Z\)/);
});

test("countDrop: total and per source against the old counts; no sites at all is always refused", () => {
  assert.equal(countDrop({ sites: 100, ocm: 60, osm: 40 }, { sites: 91, ocm: 55, osm: 36 }, 10), undefined);
  assert.equal(countDrop({ sites: 100 }, { sites: 89 }, 10), "sites fell from 100 to 89, more than the 10% --max-drop allows");
  assert.equal(countDrop({ sites: 100, osm: 40 }, { sites: 60 }, 10), "osm sites fell from 40 to 0, more than the 10% --max-drop allows", "the source first");
  assert.equal(countDrop({}, { sites: 0 }, 100), "the new data has no sites");
  assert.equal(countDrop({ sites: 0 }, { sites: 5 }, 0), undefined);
});

test("a failed download replaces nothing and leaves nothing behind", async () => {
  const first = await refresh(["--out", OUT]);
  const before = first.files.get(OUT);
  const down = new ApiError("UPSTREAM_UNAVAILABLE", `GET ${DEFAULT_OSM_URL} failed 4 times: HTTP 504; nothing was replaced: check the URL, or retry later`);
  const failed = await refresh(["--out", OUT], { answers: { ...PROVIDERS, [DEFAULT_OSM_URL]: down }, files: first.files });
  assert.equal(failed.code, 1);
  assert.equal(failed.stderr.at(-1), `UPSTREAM_UNAVAILABLE: ${down.message}`);
  assert.equal(failed.files.get(OUT), before);
  assert.deepEqual([...failed.files.keys()], [OUT]);
});

test("downloads the importer cannot read fail the import: exit 2, nothing replaced", async () => {
  const html = new TextEncoder().encode("<html><body>502 Bad Gateway</body></html>");
  const run = await refresh(["--out", OUT], { answers: { ...PROVIDERS, [DEFAULT_OSM_URL]: html } });
  assert.equal(run.code, 2);
  assert.match(run.stderr.join("\n"), /osm-overpass\.json: .*unknown format/);
  assert.match(run.stderr.at(-1) ?? "", /^INVALID_DATA: the import of the downloads failed \(see the lines above\), so \/data\/charging\.snapshot\.refresh was not written; check that/);
  assert.deepEqual([...run.files.keys()], []);
});

test("an old file that does not open is no reason to keep it: the new one replaces it", async () => {
  const files = new Map([[OUT, new TextEncoder().encode("garbage")]]);
  const run = await refresh(["--out", OUT], { files });
  assert.equal(run.code, 0, run.stderr.join("\n"));
  assert.ok(run.stderr.some((l) => l.startsWith(`refresh: ${OUT} does not open (`)));
  assert.equal(countsOf(run.files.get(OUT)).sites, 182);
});

test("refresh: bad flags exit 2 with one line, before any download; --help answers on stdout", async () => {
  const cases: [string[], RegExp][] = [
    [[], /^INVALID_USAGE: --out FILE is required when CHARGING_DATA is not set; see charging refresh --help$/],
    [["--out", OUT, "--max-drop", "200"], /--max-drop 200 is not a number from 0 to 100/],
    [["--out", OUT, "--retries", "1.5"], /--retries 1\.5 is not a whole number/],
    [["--out", OUT, "--timeout", "soon"], /--timeout soon is not a number/],
    [["--out", OUT, "--osm-url", "ftp://x/y"], /--osm-url ftp:\/\/x\/y is not an http\(s\) URL/],
    [["--out", OUT, "extra.json"], /refresh takes no file arguments/],
    [["--out", OUT, "--bogus"], /unknown option --bogus/],
  ];
  for (const [args, line] of cases) {
    const run = await refresh(args);
    assert.equal(run.code, 2, args.join(" "));
    assert.match(run.stderr.join("\n"), line);
    assert.equal(run.downloads.length, 0);
  }
  const help = await refresh(["--bogus", "--help"]);
  assert.equal(help.code, 0);
  assert.match(help.stdout.join(""), /^usage: charging refresh /);
});

test("refresh: an unexpected failure is not swallowed", async () => {
  const run: Run = { code: -1, stderr: [], stdout: [], files: new Map(), downloads: [] };
  const io = { ...memoryIo(run, PROVIDERS, {}), download: () => Promise.reject(new TypeError("boom")) };
  await assert.rejects(runRefresh(["--out", OUT], io), /boom/);
  assert.deepEqual([...run.files.keys()], []);
});
