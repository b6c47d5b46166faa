import assert from "node:assert/strict";
import { connect, createServer } from "node:net";
import { test } from "node:test";
import { ApiError } from "../../../src/shared/errors.ts";
import {
  checkUrl,
  type EgressPolicy,
  guardedFetch,
  isPublicAddress,
} from "../../../src/shared/net/egress.ts";
import { createGuardedLookup } from "../../../src/shared/net/lookup.ts";

/** A fetch that records calls and answers 200 (or a scripted response). */
function fetchSpy(answer: (url: string) => Response = () => new Response("ok")) {
  const calls: { url: string; init: RequestInit | undefined }[] = [];
  const impl = (async (input: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(input), init });
    return answer(String(input));
  }) as typeof fetch;
  return { calls, impl };
}

const policy = (allowHosts: string[], answers: Record<string, string[]> = {}): EgressPolicy => ({
  allowHosts,
  resolve: async (host) => {
    const found = answers[host];
    if (!found) throw new Error(`ENOTFOUND ${host}`);
    return found;
  },
});

const isCode = (code: string) => (err: unknown) => err instanceof ApiError && err.code === code;

const BLOCKED: [string, string, EgressPolicy][] = [
  [
    "a host not on the allowlist",
    "https://evil.example/x",
    policy(["api.example"], { "evil.example": ["93.184.216.34"] }),
  ],
  ["a suffix of an allowed host", "https://api.example.evil.example/", policy(["api.example"])],
  ["the file scheme", "file:///etc/passwd", policy(["api.example"])],
  ["the ftp scheme", "ftp://api.example/", policy(["api.example"])],
  ["gopher", "gopher://api.example:70/", policy(["api.example"])],
  [
    "credentials in the URL",
    "https://user:pw@api.example/",
    policy(["api.example"], { "api.example": ["93.184.216.34"] }),
  ],
  ["not a URL", "/relative/path", policy(["api.example"])],
  ["a loopback answer", "https://api.example/", policy(["api.example"], { "api.example": ["127.0.0.1"] })],
  [
    "one private answer among public ones",
    "https://api.example/",
    policy(["api.example"], { "api.example": ["93.184.216.34", "10.1.2.3"] }),
  ],
  ["RFC 1918 172.16/12", "https://api.example/", policy(["api.example"], { "api.example": ["172.20.0.5"] })],
  [
    "RFC 1918 192.168/16",
    "https://api.example/",
    policy(["api.example"], { "api.example": ["192.168.1.1"] }),
  ],
  [
    "the cloud metadata address",
    "https://api.example/",
    policy(["api.example"], { "api.example": ["169.254.169.254"] }),
  ],
  ["CGNAT 100.64/10", "https://api.example/", policy(["api.example"], { "api.example": ["100.64.0.1"] })],
  ["0.0.0.0", "https://api.example/", policy(["api.example"], { "api.example": ["0.0.0.0"] })],
  ["IPv6 loopback", "https://api.example/", policy(["api.example"], { "api.example": ["::1"] })],
  [
    "IPv6 loopback written long",
    "https://api.example/",
    policy(["api.example"], { "api.example": ["0:0:0:0:0:0:0:1"] }),
  ],
  ["IPv6 unique-local", "https://api.example/", policy(["api.example"], { "api.example": ["fd12:3456::1"] })],
  [
    "the AWS IPv6 metadata address",
    "https://api.example/",
    policy(["api.example"], { "api.example": ["fd00:ec2::254"] }),
  ],
  ["IPv6 link-local", "https://api.example/", policy(["api.example"], { "api.example": ["fe80::1"] })],
  [
    "IPv4-mapped IPv6 private",
    "https://api.example/",
    policy(["api.example"], { "api.example": ["::ffff:10.0.0.1"] }),
  ],
  [
    "IPv4-mapped IPv6 in hex",
    "https://api.example/",
    policy(["api.example"], { "api.example": ["::ffff:a9fe:a9fe"] }),
  ],
  [
    "NAT64 of a private address",
    "https://api.example/",
    policy(["api.example"], { "api.example": ["64:ff9b::a00:1"] }),
  ],
  ["a garbage DNS answer", "https://api.example/", policy(["api.example"], { "api.example": ["not-an-ip"] })],
  ["literal loopback", "http://127.0.0.1:8080/", policy(["127.0.0.1"])],
  ["decimal IPv4 2130706433", "http://2130706433/", policy(["127.0.0.1"])],
  ["hex IPv4 0x7f.1", "http://0x7f.1/", policy(["127.0.0.1"])],
  ["octal IPv4 0177.0.0.1", "http://0177.0.0.1/", policy(["127.0.0.1"])],
  ["literal metadata address", "http://169.254.169.254/latest/meta-data/", policy(["169.254.169.254"])],
  ["literal IPv4-mapped IPv6", "http://[::ffff:10.0.0.1]/", policy(["::ffff:a00:1"])],
  ["literal IPv6 loopback", "http://[::1]:8080/", policy(["::1"])],
];

