/**
 * The map page at `/` (shim/browser/charging/map.ts, served by the Node server run from source)
 * in a real headless Chromium (Debian's chromium, driven by puppeteer-core): it renders with no
 * console error and requests nothing beyond 127.0.0.1 (the tiles come from a loopback fake);
 * a bbox search's sites appear as list items; a filter change searches again; a result opens
 * the site with its status and credit line; the credits of the data and of the tiles show; and
 * with the tile host unreachable the sites still show; a route pasted (GeoJSON) or drawn (clicks
 * on the map, sent as an encoded polyline) lists its sites in order along it, as the API
 * answers them; markup in the data's names and operators shows as text and runs nothing.
 * `UPDATE_MAP_SCREENSHOT=1` writes the screenshot of Austin that API.md shows
 * (src/charging/map.png).
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { crc32, deflateSync } from "node:zlib";
import puppeteer, { type Browser, type Page } from "puppeteer-core";
import { startChargingServer } from "../../../../shim/node/charging/app.ts";
import type { Serving } from "../../../../shim/node/serve.ts";
import { decodePolyline } from "../../../../src/charging/operations/polyline.ts";

const CHROMIUM = "/usr/bin/chromium";
const AUSTIN = "#12/30.2672/-97.7431";
const SCREENSHOT = "src/charging/map.png";
const dir = mkdtempSync(join(tmpdir(), "charging-map-"));
let browser: Browser;
let tiles: Server;
let tileRequests = 0;
const servers: Serving[] = [];

/** A 256-pixel PNG tile: pale land with a darker edge, so tiles read as a grid. */
function tilePng(): Buffer {
  const size = 256;
  const rows: number[] = [];
  for (let y = 0; y < size; y++) {
    rows.push(0);
    for (let x = 0; x < size; x++) rows.push(...(x === 0 || y === 0 ? [200, 208, 200] : [236, 240, 232]));
  }
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const signature = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);
  return Buffer.concat([signature, chunk("IHDR", header), chunk("IDAT", deflateSync(Buffer.from(rows))), chunk("IEND", Buffer.alloc(0))]);
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

/** The Node server over the embedded data, with the base map from `tileUrl`. */
async function startServer(tileUrl: string): Promise<string> {
  const env = { PORT: "0", HOST: "127.0.0.1", CHARGING_RATE_LIMIT: "100000", CHARGING_MAP_TILES: tileUrl };
  const serving = await startChargingServer(env, () => {});
  servers.push(serving);
  return serving.url.replace(/\/$/, "");
}

before(async () => {
  const png = tilePng();
  tiles = createServer((_req, res) => {
    tileRequests++;
    res.writeHead(200, { "content-type": "image/png", "access-control-allow-origin": "*" }).end(png);
  });
  await listen(tiles);
  browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    // A loaded 2-core machine starts Chromium slowly.
    timeout: 120_000,
    args: [
      "--headless",
      "--no-sandbox",
      "--use-angle=swiftshader",
      "--enable-unsafe-swiftshader",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      `--user-data-dir=${join(dir, "profile")}`,
    ],
  });
});

