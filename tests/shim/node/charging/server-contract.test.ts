/**
 * The published contract of the charging server, tested from outside through a real socket:
 * a client generated from the served /api/v1/openapi.json (openapi-typescript) calls every
 * route the document lists with typed parameters and typechecks (tsc); every answer it gets,
 * every error answer, and every MCP tool's structuredContent validate against the schemas
 * declared for them, with objects closed so an undeclared field fails; the quota headers are
 * declared and sent; Redocly's recommended lint passes on the served documents, offline.
 */
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { connect } from "node:net";
import { after, before, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import { startBuilt, stop } from "../../../../scripts/smoke.ts";
import { type Answer, callsOf, runGeneratedClient } from "../../../shared/http/openapi-client.ts";
import { closed, declaredAnswer, type Loose, redoclyLint, validatorOf } from "../../../shared/http/openapi-contract.ts";
import { listingProblems, resultProblem } from "../../../shared/mcp/portability.ts";

type Started = Awaited<ReturnType<typeof startBuilt>>;

/** The server from source (no build step, so compiling on a loaded machine may take a while). */
const start = (env: Record<string, string>) => startBuilt(env, "--import", ["tsx", "shim/node/charging/server.ts"], 120_000);

const KEY = "contract-key-0123456789";
let open: Started;
let gated: Started;
let doc: Loose;
/** The gated server's document, read first: its rate limit of 6 is spent by the 429 test. */
let gatedDoc: Loose;
let siteId: string;
/** A request whose body never comes, sent first: its 408 arrives while the other tests run. */
let stalled: Promise<string>;

before(async () => {
  [open, gated] = await Promise.all([
    start({ CHARGING_RATE_LIMIT: "100000" }),
    start({ CHARGING_RATE_LIMIT: "6", CHARGING_API_KEYS: KEY }),
  ]);
  doc = await (await fetch(`${open.url}/api/v1/openapi.json`)).json();
  gatedDoc = await (await fetch(`${gated.url}/api/v1/openapi.json`)).json();
  siteId = ((await (await fetch(`${open.url}/api/v1/sites?limit=1`)).json()) as Loose).data[0].id;
  stalled = stalledRequest(open.url);
  stalled.catch(() => {});
});
after(() => Promise.all([open, gated].map((server) => server && stop(server.child))));

/** What an app developer writes: numbers as numbers, a box, a point, an id from a search. */
const samples = () => ({
  limit: 5,
  offset: 0,
  minPower: 50,
  radiusKm: 25,
  openOnly: true,
  near: "52.52,13.40",
  bbox: "5,47,15,55",
  connector: "ccs",
  // Berlin to Potsdam, encoded (precision 5): sites of the test data lie along it.
  polyline: "_yp_I_expA~lV~kaA",
  route: "_yp_I_expA~lV~kaA",
  id: siteId,
});

const MCP_LIST = { jsonrpc: "2.0", id: 1, method: "tools/list" };

/** The headers the document must declare wherever they are sent. */
const CONTRACT_HEADERS = ["ratelimit", "ratelimit-policy", "retry-after", "etag", "last-modified"];

/** Problems of one answer against the document: its status, media type, body and headers. */
function problemsOf(answer: Answer, document: Loose, validate: ReturnType<typeof validatorOf>): string[] {
  const where = `${answer.method.toUpperCase()} ${answer.path} -> ${answer.status}`;
  const declared = declaredAnswer(document, answer.path, answer.method, answer.status);
  if (!declared) return [`${where}: status not declared`];
  const problems: string[] = [];
  const headers = Object.keys(declared.headers ?? {}).map((name) => name.toLowerCase());
  for (const name of CONTRACT_HEADERS) {
    if (name in answer.headers && !headers.includes(name)) problems.push(`${where}: header ${name} sent, not declared`);
  }
  for (const name of headers) if (!(name in answer.headers)) problems.push(`${where}: header ${name} declared, not sent`);
  if (answer.body === "") return problems;
  const type = answer.type.split(";")[0]?.trim() ?? "";
  const schema = declared.content?.[type]?.schema;
  if (!schema) return [...problems, `${where}: media type ${type} not declared`];
  const problem = validate(schema, JSON.parse(answer.body));
  return problem ? [...problems, `${where} (${type}): ${problem}`] : problems;
}

test("a client generated from the served document calls every route with typed parameters; it typechecks and every answer validates", async () => {
  const calls = callsOf(doc, samples(), { "POST /mcp": MCP_LIST });
  const run = await runGeneratedClient(doc, open.url, calls);
  try {
    assert.equal(run.generate.code, 0, run.generate.output);
    assert.equal(run.tsc.code, 0, `tsc on the generated client:\n${run.tsc.output}`);
    assert.equal(run.program?.code, 0, run.program?.output);
    assert.doesNotMatch(`${run.generate.output}${run.program?.output}`, /NETWORK ATTEMPT/);
  } finally {
    rmSync(run.dir, { recursive: true, force: true });
  }
  const validate = validatorOf(doc);
  assert.deepEqual(run.answers.flatMap((answer) => problemsOf(answer, doc, validate)), []);
  for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
    for (const method of Object.keys(item)) {
      const statuses = run.answers.filter((a) => a.path === path && a.method === method).map((a) => a.status);
      assert.ok(statuses.some((status) => status < 300), `${method.toUpperCase()} ${path} answered 2xx at least once (${statuses})`);
    }
  }
  const geo = run.answers.filter((a) => a.type.startsWith("application/geo+json"));
  assert.ok(geo.length >= 2, "GeoJSON answers were checked against their own media type");
});