for (const [name, url, p] of BLOCKED) {
  test(`UPSTREAM_BLOCKED before any call: ${name}`, async () => {
    const spy = fetchSpy();
    await assert.rejects(guardedFetch(url, {}, p, spy.impl), isCode("UPSTREAM_BLOCKED"));
    assert.equal(spy.calls.length, 0, "fetch was never called");
  });
}

test("a refused loopback URL opens no connection to a real listening socket", async () => {
  let connections = 0;
  const server = createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  try {
    for (const host of ["127.0.0.1", "2130706433", "0x7f.1", "[::ffff:127.0.0.1]", "localhost"]) {
      await assert.rejects(
        guardedFetch(
          `http://${host}:${port}/`,
          {},
          policy(["127.0.0.1", "localhost", "::ffff:7f00:1"], { localhost: ["127.0.0.1"] }),
          fetch,
        ),
        isCode("UPSTREAM_BLOCKED"),
        host,
      );
    }
    assert.equal(connections, 0);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});

test("an allowlisted host resolving to public addresses passes, with redirect: manual", async () => {
  const spy = fetchSpy();
  const res = await guardedFetch(
    "https://API.example./v1?x=1",
    { headers: { a: "b" } },
    policy(["api.example"], { "api.example": ["93.184.216.34", "2606:4700::1111"] }),
    spy.impl,
  );
  assert.equal(await res.text(), "ok");
  assert.equal(spy.calls.length, 1);
  assert.equal(spy.calls[0]?.url, "https://api.example./v1?x=1");
  assert.equal(spy.calls[0]?.init?.redirect, "manual");
});

test("redirects are re-checked on every hop", async () => {
  const hops = fetchSpy((url) =>
    url.includes("first")
      ? new Response(null, { status: 302, headers: { location: "/second" } })
      : url.includes("second")
        ? new Response(null, { status: 307, headers: { location: "http://169.254.169.254/latest" } })
        : new Response("unreachable"),
  );
  const p = policy(["api.example", "169.254.169.254"], { "api.example": ["93.184.216.34"] });
  await assert.rejects(
    guardedFetch("http://api.example/first", {}, p, hops.impl),
    isCode("UPSTREAM_BLOCKED"),
  );
  assert.deepEqual(
    hops.calls.map((c) => c.url),
    ["http://api.example/first", "http://api.example/second"],
  );

  const offList = fetchSpy(
    () => new Response(null, { status: 301, headers: { location: "https://other.example/" } }),
  );
  await assert.rejects(guardedFetch("https://api.example/", {}, p, offList.impl), isCode("UPSTREAM_BLOCKED"));
  assert.equal(offList.calls.length, 1);

  const downgrade = fetchSpy(
    () => new Response(null, { status: 302, headers: { location: "http://api.example/" } }),
  );
  await assert.rejects(guardedFetch("https://api.example/", {}, p, downgrade.impl), /https to http/);
});

test("a followed redirect: 303 turns a POST into a GET; loops end with UPSTREAM_UNAVAILABLE", async () => {
  const p = policy(["api.example"], { "api.example": ["93.184.216.34"] });
  const ok = fetchSpy((url) =>
    url.endsWith("/a")
      ? new Response(null, { status: 303, headers: { location: "/b" } })
      : new Response("done"),
  );
  const res = await guardedFetch("https://api.example/a", { method: "POST", body: "x" }, p, ok.impl);
  assert.equal(await res.text(), "done");
  assert.equal(ok.calls[1]?.init?.method, "GET");
  assert.equal(ok.calls[1]?.init?.body, null);

  const loop = fetchSpy(() => new Response(null, { status: 302, headers: { location: "/again" } }));
  await assert.rejects(
    guardedFetch("https://api.example/", {}, p, loop.impl),
    isCode("UPSTREAM_UNAVAILABLE"),
  );
  assert.equal(loop.calls.length, 4, "the first request and 3 redirect hops");
  const noLocation = fetchSpy(() => new Response("moved", { status: 301 }));
  assert.equal((await guardedFetch("https://api.example/", {}, p, noLocation.impl)).status, 301);
});

test("DNS failures and empty answers are UPSTREAM_UNAVAILABLE and call nothing", async () => {
  const spy = fetchSpy();
  await assert.rejects(
    guardedFetch("https://api.example/", {}, policy(["api.example"]), spy.impl),
    isCode("UPSTREAM_UNAVAILABLE"),
  );
  await assert.rejects(
    guardedFetch("https://api.example/", {}, policy(["api.example"], { "api.example": [] }), spy.impl),
    isCode("UPSTREAM_UNAVAILABLE"),
  );
  assert.equal(spy.calls.length, 0);
});

test("allowAddresses trusts exactly the listed private addresses", async () => {
  const trusted = {
    ...policy(["feed.internal", "127.0.0.1"], { "feed.internal": ["10.0.0.7"] }),
    allowAddresses: ["10.0.0.0/29", "127.0.0.1"],
  };
  assert.equal((await checkUrl("http://feed.internal/", trusted)).hostname, "feed.internal");
  assert.equal((await checkUrl("http://127.0.0.1:9/", trusted)).port, "9");
  const narrower = { ...trusted, allowAddresses: ["10.0.0.8/29"] };
  await assert.rejects(checkUrl("http://feed.internal/", narrower), isCode("UPSTREAM_BLOCKED"));
  const v6 = { ...policy(["::1"]), allowAddresses: ["::1/128"] };
  assert.equal((await checkUrl("http://[::1]/", v6)).hostname, "[::1]");
});

test("isPublicAddress: only public unicast", () => {
  for (const ip of ["8.8.8.8", "93.184.216.34", "2606:4700::1111"])
    assert.equal(isPublicAddress(ip), true, ip);
  for (const ip of [
    "10.0.0.1",
    "::ffff:192.168.0.1",
    "224.0.0.1",
    "255.255.255.255",
    "2001:db8::1",
    "fec0::1",
    "x",
  ]) {
    assert.equal(isPublicAddress(ip), false, ip);
  }
});

test("the connect-time lookup refuses a host rebound to a private address: no connection is made", async () => {
  let connections = 0;
  const server = createServer((socket) => {
    connections++;
    socket.end("hello");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  let answers = [["93.184.216.34"], ["127.0.0.1"]];
  const rebinding: EgressPolicy = {
    allowHosts: ["feed.example"],
    resolve: async () => answers.shift() ?? [],
  };
  try {
    await checkUrl(`http://feed.example:${port}/`, rebinding); // first answer: public, passes
    const lookup = createGuardedLookup(rebinding);
    const err = await new Promise<Error & { code?: string }>((resolve) => {
      const socket = connect({ host: "feed.example", port, lookup });
      socket.on("error", resolve);
      socket.on("connect", () => resolve(Object.assign(new Error("connected"), { code: "CONNECTED" })));
    });
    assert.equal(err.code, "UPSTREAM_BLOCKED");
    assert.match(err.message, /resolved to 127\.0\.0\.1/);
    assert.equal(connections, 0);

    answers = [["127.0.0.1"]];
    const trusted = createGuardedLookup({ ...rebinding, allowAddresses: ["127.0.0.1/32"] });
    const greeting = await new Promise<string>((resolve, reject) => {
      const socket = connect({ host: "feed.example", port, lookup: trusted });
      socket.on("data", (chunk) => resolve(String(chunk)));
      socket.on("error", reject);
    });
    assert.equal(greeting, "hello", "an explicitly trusted address connects");
    assert.equal(connections, 1);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});

test("the connect-time lookup: literal addresses, families, all, DNS errors", async () => {
  const lookup = createGuardedLookup({
    allowHosts: [],
    resolve: async (host) =>
      host === "dual.example" ? ["93.184.216.34", "2606:4700::1111"] : Promise.reject(new Error("ENOTFOUND")),
  });
  const call = (host: string, options: { all?: boolean; family?: number | string }) =>
    new Promise<{ err: Error | null; address: unknown; family?: number }>((resolve) =>
      lookup(host, options, (err, address, family) => resolve({ err, address, family })),
    );
  assert.deepEqual(await call("dual.example", {}), { err: null, address: "93.184.216.34", family: 4 });
  assert.equal((await call("dual.example", { family: "IPv6" })).address, "2606:4700::1111");
  assert.deepEqual(await call("dual.example", { family: 6 }), {
    err: null,
    address: "2606:4700::1111",
    family: 6,
  });
  assert.deepEqual((await call("dual.example", { all: true })).address, [
    { address: "93.184.216.34", family: 4 },
    { address: "2606:4700::1111", family: 6 },
  ]);
  assert.equal((await call("[::1]", {})).err?.message.includes("::1"), true);
  assert.equal((await call("8.8.8.8", {})).address, "8.8.8.8");
  assert.match((await call("nowhere.example", {})).err?.message ?? "", /ENOTFOUND/);
  assert.match(
    (await call("8.8.8.8", { family: 6 })).err?.message ?? "",
    /no address of the requested family/,
  );
});
