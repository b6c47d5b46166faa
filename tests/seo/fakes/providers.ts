/**
 * Fake third-party providers on 127.0.0.1, answering in the real wire formats (from the public
 * docs): PageSpeed Insights, CrUX, Open PageRank, Tranco, Google OAuth + Search Console, Bing
 * Webmaster and three autocomplete endpoints. Every request is logged (method, URL, headers,
 * body), and each provider can be switched to a failure mode.
 * @module
 */
import { createVerify } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export const PROVIDER_PATHS = {
  psi: "SEO_PSI_ENDPOINT",
  crux: "SEO_CRUX_ENDPOINT",
  opr: "SEO_OPR_ENDPOINT",
  tranco: "SEO_TRANCO_ENDPOINT",
  gsc: "SEO_GSC_ENDPOINT",
  token: "SEO_GSC_TOKEN_ENDPOINT",
  bing: "SEO_BING_ENDPOINT",
  gac: "SEO_GOOGLE_AUTOCOMPLETE_ENDPOINT",
  bac: "SEO_BING_AUTOCOMPLETE_ENDPOINT",
  dac: "SEO_DDG_AUTOCOMPLETE_ENDPOINT",
} as const;
export type FakeProvider = keyof typeof PROVIDER_PATHS;

/** ok, or a failure: 400/403 (4xx), 429 with Retry-After, 5xx, malformed JSON, or too slow. */
export type Mode = "ok" | "4xx" | "429" | "429-once" | "5xx" | "malformed" | "slow";

export interface Logged {
  provider: FakeProvider;
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export const KEYS = {
  psi: "psi-key-AAAA1111",
  crux: "crux-key-BBBB2222",
  opr: "opr-key-CCCC3333",
  bing: "bing-key-DDDD4444",
};

export interface FakeOptions {
  /** PEM public key that verifies the service account's JWT assertions. */
  gscPublicKey?: string;
  /** Search Console properties the service account sees. */
  gscSites?: string[];
  /** How long "slow" waits before answering, ms. */
  slowMs?: number;
}

export interface Fakes {
  url: string;
  log: Logged[];
  mode: Partial<Record<FakeProvider, Mode>>;
  /** Environment pointing every SEO_*_ENDPOINT at this fake. */
  env: Record<string, string>;
  close(): Promise<void>;
}

const google404 = { error: { code: 404, message: "chrome ux report data not found", status: "NOT_FOUND" } };
const googleBadKey = {
  error: {
    code: 400,
    message: "API key not valid. Please pass a valid API key.",
    status: "INVALID_ARGUMENT",
  },
};

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", ...headers });
  res.end(typeof body === "string" ? body : JSON.stringify(body));
}

export function psiBody(url: string, strategy: string) {
  const audit = (id: string, title: string, score: number | null, extra = {}) => ({
    id,
    title,
    score,
    ...extra,
  });
  return {
    kind: "pagespeedonline#result",
    id: url,
    analysisUTCTimestamp: "2026-11-20T10:00:00.000Z",
    lighthouseResult: {
      finalUrl: url,
      finalDisplayedUrl: url,
      lighthouseVersion: "13.0.0",
      configSettings: { formFactor: strategy },
      categories: {
        performance: { id: "performance", score: strategy === "mobile" ? 0.71 : 0.93, auditRefs: [] },
        seo: {
          id: "seo",
          score: 0.83,
          auditRefs: [{ id: "document-title" }, { id: "meta-description" }, { id: "structured-data" }],
        },
      },
      audits: {
        "document-title": audit("document-title", "Document has a `<title>` element", 1),
        "meta-description": audit("meta-description", "Document does not have a meta description", 0),
        "structured-data": audit("structured-data", "Structured data is valid", null, {
          scoreDisplayMode: "manual",
        }),
        "first-contentful-paint": audit("first-contentful-paint", "First Contentful Paint", 0.9, {
          numericValue: 1234.5,
          numericUnit: "millisecond",
          displayValue: "1.2 s",
        }),
        "largest-contentful-paint": audit("largest-contentful-paint", "Largest Contentful Paint", 0.6, {
          numericValue: 3100,
          numericUnit: "millisecond",
          displayValue: "3.1 s",
        }),
        "total-blocking-time": audit("total-blocking-time", "Total Blocking Time", 0.8, {
          numericValue: 250,
        }),
        "cumulative-layout-shift": audit("cumulative-layout-shift", "Cumulative Layout Shift", 1, {
          numericValue: 0.02,
          numericUnit: "unitless",
        }),
      },
    },
    loadingExperience: {
      id: url,
      overall_category: "AVERAGE",
      metrics: {
        LARGEST_CONTENTFUL_PAINT_MS: {
          percentile: 2600,
          distributions: [
            { min: 0, max: 2500, proportion: 0.7 },
            { min: 2500, max: 4000, proportion: 0.2 },
            { min: 4000, proportion: 0.1 },
          ],
          category: "AVERAGE",
        },
        CUMULATIVE_LAYOUT_SHIFT_SCORE: { percentile: 5, category: "FAST" },
      },
    },
  };
}

