/**
 * Inline SVG bar charts for the HTML report: drawn here, so the file needs no script or
 * library to show them and makes no request.
 * @module
 */
import { esc, formatNumber } from "./escape.ts";

export interface Bar {
  label: string;
  value: number;
  /** A CSS class for the bar's colour (status classes, severities). */
  tone?: string;
}

const ROW = 22;
const LABEL = 170;
const WIDTH = 560;

/** A horizontal bar chart with a title; an empty chart says so. */
export function barChart(id: string, title: string, bars: Bar[]): string {
  if (bars.length === 0) return `<figure class="chart" id="${esc(id)}"><figcaption>${esc(title)}</figcaption><p class="empty">Nothing to show.</p></figure>`;
  const max = Math.max(1, ...bars.map((b) => b.value));
  const height = bars.length * ROW + 8;
  const span = WIDTH - LABEL - 70;
  const rows = bars.map((bar, i) => {
    const y = i * ROW + 4;
    const w = Math.max(bar.value > 0 ? 2 : 0, Math.round((bar.value / max) * span));
    const label = bar.label.length > 26 ? `${bar.label.slice(0, 25)}…` : bar.label;
    return `<g class="bar ${esc(bar.tone ?? "")}"><title>${esc(bar.label)}: ${formatNumber(bar.value)}</title><text x="${LABEL - 6}" y="${y + 15}" text-anchor="end">${esc(label)}</text><rect x="${LABEL}" y="${y + 3}" width="${w}" height="${ROW - 6}" rx="2"></rect><text class="value" x="${LABEL + w + 6}" y="${y + 15}">${formatNumber(bar.value)}</text></g>`;
  });
  return `<figure class="chart" id="${esc(id)}"><figcaption>${esc(title)}</figcaption><svg role="img" aria-label="${esc(title)}" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}">${rows.join("")}</svg></figure>`;
}

/** Status codes as bars, toned by class (2xx, 3xx, 4xx, 5xx, no response). */
export function statusBars(status: Record<string, number>): Bar[] {
  return Object.entries(status)
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([code, value]) => ({
      label: code === "0" ? "no response" : code,
      value,
      tone: code === "0" ? "s0" : `s${code.charAt(0)}xx`,
    }));
}

/** Click depths in order, pages reached only from sitemaps or canonicals last. */
export function depthBars(depth: Record<string, number>): Bar[] {
  return Object.entries(depth)
    .sort(([a], [b]) => (a === "none" ? 1 : b === "none" ? -1 : Number(a) - Number(b)))
    .map(([d, value]) => ({ label: d === "none" ? "sitemap/canonical only" : `depth ${d}`, value }));
}
