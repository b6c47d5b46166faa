/**
 * Lab metrics read in the page itself: PerformanceObservers installed before any of the page's
 * scripts (LCP, layout shifts, long tasks), and the Resource Timing entries after load
 * (transfer sizes, render-blocking status).
 * @module
 */
import type { LabMetrics } from "../../../src/seo/mod.ts";

/** What `window.__seoLab()` returns. */
export interface LabReading {
  lcp: number | null;
  cls: number;
  tbt: number;
  transfer: number;
  renderBlocking: string[];
}

/** Installed with evaluateOnNewDocument: runs before the page's own scripts. */
export const LAB_SCRIPT = `(() => {
  const lab = { lcp: null, cls: 0, tbt: 0 };
  const watch = (type, take) => {
    try { new PerformanceObserver((list) => list.getEntries().forEach(take)).observe({ type, buffered: true }); } catch {}
  };
  watch("largest-contentful-paint", (e) => { lab.lcp = e.startTime; });
  watch("layout-shift", (e) => { if (!e.hadRecentInput) lab.cls += e.value; });
  watch("longtask", (e) => { lab.tbt += Math.max(0, e.duration - 50); });
  Object.defineProperty(window, "__seoLab", { value: () => {
    const nav = performance.getEntriesByType("navigation")[0];
    const resources = performance.getEntriesByType("resource");
    const transfer = resources.reduce((sum, r) => sum + (r.transferSize || 0), nav ? nav.transferSize || 0 : 0);
    const renderBlocking = resources.filter((r) => r.renderBlockingStatus === "blocking").map((r) => r.name);
    return { lcp: lab.lcp, cls: lab.cls, tbt: lab.tbt, transfer, renderBlocking };
  } });
})();`;

const round = (n: number, places = 0) => Math.round(n * 10 ** places) / 10 ** places;

export function labMetricsOf(url: string, reading: LabReading | undefined, requests: number, error?: string): LabMetrics {
  return {
    url,
    lcpMs: reading?.lcp == null ? null : round(reading.lcp),
    cls: round(reading?.cls ?? 0, 3),
    tbtMs: round(reading?.tbt ?? 0),
    transferBytes: reading?.transfer ?? 0,
    requests,
    renderBlocking: reading?.renderBlocking.slice(0, 20) ?? [],
    ...(error !== undefined ? { error } : {}),
  };
}
