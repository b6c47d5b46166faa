/**
 * `audit --resume <report id>`: the request of an interrupted crawl, read from its saved state.
 * The URL and the crawl options come from the state, so `audit --resume <id>` alone is enough;
 * any given on the command line must be the saved ones (another bound would make another crawl,
 * and the report would not be the one the crawl started). `--max-seconds` is the exception: it
 * is this run's time budget. Output options (--json, --html, --csv, --fail-on ...) are free.
 * @module
 */
import { ApiError } from "../../shared/errors.ts";
import type { AuditRequest } from "../audit/audit-request.ts";
import type { CrawlState } from "../audit/page-facts.ts";
import { normaliseUrl } from "../fetch/url.ts";

/** The command-line spelling of each crawl option of the request. */
const FLAGS: Record<string, string> = {
  url: "the URL",
  max_pages: "--max-pages",
  max_depth: "--max-depth",
  concurrency: "--concurrency",
  min_interval_ms: "--min-interval-ms",
  timeout_ms: "--timeout-ms",
  lab_sample: "--lab-sample",
  max_external_links: "--external-links",
  check_resources: "--no-resources",
  use_sitemaps: "--no-sitemaps",
  check_external_links: "--no-external-links",
  render: "--render",
  production_url: "--production-url",
};

const same = (key: string, given: unknown, saved: unknown) =>
  key === "url" ? normaliseUrl(String(given)) === normaliseUrl(String(saved)) : JSON.stringify(given) === JSON.stringify(saved);

const shown = (value: unknown) => (value === undefined ? "unset" : JSON.stringify(value));

/** The saved request, with this run's time budget; throws RESUME_MISMATCH when the command line asks for another crawl. */
export function resumedRequest(given: Partial<AuditRequest>, state: CrawlState): AuditRequest {
  const saved = state.request;
  for (const [key, value] of Object.entries(given)) {
    if (value === undefined || key === "max_seconds" || key === "compare_to" || same(key, value, saved[key])) continue;
    const flag = FLAGS[key] ?? key;
    throw new ApiError(
      "RESUME_MISMATCH",
      `the crawl ${state.id} was started with ${flag} ${shown(saved[key])}, and this command line gives ${shown(value)}; run audit --resume ${state.id} without ${flag} (the saved crawl's URL and options are used), or run the audit again without --resume`,
    );
  }
  return {
    ...(saved as unknown as AuditRequest),
    ...(given.max_seconds !== undefined ? { max_seconds: given.max_seconds } : {}),
    ...(given.compare_to !== undefined ? { compare_to: given.compare_to } : {}),
  };
}
