/**
 * Reading a stored report without a new crawl: every URL of one check, a page at a time, or
 * everything found on one URL. What `seo_audit_site` answers when given a `report_id`.
 * @module
 */
import { ApiError } from "../../shared/errors.ts";
import { normaliseUrl } from "../fetch/url.ts";
import type { ResponseFormat } from "../tool-input.ts";
import { CHECKS, type CheckId } from "./catalogue.ts";
import { URLS_PER_CHECK } from "./collector.ts";
import { relativeTo } from "./present.ts";
import type { AuditReport } from "./report.ts";

/** URLs per answer: a concise page stays a few thousand tokens. */
const PAGE_SIZE = { concise: 50, detailed: 500 } as const;

interface DrillRequest {
  check?: string | undefined;
  url?: string | undefined;
  cursor?: string | undefined;
  format: ResponseFormat;
}

interface DrillAnswer {
  structured: Record<string, unknown>;
  text: string;
}

const MEASURED = { kind: "measured" } as const;
const BASES = { measured: "observed by the stored audit's crawl, at generated_at", urls: "URLs are paths on the target's origin" };

function offsetOf(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  if (!/^\d{1,7}$/.test(cursor))
    throw new ApiError("INVALID_ARGUMENTS", `cursor "${cursor.slice(0, 40)}" is not one this tool gave; pass the next_cursor of the previous answer, or leave it out to start`);
  return Number(cursor);
}

function header(report: AuditReport) {
  return { report_id: report.id ?? "", target: report.target, generated_at: report.finished_at, bases: BASES };
}

/** Every URL of one check, `PAGE_SIZE` at a time from `cursor`. */
function byCheck(report: AuditReport, id: string, request: DrillRequest): DrillAnswer {
  const check = CHECKS.get(id as CheckId);
  if (!check) {
    const found = report.findings.map((f) => f.id).join(", ") || "none";
    throw new ApiError("INVALID_ARGUMENTS", `"${id.slice(0, 60)}" is not a check id; this report's checks: ${found}`);
  }
  const finding = report.findings.find((f) => f.id === id);
  const rel = relativeTo(report.target);
  const examples = finding?.examples ?? [];
  const start = offsetOf(request.cursor);
  const size = PAGE_SIZE[request.format];
  const items = examples.slice(start, start + size).map((e) => ({ url: rel(e.url), evidence: rel(e.evidence) }));
  const next = start + size < examples.length ? String(start + size) : undefined;
  const count = finding?.count ?? 0;
  const kept = count > examples.length ? `; the report keeps the first ${URLS_PER_CHECK} URLs of a check` : "";
  const structured = {
    ...header(report),
    check: {
      id,
      severity: check.severity,
      title: check.title,
      fix: check.fix,
      count,
      ...(finding?.pages !== undefined ? { pages: finding.pages } : {}),
      ...(finding?.template ? { template: finding.template } : {}),
      provenance: finding?.provenance ?? MEASURED,
    },
    items: { value: items, provenance: MEASURED },
    range: { from: start, to: start + items.length, of: examples.length },
    ...(next ? { next_cursor: next } : {}),
  };
  const lines = [
    `${id} in report ${report.id} (${report.target}): ${count} URL(s)${kept}. ${check.fix}.`,
    ...(finding?.template ? [`In the template: ${rel(finding.template.evidence)}`] : []),
    `URLs ${start + 1}–${start + items.length} of ${examples.length} (paths on the audited origin):`,
    ...items.map((i) => `  ${i.url}: ${i.evidence}`),
    next ? `More: call again with cursor "${next}".` : "That is every URL.",
  ];
  return { structured, text: lines.join("\n") };
}

/** The page row of one URL and every finding on it. */
function byUrl(report: AuditReport, url: string): DrillAnswer {
  const wanted = normaliseUrl(url, report.target);
  const rel = relativeTo(report.target);
  const row = report.pages.find((p) => p.url === wanted);
  const issues = report.findings.flatMap((f) =>
    f.examples.filter((e) => e.url === wanted).map((e) => ({ check_id: f.id, severity: f.severity, evidence: rel(e.evidence), fix: f.fix })),
  );
  if (!row && issues.length === 0)
    throw new ApiError("INVALID_ARGUMENTS", `${url.slice(0, 200)} is not a page of report ${report.id} (the report's page table keeps the first ${report.pages.length} pages); pass a crawled URL or its path`);
  const structured = {
    ...header(report),
    page: { value: row ? { ...row, url: rel(row.url) } : { url: rel(wanted ?? url) }, provenance: MEASURED },
    issues: { value: issues, provenance: MEASURED },
  };
  const lines = [
    `${rel(wanted ?? url)} in report ${report.id} (${report.target}): ${row ? `status ${row.status}, depth ${row.depth ?? "–"}, ${row.inlinks} inlinks` : "not in the page table"}; ${issues.length} problem(s):`,
    ...issues.map((i) => `  [${i.severity}] ${i.check_id}: ${i.evidence}. ${i.fix}`),
  ];
  return { structured, text: lines.join("\n") };
}

/** Answers from a stored report: by check (paged), or by URL. */
export function drillDown(report: AuditReport, request: DrillRequest): DrillAnswer {
  if (request.check !== undefined) return byCheck(report, request.check, request);
  if (request.url !== undefined) return byUrl(report, request.url);
  throw new ApiError("INVALID_ARGUMENTS", "pass check (a check id) or url (a page) with report_id");
}
