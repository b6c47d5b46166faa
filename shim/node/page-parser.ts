/**
 * The audit's `pageParser` on Node: page HTML parsed on a worker thread. A local crawl is
 * CPU-bound on one thread and parsing (htmlparser2 and the word hashing) is about 40 % of it;
 * on a second core the crawl's thread only fetches, follows links and keeps the audit
 * (scripts/bench-seo-crawl.ts measures the shipped CLI). Pages travel as their text and come
 * back as their facts. One worker per audit, stopped when its crawl ends, so the report is built
 * without it. If the worker cannot start or dies, the pages it held fail with a clear error,
 * later pages are parsed on the crawl's thread, and `onFailure` hears why once.
 * @module
 */
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { FactsSink, HtmlFacts, PageParser, PageParsing } from "../../src/seo/mod.ts";
import type { FactsMessage, PageMessage } from "./page-answers.ts";

/**
 * A thread's entry file shipped beside the bin: dist/<name>.js in a build (this code sits in a
 * chunk under dist/seo-chunks/ or in an entry), shim/node/<name>.ts from source.
 */
function besideTheBin(name: string): URL | undefined {
  const candidates = [`../${name}.js`, `./${name}.js`, `./${name}.ts`];
  return candidates.map((file) => new URL(file, import.meta.url)).find((url) => existsSync(fileURLToPath(url)));
}

/**
 * The worker keeps nothing between pages, so a small young generation is all it needs; V8's
 * default lets it grow to tens of MB that the crawl's peak memory would carry.
 */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 2 };

const CLOSED = "the crawl is over";

interface Waiting {
  resolve(facts: HtmlFacts): void;
  reject(error: Error): void;
}

/** One audit's worker thread and the pages it has been given. */
export class WorkerParsing implements PageParsing {
  readonly #file: URL | undefined;
  readonly #onFailure: (reason: string) => void;
  #worker: Worker | undefined;
  /** Why the worker is gone; pages are then parsed on the crawl's thread. */
  #failed: string | undefined;
  #next = 0;
  readonly #waiting = new Map<number, Waiting>();

  constructor(file: URL | undefined, onFailure: (reason: string) => void = () => {}) {
    this.#file = file;
    this.#onFailure = onFailure;
    if (!file) this.#stop("the page worker's file is missing");
  }

  /** A sink for one page on the worker while it runs; undefined (parse on the crawl's thread) once it is gone. */
  readonly sink = (): FactsSink | undefined =>
    this.#failed === undefined ? new WorkerSink(this, this.#next++) : undefined;

  /** Stops the worker; pages still out fail. */
  close(): void {
    this.#stop(CLOSED);
  }

  post(message: PageMessage): void {
    if (this.#failed === undefined) this.#started().postMessage(message);
  }

  /** Sends a page's last piece and waits for its facts. */
  finish(id: number, text: string): Promise<HtmlFacts> {
    if (this.#failed !== undefined) return Promise.reject(new Error(`page parser stopped: ${this.#failed}`));
    return new Promise((resolve, reject) => {
      const worker = this.#started();
      // Referenced only while pages are out: an idle worker never holds the process open.
      if (this.#waiting.size === 0) worker.ref();
      this.#waiting.set(id, { resolve, reject });
      worker.postMessage([id, text, true] satisfies PageMessage);
    });
  }

  #started(): Worker {
    if (this.#worker) return this.#worker;
    const worker = new Worker(this.#file as URL, { resourceLimits: WORKER_LIMITS });
    worker.unref();
    worker.on("message", (message: FactsMessage) => this.#answer(message));
    worker.on("error", (err) => this.#stop(err.message));
    worker.on("exit", (code) => this.#stop(`it exited with code ${code}`));
    this.#worker = worker;
    return worker;
  }

  #answer([id, facts, error]: FactsMessage): void {
    const waiting = this.#waiting.get(id);
    this.#waiting.delete(id);
    if (this.#waiting.size === 0) this.#worker?.unref();
    if (facts) waiting?.resolve(facts);
    else waiting?.reject(new Error(`page parse failed: ${error ?? "no facts"}`));
  }

  #stop(reason: string): void {
    if (this.#failed !== undefined) return;
    this.#failed = reason;
    if (reason !== CLOSED) this.#onFailure(reason);
    const worker = this.#worker;
    this.#worker = undefined;
    void worker?.terminate();
    for (const waiting of this.#waiting.values()) waiting.reject(new Error(`page parser stopped: ${reason}`));
    this.#waiting.clear();
  }
}

/** A page's text on its way to the worker: the last piece is held back to travel with the end. */
class WorkerSink implements FactsSink {
  /** Set by `end`: the crawl reads it only after a page was read in full. */
  facts!: HtmlFacts;
  readonly #parsing: WorkerParsing;
  readonly #id: number;
  #held: string | undefined;

  constructor(parsing: WorkerParsing, id: number) {
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
    return new WorkerParsing(besideTheBin("seo-page-worker"), onFailure);
  };
}

/** `{ pageParser }` for an audit's options, or nothing where there is no core to spare. */
export function withPageParser(onFailure?: (reason: string) => void): { pageParser?: PageParser } {
  const parser = pageParser(onFailure);
  return parser ? { pageParser: parser } : {};
}
