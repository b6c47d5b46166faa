/**
 * The audit's `pageParser` on Node: page HTML parsed on another thread. A local crawl is
 * CPU-bound on one thread and parsing (htmlparser2 and the word hashing) is about 40 % of it;
 * on a second core the crawl's thread only fetches, follows links and keeps the audit
 * (scripts/bench-seo-crawl.ts measures the shipped CLI). Pages travel as their text and come
 * back as their facts (`page-answers.ts`), to a page worker started for the audit (the stdio
 * server, the Node gateway) or over a port to the CLI's main thread (`audit.ts`); either
 * is let go when the crawl ends, so the report is built without it. If the other side cannot
 * start or goes away, the pages it held fail with a clear error, later pages are parsed on the
 * crawl's thread, and `onFailure` hears why once.
 * @module
 */
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { type MessagePort, Worker } from "node:worker_threads";
import type { FactsSink, HtmlFacts, PageParser, PageParsing } from "../../../src/seo/mod.ts";
import type { FactsMessage, PageMessage } from "./page-answers.ts";

/**
 * A thread's entry file shipped beside the bin: dist/seo-<name>.js in a build (this code sits in
 * a chunk under dist/seo-chunks/ or in an entry), shim/node/seo/<name>.ts from source.
 */
export function besideTheBin(name: string): URL | undefined {
  const built = `seo-${name}.js`;
  const candidates = [`../${built}`, `./${built}`, `./${name}.ts`];
  return candidates.map((file) => new URL(file, import.meta.url)).find((url) => existsSync(fileURLToPath(url)));
}

/**
 * The worker keeps nothing between pages, so a small young generation is all it needs; V8's
 * default lets it grow to tens of MB that the crawl's peak memory would carry.
 */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 2 };

const CLOSED = "the crawl is over";

/** How answers and failures come back from where pages are parsed. */
interface Listener {
  answer(message: FactsMessage): void;
  fail(reason: string): void;
}

/** Where a crawl's pages go to be parsed. */
interface Endpoint {
  postMessage(message: PageMessage): void;
  ref(): void;
  unref(): void;
  close(): void;
}

/** Opens the endpoint, on the first page. */
export type Connect = (listener: Listener) => Endpoint;

/** Pages parsed on a new worker thread running `file`, stopped at `close`. */
export function workerEndpoint(file: URL): Connect {
  return (listener) => {
    const worker = new Worker(file, { resourceLimits: WORKER_LIMITS });
    worker.on("message", (message: FactsMessage) => listener.answer(message));
    worker.on("error", (err) => listener.fail(err.message));
    worker.on("exit", (code) => listener.fail(`it exited with code ${code}`));
    return {
      postMessage: (message) => worker.postMessage(message),
      ref: () => worker.ref(),
      unref: () => worker.unref(),
      close: () => void worker.terminate(),
    };
  };
}

/** Pages parsed by whoever holds the other end of `port` (the CLI's main thread). */
export function portEndpoint(port: MessagePort): Connect {
  return (listener) => {
    port.on("message", (message: FactsMessage) => listener.answer(message));
    port.on("close", () => listener.fail("the parsing thread closed its port"));
    return {
      postMessage: (message) => port.postMessage(message),
      ref: () => port.ref(),
      unref: () => port.unref(),
      close: () => port.close(),
    };
  };
}

interface Waiting {
  resolve(facts: HtmlFacts): void;
  reject(error: Error): void;
}

/** One audit's pages, parsed on another thread, and the pages that thread has been given. */
export class RemoteParsing implements PageParsing {
  readonly #connect: Connect | undefined;
  readonly #onFailure: (reason: string) => void;
  #endpoint: Endpoint | undefined;
  /** Why the other thread is gone; pages are then parsed on the crawl's thread. */
  #failed: string | undefined;
  #next = 0;
  readonly #waiting = new Map<number, Waiting>();

