/**
 * `seo_page_report`: one page, fetched locally (status, timing, redirects, meta data, headings,
 * Open Graph, structured data, word count) with the audit engine's findings for it, plus
 * PageSpeed Insights and Chrome UX Report field data when SEO_PSI_KEY / SEO_CRUX_KEY are set.
 * @module
 */
import type { RendererFactory } from "../render/renderer.ts";
import { v } from "../../../deps.ts";
import { ApiError } from "../../shared/errors.ts";
import type { RestFace } from "../../shared/http/rest-face.ts";
import { defineTool, type ToolDef } from "../../shared/mcp/tool.ts";
import type { SeoConfig } from "../config.ts";
import { isTlsFailure, TLS_NEXT_STEP } from "../crawl/unreachable.ts";
import type { PageReport } from "../page-report/report.ts";
import { derived, type Labelled, labelledSchema, withProvenanceDefs } from "../provenance.ts";
import { SOURCES_SCHEMA, show } from "../providers/labels.ts";
import type { PageSpeedRun, Strategy } from "../providers/pagespeed.ts";
import type { ProviderDeps } from "../providers/types.ts";
import { REST_ROUTES } from "../http/paths.ts";
import { definedEntries, REST_DOC } from "../http/rest-doc.ts";
import { boundedText, responseFormat } from "../tool-input.ts";

const CONCISE_FINDINGS = 10;

/** The tool's input; its REST face's query reuses the entries. */
const PageReportInput = v.object({
  url: boundedText(1, 2000, "The page, e.g. https://example.com/pricing or http://localhost:3000/"),
  strategy: v.optional(
    v.pipe(
      v.picklist(["both", "mobile", "desktop"]),
      v.description("PageSpeed Insights strategy (with SEO_PSI_KEY): both (default), mobile or desktop"),
    ),
    "both",
  ),
  response_format: responseFormat,
});

const OUTPUT = withProvenanceDefs({
  type: "object",
  properties: {
    url: { type: "string" },
    fetchedAt: { type: "string", description: "when the page was fetched (concise: once, not per fact)" },
    page: { type: "object" },
    findings: {
      type: "array",
      items: {
        type: "object",
        properties: { id: { type: "string" }, severity: { type: "string" }, title: { type: "string" } },
        required: ["id", "severity", "title"],
      },
    },
    totalFindings: labelledSchema("number"),
    pageSpeed: { type: "object", additionalProperties: labelledSchema() },
    fieldData: {
      type: "object",
      properties: { url: labelledSchema(), origin: labelledSchema(), verdicts: labelledSchema() },
      required: ["url", "origin", "verdicts"],
    },
    sources: SOURCES_SCHEMA,
    lab: labelledSchema(),
  },
  required: ["url", "page", "findings", "totalFindings", "pageSpeed", "fieldData", "sources"],
});

// biome-ignore format: a list of names
const CONCISE_FACTS = [
  "finalUrl", "status", "redirects", "responseMs", "contentType", "isHtml", "title", "metaDescription",
  "canonical", "robots", "hreflang", "headings", "wordCount", "lang",
] as const;

function concisePsi(run: Labelled<PageSpeedRun>): Labelled<unknown> {
  if (!run.value) return run;
  const { performanceScore, seoScore, lab, seoAudits } = run.value;
  return {
    value: {
      performanceScore,
      seoScore,
      lab: Object.fromEntries(lab.map((m) => [m.id, m.display ?? `${m.value}`])),
      failedSeoAudits: seoAudits.filter((a) => a.passed === false).map((a) => a.title),
    },
    provenance: run.provenance,
  };
}

/** The structured result: everything when detailed; concise keeps what an agent acts on. */
function shape(report: PageReport, detailed: boolean) {
  return {
    url: report.url,
    // Concise states the fetch time once instead of on every measured fact.
    ...(detailed ? {} : { fetchedAt: report.facts.status.provenance.at }),
    page: detailed ? report.facts : concisePage(report.facts),
    findings: detailed ? report.findings : report.findings.slice(0, CONCISE_FINDINGS).map(conciseFinding),
    totalFindings: derived(report.findings.length, "page-level audit checks that fired on this page"),
    pageSpeed: detailed
      ? report.pageSpeed
      : Object.fromEntries(Object.entries(report.pageSpeed).map(([s, r]) => [s, concisePsi(r)])),
    fieldData: detailed
      ? report.fieldData
      : {
          ...report.fieldData,
          url: withoutHistograms(report.fieldData.url),
          origin: withoutHistograms(report.fieldData.origin),
        },
    sources: report.sources,
    ...(report.lab ? { lab: report.lab } : {}),
  };
}

/** The facts named in CONCISE_FACTS, each with its value and the kind of its provenance. */
function concisePage(pageFacts: PageReport["facts"]) {
  const facts = pageFacts as unknown as Record<string, unknown>;
  return Object.fromEntries(
    CONCISE_FACTS.map((k) => {
      const { value, provenance } = facts[k] as Labelled<unknown>;
      return [k, { value, provenance: { kind: provenance.kind } }];
    }),
  );
}

/** A finding without its examples: the check, how bad, and the fix. */
function conciseFinding(f: PageReport["findings"][number]) {
  return { id: f.id, severity: f.severity, title: f.title, fix: f.fix, provenance: f.provenance };
}

/** Field data with each metric's p75 only: the histograms are long and the verdicts come from p75. */
function withoutHistograms(l: PageReport["fieldData"]["url"]) {
  return l.value
    ? {
        ...l,
        value: {
          ...l.value,
          metrics: Object.fromEntries(
            Object.entries(l.value.metrics).map(([id, m]) => [id, { p75: m.p75, unit: m.unit }]),
          ),
        },
      }
    : l;
}

