import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { test } from "node:test";
import { pinnedFetch, resolveAll } from "../../../shim/node/pinned-fetch.ts";
import { ApiError } from "../../../src/shared/errors.ts";
import { type EgressPolicy, guardedFetch } from "../../../src/shared/net/egress.ts";
import { createGuardedLookup } from "../../../src/shared/net/lookup.ts";

async function feed() {
  let connections = 0;
  const server = createServer((req, res) => {
    if (req.url === "/moved") res.writeHead(302, { location: "/x" }).end();
    else if (req.url === "/empty") res.writeHead(204).end();
    else {
      const seen = req.headers.authorization ?? "";
      res.writeHead(200, { "content-type": "application/json", "x-seen": seen }).end('{"ok":1}');
    }
  });
  server.on("connection", () => connections++);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    connections: () => connections,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

test("pinnedFetch() behind guardedFetch refuses a host re-resolved to 127.0.0.1 at connect time", async () => {
  const upstream = await feed();
  let answers = [["93.184.216.34"], ["127.0.0.1"]];
  const policy: EgressPolicy = {
    allowHosts: ["feed.example"],
    resolve: async () => answers.shift() ?? [],
  };
  try {
    const fetchImpl = pinnedFetch(createGuardedLookup(policy));
    const err = await guardedFetch(`http://feed.example:${upstream.port}/x`, {}, policy, fetchImpl).then(
      () => assert.fail("connected"),
      (e: Error & { code?: string }) => e,
    );
    assert.ok(err instanceof ApiError, "refused like the pre-request check, so the route answers 403");
    assert.equal(err.code, "UPSTREAM_BLOCKED");
    assert.equal(upstream.connections(), 0, "no connection was opened");

    answers = [["127.0.0.1"], ["127.0.0.1"], ["127.0.0.1"], ["127.0.0.1"]];
    const trusted = { ...policy, allowAddresses: ["127.0.0.1/32"] };
    const trustedFetch = pinnedFetch(createGuardedLookup(trusted));
    const ok = await guardedFetch(
      `http://feed.example:${upstream.port}/moved`,
      { headers: { authorization: "Token t" } },
      trusted,
      trustedFetch,
    );
    assert.equal(ok.status, 200, "the redirect was followed by guardedFetch, one checked hop at a time");
    assert.equal(ok.headers.get("x-seen"), "Token t");
    assert.deepEqual(await ok.json(), { ok: 1 });
    assert.equal((await trustedFetch(`http://127.0.0.1:${upstream.port}/empty`)).status, 204);
    const aborted = await trustedFetch(`http://127.0.0.1:${upstream.port}/x`, {
      signal: AbortSignal.abort(new Error("gone")),
    }).catch((e: Error) => e.message);
    assert.equal(aborted, "gone");
  } finally {
    await upstream.close();
  }
});

test("resolveAll gives every address node:dns has for a name, and for an address itself", async () => {
  assert.deepEqual(await resolveAll("127.0.0.1"), ["127.0.0.1"]);
  const local = await resolveAll("localhost");
  assert.ok(local.some((address) => address === "127.0.0.1" || address === "::1"), local.join(", "));
});
