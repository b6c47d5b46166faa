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
  /** Set when the earlier report audited another start URL: its URL-level changes then mean little. */
  against_target?: string;
  fixed: { count: number; items: ProblemRef[] };
  new: { count: number; items: ProblemRef[] };
  persisting: { count: number; items: ProblemRef[] };
  by_check: { check_id: string; before: number; after: number }[];
  score_change: number;
}

interface Problems {
  pairs: Set<string>;
  counts: Map<string, number>;
  /** Checks whose every affected URL is known (not just capped examples, or none at all). */
  complete: Set<string>;
}

/** The (check, URL) pairs a report knows of, and the count per check. */
function problemsOf(report: Partial<AuditReport>): Problems {
  const pairs = new Set<string>();
  const counts = new Map<string, number>();
  const complete = new Set<string>();
  for (const f of report.findings ?? []) {
    counts.set(f.id, f.count);
    const urls = report.affected?.[f.id] ?? f.examples.map((e) => e.url);
    for (const url of urls) pairs.add(`${f.id}\n${url}`);
    if (urls.length >= f.count) complete.add(f.id);
  }
  return { pairs, counts, complete };
}

/**
 * A current problem is new only if the earlier report shows it was absent: its check did not
 * fire then, or fired with every URL listed. A concise report object lists no URLs, so its
 * problems would otherwise all count as new.
 */
function isNew(key: string, before: Problems): boolean {
  if (before.pairs.has(key)) return false;
  const check = key.slice(0, key.indexOf("\n"));
  return !before.counts.has(check) || before.complete.has(check);
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
    ...(before.target && before.target !== after.target ? { against_target: before.target } : {}),
    fixed: bucket([...a.pairs].filter((k) => !b.pairs.has(k))),
    new: bucket([...b.pairs].filter((k) => isNew(k, a))),
    persisting: bucket([...b.pairs].filter((k) => a.pairs.has(k))),
    by_check: [...ids]
      .sort()
      .map((id) => ({ check_id: id, before: a.counts.get(id) ?? 0, after: b.counts.get(id) ?? 0 }))
      .filter((row) => row.before !== row.after),
    score_change: after.scores.overall - (before.scores?.overall ?? after.scores.overall),
  };
}