function headline(report: PageReport): string {
  const f = report.facts;
  const top = report.findings.slice(0, 5).map((x) => `${x.severity} ${x.id}`).join(", ");
  const lines = [
    `${report.url}: HTTP ${f.status.value} in ${f.responseMs.value} ms [measured], ${
      f.isHtml.value || f.status.value !== 200
        ? `title ${JSON.stringify(f.title.value)}, ${f.wordCount.value} words`
        : `not HTML (${f.contentType.value ?? "no content type"}), so no page checks ran`
    }`,
    `${report.findings.length} findings${top ? `: ${top}` : ""}`,
  ];
  for (const [strategy, run] of Object.entries(report.pageSpeed))
    lines.push(`PageSpeed ${strategy}: ${show(run, (r) => `performance ${r.performanceScore}, SEO ${r.seoScore}`)}`);
  const verdicts = (v: Record<string, string>) => Object.entries(v).map(([k, x]) => `${k} ${x}`).join(", ");
  lines.push(`Core Web Vitals: ${show(report.fieldData.verdicts, verdicts)}`);
  if (report.lab)
    lines.push(
      `Lab (local browser): ${show(report.lab, (m) => `LCP ${m.lcpMs ?? "none"} ms, CLS ${m.cls}, TBT ${m.tbtMs} ms, ${m.requests} requests, ${m.transferBytes} bytes`)}`,
    );
  return lines.join("\n");
}

/** `GET /api/v1/page-report?url=`: the tool's structured result as JSON. */
const REST: RestFace = {
  path: REST_ROUTES.pageReport.path,
  operationId: "pageReport",
  summary: "Report on one page",
  description:
    "The seo_page_report tool: the page fetched from the gateway (status, timing, redirects, meta data, headings, structured data, word count) with its audit findings, plus PageSpeed Insights and CrUX field data when keys are configured or sent. Loopback, private, link-local and metadata addresses are refused (UPSTREAM_BLOCKED).",
  query: v.strictObject(PageReportInput.entries),
  answer: { description: "The seo_page_report result" },
  ...REST_DOC,
  toInput: definedEntries,
};

/** The page's URL; refused unless it is an absolute http(s) URL without credentials. */
function pageUrl(raw: string): URL {
  const url = URL.parse(raw.trim()) ?? new URL("invalid:");
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ApiError(
      "INVALID_ARGUMENTS",
      `"${raw.slice(0, 200)}" is not an absolute http(s) URL; pass one like https://example.com/page`,
    );
  }
  if (url.username !== "" || url.password !== "") {
    // The URL goes to PageSpeed Insights and CrUX and into the result: credentials must not.
    throw new ApiError(
      "INVALID_ARGUMENTS",
      "the URL contains a user name or password; remove the user:password@ part (pages are fetched without credentials)",
    );
  }
  return url;
}

/** A page that could not be fetched, with no PageSpeed run to show either, is an error that says what to check. */
function refuseUnfetched(report: PageReport, href: string): void {
  if (!report.fetchError || !Object.values(report.pageSpeed).every((r) => r.value === null)) return;
  const final = report.facts.finalUrl.value;
  const via = final && final !== href ? ` (it redirected to ${final}, which failed)` : "";
  throw new ApiError(
    "UPSTREAM_UNAVAILABLE",
    `Could not fetch ${href}${via}: ${report.fetchError}${isTlsFailure(report.fetchError) ? `; ${TLS_NEXT_STEP}` : ". Check that the URL is right and reachable from this machine (is the dev server running?)"}`,
  );
}

export function createPageReportTool(deps: {
  provider: ProviderDeps;
  config: SeoConfig;
  /** The local browser for keyless lab metrics (the site audit's, where there is one). */
  crawl?: { renderer?: RendererFactory };
}): ToolDef {
  return defineTool({
    name: "seo_page_report",
    title: "Page report",
    description:
      "Reports on a single page: fetches it from this machine (status, response time, redirects, title, meta description, canonical, robots directives incl. X-Robots-Tag, hreflang, headings, Open Graph, structured data, word count) and runs the site audit's page-level checks on it, with fixes. With SEO_PSI_KEY it adds PageSpeed Insights (mobile and desktop: performance and SEO scores, lab metrics, failed Lighthouse SEO audits); with SEO_CRUX_KEY Chrome UX Report field data (p75 LCP, INP, CLS, FCP, TTFB with good / needs-improvement / poor verdicts) for the URL and its origin. Local URLs (http://localhost:3000/) work; Google's services are skipped for them. Without SEO_PSI_KEY, or for a local URL, lab metrics (LCP, CLS, TBT, transfer bytes, requests, render-blocking resources) are measured in a local headless Chromium when one is installed (throttling named in the label). Every value is labelled measured, provider, derived or unavailable (with the key that would help).",
    input: PageReportInput,
    output: OUTPUT,
    rest: REST,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    async run(input, context) {
      const url = pageUrl(input.url);
      const strategies: Strategy[] = input.strategy === "both" ? ["mobile", "desktop"] : [input.strategy];
      // Loaded on first use: the fetch and audit engine stay out of the server's start-up.
      const { buildPageReport } = await import("../page-report/report.ts");
      const report = await buildPageReport(
        { provider: deps.provider, config: deps.config, renderer: deps.crawl?.renderer },
        { url: url.href, strategies },
        context.signal,
      );
      refuseUnfetched(report, url.href);
      const structured = shape(report, input.response_format === "detailed");
      return { structured, text: `${headline(report)}\n\n${JSON.stringify(structured)}` };
    },
  });
}
