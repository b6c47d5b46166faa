/**
 * Fresh data without a restart, through a real socket: a client sends requests without pause
 * while `CHARGING_DATA` is renamed over (good files, a broken one) and SIGHUP arrives; not one
 * request fails, every answer comes whole from one snapshot (its entity tag names the cut its
 * body is from), and `/api/v1/dataset` names the new import after each swap. Broken files
 * (truncated, bad CRC, not a snapshot) are refused with one line while the old data keeps
 * serving.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { snapshotOf } from "../../../../src/charging/snapshot/write.ts";
import { openSnapshot } from "../../../../src/charging/snapshot/read.ts";
import { loadStore, startChargingServer } from "../../../../shim/node/charging/app.ts";
import { replaceFile } from "../../../../shim/node/charging/import-io.ts";
import { fileIdentity, reloadDataOnChange } from "../../../../shim/node/charging/reload.ts";
import { site } from "../../../charging/data/helpers.ts";
import type { Store } from "../../../../src/charging/mod.ts";

const dir = mkdtempSync(join(tmpdir(), "charging-reload-"));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A snapshot of `count` sites named `<cut> <n>`, imported at `importedAt`. */
function cutOf(cut: string, count: number, importedAt: string): Uint8Array {
  const sites = Array.from({ length: count }, (_, i) =>
    site(`ocm:${i + 1}`, { name: `${cut} ${i + 1}`, lat: (i % 170) - 85, lon: (i % 350) - 175 }),
  );
  return snapshotOf(sites, { importedAt, sources: [] });
}

const IMPORTED = { A: "2026-01-01T00:00:00.000Z", B: "2026-02-01T00:00:00.000Z" };
const CUTS = { A: cutOf("A", 3000, IMPORTED.A), B: cutOf("B", 2000, IMPORTED.B) };
const versionOf = (bytes: Uint8Array) => openSnapshot(bytes).version;
const VERSIONS = new Map(Object.entries(CUTS).map(([cut, bytes]) => [versionOf(bytes), cut]));

function badCrc(bytes: Uint8Array): Uint8Array {
  const copy = bytes.slice();
  copy[copy.length - 100] = (copy[copy.length - 100] as number) ^ 0xff;
  return copy;
}

const BROKEN = {
  truncated: CUTS.A.slice(0, CUTS.A.length >> 1),
  "bad CRC": badCrc(CUTS.A),
  "not a snapshot": new TextEncoder().encode("<html>502 Bad Gateway</html>"),
};

