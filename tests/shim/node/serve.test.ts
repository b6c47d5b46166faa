import assert from "node:assert/strict";
import { request as httpRequest } from "node:http";
import { connect, type Socket } from "node:net";
import { test } from "node:test";
import { closeOnSignals, REQUEST_TIMEOUT_MS, serve } from "../../../shim/node/serve.ts";
import { createCors } from "../../../src/shared/http/cors.ts";
import { createPipeline } from "../../../src/shared/http/pipeline.ts";
import {
  bodyOf,
  bodyTextOf,
  joinPrepared,
  json,
  prepareJson,
  preparedJson,
  preparedText,
} from "../../../src/shared/http/respond.ts";

test("serve() carries method, URL, headers, streamed body and client address to the handler", async () => {
  const serving = await serve(
    async (req, ctx) =>
      json({
        method: req.method,
        path: new URL(req.url).pathname + new URL(req.url).search,
        dup: req.headers.get("x-dup"),
        body: await req.text(),
        client: ctx?.clientAddress,
      }),
    { port: 0 },
  );
  try {
    const res = await fetch(`${serving.url}/echo?a=1`, {
      method: "POST",
      headers: [
        ["x-dup", "1"],
        ["x-dup", "2"],
      ],
      body: "hello",
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-length"), String((await res.clone().arrayBuffer()).byteLength));
    assert.deepEqual(await res.json(), {
      method: "POST",
      path: "/echo?a=1",
      dup: "1, 2",
      body: "hello",
      client: "127.0.0.1",
    });
  } finally {
    await serving.close();
  }
});

test("serve() streams non-JSON bodies, keeps status and every set-cookie", async () => {
  const serving = await serve(
    async () => {
      const headers = new Headers({ "content-type": "text/plain" });
      headers.append("set-cookie", "a=1");
      headers.append("set-cookie", "b=2");
      const body = new ReadableStream({
        start(c) {
          c.enqueue(new TextEncoder().encode("part1 "));
          c.enqueue(new TextEncoder().encode("part2"));
          c.close();
        },
      });
      return new Response(body, { status: 418, headers });
    },
    { port: 0 },
  );
  try {
    const res = await fetch(serving.url);
    assert.equal(res.status, 418);
    assert.deepEqual(res.headers.getSetCookie(), ["a=1", "b=2"]);
    assert.equal(await res.text(), "part1 part2");
    const head = await fetch(serving.url, { method: "HEAD" });
    assert.equal(head.status, 418);
    assert.equal(await head.text(), "");
  } finally {
    await serving.close();
  }
});

test("serve() answers the envelope when the handler throws, and aborts the signal on disconnect", async () => {
  let aborted: Promise<boolean> | undefined;
  let started!: () => void;
  const handling = new Promise<void>((resolve) => (started = resolve));
  const serving = await serve(
    async (req) => {
      if (new URL(req.url).pathname === "/boom") throw new Error("secret detail");
      aborted = new Promise((resolve) => req.signal.addEventListener("abort", () => resolve(true)));
      started();
      await aborted;
      return new Response("late");
    },
    { port: 0 },
  );
  try {
    const boom = await fetch(`${serving.url}/boom`);
    assert.equal(boom.status, 500);
    assert.deepEqual(await boom.json(), {
      error: { code: "INTERNAL", message: "Internal error; the request was not completed" },
    });
    const req = httpRequest(`${serving.url}/hang`);
    req.on("error", () => {});
    req.end();
    // Disconnect once the handler runs (a fixed delay raced a loaded machine's slow start); the
    // 10 s limit only turns a signal that never aborts into a failure instead of a hang.
    await handling;
    req.destroy();
    const gaveUp = new Promise<boolean>((resolve) => setTimeout(resolve, 10_000, false).unref());
    assert.equal(await Promise.race([aborted, gaveUp]), true);
  } finally {
    await serving.close();
  }
});

test("closeOnSignals() registers SIGINT and SIGTERM handlers", () => {
  const before = [process.listenerCount("SIGINT"), process.listenerCount("SIGTERM")];
  closeOnSignals({ server: undefined as never, url: "", close: async () => {} }, () => {});
  assert.deepEqual(
    [process.listenerCount("SIGINT"), process.listenerCount("SIGTERM")],
    [before[0]! + 1, before[1]! + 1],
  );
  process.removeAllListeners("SIGINT");
  process.removeAllListeners("SIGTERM");
});

test("serve() writes json() text and preparedJson() bytes directly, with content-length, also for HEAD", async () => {
  const prepared = prepareJson({ name: "Zürich" });
  const bytes = prepared.bytes;
  const serving = await serve(
    async (req) =>
      new URL(req.url).pathname === "/bytes" ? preparedJson(prepared) : json({ name: "Zürich" }),
    { port: 0 },
  );
  try {
    for (const path of ["/bytes", "/text"]) {
      const res = await fetch(serving.url + path);
      assert.equal(res.headers.get("content-length"), String(bytes.byteLength), path);
      assert.equal(res.headers.get("content-type"), "application/json; charset=utf-8", path);
      assert.deepEqual(await res.json(), { name: "Zürich" }, path);
      const head = await fetch(serving.url + path, { method: "HEAD" });
      assert.equal(head.headers.get("content-length"), String(bytes.byteLength), path);
      assert.equal(await head.text(), "", path);
    }
  } finally {
    await serving.close();
  }
});

test("serve() writes a prepared answer's header lines as set in-process: each cookie apart, one content-length of the bytes sent", async () => {
  const prepared = prepareJson({ name: "Zürich" });
  const serving = await serve(
    async () => {
      const answer = preparedJson(prepared, { headers: { "content-length": "999", "x-kept": "yes" } });
      answer.headers.append("set-cookie", "a=1");
      answer.headers.append("set-cookie", "b=2");
      answer.headers.append("vary", "origin");
      return answer;
    },
    { port: 0 },
  );
  try {
    const raw = await new Promise<string[]>((resolve, reject) => {
      httpRequest(serving.url, (res) => {
        res.resume();
        res.on("end", () => resolve(res.rawHeaders));
      })
        .on("error", reject)
        .end();
    });
    const lines = raw.flatMap((_, i) => (i % 2 ? [] : [`${(raw[i] as string).toLowerCase()}: ${raw[i + 1]}`]));
    assert.deepEqual(lines.filter((l) => l.startsWith("content-length")), [`content-length: ${prepared.bytes.byteLength}`]);
    assert.deepEqual(lines.filter((l) => l.startsWith("set-cookie")), ["set-cookie: a=1", "set-cookie: b=2"]);
    assert.ok(lines.includes("x-kept: yes") && lines.includes("vary: origin"), lines.join("\n"));
  } finally {
    await serving.close();
  }
});

test("bodyOf() remembers json()/preparedJson() bodies until they are read; custom content-type is kept", async () => {
  const res = json([1], { headers: { "content-type": "application/problem+json" } });
  assert.equal(bodyTextOf(res), "[1]");
  assert.equal(res.headers.get("content-type"), "application/problem+json");
  await res.text();
  assert.equal(bodyOf(res), undefined);
  const bin = preparedJson(prepareJson([2]), { status: 202 });
  assert.equal(bodyTextOf(bin), undefined);
  assert.deepEqual(bodyOf(bin), new TextEncoder().encode("[2]"));
  assert.equal(bin.status, 202);
  assert.deepEqual(await bin.json(), [2]);
});

test("joinPrepared() concatenates prepared parts and strings as text and UTF-8 bytes", () => {
  const joined = joinPrepared(["[", prepareJson({ city: "Zürich" }), ",", prepareJson("Łódź"), "]"]);
  assert.equal(preparedText(joined), '[{"city":"Zürich"},"Łódź"]');
  assert.deepEqual(joined.bytes, new TextEncoder().encode('[{"city":"Zürich"},"Łódź"]'));
});

test("preparedJson() responses read like any Response in-process, once, and clone while unread", async () => {
  const prepared = prepareJson({ city: "Zürich" });
  const make = () => preparedJson(prepared, { status: 201, headers: { "x-a": "1" } });
  const res = make();
  assert.ok(res instanceof Response);
  assert.equal(res.status, 201);
  assert.equal(res.headers.get("x-a"), "1");
  assert.equal(res.headers.get("content-type"), "application/json; charset=utf-8");
  assert.equal(res.bodyUsed, false);
  const copy = res.clone();
  assert.deepEqual(await res.json(), { city: "Zürich" });
  assert.equal(res.bodyUsed, true);
  assert.equal(bodyOf(res), undefined, "adapters no longer see a used body");
  assert.throws(() => res.clone(), /already been read/);
  await assert.rejects(res.text());
  assert.equal(await copy.text(), '{"city":"Zürich"}');
  assert.equal(new TextDecoder().decode(await make().arrayBuffer()), '{"city":"Zürich"}');
  assert.equal(await (await make().blob()).text(), '{"city":"Zürich"}');
  const bytes = await (make() as unknown as { bytes(): Promise<Uint8Array> }).bytes();
  assert.deepEqual(bytes, prepared.bytes);
  await assert.rejects(make().formData());
  const streamed = await new Response(make().body).text();
  assert.equal(streamed, '{"city":"Zürich"}');
  const rewrapped = new Response(make().body, make());
  assert.equal(rewrapped.status, 201);
  assert.equal(await rewrapped.text(), '{"city":"Zürich"}');
});

test("serve() answers 400 to a malformed Host or request target and keeps serving", async () => {
  const { connect } = await import("node:net");
  const serving = await serve(async (req) => json({ url: req.url }), { port: 0 });
  const port = Number(new URL(serving.url).port);
  const raw = (text: string) =>
    new Promise<string>((resolve, reject) => {
      const socket = connect(port, "127.0.0.1", () => socket.end(text));
      let out = "";
      socket.on("data", (chunk) => (out += chunk));
      socket.on("close", () => resolve(out));
      socket.on("error", reject);
    });
  try {
    const badHost = await raw("GET /x HTTP/1.1\r\nHost: a b\r\nConnection: close\r\n\r\n");
    assert.match(badHost, /^HTTP\/1\.1 200/);
    assert.match(badHost, /"url":"http:\/\/127\.0\.0\.1:\d+\/x"/);
    const absolute = await raw("GET http://elsewhere.example/y?q=1 HTTP/1.1\r\nHost: ok.example\r\nConnection: close\r\n\r\n");
    assert.match(absolute, /"url":"http:\/\/ok\.example\/y\?q=1"/);
    const badTarget = await raw("GET http://[zz/ HTTP/1.1\r\nHost: ok.example\r\nConnection: close\r\n\r\n");
    assert.match(badTarget, /^HTTP\/1\.1 400/);
    assert.match(badTarget, /INVALID_ARGUMENTS/);
    assert.equal((await fetch(`${serving.url}/alive`)).status, 200);
  } finally {
    await serving.close();
  }
});

test("serve() answers requests node's parser refuses with the JSON envelope, and keeps serving", async () => {
  const { connect } = await import("node:net");
  const serving = await serve(async (req) => json({ url: req.url }), { port: 0 });
  const port = Number(new URL(serving.url).port);
  const raw = (text: string) =>
    new Promise<string>((resolve, reject) => {
      const socket = connect(port, "127.0.0.1", () => socket.write(text));
      let out = "";
      socket.on("data", (chunk) => (out += chunk));
      socket.on("close", () => resolve(out));
      socket.on("error", reject);
    });
  try {
    for (const request of [
      "GARBAGE\r\n\r\n",
      "GET /x HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
      "GET /x HTTP/1.1\r\nConnection: close\r\n\r\n",
    ]) {
      const answer = await raw(request);
      assert.match(answer, /^HTTP\/1\.1 400 /, request);
      assert.match(answer, /\{"error":\{"code":"INVALID_ARGUMENTS","message":"[^"]+"\}\}/, request);
    }
    const huge = await raw(`GET /x HTTP/1.1\r\nHost: a\r\nx-big: ${"a".repeat(20_000)}\r\n\r\n`);
    assert.match(huge, /^HTTP\/1\.1 431 /);
    assert.match(huge, /\r\n\r\n\{"error":\{"code":"PAYLOAD_TOO_LARGE","message":"[^"]+"\}\}$/);
    const tunnel = await raw("CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n");
    assert.match(tunnel, /^HTTP\/1\.1 405 /, "CONNECT gets the envelope, not a closed socket");
    assert.match(tunnel, /\r\nallow: GET, HEAD, POST, OPTIONS\r\n/);
    assert.match(tunnel, /\{"error":\{"code":"METHOD_NOT_ALLOWED","message":"CONNECT is not supported: this server is not a proxy"\}\}$/);
    const expect = await raw("GET /x HTTP/1.1\r\nHost: a\r\nExpect: something-else\r\n\r\n");
    assert.match(expect, /^HTTP\/1\.1 417 /);
    assert.match(expect, /\{"error":\{"code":"INVALID_ARGUMENTS","message":"Only the 100-continue expectation is supported"\}\}$/);
    const upgrade = await raw("GET /x HTTP/1.1\r\nHost: a\r\nConnection: Upgrade, close\r\nUpgrade: websocket\r\n\r\n");
    assert.match(upgrade, /^HTTP\/1\.1 200 /, "an upgrade request reaches the handler as a plain one");
    const old = await raw("GET /x HTTP/1.0\r\n\r\n");
    assert.match(old, /^HTTP\/1\.1 200 /, "HTTP/1.0 needs no Host");
    assert.equal((await fetch(`${serving.url}/alive`)).status, 200);
  } finally {
    await serving.close();
  }
});

test("serve() drains a body the handler refuses unread: the client reads the answer, no reset, and serving goes on", async () => {
  const serving = await serve(
    async (req) => {
      await req.body?.cancel();
      return json({ refused: true }, { status: 413 });
    },
    { port: 0 },
  );
  const post = (chunks: Buffer[], headers: Record<string, string>) =>
    new Promise<{ status: number; body: string } | { error: string }>((resolve) => {
      const req = httpRequest(`${serving.url}/x`, { method: "POST", headers }, (res) => {
        let body = "";
        res.on("data", (c) => (body += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on("error", (err) => resolve({ error: err.message }));
      for (const chunk of chunks) req.write(chunk);
      req.end();
    });
  try {
    for (let i = 0; i < 5; i++) {
      assert.deepEqual(await post([Buffer.alloc(4096, 120)], { "content-length": "4096" }), { status: 413, body: '{"refused":true}' });
      assert.deepEqual(await post(Array(16).fill(Buffer.alloc(1024, 121)), { "transfer-encoding": "chunked" }), { status: 413, body: '{"refused":true}' });
    }
    // A client that goes on sending after the answer arrived still completes its request.
    const late = await new Promise<{ status: number; body: string } | { error: string }>((resolve) => {
      const req = httpRequest(`${serving.url}/x`, { method: "POST", headers: { "transfer-encoding": "chunked" } }, (res) => {
        let body = "";
        res.on("data", (c) => (body += c));
        const rest = setInterval(() => req.write(Buffer.alloc(8192, 119)), 5);
        setTimeout(() => {
          clearInterval(rest);
          req.end();
        }, 150);
        res.on("end", () => setTimeout(() => resolve({ status: res.statusCode ?? 0, body }), 200));
      });
      req.on("error", (err) => resolve({ error: err.message }));
      req.write(Buffer.alloc(1024, 118));
    });
    assert.deepEqual(late, { status: 413, body: '{"refused":true}' });
    const huge = await post(Array(64).fill(Buffer.alloc(64 * 1024, 122)), { "transfer-encoding": "chunked" });
    assert.deepEqual(huge, { status: 413, body: '{"refused":true}' });
    assert.equal((await fetch(`${serving.url}/alive`, { method: "POST", body: "x" })).status, 413);
  } finally {
    await serving.close();
  }
});

/** A raw connection to `url`, and a promise of everything it received once it closes. */
function rawConnection(url: string): { socket: Socket; closed: Promise<{ text: string; error?: string }> } {
  const socket = connect(Number(new URL(url).port), "127.0.0.1");
  let text = "";
  socket.on("data", (chunk) => (text += chunk.toString("latin1")));
  const closed = new Promise<{ text: string; error?: string }>((resolve) => {
    socket.on("error", (err: NodeJS.ErrnoException) => resolve({ text, error: err.code ?? err.message }));
    socket.on("close", () => resolve({ text }));
  });
  return { socket, closed };
}

const writeAll = (socket: Socket, bytes: Buffer | string) =>
  new Promise<void>((resolve, reject) => socket.write(bytes, (err) => (err ? reject(err) : resolve())));

test("a 5 MB upload to /mcp reads the typed 413 after writing its whole body: drained, no reset", async () => {
  const mcp = async () => new Response("{}");
  const handler = createPipeline({
    routes: [{ method: "POST", path: "/mcp", handle: mcp }],
    cors: createCors({ origins: "*" }),
    noRoute: "no route",
    unexpected: () => {},
  });
  const serving = await serve(handler, { port: 0 });
  const fiveMb = Buffer.alloc(5 * 1024 * 1024, 0x20);
  try {
    for (const framing of ["content-length", "chunked"]) {
      const { socket, closed } = rawConnection(serving.url);
      const length = framing === "chunked" ? "transfer-encoding: chunked" : `content-length: ${fiveMb.byteLength}`;
      // Like a client that sends everything before it reads: the answer waits in its buffer.
      await writeAll(socket, `POST /mcp HTTP/1.1\r\nhost: a\r\ncontent-type: application/json\r\n${length}\r\n\r\n`);
      if (framing === "chunked") {
        for (let at = 0; at < fiveMb.byteLength; at += 256 * 1024) {
          await writeAll(socket, `40000\r\n`);
          await writeAll(socket, fiveMb.subarray(at, at + 256 * 1024));
          await writeAll(socket, "\r\n");
        }
        await writeAll(socket, "0\r\n\r\n");
      } else await writeAll(socket, fiveMb);
      socket.end();
      const { text, error } = await closed;
      assert.equal(error, undefined, framing);
      assert.match(text, /^HTTP\/1\.1 413 /, framing);
      assert.match(text, /"code":"PAYLOAD_TOO_LARGE"/, framing);
    }
    const viaFetch = await fetch(`${serving.url}/mcp`, { method: "POST", body: fiveMb });
    assert.equal(viaFetch.status, 413);
  } finally {
    await serving.close();
  }
});

test("a body dripped slower than the request deadline answers REQUEST_TIMEOUT (408) and closes; an answer already sent is not followed by one", async () => {
  assert.equal(REQUEST_TIMEOUT_MS, 10_000, "the documented deadline");
  const serving = await serve(
    async (req) => {
      if (req.url.endsWith("/refuse")) {
        await req.body?.cancel();
        return json({ refused: true }, { status: 413 });
      }
      return json({ got: (await req.text()).length });
    },
    { port: 0, requestTimeoutMs: 300 },
  );
  const drip = (socket: Socket) => {
    const timer = setInterval(() => socket.writable && socket.write("x"), 50);
    socket.once("close", () => clearInterval(timer));
  };
  try {
    const slow = rawConnection(serving.url);
    await writeAll(slow.socket, "POST /echo HTTP/1.1\r\nhost: a\r\ncontent-length: 100000\r\n\r\n");
    drip(slow.socket);
    const { text, error } = await slow.closed;
    assert.equal(error, undefined);
    assert.match(text, /^HTTP\/1\.1 408 /);
    assert.match(text, /\{"error":\{"code":"REQUEST_TIMEOUT","message":"[^"]+"\}\}$/);

    const refused = rawConnection(serving.url);
    await writeAll(refused.socket, "POST /refuse HTTP/1.1\r\nhost: a\r\ncontent-length: 100000\r\n\r\n");
    drip(refused.socket);
    const after = await refused.closed;
    assert.match(after.text, /^HTTP\/1\.1 413 [^]*\{"refused":true\}$/, "one answer, then the connection closes");
    assert.equal((await fetch(`${serving.url}/echo`, { method: "POST", body: "abc" })).status, 200);
  } finally {
    await serving.close();
  }
});

test("a pipelining client that never reads gets no more handler runs than the socket holds; reading, it gets every answer in order", async () => {
  let runs = 0;
  const answer = new Uint8Array(256 * 1024).fill(0x61);
  const serving = await serve(
    async (req) => {
      runs++;
      return new Response(answer, { headers: { "x-n": new URL(req.url).searchParams.get("n") ?? "" } });
    },
    { port: 0 },
  );
  const count = 400;
  const socket = connect(Number(new URL(serving.url).port), "127.0.0.1");
  socket.pause();
  // The answers' x-n headers in arrival order, read as they stream by (100 MB in all).
  const order: number[] = [];
  let tail = "";
  socket.on("data", (chunk: Buffer) => {
    const text = tail + chunk.toString("latin1");
    let end = 0;
    for (const match of text.matchAll(/\r\nx-n: (\d+)\r\n/g)) {
      order.push(Number(match[1]));
      end = match.index + match[0].length;
    }
    tail = text.slice(Math.max(end, text.length - 24));
  });
  try {
    let requests = "";
    for (let n = 0; n < count; n++) requests += `GET /x?n=${n} HTTP/1.1\r\nhost: a\r\n\r\n`;
    await writeAll(socket, requests);
    // Wait until the server stops making progress (it would run all 400, 100 MB, unpaced).
    let seen = -1;
    while (seen !== runs) {
      seen = runs;
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    assert.ok(runs < count / 4, `${runs} handler runs for a client that reads nothing`);
    socket.resume();
    while (order.length < count) await new Promise((resolve) => socket.once("data", resolve));
    assert.deepEqual(order, Array.from({ length: count }, (_, n) => n));
    assert.equal(runs, count);
  } finally {
    socket.destroy();
    await serving.close();
  }
});

test("serve() hands a GET over as a Request whose other members (body readers, clone) still work", async () => {
  const serving = await serve(
    async (req) => {
      const copy = req.clone();
      return json({
        isRequest: req instanceof Request,
        method: req.method,
        url: req.url,
        accept: req.headers.get("accept"),
        aborted: req.signal.aborted,
        body: req.body,
        text: await req.text(),
        bodyUsed: req.bodyUsed,
        copy: [copy.method, copy.url, copy.headers.get("accept")],
        cache: req.cache,
        tag: Object.prototype.toString.call(req),
      });
    },
    { port: 0 },
  );
  try {
    const res = await fetch(`${serving.url}/a/../b%20c?x=1 2`, { headers: { accept: "text/plain" } });
    const url = `${serving.url}/b%20c?x=1%202`;
    assert.deepEqual(await res.json(), {
      isRequest: true,
      method: "GET",
      url,
      accept: "text/plain",
      aborted: false,
      body: null,
      text: "",
      bodyUsed: false,
      copy: ["GET", url, "text/plain"],
      cache: "default",
      tag: "[object Request]",
    });
  } finally {
    await serving.close();
  }
});
