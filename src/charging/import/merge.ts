/**
 * Merging the sites of several files: one row per id (the newest `lastUpdated` wins; on a tie
 * the file given first), per-file counts by drop reason, and the dataset header.
 * @module
 */
import { DATASET_FORMAT, type DatasetHeader } from "../dataset.ts";
import { attributionForKey } from "../licence.ts";
import type { Site } from "../model.ts";
import { compareIds } from "../store.ts";
import type { DropReason, RowResult } from "./row.ts";

export interface FileSummary {
  file: string;
  format: string;
  read: number;
  kept: number;
  dropped: Partial<Record<DropReason, number>>;
}

export interface FileRows {
  file: string;
  format: string;
  results: readonly RowResult[];
}

const newer = (a: Site, b: Site) => (a.lastUpdated ?? "") > (b.lastUpdated ?? "");

function bump(summary: FileSummary, reason: DropReason): void {
  summary.dropped[reason] = (summary.dropped[reason] ?? 0) + 1;
}

export function mergeFiles(files: readonly FileRows[]): { sites: Site[]; summaries: FileSummary[] } {
  const best = new Map<string, { site: Site; file: number }>();
  const summaries = files.map(
    (f): FileSummary => ({ file: f.file, format: f.format, read: f.results.length, kept: 0, dropped: {} }),
  );
  files.forEach((f, fileIndex) => {
    const summary = summaries[fileIndex] as FileSummary;
    for (const result of f.results) {
      if ("drop" in result) {
        bump(summary, result.drop);
        continue;
      }
      const held = best.get(result.site.id);
      if (held && !newer(result.site, held.site)) {
        bump(summary, "duplicate");
        continue;
      }
      if (held) {
        const loser = summaries[held.file] as FileSummary;
        loser.kept--;
        bump(loser, "duplicate");
      }
      best.set(result.site.id, { site: result.site, file: fileIndex });
      summary.kept++;
    }
  });
  const sites = [...best.values()].map((b) => b.site).sort((a, b) => compareIds(a.id, b.id));
  return { sites, summaries };
}

/** The header written above the sites: import time, sources, counts and attribution per partition. */
export function datasetHeader(
  importedAt: string,
  summaries: readonly FileSummary[],
  sites: readonly Site[],
): DatasetHeader {
  const partitions = new Map<
    string,
    { key: string; source: Site["source"]; licence: string; count: number }
  >();
  for (const s of sites) {
    const p = partitions.get(s.attributionKey) ?? {
      key: s.attributionKey,
      source: s.source,
      licence: s.licence,
      count: 0,
    };
    p.count++;
    partitions.set(s.attributionKey, p);
  }
  const counts: Record<string, number> = { sites: sites.length, ocm: 0, osm: 0 };
  for (const s of sites) counts[s.source] = (counts[s.source] ?? 0) + 1;
  return {
    format: DATASET_FORMAT,
    importedAt,
    sources: summaries.map((s) => ({ ...s })),
    partitions: [...partitions.values()]
      .sort((a, b) => (a.key < b.key ? -1 : 1))
      .map((p) => ({ ...p, attribution: attributionForKey(p.key) })),
    counts,
  };
}