/** Polls `check` every 20 ms; fails naming `what` after 30 s (the machine may be busy). */
async function until(what: string, check: () => boolean): Promise<void> {
  for (let waited = 0; !check(); waited += 20) {
    if (waited > 30_000) assert.fail(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

interface Load {
  sent: number;
  failed: string[];
  /** The cut of the last answer. */
  last: string | undefined;
  stop(): Promise<void>;
}

/** One answer checked: 200, and its entity tag and body from the same cut. */
async function checked(url: string): Promise<string> {
  const response = await fetch(url);
  const body = (await response.json()) as { data: { name: string }[] };
  if (response.status !== 200) throw new Error(`HTTP ${response.status}`);
  const version = /^"([^-]+)-/.exec(response.headers.get("etag") ?? "")?.[1] ?? "";
  const cut = VERSIONS.get(version);
  const cuts = new Set(body.data.map((s) => s.name.split(" ")[0]));
  if (!cut || cuts.size !== 1 || !cuts.has(cut)) throw new Error(`etag ${version} (${cut}) with sites of ${[...cuts].join()}`);
  return cut;
}

/** `workers` clients, each sending its next request as soon as its last one is answered. */
function startLoad(base: string, workers: number): Load {
  let running = true;
  const load: Load = { sent: 0, failed: [], last: undefined, stop: async () => {} };
  const worker = async (w: number) => {
    for (let i = 0; running; i++) {
      load.sent++;
      try {
        load.last = await checked(`${base}/api/v1/sites?limit=5&offset=${(w * 7 + i) % 50}`);
      } catch (err) {
        load.failed.push((err as Error).message);
      }
    }
  };
  const all = Promise.all(Array.from({ length: workers }, (_, w) => worker(w)));
  load.stop = async () => {
    running = false;
    await all;
  };
  return load;
}

test("swaps under continuous requests: zero failed, every answer from one cut, a broken file refused", async () => {
  const path = join(dir, "data.snapshot");
  writeFileSync(path, CUTS.A);
  const lines: string[] = [];
  const serving = await startChargingServer(
    { CHARGING_DATA: path, PORT: "0", HOST: "127.0.0.1", CHARGING_RATE_LIMIT: "1000000000" },
    (line) => lines.push(line),
  );
  const load = startLoad(serving.url, 4);
  const reloads = () => lines.filter((l) => l.includes("data reloaded")).length;
  try {
    await until("answers from A", () => load.last === "A");
    for (const cut of ["B", "A", "B", "A"] as const) {
      const before = reloads();
      await replaceFile(path, CUTS[cut]);
      await until(`the swap to ${cut}`, () => reloads() > before && load.last === cut);
      const dataset = (await (await fetch(`${serving.url}/api/v1/dataset`)).json()) as { data: Record<string, unknown> };
      assert.deepEqual([dataset.data.id, dataset.data.importedAt, dataset.data.sites], [versionOf(CUTS[cut]), IMPORTED[cut], cut === "A" ? 3000 : 2000]);
    }
    await replaceFile(path, BROKEN.truncated);
    await until("the refusal", () => lines.some((l) => l.includes("refused")));
    const sentAtRefusal = load.sent;
    await until("more answers", () => load.sent > sentAtRefusal + 20);
    assert.equal(load.last, "A", "the old data keeps serving");
    const before = reloads();
    await replaceFile(path, CUTS.B);
    await until("the swap to B after the refusal", () => reloads() > before && load.last === "B");
    process.kill(process.pid, "SIGHUP");
    await until("the SIGHUP reload", () => lines.some((l) => l.includes("(SIGHUP)")));
  } finally {
    await load.stop();
    await serving.close();
  }
  assert.deepEqual(load.failed, []);
  assert.ok(load.sent > 100, `sent ${load.sent}`);
  const refused = lines.filter((l) => l.includes("refused"));
  assert.equal(refused.length, 1, lines.join("\n"));
  assert.match(refused[0] as string, /^charging: refused new data \(data\.snapshot replaced\): CHARGING_DATA: .*data\.snapshot: .+; still serving 3000 sites, snapshot \w+, imported 2026-01-01T00:00:00\.000Z$/);
  assert.match(lines.find((l) => l.includes("(SIGHUP)")) ?? "", /data reloaded \(SIGHUP\): 2000 sites/);
});

/** A reloader over `path` whose watch never fires during a test: only SIGHUP and `reload` act. */
async function quietReloader(path: string) {
  const lines: string[] = [];
  let store = await loadStore(path);
  const reloader = reloadDataOnChange({
    path,
    identity: await fileIdentity(path),
    load: loadStore,
    swap: (next: Store) => {
      store = next;
    },
    current: () => store,
    log: (line) => lines.push(line),
    debounceMs: 3_600_000,
  });
  return { lines, reloader, store: () => store };
}

test("a broken file is refused with one line naming what is wrong; the old store stays", async () => {
  const path = join(dir, "quiet.snapshot");
  writeFileSync(path, CUTS.B);
  const { lines, reloader, store } = await quietReloader(path);
  const serving = store();
  try {
    for (const [kind, bytes] of Object.entries(BROKEN)) {
      writeFileSync(path, bytes);
      assert.equal(await reloader.reload("test"), false, kind);
      assert.equal(store(), serving, kind);
    }
  } finally {
    reloader.close();
  }
  assert.equal(lines.length, 3);
  for (const line of lines) assert.match(line, /^charging: refused new data \(test\): CHARGING_DATA: [^\n]+; still serving 2000 sites/);
  assert.match(lines[0] as string, /truncated|outside the file|ends/i);
  assert.match(lines[1] as string, /CRC/);
  assert.match(lines[2] as string, /JSON|format/i);
});

test("SIGHUP reads the file again and swaps to it", async () => {
  const path = join(dir, "hup.snapshot");
  writeFileSync(path, CUTS.A);
  const { lines, reloader, store } = await quietReloader(path);
  try {
    writeFileSync(path, CUTS.B);
    process.kill(process.pid, "SIGHUP");
    await until("the reload", () => lines.length > 0);
  } finally {
    reloader.close();
  }
  assert.equal(store().size, 2000);
  assert.match(lines[0] as string, /^charging: data reloaded \(SIGHUP\): 2000 sites, snapshot \w+, imported 2026-02-01T00:00:00\.000Z \(was 3000 sites, snapshot \w+\)$/);
  assert.equal(readFileSync(path).length, CUTS.B.length);
});

test("without CHARGING_DATA, SIGHUP is logged and the embedded data keeps serving", async () => {
  const lines: string[] = [];
  const serving = await startChargingServer({ PORT: "0", HOST: "127.0.0.1" }, (line) => lines.push(line));
  try {
    process.kill(process.pid, "SIGHUP");
    await until("the SIGHUP line", () => lines.length > 1);
    assert.equal((await fetch(`${serving.url}/healthz`)).status, 200);
  } finally {
    await serving.close();
  }
  assert.equal(lines[1], "charging: SIGHUP: serving the embedded data; set CHARGING_DATA to a file to reload it");
});
