/**
 * The crawl bounds as the edge takes them: the snake_case input fields of the MCP tool and the
 * CLI (valibot, each with its front end's caps), the politeness a remote site keeps whatever the
 * input asks, and the resolution of validated input against the defaults of its host class.
 * @module
 */
import { v } from "../../../deps.ts";
import { wholeNumber, yesNo } from "../tool-input.ts";
import { EXTERNAL_LINKS } from "./external-checker.ts";
import {
  CAPS,
  type CrawlBounds,
  DEFAULTS,
  defaultBounds,
  type FrontEnd,
  type HostClass,
  MINIMUM,
  REMOTE_LIMITS,
  type Tunable,
} from "../crawl/bounds.ts";

const whole = (key: Tunable, front: FrontEnd, what: string) => {
  const remote = DEFAULTS[front].remote[key];
  const own = DEFAULTS[front]["own-machine"][key];
  const defaults = remote === own ? `default ${remote}` : `default ${remote}, ${own} on your own machine`;
  return v.optional(wholeNumber(MINIMUM[key], CAPS[front][key], `${what} (${defaults}; ${MINIMUM[key]}–${CAPS[front][key]})`));
};

const PRODUCTION_URL = v.optional(
  v.pipe(
    v.string(),
    v.maxLength(2000),
    v.regex(/^(none|[Hh][Tt][Tt][Pp][Ss]?:\/\/[^/].*)$/, 'an absolute http(s) URL, or "none"'),
    v.description(
      'The production URL of the start page, when auditing a staging or local copy: canonical, hreflang, link and sitemap URLs under it are read as the same paths on the audited site. Detected from the start page\'s canonical when not given; "none" turns that off',
    ),
  ),
);

/** The external link check's switch and cap: on by default in the CLI, off on the tool. */
function externalInput(front: FrontEnd) {
  return {
    check_external_links: v.optional(
      yesNo(
        `after the crawl, check links to other sites (HEAD, then GET; robots.txt and a gap per host honoured; at most ${EXTERNAL_LINKS.seconds} s) and report broken ones with the pages linking to them (default ${front === "cli" ? "true" : "false"})`,
      ),
    ),
    max_external_links: v.optional(
      wholeNumber(1, EXTERNAL_LINKS.cap, `with check_external_links: distinct external URLs checked, most-linked first (default ${EXTERNAL_LINKS.max}; 1–${EXTERNAL_LINKS.cap})`),
    ),
  };
}

/** The crawl's limits, each capped for its front end and described with its defaults. */
function limitsInput(front: FrontEnd) {
  return {
    max_pages: whole(
      "maxPages",
      front,
      "URLs to fetch as pages: HTML pages, and linked URLs that answer with another file type, an error or a redirect (subresources are counted apart)",
    ),
    max_depth: whole("maxDepth", front, "clicks from the start URL to follow"),
    max_seconds: whole(
      "maxSeconds",
      front,
      "wall-clock budget in seconds; a partial report comes back when it runs out",
    ),
    concurrency: whole(
      "concurrency",
      front,
      `parallel requests per host (at most ${REMOTE_LIMITS.maxConcurrency} for remote sites)`,
    ),
    min_interval_ms: whole(
      "minIntervalMs",
      front,
      `minimum gap between requests per host in ms (at least ${REMOTE_LIMITS.minIntervalMs} for remote sites; raised to robots.txt Crawl-delay)`,
    ),
    timeout_ms: whole("timeoutMs", front, "per-request timeout in ms"),
  };
}

/** What the crawl covers beyond linked pages, and where the production copy of a staging site is. */
const COVERAGE_INPUT = {
  check_resources: v.optional(yesNo("check images, scripts and stylesheets for breakage (default true)")),
  use_sitemaps: v.optional(
    yesNo(
      "discover URLs from sitemaps: robots.txt Sitemap: lines, /sitemap.xml, /sitemap_index.xml, the start directory's sitemap.xml, <link rel=sitemap> (default true)",
    ),
  ),
  production_url: PRODUCTION_URL,
};

