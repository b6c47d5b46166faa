import assert from "node:assert/strict";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { test } from "node:test";
import { createOcpiFeed } from "../../../src/charging/status/ocpi-feed.ts";
import { createStatusService, type LiveFeed } from "../../../src/charging/status/service.ts";
import { staleness } from "../../../src/charging/status/staleness.ts";
import { aggregateStatus, ocmSiteStatus } from "../../../src/charging/status/vocabulary.ts";
import { storeOfSites } from "../../../src/charging/search/store.ts";
import { ApiError } from "../../../src/shared/errors.ts";
import { fullImport, site } from "../data/helpers.ts";

const clock = (iso: string) => {
  let now = new Date(iso);
  return { now: () => now, set: (next: string) => (now = new Date(next)) };
};

const store = storeOfSites([
  site("ocm:1", { lastUpdated: "2026-01-01T10:00:00.000Z", status: "OUTOFORDER" }),
  site("osm:node/2", { lastUpdated: null }),
]);

const SLO_REASON = /older than the 60-minute refresh SLO; the last-good static cut is served/;

test("staleness: exactly 60 minutes is fresh, one millisecond more is stale", () => {
  assert.deepEqual(staleness("2026-01-01T10:00:00.000Z", new Date("2026-01-01T11:00:00.000Z")), {
    stale: false,
  });
  const late = staleness("2026-01-01T10:00:00.000Z", new Date("2026-01-01T11:00:00.001Z"));
  assert.equal(late.stale, true);
  assert.match(late.staleReason ?? "", SLO_REASON);
  assert.equal(staleness("garbage", new Date()).stale, true, "an unreadable time is never fresh");
});

test("registry status: retrievedAt is the row's last update, stale after the SLO with the injected clock", async () => {
  const c = clock("2026-01-01T10:30:00Z");
  const service = createStatusService(store, { now: c.now });
  const fresh = await service.statusOf("ocm:1");
  assert.deepEqual(fresh, {
    id: "ocm:1",
    status: "OUTOFORDER",
    kind: "registry",
    retrievedAt: "2026-01-01T10:00:00.000Z",
    source: "ocm",
    stale: false,
    attribution: { text: "Data © Open Charge Map contributors, CC BY 4.0", url: "https://openchargemap.org" },
  });
  c.set("2026-01-01T11:00:00.001Z");
  const old = await service.statusOf("ocm:1");
  assert.equal(old.stale, true);
  assert.match(
    old.staleReason ?? "",
    /^retrievedAt 2026-01-01T10:00:00\.000Z is older than the 60-minute refresh SLO/,
  );
});

test("a row without its own date uses the import time", async () => {
  const service = createStatusService(store, {
    now: () => new Date("2026-01-01T00:30:00Z"),
    importedAt: "2026-01-01T00:00:00Z",
  });
  const r = await service.statusOf("osm:node/2");
  assert.equal(r.retrievedAt, "2026-01-01T00:00:00.000Z");
  assert.equal(r.source, "osm");
  assert.equal(r.stale, false);
});

test("unknown and closed ids answer NOT_FOUND", async () => {
  const { sites } = await fullImport();
  const service = createStatusService(storeOfSites(sites), { now: () => new Date() });
  for (const id of ["ocm:2398", "ocm:7686", "osm:node/1", "nonsense"]) {
    await assert.rejects(
      service.statusOf(id),
      (err) => err instanceof ApiError && err.code === "NOT_FOUND",
      id,
    );
  }
});