export function cruxBody(scope: string, target: string) {
  const hist = (a: number, b: number) => [
    { start: 0, end: a, density: 0.8 },
    { start: a, end: b, density: 0.15 },
    { start: b, density: 0.05 },
  ];
  return {
    record: {
      key: { [scope]: target },
      metrics: {
        largest_contentful_paint: { histogram: hist(2500, 4000), percentiles: { p75: 2100 } },
        interaction_to_next_paint: { histogram: hist(200, 500), percentiles: { p75: 350 } },
        cumulative_layout_shift: {
          histogram: [
            { start: "0.00", end: "0.10", density: 0.9 },
            { start: "0.10", end: "0.25", density: 0.07 },
            { start: "0.25", density: 0.03 },
          ],
          percentiles: { p75: "0.05" },
        },
        first_contentful_paint: { histogram: hist(1800, 3000), percentiles: { p75: 1500 } },
        experimental_time_to_first_byte: { histogram: hist(800, 1800), percentiles: { p75: 1900 } },
      },
      collectionPeriod: {
        firstDate: { year: 2026, month: 10, day: 22 },
        lastDate: { year: 2026, month: 11, day: 18 },
      },
    },
  };
}

function suggestions(provider: FakeProvider, q: string): string[] {
  if (provider === "gac") return [`${q} near me`, `${q} cost`, `${q} map`];
  if (provider === "bac") return [`${q} cost`, `${q} app`];
  return [`${q} near me`, `best ${q}`];
}

function checkJwt(assertion: string, publicKey: string): Record<string, unknown> | undefined {
  const [h, c, s] = assertion.split(".");
  if (!h || !c || !s) return undefined;
  const verify = createVerify("RSA-SHA256");
  verify.update(`${h}.${c}`);
  if (!verify.verify(publicKey, Buffer.from(s, "base64url"))) return undefined;
  return JSON.parse(Buffer.from(c, "base64url").toString()) as Record<string, unknown>;
}

const ACCESS_TOKEN = "ya29.fake-access-token";

