/**
 * `seo_audit_site`: crawls a site within bounds, honouring robots.txt for every URL, and
 * returns the audit: category scores, fixes ranked by severity then by the pages carrying them,
 * and findings with evidence. Reports are stored so a later call can compare (`compare_to`) or
 * read them by check or URL without a crawl (`report_id`). The crawl is
 * a capability only local adapters give; without it the same tool is listed and every call
 * answers LOCAL_ONLY, naming the local commands.
 * @module
 */
import { v } from "../../../deps.ts";
import { ApiError, ERRORS } from "../../shared/errors.ts";
import { defineTool, type ToolDef } from "../../shared/mcp/tool.ts";
import { CHECKS } from "../audit/catalogue.ts";
import { type CrawlCapability, handleAuditRequest } from "../audit/audit-request.ts";
import { BaselineFindings } from "../audit/baseline.ts";
import { drillDown } from "../audit/drill.ts";
import { presentReport } from "../audit/present.ts";
import { REPORT_OUTPUT_SCHEMA } from "../audit/report-output-schema.ts";
import { reportText } from "../audit/report-text.ts";
import type { ReportStore } from "../audit/report-store.ts";
import { boundsInput, describeToolBounds } from "../audit/bounds-input.ts";
import { boundedText, responseFormat } from "../tool-input.ts";
import { reportLink } from "./report-resources.ts";

/** The crawl, the clock and the server's log (the audit's one line per report). */
type AuditSiteDeps = CrawlCapability & { now(): Date; log(line: string): void };

const Input = v.object({
  url: v.optional(
    boundedText(
      1,
      2000,
      "Start URL of the site to crawl, e.g. https://example.com/ or http://localhost:3000/; with report_id, a page of that report (URL or path) to show every problem found on it",
    ),
  ),
  report_id: v.optional(
    boundedText(
      1,
      100,
      "A stored audit's report_id: answer from it without crawling. With check: every URL of that check, paged; with url: one page's problems; alone: the report again",
    ),
  ),
  check: v.optional(boundedText(1, 100, "With report_id: a check id from the report's findings, e.g. broken-internal-link")),
  cursor: v.optional(
    v.pipe(v.string(), v.maxLength(20), v.description("With report_id and check: the next_cursor of the previous answer")),
  ),
  ...boundsInput,
  compare_to: v.optional(
    v.pipe(
      v.union(
        [
          v.pipe(v.string(), v.minLength(1), v.maxLength(100)),
          v.looseObject({ findings: BaselineFindings }),
        ],
        "must be a report_id string or the earlier report object (with findings: [{id, count}, ...])",
      ),
      v.description(
        "An earlier audit to compare with: its report_id, or the earlier structured result itself",
      ),
    ),
  ),
  response_format: responseFormat,
});

const PROGRESS_EVERY_MS = 250;

/** What a caller of seo_audit_site without the crawl capability is told. */
const LOCAL_ONLY_MESSAGE =
  "seo_audit_site crawls a whole site, which runs only on your own machine, not on this remote gateway. Run it locally: add the stdio server `seo-audit-mcp mcp` to your MCP client, or run `seo-audit-mcp audit <url>` in a terminal (not on the npm registry yet: `npm run pack:npm` in a clone of the repository, then `npx -y ./dist/npm/seo-audit-mcp-<version>.tgz mcp`). seo_page_report works here for single pages";

const SPEC = {
  name: "seo_audit_site",
  title: "Audit a site",
  description: `Crawls a website (same host, robots.txt honoured for every URL, bounded; defaults for ${describeToolBounds()}) and audits it with ${CHECKS.size} checks: status codes, redirects, broken links and resources, robots/noindex, canonicals, titles, meta descriptions, headings, thin and near-duplicate content, hreflang, sitemaps, structured data, Open Graph, image alt, lang, viewport, HTTPS and mixed content, depth, speed and page weight. Returns category scores and fixes ranked by severity, then by the pages carrying the problem, with example URLs and evidence. Every URL of a check, without a new crawl: call again with report_id and check (paged by cursor); one page's problems: report_id and url. Works on local dev servers (http://localhost:3000). To check your fixes, call again with compare_to = the report_id from the earlier result: the answer lists fixed, new and persisting problems. A crawl that hits a bound returns a partial report marked truncated. Every value is labelled measured, derived or rule-of-thumb. Runs only locally (the stdio server); a remote gateway answers LOCAL_ONLY with the local command.`,
  input: Input,
  output: REPORT_OUTPUT_SCHEMA as unknown as Record<string, unknown>,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  // A long audit may run as an MCP task where the server runs tasks (the stdio server).
  taskSupport: "optional",
} as const;

/** The tool where no crawl is available: listed the same, every call answers LOCAL_ONLY. */
export function localOnlyAuditSiteTool(): ToolDef {
  return defineTool({
    ...SPEC,
    unavailable: { code: "LOCAL_ONLY", message: LOCAL_ONLY_MESSAGE },
    run() {
      return Promise.reject(new ApiError("LOCAL_ONLY", LOCAL_ONLY_MESSAGE));
    },
  });
}

type Input = v.InferOutput<typeof Input>;

/** An answer from a stored report: no crawl. */
async function fromStored(id: string, input: Input, reports: ReportStore) {
  const report = await reports.load(id);
  if (!report)
    throw new ApiError("REPORT_NOT_FOUND", `no stored report "${id.slice(0, 100)}"; ${ERRORS.REPORT_NOT_FOUND.hint}`);
  const links = [reportLink(id, report.target)];
  if (input.check === undefined && input.url === undefined)
    return { structured: presentReport(report, input.response_format), text: reportText(report, input.response_format), links };
  return { ...drillDown(report, { check: input.check, url: input.url, cursor: input.cursor, format: input.response_format }), links };
}

export function createAuditSiteTool(deps: AuditSiteDeps): ToolDef {
  return defineTool({
    ...SPEC,
    async run(input, context) {
      if (input.report_id !== undefined) return fromStored(input.report_id, input, deps.reports);
      if (input.check !== undefined || input.cursor !== undefined)
        throw new ApiError("INVALID_ARGUMENTS", "check and cursor read a stored report: pass report_id (from an earlier audit) with them");
      if (input.url === undefined)
        throw new ApiError("INVALID_ARGUMENTS", "pass url (the site to audit), or report_id (an earlier audit to read)");
      let last = 0;
      const { report, comparison } = await handleAuditRequest({ ...input, url: input.url }, {
        ...deps,
        signal: context.signal,
        onProgress(p) {
          const now = Date.now();
          if (!context.progressIsStatus && now - last < PROGRESS_EVERY_MS) return;
          last = now;
          context.progress(p.pages, p.maxPages, `${p.pages} pages crawled, ${p.queued} queued`);
        },
      });
      context.progress(report.stats.pages_crawled, report.stats.pages_crawled, "audit complete");
      deps.log(
        `audit ${report.id}: ${report.target}, ${report.stats.pages_crawled} pages, ${report.findings.length} findings`,
      );
      return {
        structured: presentReport(report, input.response_format, comparison),
        text: reportText(report, input.response_format, comparison),
        ...(report.id ? { links: [reportLink(report.id, report.target)] } : {}),
      };
    },
  });
}
