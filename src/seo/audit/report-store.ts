/**
 * Where audit reports are kept so a later audit can be compared with them by id. The core
 * ships an in-memory store; the Node shim adds a file-backed one.
 * @module
 */
import type { AuditReport } from "./report.ts";

export interface ReportStore {
  /** Stores `report` and returns its id: `id` when given (a resumable crawl's, named before it started), else a new one. */
  save(report: AuditReport, id?: string): Promise<string>;
  load(id: string): Promise<AuditReport | undefined>;
}

/** Report ids: time-ordered and unguessable enough to not collide between runs. */
export function newReportId(now: Date): string {
  const random = crypto.getRandomValues(new Uint32Array(1))[0]?.toString(36) ?? "0";
  return `audit-${now.toISOString().replace(/[-:.]/g, "").slice(0, 15)}-${random}`;
}

export const REPORT_ID = /^audit-\d{8}T\d{6}-[a-z0-9]{1,8}$/;

/** Keeps the newest `limit` reports in memory. */
export function memoryReportStore(limit = 20, now: () => Date = () => new Date()): ReportStore {
  const reports = new Map<string, AuditReport>();
  return {
    async save(report, given) {
      const id = given ?? newReportId(now());
      reports.set(id, { ...report, id });
      while (reports.size > limit) reports.delete(reports.keys().next().value as string);
      return id;
    },
    async load(id) {
      return reports.get(id);
    },
  };
}