function answer(
  provider: FakeProvider,
  req: IncomingMessage,
  url: URL,
  body: string,
  options: FakeOptions,
  res: ServerResponse,
) {
  const q = url.searchParams;
  const rest = url.pathname.split("/").slice(2).join("/");
  switch (provider) {
    case "psi":
      if (q.get("key") !== KEYS.psi) return send(res, 400, googleBadKey);
      return send(res, 200, psiBody(q.get("url") ?? "", q.get("strategy") ?? "desktop"));
    case "crux": {
      if (q.get("key") !== KEYS.crux) return send(res, 400, googleBadKey);
      const input = JSON.parse(body) as { url?: string; origin?: string };
      const target = input.url ?? input.origin ?? "";
      if (target.includes("nodata") || (input.url && target.includes("origin-only")))
        return send(res, 404, google404);
      return send(res, 200, cruxBody(input.url ? "url" : "origin", target));
    }
    case "opr": {
      if (req.headers["api-opr"] !== KEYS.opr)
        return send(res, 401, { status_code: 401, error: "Invalid API key" });
      const domains = q.getAll("domains[]");
      return send(res, 200, {
        status_code: 200,
        response: domains.map((domain) =>
          domain.startsWith("unknown")
            ? {
                status_code: 404,
                error: "Domain not found",
                page_rank_integer: 0,
                page_rank_decimal: 0,
                rank: null,
                domain,
              }
            : {
                status_code: 200,
                error: "",
                page_rank_integer: 5,
                page_rank_decimal: 5.27,
                rank: "1234",
                domain,
              },
        ),
        last_updated: "13th Jun 2026",
      });
    }
    case "tranco": {
      const domain = decodeURIComponent(rest.replace(/^ranks\/domain\//, ""));
      const ranks = domain.startsWith("unknown")
        ? []
        : [
            { date: "2026-11-19", rank: 512 },
            { date: "2026-11-20", rank: 498 },
          ];
      return send(res, 200, { domain, ranks });
    }
    case "token": {
      const form = new URLSearchParams(body);
      const claims = options.gscPublicKey
        ? checkJwt(form.get("assertion") ?? "", options.gscPublicKey)
        : undefined;
      if (form.get("grant_type") !== "urn:ietf:params:oauth:grant-type:jwt-bearer" || !claims) {
        return send(res, 400, { error: "invalid_grant", error_description: "Invalid JWT Signature." });
      }
      return send(res, 200, { access_token: ACCESS_TOKEN, expires_in: 3599, token_type: "Bearer" });
    }
    case "gsc": {
      if (req.headers.authorization !== `Bearer ${ACCESS_TOKEN}`) {
        return send(res, 401, {
          error: { code: 401, message: "Request had invalid authentication credentials." },
        });
      }
      if (rest === "sites") {
        return send(res, 200, {
          siteEntry: (options.gscSites ?? []).map((siteUrl) => ({
            siteUrl,
            permissionLevel: "siteFullUser",
          })),
        });
      }
      const input = JSON.parse(body) as {
        dimensions: string[];
        dimensionFilterGroups?: { filters: { operator: string; expression: string }[] }[];
      };
      const filter = input.dimensionFilterGroups?.[0]?.filters[0];
      const expr = filter?.expression ?? "";
      if (expr.includes("unranked")) return send(res, 200, { responseAggregationType: "byProperty" });
      if (input.dimensions[0] === "page") {
        return send(res, 200, {
          rows: [
            { keys: ["https://example.com/ev"], clicks: 12, impressions: 340, ctr: 0.035, position: 4.2 },
          ],
        });
      }
      const rows =
        filter?.operator === "equals"
          ? [{ keys: [expr], clicks: 15, impressions: 400, ctr: 0.0375, position: 4.46 }]
          : [
              { keys: [`${expr} prices`], clicks: 30, impressions: 900, ctr: 0.033, position: 7.1 },
              { keys: [`${expr} cost`], clicks: 3, impressions: 120, ctr: 0.025, position: 12.4 },
            ];
      return send(res, 200, { rows, responseAggregationType: "byProperty" });
    }
    case "bing": {
      if (q.get("apikey") !== KEYS.bing) return send(res, 400, { ErrorCode: 3, Message: "InvalidApiKey" });
      if (rest === "GetUserSites") {
        return send(res, 200, {
          d: [
            { __type: "Site:#Microsoft.Bing.Webmaster.Api", Url: "https://example.com/", IsVerified: true },
          ],
        });
      }
      if (rest === "GetKeywordStats") {
        const kw = q.get("q") ?? "";
        return send(res, 200, {
          d: [
            {
              __type: "KeywordStats",
              Query: kw,
              Impressions: 100,
              BroadImpressions: 400,
              Date: "/Date(1762300800000-0000)/",
            },
            {
              __type: "KeywordStats",
              Query: kw,
              Impressions: 140,
              BroadImpressions: 420,
              Date: "/Date(1762905600000-0000)/",
            },
          ],
        });
      }
      if (rest === "GetQueryStats") {
        const row = (query: string, pos: number, imp: number, date: string) => ({
          __type: "QueryStats:#Microsoft.Bing.Webmaster.Api",
          AvgClickPosition: pos,
          AvgImpressionPosition: pos,
          Clicks: 2,
          Date: date,
          Impressions: imp,
          Query: query,
        });
        return send(res, 200, {
          d: [
            row("ev charging", 6, 100, "/Date(1762300800000-0000)/"),
            row("EV Charging", 9, 300, "/Date(1762905600000-0000)/"),
            row("other", 2, 50, "/Date(1762905600000-0000)/"),
          ],
        });
      }
      return send(res, 404, { Message: "unknown method" });
    }
    default: {
      const query = q.get("q") ?? q.get("query") ?? "";
      return send(res, 200, [query, suggestions(provider, query)]);
    }
  }
}

/** Starts the fakes; `mode` can be changed between requests. */
export async function startFakes(options: FakeOptions = {}): Promise<Fakes> {
  const log: Logged[] = [];
  const mode: Fakes["mode"] = {};
  const onceServed = new Set<FakeProvider>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://fake");
      const provider = url.pathname.split("/")[1] as FakeProvider;
      const body = Buffer.concat(chunks).toString();
      log.push({ provider, method: req.method ?? "", url: req.url ?? "", headers: { ...req.headers }, body });
      const m = mode[provider] ?? "ok";
      if (!(provider in PROVIDER_PATHS)) return send(res, 404, { error: "no such fake" });
      if (m === "4xx")
        return send(res, 403, { error: { code: 403, message: "The caller does not have permission" } });
      if (m === "429")
        return send(res, 429, { error: { code: 429, message: "Quota exceeded" } }, { "retry-after": "120" });
      if (m === "429-once" && !onceServed.has(provider)) {
        onceServed.add(provider);
        return send(res, 429, { error: { code: 429, message: "Rate limited" } }, { "retry-after": "1" });
      }
      if (m === "5xx")
        return send(res, 503, "<html>Service Unavailable</html>", { "content-type": "text/html" });
      if (m === "malformed") return send(res, 200, '{"lighthouseResult": {oops');
      if (m === "slow") {
        const timer = setTimeout(
          () => answer(provider, req, url, body, options, res),
          options.slowMs ?? 3000,
        );
        res.on("close", () => clearTimeout(timer));
        return;
      }
      answer(provider, req, url, body, options, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;
  const env = Object.fromEntries(
    Object.entries(PROVIDER_PATHS).map(([path, name]) => [name, `${base}/${path}`]),
  ) as Record<string, string>;
  return {
    url: base,
    log,
    mode,
    env,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
