/**
 * Stored audit reports as MCP resources: `seo-report://{report_id}` is the report's concise
 * answer and `seo-report://{report_id}/checks/{check}` every URL of one check, a page at a
 * time (`?cursor=` from the previous page's next_cursor), the same answers `seo_audit_site`
 * gives with `report_id` (and `check`), as JSON. Each audit answer links its report. The
 * templates are listed from mcp-info.ts, which loads no tool code.
 * @module
 */
import type { ReadResource, ResourceLink } from "../../shared/mcp/resource.ts";
import { drillDown } from "../audit/drill.ts";
import { presentReport } from "../audit/present.ts";
import type { ReportStore } from "../audit/report-store.ts";

const JSON_TYPE = "application/json";

/** A report id, then optionally a check and a cursor: what the templates make. */
const REPORT_URI = /^seo-report:\/\/([^/?#]+)(?:\/checks\/([^/?#]+)(?:\?cursor=([^&#]*))?)?$/;

/** The link an audit answer carries to its stored report. */
export function reportLink(id: string, target: string): ResourceLink {
  return { uri: `seo-report://${id}`, name: `SEO audit of ${target}`, description: `Stored report ${id}; every URL of a check: seo-report://${id}/checks/{check}`, mimeType: JSON_TYPE };
}

const decoded = (part: string | undefined) => {
  if (part === undefined) return undefined;
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
};

/** Reads the resources `REPORT_TEMPLATES` describe from `reports`; undefined for anything else. */
export function reportResources(reports: ReportStore): ReadResource {
  return async (uri) => {
    const [, id, check, cursor] = REPORT_URI.exec(uri) ?? [];
    const report = id === undefined ? undefined : await reports.load(decoded(id) as string);
    if (!report) return undefined;
    const structured =
      check === undefined
        ? presentReport(report, "concise")
        : drillDown(report, { check: decoded(check), cursor: decoded(cursor), format: "concise" }).structured;
    return { uri, mimeType: JSON_TYPE, text: JSON.stringify(structured) };
  };
}