after(async () => {
  await browser?.close();
  for (const serving of servers) await serving.close();
  await new Promise((resolve) => tiles?.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

interface Opened {
  page: Page;
  /** The route searches answered so far. */
  routes: { query: URLSearchParams; status: number }[];
  /** Every URL the page asked for. */
  requests: string[];
  /** The searches answered so far: their query and status. */
  searches: { query: URLSearchParams; status: number }[];
  /** Requests to anything but 127.0.0.1 (aborted). */
  offMachine: string[];
  errors: string[];
}

async function open(url: string): Promise<Opened> {
  const page = await browser.newPage();
  page.setDefaultTimeout(60_000);
  await page.setViewport({ width: 1100, height: 700 });
  const opened: Opened = { page, requests: [], searches: [], routes: [], offMachine: [], errors: [] };
  page.on("response", (response) => {
    const url = new URL(response.url());
    if (url.pathname === "/api/v1/sites") opened.searches.push({ query: url.searchParams, status: response.status() });
    if (url.pathname === "/api/v1/route") opened.routes.push({ query: url.searchParams, status: response.status() });
  });
  await page.setRequestInterception(true);
  page.on("request", (request) => {
    const target = request.url();
    opened.requests.push(target);
    if (/^(data|blob):/.test(target) || new URL(target).hostname === "127.0.0.1") return void request.continue();
    opened.offMachine.push(target);
    void request.abort();
  });
  page.on("console", (message) => {
    if (message.type() === "error") opened.errors.push(message.text());
  });
  page.on("pageerror", (error) => opened.errors.push(String(error)));
  await page.goto(url);
  return opened;
}

/**
 * The query of the latest search answered (already, or from now on) whose query passes
 * `wanted`, once the list shows its answer (the API's, asked again): the map may search more
 * than once while it settles, and an answer read is not yet drawn.
 */
async function waitForSearch(opened: Opened, wanted: (query: URLSearchParams) => boolean, kind: "searches" | "routes" = "searches"): Promise<URLSearchParams> {
  const { page } = opened;
  const path = kind === "searches" ? "/api/v1/sites" : "/api/v1/route";
  const answers = new Map<string, string>();
  const idsOf = async (query: URLSearchParams) => {
    const key = query.toString();
    if (!answers.has(key)) {
      const answer = (await (await fetch(`${new URL(page.url()).origin}${path}?${key}`)).json()) as { data: { id: string }[] };
      answers.set(key, answer.data.map((site) => site.id).join(" "));
    }
    return answers.get(key);
  };
  for (let waited = 0; waited < 20_000; waited += 100) {
    const last = opened[kind].filter((s) => wanted(s.query)).at(-1);
    if (last) {
      assert.equal(last.status, 200);
      const shown = await page.$$eval("#results li", (items) => items.map((li) => li.getAttribute("data-id")).join(" "));
      if (shown === (await idsOf(last.query))) return last.query;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.fail(`no list drawn from a search matching ${wanted.toString()}; seen: ${opened[kind].map((s) => s.query.toString()).join(" | ")}`);
}

const listed = (page: Page) =>
  page.$$eval("#results li", (items) => items.map((li) => ({ id: (li as HTMLElement).dataset.id ?? "", name: li.querySelector("button")?.textContent ?? "", facts: li.querySelector("span")?.textContent ?? "" })));

test("the map page searches the view, filters, opens a site with its status and credit, and stays on the machine", async () => {
  const origin = await startServer(`http://127.0.0.1:${(tiles.address() as AddressInfo).port}/{z}/{x}/{y}.png`);
  const opened = await open(`${origin}/${AUSTIN}`);
  const { page } = opened;
  try {
    const first = await waitForSearch(opened, (q) => q.has("bbox"));
    const [west, south, east, north] = (first.get("bbox") ?? "").split(",").map(Number) as [number, number, number, number];
    assert.ok(west < -97.7431 && east > -97.7431 && south < 30.2672 && north > 30.2672, `the view's bbox is around Austin: ${first.get("bbox")}`);
    await page.waitForSelector("#results li");
    const sites = await listed(page);
    assert.ok(sites.length > 10, `Austin's sites are listed (${sites.length})`);
    assert.ok(sites.every((s) => /^(ocm|osm):/.test(s.id)));
    assert.match(await page.$eval("#summary", (e) => e.textContent ?? ""), /sites? in view/);

    // A filter change searches again, with the filter.
    await page.waitForSelector("#filters input[name=minPower]");
    await page.type("#filters input[name=minPower]", "50");
    await page.keyboard.press("Enter");
    await waitForSearch(opened, (q) => q.get("minPower") === "50");
    await page.waitForFunction(() => [...document.querySelectorAll("#results li span")].every((s) => /\b(\d+(\.\d+)?) kW/.test(s.textContent ?? "") && Number(/(\d+(\.\d+)?) kW/.exec(s.textContent ?? "")?.[1]) >= 50));
    const fast = await listed(page);
    assert.ok(fast.length > 0 && fast.length < sites.length, `fewer sites at 50 kW or more (${fast.length} of ${sites.length})`);
    await page.click("#filters input[name=openOnly]");
    await waitForSearch(opened, (q) => q.get("openOnly") === "true" && q.get("minPower") === "50");
    // The exact filters offer the reference data's values.
    const currents = await page.$$eval("#filters select[name=current] option", (options) => options.map((o) => (o as HTMLOptionElement).value));
    assert.deepEqual(currents, ["", "AC", "DC"]);
    await page.select("#filters select[name=current]", "DC");
    const last = await waitForSearch(opened, (q) => q.get("current") === "DC" && q.get("openOnly") === "true");
    const answer = (await (await fetch(`${origin}/api/v1/sites?${last}`)).json()) as { attribution: { text: string }[] };

    // A result opens the site: its status record and its credit line.
    const chosen = (await listed(page))[0];
    assert.ok(chosen);
    await page.click("#results li button");
    await page.waitForSelector("#detail:not([hidden]) dl");
    const detail = await page.$eval("#detail", (e) => (e as HTMLElement).innerText);
    assert.ok(detail.includes(chosen.name), detail);
    assert.match(detail, /Status\s+AVAILABLE \(registry, retrieved \d{4}-\d\d-\d\dT/);
    const status = (await (await fetch(`${origin}/api/v1/status/${encodeURIComponent(chosen.id)}`)).json()) as { data: { attribution: { text: string } } };
    assert.ok(detail.includes(`Credit\n${status.data.attribution.text}`), detail);
    assert.ok(opened.requests.some((r) => r.endsWith(`/api/v1/status/${encodeURIComponent(chosen.id)}`)));

    // The credits of the data and of the tiles are on the page.
    const credits = await page.$eval("#credits", (e) => (e as HTMLElement).innerText);
    assert.match(credits, /Map tiles © OpenStreetMap contributors/);
    assert.ok(answer.attribution.length > 0 && answer.attribution.every((line) => credits.includes(line.text)), credits);
    assert.ok(tileRequests > 0, "the base map came from the loopback tile server");

    assert.ok(opened.searches.length >= 3);
    assert.deepEqual(opened.offMachine, [], "nothing asked beyond 127.0.0.1");
    assert.deepEqual(opened.errors, [], "no console errors (the CSP refuses anything off its list, loudly)");
    if (process.env.UPDATE_MAP_SCREENSHOT) await screenshotAustin(origin);
  } finally {
    await page.close();
  }
});

/** The picture API.md shows: Austin, a route across it searched, its first site opened. */
async function screenshotAustin(origin: string): Promise<void> {
  const opened = await open(`${origin}/${AUSTIN}`);
  const { page } = opened;
  await page.setViewport({ width: 1100, height: 820 });
  await waitForSearch(opened, (q) => q.has("bbox"));
  await page.click("#route summary");
  const line = { type: "LineString", coordinates: [[-97.79, 30.21], [-97.743, 30.267], [-97.69, 30.33]] };
  await page.$eval("#route-text", (e, text) => void ((e as HTMLTextAreaElement).value = text), JSON.stringify(line));
  await page.$eval("#corridor", (e) => void ((e as HTMLInputElement).value = "1"));
  await page.click("#route-search");
  await waitForSearch(opened, (q) => q.has("geojson"), "routes");
  await page.waitForSelector("#results li");
  await page.click("#results li button");
  await page.waitForSelector("#detail:not([hidden]) dl");
  await new Promise((resolve) => setTimeout(resolve, 1000));
  writeFileSync(SCREENSHOT, await page.screenshot({ type: "png" }));
  await page.close();
}

test("with the tile host unreachable the sites still show, clustered at low zoom, and the page says why the map is blank", async () => {
  const closed = createServer();
  const port = await listen(closed);
  await new Promise((resolve) => closed.close(resolve));
  const origin = await startServer(`http://127.0.0.1:${port}/{z}/{x}/{y}.png`);
  const opened = await open(`${origin}/#9/30.2672/-97.7431`);
  try {
    await waitForSearch(opened, (q) => q.has("bbox"));
    await opened.page.waitForSelector("#results li");
    await opened.page.waitForSelector("#tile-credit[data-unavailable]");
    // At zoom 9 the view's sites are clusters, each with its count over its circle.
    await opened.page.waitForSelector(".cluster-count");
    const counts = await opened.page.$$eval(".cluster-count", (labels) => labels.map((l) => Number(l.textContent)));
    const listedCount = (await listed(opened.page)).length;
    const clustered = counts.reduce((a, b) => a + b, 0);
    assert.ok(counts.every((n) => n >= 2) && clustered > listedCount / 2 && clustered <= listedCount, `clusters ${counts.join("+")} of ${listedCount} sites`);
    const unexpected = opened.errors.filter((e) => !/Failed to load resource: net::ERR_CONNECTION_REFUSED/.test(e));
    assert.deepEqual(unexpected, [], "only the refused tile requests are reported");
    assert.deepEqual(opened.offMachine, []);
  } finally {
    await opened.page.close();
  }
});

type Loose = { data: { id: string; alongKm: number; offRouteKm: number }[]; page: { total: number } };

/** The list shown for a route search, against the API's own answer to the same query. */
async function assertRouteListed(opened: Opened, origin: string, query: URLSearchParams): Promise<void> {
  const expected = (await (await fetch(`${origin}/api/v1/route?${query}`)).json()) as Loose;
  assert.ok(expected.data.length > 0, "the route passes sites");
  await opened.page.waitForFunction((first) => document.querySelector("#results li")?.getAttribute("data-id") === first, {}, expected.data[0]?.id);
  const shown = await listed(opened.page);
  assert.deepEqual(shown.map((s) => s.id), expected.data.map((s) => s.id), "the list is the API's answer, in order along the route");
  const along = shown.map((s) => Number(/([\d.]+) km along/.exec(s.facts)?.[1]));
  assert.ok(along.every((km, i) => i === 0 || km >= (along[i - 1] as number)), `in order along the route: ${along.join(", ")}`);
  assert.match(await opened.page.$eval("#summary", (e) => e.textContent ?? ""), /along it/);
}

test("a route pasted as GeoJSON or drawn on the map lists its sites in order along it", async () => {
  const origin = await startServer("off");
  const opened = await open(`${origin}/${AUSTIN}`);
  const { page } = opened;
  try {
    await waitForSearch(opened, (q) => q.has("bbox"));
    await page.click("#route summary");
    const line = { type: "LineString", coordinates: [[-97.78, 30.2], [-97.743, 30.267], [-97.7, 30.35]] };
    await page.$eval("#route-text", (e, text) => void ((e as HTMLTextAreaElement).value = text), JSON.stringify(line));
    await page.$eval("#corridor", (e) => void ((e as HTMLInputElement).value = "1.5"));
    await page.click("#route-search");
    const pasted = await waitForSearch(opened, (q) => q.has("geojson"), "routes");
    assert.deepEqual([JSON.parse(pasted.get("geojson") ?? ""), pasted.get("corridorKm"), pasted.get("limit")], [line, "1.5", "100"]);
    await assertRouteListed(opened, origin, pasted);

    // Drawn: three clicks on the map make an encoded polyline of three points.
    await page.click("#route-clear");
    await page.click("#route-draw");
    const box = (await (await page.$("#map"))?.boundingBox()) as { x: number; y: number; width: number; height: number };
    for (const [fx, fy] of [[0.3, 0.8], [0.5, 0.5], [0.7, 0.2]] as const) await page.mouse.click(box.x + box.width * fx, box.y + box.height * fy);
    const polyline = await page.$eval("#route-text", (e) => (e as HTMLTextAreaElement).value);
    const decoded = decodePolyline(polyline, 10);
    assert.ok("points" in decoded && decoded.points.length === 3, `three points drawn: ${polyline}`);
    await page.click("#route-search");
    const drawn = await waitForSearch(opened, (q) => q.get("polyline") === polyline, "routes");
    await assertRouteListed(opened, origin, drawn);
    assert.deepEqual(opened.offMachine, []);
    assert.deepEqual(opened.errors, []);
  } finally {
    await page.close();
  }
});

const EVIL = `<img src=x onerror="window.__pwned = 1">`;

test("strings from the data show as text: markup in names and operators runs nothing", async () => {
  const data = JSON.parse(readFileSync("fixtures/charging/sites.json", "utf8")) as {
    sites: { name: string | null; operator: string | null; address: { town?: string } | null }[];
  };
  for (const site of data.sites) {
    if (site.address?.town !== "Austin") continue;
    site.name = `${EVIL}${site.name ?? ""}`;
    site.operator = `<script>window.__pwned = 2</script>`;
  }
  const file = join(dir, "evil-sites.json");
  writeFileSync(file, JSON.stringify(data));
  const serving = await startChargingServer({ PORT: "0", CHARGING_RATE_LIMIT: "100000", CHARGING_MAP_TILES: "off", CHARGING_DATA: file }, () => {});
  servers.push(serving);
  const opened = await open(`${serving.url.replace(/\/$/, "")}/${AUSTIN}`);
  const { page } = opened;
  try {
    await waitForSearch(opened, (q) => q.has("bbox"));
    await page.click("#results li button");
    await page.waitForSelector("#detail:not([hidden]) dl");
    const first = (await listed(page))[0];
    assert.ok(first?.name.startsWith(EVIL), `the name as written: ${first?.name}`);
    assert.match(first?.facts ?? "", /<script>window\.__pwned = 2<\/script>/);
    assert.equal(await page.$$eval("#panel img, #panel script, #credits img", (found) => found.length), 0, "no element made from the data");
    assert.ok((await page.$eval("#detail h2", (e) => e.textContent ?? "")).startsWith(EVIL));
    assert.equal(await page.evaluate(() => (window as { __pwned?: number }).__pwned), undefined);
    assert.deepEqual(opened.errors, []);
  } finally {
    await page.close();
  }
});
