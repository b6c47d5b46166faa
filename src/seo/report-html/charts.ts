/**
 * Inline SVG bar charts for the HTML report: drawn here, so the file needs no script or
 * library to show them and makes no request.
 * @module
 */
import { formatNumber } from "./escape.ts";
import { type Html, html } from "./html.ts";

interface Bar {
  label: string;
  value: number;
  /** A CSS class for the bar's colour (status classes, severities). */
  tone?: string;
}

const ROW = 22;
const LABEL = 170;
const WIDTH = 560;

/** A horizontal bar chart with a title; an empty chart says so. */
export function barChart(id: string, title: string, bars: Bar[], note?: string): Html {
  const caption = html`<figcaption>${title}${note ? html` <span class="muted">(${note})</span>` : ""}</figcaption>`;
  if (bars.length === 0) return html`<figure class="chart" id="${id}">${caption}<p class="empty">Nothing to show.</p></figure>`;
  const max = Math.max(1, ...bars.map((b) => b.value));
  const height = bars.length * ROW + 8;
  const span = WIDTH - LABEL - 70;
  const rows = bars.map((bar, i) => {
    const y = i * ROW + 4;
    const w = Math.max(bar.value > 0 ? 2 : 0, Math.round((bar.value / max) * span));
    const label = bar.label.length > 26 ? `${bar.label.slice(0, 25)}…` : bar.label;
    return html`<g class="bar ${bar.tone ?? ""}"><title>${bar.label}: ${formatNumber(bar.value)}</title><text x="${LABEL - 6}" y="${y + 15}" text-anchor="end">${label}</text><rect x="${LABEL}" y="${y + 3}" width="${w}" height="${ROW - 6}" rx="2"></rect><text class="value" x="${LABEL + w + 6}" y="${y + 15}">${formatNumber(bar.value)}</text></g>`;
  });
  return html`<figure class="chart" id="${id}">${caption}<svg role="img" aria-label="${title}" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}">${rows}</svg></figure>`;
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

/** Problems (URLs affected) per category, toned by the most severe finding in it. */
export function categoryBars(findings: { category: string; severity: string; count: number }[], order: readonly string[]): Bar[] {
  const rows = new Map<string, { value: number; tone: string }>();
  for (const f of findings) {
    if (f.severity === "info") continue;
    const row = rows.get(f.category) ?? { value: 0, tone: `sev-bar-${f.severity}` };
    row.value += f.count;
    rows.set(f.category, row);
  }
  return order.flatMap((c) => {
    const row = rows.get(c);
    return row ? [{ label: c, value: row.value, tone: row.tone }] : [];
  });
}

/** Findings per severity, as bars in the severity's colour. */
export function severityBars(findings: { severity: string; count: number }[], order: readonly string[]): Bar[] {
  return order.flatMap((severity) => {
    const value = findings.filter((f) => f.severity === severity).reduce((sum, f) => sum + f.count, 0);
    return value > 0 ? [{ label: severity, value, tone: `sev-bar-${severity}` }] : [];
  });
}

/** Click depths in order, pages reached only from sitemaps or canonicals last. */
export function depthBars(depth: Record<string, number>): Bar[] {
  return Object.entries(depth)
    .sort(([a], [b]) => (a === "none" ? 1 : b === "none" ? -1 : Number(a) - Number(b)))
    .map(([d, value]) => ({ label: d === "none" ? "sitemap/canonical only" : `depth ${d}`, value }));
}