/** The rendering mode's switch and its lab sample. */
const RENDER_INPUT = {
  render: v.optional(
    yesNo(
      "also load every HTML page in a local headless Chromium (CHROME_PATH or the usual install paths), audit the rendered HTML, compare it with the raw HTML, follow links found after rendering, and measure lab metrics on a sample of pages (default false; needs a browser on this machine)",
    ),
  ),
  lab_sample: v.optional(
    wholeNumber(0, 100, "with render: pages given lab metrics (LCP, CLS, TBT, bytes, requests), one per URL pattern first (default 20; 0 for none)"),
  ),
};

/** Every bounds field of a front end, in the order its input schema lists them. */
function inputFor(front: FrontEnd) {
  return { ...limitsInput(front), ...COVERAGE_INPUT, ...RENDER_INPUT, ...externalInput(front) };
}

/** Input fields of the MCP tool, snake_case, with the tool's caps. */
export const boundsInput = inputFor("tool");
/** The same fields with the CLI's caps. */
export const cliBoundsInput = inputFor("cli");

/** The bounds fields once validated (every one optional). */
export type BoundsInput = v.InferOutput<v.ObjectSchema<typeof boundsInput, undefined>>;

/** External URLs to check: 0 when off (the tool's default), else the cap (the CLI checks by default). */
export function externalLinksFrom(input: BoundsInput, front: FrontEnd = "tool"): number {
  if (!(input.check_external_links ?? front === "cli")) return 0;
  return input.max_external_links ?? EXTERNAL_LINKS.max;
}

/** Why validated input is still refused for this host class, or undefined. */
export function politenessProblem(input: BoundsInput, hosts: HostClass): string | undefined {
  if (hosts === "own-machine") return undefined;
  if (input.min_interval_ms !== undefined && input.min_interval_ms < REMOTE_LIMITS.minIntervalMs)
    return `min_interval_ms below ${REMOTE_LIMITS.minIntervalMs} is allowed only for sites on your own machine or network (localhost, private addresses, .local/.test/.internal names); use ${REMOTE_LIMITS.minIntervalMs} or more`;
  if (input.concurrency !== undefined && input.concurrency > REMOTE_LIMITS.maxConcurrency)
    return `concurrency above ${REMOTE_LIMITS.maxConcurrency} is allowed only for sites on your own machine or network; use ${REMOTE_LIMITS.maxConcurrency} or less`;
  return undefined;
}

/** Resolves validated input against the defaults for this host class and front end. */
export function boundsFrom(input: BoundsInput, hosts: HostClass, front: FrontEnd = "tool"): CrawlBounds {
  const d = DEFAULTS[front][hosts];
  const maxPages = input.max_pages ?? d.maxPages;
  return defaultBounds({
    maxPages,
    maxDepth: input.max_depth ?? d.maxDepth,
    maxSeconds: input.max_seconds ?? d.maxSeconds,
    concurrency: input.concurrency ?? d.concurrency,
    minIntervalMs: input.min_interval_ms ?? d.minIntervalMs,
    timeoutMs: input.timeout_ms ?? d.timeoutMs,
    maxResources: input.check_resources === false ? 0 : maxPages,
    sitemaps: input.use_sitemaps !== false,
  });
}

/** One sentence on the tool's bounds, for its description. */
export function describeToolBounds(): string {
  const r = DEFAULTS.tool.remote;
  const o = DEFAULTS.tool["own-machine"];
  const c = CAPS.tool;
  return `remote sites: ${r.maxPages} pages, depth ${r.maxDepth}, ${r.maxSeconds} s, ${r.concurrency} parallel requests ${r.minIntervalMs} ms apart; sites on your own machine or network (localhost, private addresses): ${o.maxPages} pages, depth ${o.maxDepth}, ${o.maxSeconds} s, ${o.concurrency} parallel, no gap; caps ${c.maxPages} pages, depth ${c.maxDepth}, ${c.maxSeconds} s (the seo-audit-mcp audit CLI goes to ${CAPS.cli.maxPages.toLocaleString("en")} pages)`;
}
