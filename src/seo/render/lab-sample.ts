/**
 * Which pages of a rendered crawl get lab metrics, and their measuring: the first page of each
 * template as its URL suggests (`/blog/*`, `/p/*`, `/about`) is measured as soon as the crawl renders
 * it, so a crawl cut short by its time budget still has figures; after the last page, others fill
 * the sample in crawl order. One page at a time, cold, under the browser's throttling.
 * @module
 */
import { urlPattern } from "../crawl/frontier.ts";
import { LAB_THROTTLING, type LabMetrics, type Renderer, type SubRequestGate, type Throttling } from "./renderer.ts";
import { messageOf } from "../../shared/errors.ts";

/** Pages measured by default. */
export const LAB_SAMPLE = 20;

export interface LabReport {
  throttling: Throttling;
  /** How the pages were picked. */
  sample: string;
  pages: LabMetrics[];
}

/**
 * A page's template, as its URL suggests: its directory for pages below one (`/blog/a` and
 * `/blog/b` share `/blog/*`), numbers and ids as `*` (`urlPattern`), the query left out.
 */
export function templateOf(url: string): string {
  const path = urlPattern(url.split("?")[0] ?? url).replace(/^[a-z]+:\/\/[^/]+/i, "");
  const segments = path.split("/");
  const last = segments.length - 1;
  if (segments.filter(Boolean).length >= 2) segments[segments[last] === "" ? last - 1 : last] = "*";
  return segments.join("/");
}

/** A page the browser could not measure: no figures, and why. */
function failed(url: string, err: unknown): LabMetrics {
  const error = `the browser failed: ${messageOf(err)}`;
  return { url, lcpMs: null, cls: 0, tbtMs: 0, transferBytes: 0, requests: 0, renderBlocking: [], error };
}

export class LabSampler {
  readonly #size: number;
  readonly #renderer: Renderer;
  readonly #timeoutMs: number;
  readonly #patterns = new Set<string>();
  readonly #rest: string[] = [];
  readonly #pages: LabMetrics[] = [];
  #scheduled = 0;
  #stopped = false;
  #chain: Promise<void> = Promise.resolve();

  constructor(renderer: Renderer, timeoutMs: number, size = LAB_SAMPLE) {
    this.#renderer = renderer;
    this.#timeoutMs = timeoutMs;
    this.#size = size;
  }

  /** A rendered page, in crawl order: the first of its pattern is measured now, others may fill in later. */
  offer(url: string, gate: SubRequestGate): void {
    const pattern = templateOf(url);
    if (!this.#patterns.has(pattern)) {
      this.#patterns.add(pattern);
      if (this.#scheduled < this.#size) this.#schedule(url, gate);
    } else if (this.#rest.length < this.#size) this.#rest.push(url);
  }

  /** After the last page: others fill the sample. */
  fill(gate: SubRequestGate): void {
    for (const url of this.#rest) if (this.#scheduled < this.#size) this.#schedule(url, gate);
  }

  /** Waits for the measurements; `stopped` (the crawl's time ran out) skips those not started and drops the cut one. */
  async report(stopped: boolean): Promise<LabReport> {
    this.#stopped = stopped;
    await this.#chain;
    return {
      throttling: LAB_THROTTLING,
      sample: `${this.#size} pages at most: the first page of each URL pattern (a template) as the crawl reaches it, then others in crawl order`,
      pages: stopped ? this.#pages.filter((p) => p.error === undefined) : this.#pages,
    };
  }

  #schedule(url: string, gate: SubRequestGate): void {
    this.#scheduled++;
    this.#chain = this.#chain.then(async () => {
      if (this.#stopped) return;
      const options = { gate, timeoutMs: this.#timeoutMs, throttling: LAB_THROTTLING };
      this.#pages.push(await this.#renderer.measure(url, options).catch((err: unknown) => failed(url, err)));
    });
  }
}
