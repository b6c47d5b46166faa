/**
 * Field data (CrUX, or the CrUX data PSI embeds) as p75 values with good / needs-improvement /
 * poor verdicts against the published Core Web Vitals thresholds (https://web.dev/articles/vitals).
 * @module
 */
import type { CruxMetricName, CruxRecord } from "../providers/crux.ts";
import type { PageSpeedRun } from "../providers/pagespeed.ts";

export type Verdict = "good" | "needs-improvement" | "poor";
export type MetricId = "lcp" | "inp" | "cls" | "fcp" | "ttfb";

/** p75 at or below `good` is good; above `poor` is poor. */
const THRESHOLDS: Record<MetricId, { good: number; poor: number; unit: "ms" | "unitless" }> = {
  lcp: { good: 2500, poor: 4000, unit: "ms" },
  inp: { good: 200, poor: 500, unit: "ms" },
  cls: { good: 0.1, poor: 0.25, unit: "unitless" },
  fcp: { good: 1800, poor: 3000, unit: "ms" },
  ttfb: { good: 800, poor: 1800, unit: "ms" },
};
export const THRESHOLD_BASIS =
  "p75 against web.dev thresholds: LCP 2500/4000 ms, INP 200/500 ms, CLS 0.1/0.25, FCP 1800/3000 ms, TTFB 800/1800 ms";

export interface FieldMetric {
  p75: number;
  unit: "ms" | "unitless";
  /** Share of page loads that were good, needs improvement, poor. */
  distribution?: [number, number, number];
}

export interface FieldData {
  /** `url` or `origin`: which records the numbers describe. */
  scope: "url" | "origin";
  metrics: Partial<Record<MetricId, FieldMetric>>;
  /** The 28-day collection window, "first/last" when known. */
  period?: string;
}

const CRUX_NAMES: Record<CruxMetricName, MetricId> = {
  largest_contentful_paint: "lcp",
  interaction_to_next_paint: "inp",
  cumulative_layout_shift: "cls",
  first_contentful_paint: "fcp",
  experimental_time_to_first_byte: "ttfb",
};

const PSI_NAMES: Record<string, MetricId> = {
  LARGEST_CONTENTFUL_PAINT_MS: "lcp",
  INTERACTION_TO_NEXT_PAINT: "inp",
  CUMULATIVE_LAYOUT_SHIFT_SCORE: "cls",
  FIRST_CONTENTFUL_PAINT_MS: "fcp",
  EXPERIMENTAL_TIME_TO_FIRST_BYTE: "ttfb",
};

const triple = (values: number[]): [number, number, number] | undefined =>
  values.length === 3 ? [values[0] ?? 0, values[1] ?? 0, values[2] ?? 0] : undefined;

export function verdictOf(metric: MetricId, p75: number): Verdict {
  const t = THRESHOLDS[metric];
  return p75 <= t.good ? "good" : p75 > t.poor ? "poor" : "needs-improvement";
}

export function fromCrux(record: CruxRecord): FieldData {
  const metrics: FieldData["metrics"] = {};
  for (const [name, m] of Object.entries(record.metrics)) {
    const id = CRUX_NAMES[name as CruxMetricName];
    const distribution = triple(m.histogram.map((bin) => Number(bin.density)));
    metrics[id] = { p75: m.p75, unit: THRESHOLDS[id].unit, ...(distribution ? { distribution } : {}) };
  }
  const period = record.collectionPeriod;
  return {
    scope: record.scope,
    metrics,
    ...(period ? { period: `${period.firstDate}/${period.lastDate}` } : {}),
  };
}

/** PSI's embedded field data; its CLS percentile is multiplied by 100. */
export function fromPsi(field: NonNullable<PageSpeedRun["field"]>): FieldData {
  const metrics: FieldData["metrics"] = {};
  for (const [key, m] of Object.entries(field.metrics)) {
    const id = PSI_NAMES[key];
    if (!id || typeof m.percentile !== "number") continue;
    const distribution = triple((m.distributions ?? []).map((d) => d.proportion));
    const p75 = id === "cls" ? m.percentile / 100 : m.percentile;
    metrics[id] = { p75, unit: THRESHOLDS[id].unit, ...(distribution ? { distribution } : {}) };
  }
  return { scope: field.originFallback ? "origin" : "url", metrics };
}

export function verdicts(data: FieldData): Partial<Record<MetricId, Verdict>> {
  return Object.fromEntries(
    Object.entries(data.metrics).map(([id, m]) => [id, verdictOf(id as MetricId, m.p75)]),
  ) as Partial<Record<MetricId, Verdict>>;
}