  constructor(connect: Connect | undefined, onFailure: (reason: string) => void = () => {}) {
    this.#connect = connect;
    this.#onFailure = onFailure;
    if (!connect) this.#stop("the page worker's file is missing");
  }

  /** A sink for one page while the other thread runs; undefined (parse on the crawl's thread) once it is gone. */
  readonly sink = (): FactsSink | undefined =>
    this.#failed === undefined ? new RemoteSink(this, this.#next++) : undefined;

  /** Stops the other thread's part; pages still out fail. */
  close(): void {
    this.#stop(CLOSED);
  }

  post(message: PageMessage): void {
    if (this.#failed === undefined) this.#opened().postMessage(message);
  }

  /** Sends a page's last piece and waits for its facts. */
  finish(id: number, text: string): Promise<HtmlFacts> {
    if (this.#failed !== undefined) return Promise.reject(new Error(`page parser stopped: ${this.#failed}`));
    return new Promise((resolve, reject) => {
      const endpoint = this.#opened();
      // Referenced only while pages are out: an idle parser never holds the process open.
      if (this.#waiting.size === 0) endpoint.ref();
      this.#waiting.set(id, { resolve, reject });
      endpoint.postMessage([id, text, true]);
    });
  }

  #opened(): Endpoint {
    if (this.#endpoint) return this.#endpoint;
    const endpoint = (this.#connect as Connect)({
      answer: (message) => this.#answer(message),
      fail: (reason) => this.#stop(reason),
    });
    endpoint.unref();
    this.#endpoint = endpoint;
    return endpoint;
  }

  #answer([id, facts, error]: FactsMessage): void {
    const waiting = this.#waiting.get(id);
    this.#waiting.delete(id);
    if (this.#waiting.size === 0) this.#endpoint?.unref();
    if (facts) waiting?.resolve(facts);
    else waiting?.reject(new Error(`page parse failed: ${error ?? "no facts"}`));
  }

  #stop(reason: string): void {
    if (this.#failed !== undefined) return;
    this.#failed = reason;
    if (reason !== CLOSED) this.#onFailure(reason);
    const endpoint = this.#endpoint;
    this.#endpoint = undefined;
    endpoint?.close();
    for (const waiting of this.#waiting.values()) waiting.reject(new Error(`page parser stopped: ${reason}`));
    this.#waiting.clear();
  }
}

/** A page's text on its way to the other thread: the last piece is held back to travel with the end. */
class RemoteSink implements FactsSink {
  /** Set by `end`: the crawl reads it only after a page was read in full. */
  facts!: HtmlFacts;
  readonly #parsing: RemoteParsing;
  readonly #id: number;
  #held: string | undefined;

  constructor(parsing: RemoteParsing, id: number) {
    this.#parsing = parsing;
    this.#id = id;
  }

  write(text: string): void {
    if (this.#held !== undefined) this.#parsing.post([this.#id, this.#held, false]);
    this.#held = text;
  }

  /** Not an async function: its suspended frame would keep the page's text alive until the answer. */
  end(): Promise<void> {
    const answered = this.#parsing.finish(this.#id, this.#held ?? "");
    this.#held = undefined;
    return answered.then((facts) => {
      this.facts = facts;
    });
  }
}

/**
 * The audit's page parser: a worker per audit when this machine has a core to spare, else none
 * (pages are parsed on the crawl's thread). `onFailure` hears why a worker could not be used.
 */
export function pageParser(onFailure?: (reason: string) => void): PageParser | undefined {
  if (availableParallelism() < 2) return undefined;
  return () => {
    const file = besideTheBin("page-worker");
    return new RemoteParsing(file ? workerEndpoint(file) : undefined, onFailure);
  };
}

/** `{ pageParser }` for an audit's options, or nothing where there is no core to spare. */
export function withPageParser(onFailure?: (reason: string) => void): { pageParser?: PageParser } {
  const parser = pageParser(onFailure);
  return parser ? { pageParser: parser } : {};
}
