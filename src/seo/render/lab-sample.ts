/**
 * Which pages of a rendered crawl get lab metrics: one per URL pattern first (`/p/*`,
 * `/blog/*`: a site's templates), in crawl order, then others in crawl order up to the sample
 * size. Measured after the crawl, one page at a time, under the browser's throttling.
 * @module
 */
import { urlPattern } from "../crawl/frontier.ts";
import { LAB_THROTTLING, type LabMetrics, type Renderer, type SubRequestGate, type Throttling } from "./renderer.ts";

/** Pages measured by default. */
export const LAB_SAMPLE = 20;

export interface LabReport {
  throttling: Throttling;
  /** How the pages were picked. */
  sample: string;
  pages: LabMetrics[];
}

/** A page the browser could not measure: no figures, and why. */
function failed(url: string, err: unknown): LabMetrics {
  const error = `the browser failed: ${err instanceof Error ? err.message : String(err)}`;
  return { url, lcpMs: null, cls: 0, tbtMs: 0, transferBytes: 0, requests: 0, renderBlocking: [], error };
}

export class LabSampler {
  readonly #size: number;
  readonly #patterns = new Set<string>();
  readonly #first: string[] = [];
  readonly #rest: string[] = [];

  constructor(size = LAB_SAMPLE) {
    this.#size = size;
  }

  /** Offers a rendered page (in crawl order). */
  offer(url: string): void {
    const pattern = urlPattern(url);
    if (!this.#patterns.has(pattern)) {
      this.#patterns.add(pattern);
      if (this.#first.length < this.#size) this.#first.push(url);
    } else if (this.#rest.length < this.#size) this.#rest.push(url);
  }

  picked(): string[] {
    return [...this.#first, ...this.#rest].slice(0, this.#size);
  }

  /** Measures the picked pages one after another; stops early when the gate says the crawl is over. */
  async measure(renderer: Renderer, gate: SubRequestGate, timeoutMs: number, signal?: AbortSignal): Promise<LabReport> {
    const pages: LabMetrics[] = [];
    for (const url of this.picked()) {
      if (signal?.aborted) break;
      pages.push(await renderer.measure(url, { gate, timeoutMs, throttling: LAB_THROTTLING }).catch((err: unknown) => failed(url, err)));
    }
    return {
      throttling: LAB_THROTTLING,
      sample: `${this.#size} pages at most: the first page of each URL pattern (a template), then others, in crawl order`,
      pages,
    };
  }
}
