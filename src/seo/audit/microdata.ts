/**
 * Microdata (`itemscope`/`itemtype`/`itemprop`) and RDFa (`typeof`/`property`) items read from
 * the parser's open and close events, as trees of property names, then judged by the same
 * rich-result rules as JSON-LD. Only names are kept, not values: a property counts as present
 * when its element is there.
 * @module
 */
import type { JsonLdItem } from "./html-facts.ts";
import { richResultGaps } from "./structured-data.ts";

/** Items kept per page, and nested items per item: facts stay small on pathological pages. */
const ITEMS_KEPT = 50;

interface Open {
  depth: number;
  node: Record<string, unknown>;
  format: "microdata" | "rdfa";
}

const typeName = (value: string) => (value.trim().split(/\s+/)[0] ?? "").replace(/^.*[/:#]/, "");
const names = (value: string) => value.trim().split(/\s+/).map((name) => name.replace(/^.*[/:#]/, "")).filter(Boolean);

/** Follows element depth through open and close events; `items` holds each finished top-level item's gaps. */
export class ItemReader {
  readonly items: JsonLdItem[] = [];
  readonly #open: Open[] = [];
  #depth = 0;

  open(attrs: Record<string, string>): void {
    this.#depth++;
    const microdata = attrs.itemscope !== undefined;
    const rdfa = !microdata && attrs.typeof !== undefined;
    const prop = attrs.itemprop ?? attrs.property;
    const parent = this.#open.at(-1)?.node;
    // Most elements start no item and name no property of one: this runs for every element.
    if (!microdata && !rdfa && (prop === undefined || parent === undefined)) return;
    const props = prop === undefined ? [] : names(prop);
    if (!microdata && !rdfa) {
      for (const name of props) (parent as Record<string, unknown>)[name] ??= true;
      return;
    }
    if (this.items.length >= ITEMS_KEPT) return;
    const type = typeName((microdata ? attrs.itemtype : attrs.typeof) ?? "");
    const node: Record<string, unknown> = type ? { "@type": type } : {};
    if (parent && props.length > 0) for (const name of props) parent[name] = node;
    this.#open.push({ depth: this.#depth, node, format: microdata ? "microdata" : "rdfa" });
  }

  close(): void {
    const top = this.#open.at(-1);
    if (top?.depth === this.#depth) {
      this.#open.pop();
      // Nested items are judged inside the item that holds them.
      if (!Object.values(this.#open.at(-1)?.node ?? {}).includes(top.node)) this.#finish(top);
    }
    this.#depth = Math.max(0, this.#depth - 1);
  }

  #finish({ node, format }: Open): void {
    const gaps = richResultGaps(node);
    const type = node["@type"];
    const item: JsonLdItem = { types: typeof type === "string" ? [type] : [], format };
    if (gaps.required.length > 0) item.missing = gaps.required;
    if (gaps.recommended.length > 0) item.recommended = gaps.recommended;
    this.items.push(item);
  }
}