test("numbers are declared as numbers: no query parameter is a number written as a string pattern", () => {
  const numeric = /^\^-?\??\\d\+/;
  const stringNumbers = Object.entries(doc.paths as Record<string, Record<string, Loose>>).flatMap(([path, item]) =>
    Object.values(item).flatMap((op) =>
      (op.parameters ?? [])
        .filter((p: Loose) => p.schema?.type === "string" && numeric.test(p.schema.pattern ?? "") && !/,/.test(p.schema.pattern))
        .map((p: Loose) => `${path} ${p.name}`),
    ),
  );
  assert.deepEqual(stringNumbers, []);
  const sites = doc.paths["/api/v1/sites"].get.parameters as Loose[];
  const typeOf = (name: string) => sites.find((p) => p.name === name)?.schema.type;
  assert.deepEqual(["limit", "offset", "minPower", "radiusKm"].map(typeOf), ["integer", "integer", "number", "number"]);
});

test("the site fields and the status kind are declared, and the check fails an answer with a field the document leaves out", async () => {
  const ok = (path: string) => doc.paths[path].get.responses["200"].content["application/json"].schema.properties.data;
  const site = ok("/api/v1/sites/{id}");
  for (const field of ["address", "capacity", "access", "fee", "usageCost", "openingHours", "attributionKey"]) {
    assert.ok(field in site.properties && site.required.includes(field), `site.${field} is declared and required`);
  }
  assert.deepEqual(ok("/api/v1/status/{id}").properties.kind.enum, ["live", "registry"]);
  const validate = validatorOf(doc);
  const answer = await (await fetch(`${open.url}/api/v1/sites/${encodeURIComponent(siteId)}`)).json();
  const schema = doc.paths["/api/v1/sites/{id}"].get.responses["200"].content["application/json"].schema;
  assert.equal(validate(schema, answer), undefined);
  assert.match(validate(schema, { ...answer, data: { ...answer.data, undeclared: 1 } }) ?? "", /must NOT have additional properties/);
  const { address: _gone, ...withoutAddress } = site.properties;
  const narrowed = { ...schema, properties: { ...schema.properties, data: { ...site, properties: withoutAddress } } };
  assert.match(validate(narrowed, answer) ?? "", /must NOT have additional properties/, "a field missing from the document fails");
});

/** An answer from outside, as the generated client records it. */
async function answerOf(base: string, method: string, path: string, url: string, init: RequestInit = {}): Promise<Answer> {
  const response = await fetch(base + url, { method: method.toUpperCase(), ...init }).catch((err: Error) => {
    throw new Error(`${method.toUpperCase()} ${base}${url}: ${err.message} (${String(err.cause)})`);
  });
  const headers: Record<string, string> = {};
  response.headers.forEach((value, key) => {
    headers[key] = value;
  });
  return { method, path, status: response.status, type: headers["content-type"] ?? "", headers, body: await response.text() };
}

const MCP_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

test("error answers are declared and typed: 400, 404, 413 and the JSON-RPC batch refusal (-32600)", async () => {
  const validate = validatorOf(doc);
  const get = (path: string, url: string) => answerOf(open.url, "get", path, url);
  const mcp = (body: string) => answerOf(open.url, "post", "/mcp", "/mcp", { body, headers: MCP_HEADERS });
  const answers = [
    await get("/api/v1/sites", "/api/v1/sites?bogus=1"),
    await get("/api/v1/sites", "/api/v1/sites?limit=abc"),
    await get("/api/v1/sites", "/api/v1/sites?radiusKm=5"),
    await get("/api/v1/sites/{id}", "/api/v1/sites/ocm%3A0"),
    await get("/api/v1/status/{id}", "/api/v1/status/ocm%3A0"),
    await mcp(JSON.stringify([MCP_LIST, MCP_LIST])),
    await mcp("{not json"),
    await mcp(JSON.stringify({ ...MCP_LIST, params: { pad: "x".repeat(200_000) } })),
  ];
  // Every GET route refuses a malformed query string the same way.
  for (const path of Object.keys(doc.paths).filter((p) => doc.paths[p].get)) {
    answers.push(await get(path, `${path.replace("{id}", encodeURIComponent(siteId))}?q=%zz`));
  }
  assert.deepEqual(answers.map((a) => a.status).slice(0, 8), [400, 400, 400, 404, 404, 400, 400, 413]);
  assert.ok(answers.slice(8).every((a) => a.status === 400));
  assert.deepEqual(answers.flatMap((answer) => problemsOf(answer, doc, validate)), []);
  assert.equal(JSON.parse(answers[5]?.body ?? "").error.code, -32600, "a batch is refused as an invalid request");
});

