/**
 * Escaping for the HTML report. Every string that came from a crawled site (URLs, titles,
 * evidence, section names) passes through here: a page title holding `<script>` must show as
 * text, never run.
 * @module
 */

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Text or attribute value, escaped for any HTML context that quotes its attributes. */
export function esc(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => ENTITIES[c] as string);
}

/** A crawled URL as a link when it is http(s), else as text; long ones are shortened for display. */
export function urlLink(url: string): string {
  const shown = url.length > 120 ? `${url.slice(0, 119)}…` : url;
  if (!/^https?:\/\//i.test(url)) return `<code>${esc(shown)}</code>`;
  return `<a href="${esc(url)}" rel="noopener noreferrer nofollow" target="_blank">${esc(shown)}</a>`;
}

const n = (value: number) => value.toLocaleString("en");
export { n as formatNumber };
