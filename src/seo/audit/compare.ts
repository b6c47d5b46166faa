/**
 * Re-audit: which (check, URL) problems were fixed, which are new, which persist. Reports
 * compared by id carry every affected URL; a report object passed back by an agent may carry
 * only examples, in which case counts per check still compare exactly.
 * @module
 */
import type { AuditReport } from "./report.ts";

export interface ProblemRef {
  check_id: string;
  url: string;
}

export interface Comparison {
  against: string;
  fixed: { count: number; items: ProblemRef[] };
  new: { count: number; items: ProblemRef[] };
  persisting: { count: number; items: ProblemRef[] };
  by_check: { check_id: string; before: number; after: number }[];
  score_change: number;
}

/** The (check, URL) pairs a report knows of, and the count per check. */
function problemsOf(report: Partial<AuditReport>): { pairs: Set<string>; counts: Map<string, number> } {
  const pairs = new Set<string>();
  const counts = new Map<string, number>();
  for (const f of report.findings ?? []) {
    counts.set(f.id, f.count);
    const urls = report.affected?.[f.id] ?? f.examples.map((e) => e.url);
    for (const url of urls) pairs.add(`${f.id}\n${url}`);
  }
  return { pairs, counts };
}

const ref = (key: string): ProblemRef => {
  const [check_id = "", url = ""] = key.split("\n");
  return { check_id, url };
};

export function compareReports(before: Partial<AuditReport>, after: AuditReport, cap = 50): Comparison {
  const a = problemsOf(before);
  const b = problemsOf(after);
  const bucket = (keys: string[]) => ({ count: keys.length, items: keys.slice(0, cap).map(ref) });
  const ids = new Set([...a.counts.keys(), ...b.counts.keys()]);
  return {
    against: before.id ?? "(report object)",
    fixed: bucket([...a.pairs].filter((k) => !b.pairs.has(k))),
    new: bucket([...b.pairs].filter((k) => !a.pairs.has(k))),
    persisting: bucket([...b.pairs].filter((k) => a.pairs.has(k))),
    by_check: [...ids]
      .sort()
      .map((id) => ({ check_id: id, before: a.counts.get(id) ?? 0, after: b.counts.get(id) ?? 0 }))
      .filter((row) => row.before !== row.after),
    score_change: after.scores.overall - (before.scores?.overall ?? after.scores.overall),
  };
}