test("behind a key gate: 401 and 429 are declared and typed, with retry-after and the RateLimit headers", async () => {
  const validate = validatorOf(gatedDoc);
  const keyed = { headers: { "x-api-key": KEY } };
  const answers = [
    await answerOf(gated.url, "get", "/api/v1/sites", "/api/v1/sites"),
    await answerOf(gated.url, "post", "/mcp", "/mcp", { body: JSON.stringify(MCP_LIST), headers: MCP_HEADERS }),
  ];
  // More than the 6 a window allows even if the window started again since the document was read.
  for (let i = 0; i < 9; i++) answers.push(await answerOf(gated.url, "get", "/api/v1/sites", "/api/v1/sites?limit=1", keyed));
  assert.deepEqual(answers.map((a) => a.status).slice(0, 2), [401, 401]);
  const limited = answers.find((a) => a.status === 429);
  assert.ok(limited, "the sixth-plus request is over the limit");
  assert.match(limited.headers["retry-after"] ?? "", /^\d+$/);
  assert.match(limited.headers.ratelimit ?? "", /^"per-minute";r=0;t=\d+$/);
  assert.equal(limited.headers["ratelimit-policy"], '"per-minute";q=6;w=60');
  assert.deepEqual(answers.flatMap((answer) => problemsOf(answer, gatedDoc, validate)), []);
});

/** A request whose body never comes: the Node server's deadline answers it (raw, as the client reads it). */
function stalledRequest(base: string): Promise<string> {
  const { hostname, port } = new URL(base);
  return new Promise((done, fail) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(`POST /mcp HTTP/1.1\r\nhost: ${hostname}\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{`);
    });
    let raw = "";
    socket.setEncoding("utf8").on("data", (chunk: string) => (raw += chunk));
    socket.on("end", () => done(raw)).on("error", fail);
  });
}

test("the Node server's 408 for a body that never arrives is the declared envelope", async () => {
  const raw = await stalled;
  const [head = "", body = ""] = raw.split("\r\n\r\n");
  assert.match(head, /^HTTP\/1\.1 408 /);
  const declared = declaredAnswer(doc, "/mcp", "post", 408);
  assert.equal(validatorOf(doc)(declared.content["application/json"].schema, JSON.parse(body)), undefined, body);
  assert.equal(JSON.parse(body).error.code, "REQUEST_TIMEOUT");
});

/** Arguments for a tool from its input schema: every required property (and the optional ones sampled). */
function argumentsOf(schema: Loose, all: boolean): Record<string, unknown> {
  const sample: Record<string, unknown> = {
    id: siteId,
    lat: 52.52,
    lon: 13.4,
    radiusKm: 25,
    limit: 3,
    minPowerKw: 50,
    bbox: { minLon: 5, minLat: 47, maxLon: 15, maxLat: 55 },
  };
  const names = all ? Object.keys(schema.properties ?? {}) : (schema.required ?? []);
  const args: Record<string, unknown> = {};
  for (const name of names) {
    if (name in sample) args[name] = sample[name];
    else assert.ok(all, `no sample for the required tool argument ${name}`);
  }
  return args;
}

test("every MCP tool is portable (the Inspector's checks) and its structuredContent validates against its outputSchema, objects closed", async () => {
  const client = new Client({ name: "contract", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${open.url}/mcp`)));
  try {
    const listing = await client.listTools();
    const { tools } = listing;
    assert.ok(tools.length >= 4);
    assert.deepEqual(listingProblems(listing), []);
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    for (const tool of tools) {
      assert.ok(tool.outputSchema, `${tool.name} declares an outputSchema`);
      const check = ajv.compile(closed(tool.outputSchema) as object);
      for (const all of [false, true]) {
        const result = await client.callTool({ name: tool.name, arguments: argumentsOf(tool.inputSchema, all) });
        assert.notEqual(result.isError, true, `${tool.name}: ${JSON.stringify(result.content)}`);
        assert.equal(resultProblem(tool, result), undefined);
        assert.ok(check(result.structuredContent), `${tool.name}: ${ajv.errorsText(check.errors)}`);
      }
    }
  } finally {
    await client.close();
  }
});

test("Redocly's recommended lint passes on the served documents (open and gated), offline", async () => {
  for (const served of [doc, gatedDoc]) {
    const lint = await redoclyLint(served);
    assert.equal(lint.code, 0, lint.output);
    assert.match(lint.output, /Your API description is valid/);
    assert.doesNotMatch(lint.output, /warning|NETWORK ATTEMPT/i, lint.output);
  }
});
