/**
 * The report an audit is compared with (`compare_to`, the CLI's --compare): a stored report by
 * id, or an earlier report object, which may be a stored report, a tool's detailed answer or
 * its concise one (labelled scores, findings as URL counts by severity, top fixes with paths).
 * @module
 */
import { v } from "../../../deps.ts";
import { ApiError, ERRORS } from "../../shared/errors.ts";
import type { AuditReport } from "./report.ts";
import type { ReportStore } from "./report-store.ts";

/**
 * The findings of an earlier report: a stored report's or a detailed answer's list, or a concise
 * answer's URL counts by severity (`{value: {high: {"broken-internal-link": 2}}}`).
 */
export const BaselineFindings = v.union([
  v.array(v.looseObject({ id: v.string(), count: v.number() })),
  v.looseObject({ value: v.record(v.string(), v.record(v.string(), v.number())) }),
]);

const BaselineShape = v.looseObject({ findings: BaselineFindings });

type ExampleLike = { url: string; evidence?: string };
type FindingLike = { id: string; count: number; examples?: ExampleLike[] };
type FixLike = { check_id?: unknown; urls_affected?: unknown; examples?: ExampleLike[] };

/** A score as stored (a number) or as a tool answered it (labelled, possibly around the whole scores object). */
function overallOf(scores: unknown): number | undefined {
  const s = scores as { overall?: unknown; value?: { overall?: unknown } } | undefined;
  const overall = s?.overall ?? s?.value?.overall;
  const number = typeof overall === "number" ? overall : (overall as { value?: unknown } | undefined)?.value;
  return typeof number === "number" ? number : undefined;
}

/** A concise answer's other findings: `{value: {<severity>: {<check id>: count}}}`. */
function countedFindings(findings: unknown): FindingLike[] {
  const bySeverity = (findings as { value?: unknown } | undefined)?.value;
  if (!bySeverity || typeof bySeverity !== "object") return [];
  return Object.values(bySeverity as Record<string, unknown>).flatMap((checks) =>
    checks && typeof checks === "object"
      ? Object.entries(checks as Record<string, unknown>).flatMap(([id, count]) =>
          typeof count === "number" ? [{ id, count }] : [],
        )
      : [],
  );
}

/**
 * A tool's concise answer lists the checks its top fixes show there (with their examples, as
 * paths) and the others in `findings`: together they are every check that fired.
 */
function findingsOf(value: Record<string, unknown>): AuditReport["findings"] {
  const target = typeof value.target === "string" && URL.canParse(value.target) ? value.target : undefined;
  const absolute = (e: ExampleLike) => ({ url: target ? new URL(e.url, target).href : e.url, evidence: e.evidence ?? "" });
  const listed = Array.isArray(value.findings) ? (value.findings as FindingLike[]) : countedFindings(value.findings);
  const out = listed.map((f) => ({ ...f, examples: (f.examples ?? []).map(absolute) }));
  const ids = new Set(out.map((f) => f.id));
  for (const fix of Array.isArray(value.top_fixes) ? (value.top_fixes as FixLike[]) : []) {
    if (typeof fix.check_id !== "string" || typeof fix.urls_affected !== "number" || ids.has(fix.check_id)) continue;
    out.push({ id: fix.check_id, count: fix.urls_affected, examples: (fix.examples ?? []).map(absolute) });
  }
  return out as AuditReport["findings"];
}

/** Accepts a stored report or a tool's structured output (scores may be labelled). */
function comparable(value: Record<string, unknown>): Partial<AuditReport> {
  const number = overallOf(value.scores);
  const id =
    typeof value.id === "string"
      ? value.id
      : typeof value.report_id === "string"
        ? value.report_id
        : undefined;
  return {
    ...(id ? { id } : {}),
    ...(typeof value.target === "string" ? { target: value.target } : {}),
    findings: findingsOf(value),
    ...(value.affected && typeof value.affected === "object"
      ? { affected: value.affected as AuditReport["affected"] }
      : {}),
    ...(typeof number === "number"
      ? { scores: { overall: number, categories: {} as AuditReport["scores"]["categories"] } }
      : {}),
  };
}

/** The report to compare with: a stored one by id, or an earlier report object as given. */
export async function loadBaseline(
  compareTo: string | Record<string, unknown> | undefined,
  reports: ReportStore,
): Promise<Partial<AuditReport> | undefined> {
  if (compareTo === undefined) return undefined;
  if (typeof compareTo !== "string") {
    // The MCP input schema checks this shape too; the CLI's --compare file arrives unchecked.
    if (!v.is(BaselineShape, compareTo)) {
      throw new ApiError(
        "INVALID_ARGUMENTS",
        "compare_to must be a report id or an earlier audit report object (with findings: [{id, count}, ...]), such as a file written by audit --json",
      );
    }
    return comparable(compareTo);
  }
  const stored = await reports.load(compareTo);
  if (!stored) {
    throw new ApiError(
      "REPORT_NOT_FOUND",
      `no stored report "${compareTo}"; ${ERRORS.REPORT_NOT_FOUND.hint}`,
    );
  }
  return stored;
}
