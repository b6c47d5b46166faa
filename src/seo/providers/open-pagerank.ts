/**
 * Open PageRank `getPageRank`: a 0-10 PageRank estimate and a global rank per domain, up to
 * 100 domains per request, authenticated by the `API-OPR` header.
 * https://www.domcop.com/openpagerank/documentation
 * @module
 */
import type { SeoConfig } from "../config.ts";
import { TtlCache } from "./cache.ts";
import { requestJson } from "./request.ts";
import { fail, ok, type ProviderDeps, type ProviderResult } from "./types.ts";

export interface PageRankRow {
  domain: string;
  /** Per-row answer: unknown domains come back with status 404 inside a 200 response. */
  found: boolean;
  pageRankDecimal?: number;
  pageRankInteger?: number;
  rank?: number;
  error?: string;
}

export interface PageRankBatch {
  rows: PageRankRow[];
  /** The provider's "last_updated" (e.g. "13th Jun 2025", answered as 2025-06-13): the data's date. */
  lastUpdated?: string;
}

interface OprResponse {
  status_code?: number;
  last_updated?: string;
  response?: {
    status_code?: number;
    error?: string;
    page_rank_integer?: number | string;
    page_rank_decimal?: number | string;
    rank?: string | number | null;
    domain?: string;
  }[];
}

const cache = new TtlCache<PageRankRow & { lastUpdated?: string }>(2000);
const TTL_MS = 24 * 60 * 60_000;
const TIMEOUT_MS = 15_000;

const num = (x: unknown) => (x === null || x === undefined || x === "" ? undefined : Number(x));

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

/** "13th Jun 2025" -> "2025-06-13"; other text is kept as given. */
function oprDate(text: string): string {
  const match = /^(\d{1,2})(?:st|nd|rd|th)?\s+([a-z]{3})[a-z]*\s+(\d{4})$/i.exec(text.trim());
  const month = match ? MONTHS.indexOf((match[2] ?? "").toLowerCase()) : -1;
  if (!match || month < 0) return text;
  return `${match[3]}-${String(month + 1).padStart(2, "0")}-${(match[1] ?? "").padStart(2, "0")}`;
}

/** Parses a getPageRank response; undefined when it has no `response` array. */
function parsePageRank(body: unknown): PageRankBatch | undefined {
  const data = body as OprResponse;
  if (!Array.isArray(data?.response)) return undefined;
  const rows = data.response.map((row): PageRankRow => {
    const found = (row.status_code ?? 200) === 200;
    const decimal = num(row.page_rank_decimal);
    const integer = num(row.page_rank_integer);
    const rank = num(row.rank);
    return {
      domain: String(row.domain ?? "").toLowerCase(),
      found,
      ...(found && decimal !== undefined && Number.isFinite(decimal) ? { pageRankDecimal: decimal } : {}),
      ...(found && integer !== undefined && Number.isFinite(integer) ? { pageRankInteger: integer } : {}),
      ...(found && rank !== undefined && Number.isFinite(rank) ? { rank } : {}),
      ...(row.error ? { error: String(row.error).slice(0, 120) } : {}),
    };
  });
  return { rows, ...(data.last_updated ? { lastUpdated: oprDate(data.last_updated) } : {}) };
}

/** Looks up domains (already normalised, at most OPR_BATCH) in one request. */
export async function getPageRank(
  deps: ProviderDeps,
  config: SeoConfig,
  domains: readonly string[],
  signal?: AbortSignal,
): Promise<ProviderResult<PageRankBatch>> {
  const apiKey = config.keys.opr;
  if (!apiKey) {
    return fail(
      "open-pagerank",
      "no-key",
      "Open PageRank needs SEO_OPR_KEY (free key from https://www.domcop.com/openpagerank/)",
    );
  }
  const base = config.endpoints.SEO_OPR_ENDPOINT;
  const cached = domains.map((d) => cache.get(`${base} ${d}`));
  const missing = domains.filter((_, i) => !cached[i]);
  let fetched: PageRankBatch = { rows: [] };
  let at = deps.now().toISOString();
  if (missing.length > 0) {
    const query = missing.map((d) => `domains%5B%5D=${encodeURIComponent(d)}`).join("&");
    const answer = await requestJson(deps, {
      source: "open-pagerank",
      name: "Open PageRank",
      url: `${base}/getPageRank?${query}`,
      init: { headers: { "API-OPR": apiKey, accept: "application/json" } },
      timeoutMs: config.timeoutMs ?? TIMEOUT_MS,
      keyVar: "SEO_OPR_KEY",
      secrets: config.secrets,
      signal,
    });
    if (!answer.ok) return answer;
    const parsed = parsePageRank(answer.value);
    if (!parsed)
      return fail("open-pagerank", "provider-down", "Open PageRank answered without a response list");
    fetched = parsed;
    at = answer.at;
    for (const row of parsed.rows)
      cache.set(`${base} ${row.domain}`, { ...row, lastUpdated: parsed.lastUpdated }, TTL_MS);
  }
  const byDomain = new Map(fetched.rows.map((r) => [r.domain, r]));
  const rows = domains.map(
    (d, i) => cached[i] ?? byDomain.get(d) ?? { domain: d, found: false, error: "not in the answer" },
  );
  const lastUpdated = fetched.lastUpdated ?? cached.find((c) => c?.lastUpdated)?.lastUpdated;
  return ok("open-pagerank", { rows, ...(lastUpdated ? { lastUpdated } : {}) }, at);
}
