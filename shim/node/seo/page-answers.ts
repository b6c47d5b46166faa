/**
 * The page worker's side of a crawl's page parser: pages arrive as `[id, text, last]` (a page's
 * text in order, `last` on its final piece) and leave as `[id, facts]` once complete, or
 * `[id, undefined, message]` if parsing them threw.
 * @module
 */
import type { MessagePort } from "node:worker_threads";
import { HtmlExtractor } from "../../../src/seo/page-worker.ts";

export type PageMessage = [id: number, text: string, last: boolean];
export type FactsMessage = [id: number, facts: HtmlExtractor["facts"] | undefined, error?: string];

function feed(extractor: HtmlExtractor, text: string, last: boolean): HtmlExtractor | string {
  try {
    if (text) extractor.write(text);
    if (last) extractor.end();
    return extractor;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

class PageAnswers {
  /** Pages being read: their extractor, or the message of the error that ended their parse. */
  readonly #open = new Map<number, HtmlExtractor | string>();

  /** Takes one piece of a page; the answer once the page is complete. */
  take([id, text, last]: PageMessage): FactsMessage | undefined {
    const current = this.#open.get(id) ?? new HtmlExtractor();
    const state = typeof current === "string" ? current : feed(current, text, last);
    if (!last) {
      this.#open.set(id, state);
      return undefined;
    }
    this.#open.delete(id);
    return typeof state === "string" ? [id, undefined, state] : [id, state.facts];
  }
}

/** Answers every page that arrives on `port` (the page worker's parent port, or the CLI's channel). */
export function answerPagesOn(port: MessagePort): void {
  const answers = new PageAnswers();
  port.on("message", (message: PageMessage) => {
    const answer = answers.take(message);
    if (answer) port.postMessage(answer);
  });
}