test("every real fixture row answers stale today (the data predates the SLO)", async () => {
  const { sites } = await fullImport();
  const service = createStatusService(storeOfSites(sites), {
    now: () => new Date(),
    importedAt: "2026-01-01T00:00:00Z",
  });
  for (const id of ["ocm:4343", "ocm:157899", "osm:node/3480586107", "osm:way/311286575"]) {
    const r = await service.statusOf(id);
    assert.equal(r.stale, true, id);
    assert.match(r.staleReason ?? "", SLO_REASON);
    assert.match(r.retrievedAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  }
});

test("status vocabulary: OCM site status, else its plugs; aggregate picks the most useful", () => {
  assert.equal(ocmSiteStatus(50, []), "AVAILABLE");
  assert.equal(ocmSiteStatus(30, [50]), "INOPERATIVE");
  assert.equal(ocmSiteStatus(0, [100, 50]), "AVAILABLE");
  assert.equal(ocmSiteStatus(undefined, [100, null]), "OUTOFORDER");
  assert.equal(ocmSiteStatus(null, []), "UNKNOWN");
  assert.equal(ocmSiteStatus(200, [50]), "REMOVED");
  assert.equal(ocmSiteStatus(999, []), "UNKNOWN");
  assert.equal(aggregateStatus(["CHARGING", "BLOCKED"]), "CHARGING");
  assert.equal(aggregateStatus([]), undefined);
});

/** A scripted live feed for service-level tests. */
function scriptedFeed(
  answers: (() => Promise<{ status: "AVAILABLE" | "CHARGING"; retrievedAt: string } | undefined>)[],
): LiveFeed & { calls: number } {
  const feed = {
    label: "test-feed",
    attribution: { text: "Test feed", url: "https://feed.example" },
    calls: 0,
    lookup: async () => {
      const next = answers[Math.min(feed.calls, answers.length - 1)] as (typeof answers)[number];
      feed.calls++;
      return next();
    },
  };
  return feed;
}

test("live values: served fresh, reused for a minute, the last good one kept through outages within the SLO", async () => {
  const c = clock("2026-01-01T12:00:00Z");
  const feed = scriptedFeed([
    async () => ({ status: "CHARGING", retrievedAt: "2026-01-01T12:00:00.000Z" }),
    async () => {
      throw new Error("connection reset");
    },
  ]);
  const service = createStatusService(store, { now: c.now, live: feed });
  const first = await service.statusOf("ocm:1");
  assert.deepEqual(first, {
    id: "ocm:1",
    status: "CHARGING",
    kind: "live",
    retrievedAt: "2026-01-01T12:00:00.000Z",
    source: "test-feed",
    stale: false,
    attribution: feed.attribution,
  });
  c.set("2026-01-01T12:00:30Z");
  await service.statusOf("ocm:1");
  assert.equal(feed.calls, 1, "reused within 60 s");
  c.set("2026-01-01T12:30:00Z");
  const during = await service.statusOf("ocm:1");
  assert.equal(feed.calls, 2);
  assert.deepEqual([during.kind, during.status, during.stale], ["live", "CHARGING", false]);
  c.set("2026-01-01T13:00:00.001Z");
  const after = await service.statusOf("ocm:1");
  assert.deepEqual([after.kind, after.status, after.stale], ["registry", "OUTOFORDER", true]);
  assert.match(
    after.staleReason ?? "",
    /last-good static cut is served \(live feed unavailable: connection reset\)/,
  );
});

test("a feed without data for the site falls back to the static cut; UPSTREAM_BLOCKED propagates", async () => {
  const none = createStatusService(store, {
    now: () => new Date("2026-01-02T00:00:00Z"),
    live: scriptedFeed([async () => undefined]),
  });
  const r = await none.statusOf("ocm:1");
  assert.equal(r.kind, "registry");
  assert.match(r.staleReason ?? "", /live feed has no status for this site/);
  const blocked = scriptedFeed([
    async () => {
      throw new ApiError("UPSTREAM_BLOCKED", "Outbound request refused");
    },
  ]);
  const service = createStatusService(store, { now: () => new Date(), live: blocked });
  await assert.rejects(
    service.statusOf("ocm:1"),
    (err) => err instanceof ApiError && err.code === "UPSTREAM_BLOCKED",
  );
});

test("the live cache is bounded", async () => {
  const feed = scriptedFeed([async () => ({ status: "AVAILABLE", retrievedAt: "2026-01-01T12:00:00.000Z" })]);
  const service = createStatusService(store, {
    now: () => new Date("2026-01-01T12:00:00Z"),
    live: feed,
    cacheSize: 1,
  });
  await service.statusOf("ocm:1");
  await service.statusOf("osm:node/2");
  await service.statusOf("ocm:1");
  assert.equal(feed.calls, 3, "ocm:1 was evicted by osm:node/2");
  await service.statusOf("ocm:1");
  assert.equal(feed.calls, 3);
});

// --- OCPI 2.2.1 feed against a local server speaking the Locations module ---

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

async function withServer(handler: Handler, run: (base: string, seen: IncomingMessage[]) => Promise<void>) {
  const seen: IncomingMessage[] = [];
  const server = createServer((req, res) => {
    seen.push(req);
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  try {
    await run(`http://127.0.0.1:${port}/ocpi/2.2.1/locations`, seen);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

const location = (statuses: string[]) => ({
  data: {
    id: "ocm:1",
    evses: statuses.map((status, i) => ({ uid: `E${i}`, status, last_updated: "2026-01-01T11:59:00Z" })),
  },
  status_code: 1000,
  timestamp: "2026-01-01T12:00:00Z",
});

const feedFor = (baseUrl: string, timeoutMs = 1000) =>
  createOcpiFeed({
    baseUrl,
    token: "secret-token",
    timeoutMs,
    policy: { allowHosts: ["127.0.0.1"], allowAddresses: ["127.0.0.1/32"], resolve: async () => [] },
    fetchImpl: fetch,
    now: () => new Date("2026-01-01T12:00:00.123Z"),
  });

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(typeof body === "string" ? body : JSON.stringify(body));
};

test("OCPI feed: EVSE statuses aggregated, REMOVED ignored, token and encoded id sent", async () => {
  await withServer(
    (_req, res) => json(res, 200, location(["REMOVED", "CHARGING", "OUTOFORDER"])),
    async (base, seen) => {
      const service = createStatusService(store, {
        now: () => new Date("2026-01-01T12:00:00.500Z"),
        live: feedFor(base),
      });
      const r = await service.statusOf("ocm:1");
      assert.deepEqual(
        [r.status, r.kind, r.source, r.stale, r.retrievedAt],
        ["CHARGING", "live", "ocpi", false, "2026-01-01T12:00:00.123Z"],
      );
      assert.equal(seen[0]?.url, "/ocpi/2.2.1/locations/ocm%3A1");
      assert.equal(seen[0]?.headers.authorization, "Token secret-token");
    },
  );
});

test("OCPI feed failures (500, timeout, malformed, OCPI error, oversize) fall back to the stale static cut", async () => {
  const cases: [string, Handler, RegExp][] = [
    ["HTTP 500", (_q, res) => json(res, 500, { status_code: 3000 }), /HTTP 500/],
    ["a timeout", () => undefined, /no answer within 200 ms/],
    ["non-JSON", (_q, res) => json(res, 200, "<html>"), /not JSON/],
    [
      "a wrong shape",
      (_q, res) => json(res, 200, { data: { evses: [{ uid: "1", status: "FREE" }] }, status_code: 1000 }),
      /not an OCPI 2\.2\.1 Location/,
    ],
    ["an OCPI error code", (_q, res) => json(res, 200, { status_code: 3001 }), /OCPI status_code 3001/],
    [
      "a body over the cap",
      (_q, res) => json(res, 200, { ...location(["AVAILABLE"]), pad: "x".repeat(1_100_000) }),
      /larger than 1000000 bytes/,
    ],
  ];
  for (const [name, handler, why] of cases) {
    await withServer(handler, async (base) => {
      const service = createStatusService(store, {
        now: () => new Date("2026-01-01T12:00:00Z"),
        // only the silent server may run into the deadline: under load a 1 MB answer can take longer than 200 ms
        live: feedFor(base, name === "a timeout" ? 200 : 30_000),
      });
      const r = await service.statusOf("ocm:1");
      assert.deepEqual([r.kind, r.status, r.stale], ["registry", "OUTOFORDER", true], name);
      assert.match(r.staleReason ?? "", why, name);
      assert.match(r.staleReason ?? "", /\(live feed unavailable: (?!Live feed)/, name);
    });
  }
});

test("OCPI feed: 404, unknown location (2003) and all-REMOVED mean no live data", async () => {
  for (const handler of [
    ((_q, res) => json(res, 404, { status_code: 2003 })) as Handler,
    ((_q, res) => json(res, 200, { status_code: 2003, timestamp: "2026-01-01T12:00:00Z" })) as Handler,
    ((_q, res) => json(res, 200, location(["REMOVED"]))) as Handler,
  ]) {
    await withServer(handler, async (base) => {
      assert.equal(await feedFor(base).lookup("ocm:1"), undefined);
    });
  }
});

test("OCPI feed on a non-allowlisted or private address is UPSTREAM_BLOCKED and never contacted", async () => {
  await withServer(
    (_q, res) => json(res, 200, location(["AVAILABLE"])),
    async (base, seen) => {
      const feed = createOcpiFeed({
        baseUrl: base,
        policy: { allowHosts: ["127.0.0.1"], resolve: async () => [] },
        fetchImpl: fetch,
        now: () => new Date(),
      });
      const service = createStatusService(store, { now: () => new Date(), live: feed });
      await assert.rejects(
        service.statusOf("ocm:1"),
        (err) => err instanceof ApiError && err.code === "UPSTREAM_BLOCKED",
      );
      assert.equal(seen.length, 0);
    },
  );
});

test("a caller abort cancels the live request", async () => {
  await withServer(
    () => undefined,
    async (base) => {
      const controller = new AbortController();
      const pending = feedFor(base, 5000).lookup("ocm:1", controller.signal);
      setTimeout(() => controller.abort(), 20);
      await assert.rejects(pending, (err) => err instanceof ApiError && err.code === "UPSTREAM_UNAVAILABLE");
    },
  );
});
