/**
 * A node:http(s) `HttpRequest` for the crawler: keep-alive agents and plain streams instead of
 * the WHATWG fetch machinery, which costs noticeably more CPU and memory per page (see
 * scripts/bench-seo-crawl.ts). Content-Encoding gzip/deflate/br is decoded here.
 * @module
 */
import { Agent as HttpAgent, request as httpGet, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsGet } from "node:https";
import type { Readable } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import type { HttpRequest, HttpResponse, ResponseHeaders } from "../../../src/seo/mod.ts";

function decoded(res: IncomingMessage): Readable {
  const encoding = (res.headers["content-encoding"] ?? "").toLowerCase().trim();
  const decoder =
    encoding === "gzip" || encoding === "x-gzip"
      ? createGunzip()
      : encoding === "deflate"
        ? createInflate()
        : encoding === "br"
          ? createBrotliDecompress()
          : undefined;
  if (!decoder) return res;
  res.on("error", (err) => decoder.destroy(err));
  return res.pipe(decoder);
}

/**
 * The response's headers as the crawl reads them (`get`, like WHATWG `Headers`: any case,
 * repeated fields joined with ", "), scanned from the raw list on demand. A WHATWG `Headers`
 * per response would load undici into every crawl and validate fields node's parser has
 * already checked.
 */
class RawHeaders implements ResponseHeaders {
  readonly #raw: string[];

  constructor(raw: string[]) {
    this.#raw = raw;
  }

  get(name: string): string | null {
    const wanted = name.toLowerCase();
    const raw = this.#raw;
    let value: string | null = null;
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const field = raw[i] as string;
      if (field.length !== wanted.length || field.toLowerCase() !== wanted) continue;
      value = value === null ? (raw[i + 1] as string) : `${value}, ${raw[i + 1]}`;
    }
    return value;
  }
}

/** Stream events instead of async iteration: less machinery per chunk on every page of a crawl. */
function readEvents(body: Readable, take: (chunk: Uint8Array) => boolean, drop: () => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const onData = (chunk: Uint8Array) => {
      if (take(chunk)) return;
      body.off("data", onData);
      drop();
      resolve();
    };
    body.on("data", onData);
    body.once("end", resolve);
    body.once("error", reject);
    body.once("close", () => reject(new Error("body closed before its end")));
  });
}

export interface NodeHttp {
  request: HttpRequest;
  /** Closes idle keep-alive sockets so the process can exit at once. */
  close(): void;
}

export function nodeHttpRequest(maxSockets = 16): NodeHttp {
  const agents = {
    http: new HttpAgent({ keepAlive: true, maxSockets }),
    https: new HttpsAgent({ keepAlive: true, maxSockets }),
  };
  const request: HttpRequest = (url, init) =>
    new Promise<HttpResponse>((resolve, reject) => {
      const secure = url.startsWith("https:");
      const headers = { ...init.headers, "accept-encoding": "gzip, deflate, br" };
      const options = {
        method: "GET",
        headers,
        agent: secure ? agents.https : agents.http,
        signal: init.signal,
      };
      const req = (secure ? httpsGet : httpGet)(url, options, (res) => {
        const body = decoded(res);
        // Small unread bodies (redirects) are drained so the keep-alive socket is reused.
        const small = Number(res.headers["content-length"] ?? Number.POSITIVE_INFINITY) <= 65_536;
        const cancel = () => void (small ? body.resume() : body.destroy());
        const drop = () => {
          body.destroy();
          res.destroy();
        };
        resolve({
          status: res.statusCode ?? 0,
          headers: new RawHeaders(res.rawHeaders),
          body,
          cancel,
          readChunks: (take) => readEvents(body, take, drop),
        });
      });
      req.on("error", reject);
      req.end();
    });
  return {
    request,
    close() {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}
