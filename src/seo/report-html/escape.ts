/**
 * How the HTML report shows crawled URLs and numbers. Everything crawled goes through `html`
 * (html.ts), which escapes it.
 * @module
 */
import { type Html, html } from "./html.ts";

/** A URL shown as a path when it is on the audited origin, with the full URL as its link. */
export function urlLink(url: string, origin = ""): Html {
  const local = origin !== "" && url.startsWith(`${origin}/`) ? url.slice(origin.length) : url;
  const shown = local.length > 120 ? `${local.slice(0, 119)}…` : local;
  if (!/^https?:\/\//i.test(url)) return html`<code>${shown}</code>`;
  return html`<a href="${url}" rel="noopener noreferrer nofollow" target="_blank">${shown}</a>`;
}

const n = (value: number) => value.toLocaleString("en");
export { n as formatNumber };
