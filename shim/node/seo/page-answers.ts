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

/** Answers every page that arrives on `port` (the page worker's parent port, or the CLI's channel), once complete. */
export function answerPagesOn(port: MessagePort): void {
  /** Pages being read: their extractor, or the message of the error that ended their parse. */
  const open = new Map<number, HtmlExtractor | string>();
  port.on("message", ([id, text, last]: PageMessage) => {
    const current = open.get(id) ?? new HtmlExtractor();
    const state = typeof current === "string" ? current : feed(current, text, last);
    if (!last) {
      open.set(id, state);
      return;
    }
    open.delete(id);
    const answer: FactsMessage = typeof state === "string" ? [id, undefined, state] : [id, state.facts];
    port.postMessage(answer);
  });
}
