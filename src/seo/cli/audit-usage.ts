/**
 * The `seo-audit-mcp audit --help` text, its defaults and caps read from the crawl bounds.
 * @module
 */
import { EXTERNAL_LINKS } from "../audit/external-checker.ts";
import { IN_MEMORY_PAGES } from "../audit/page-facts.ts";
import { CAPS, DEFAULTS, REMOTE_LIMITS } from "../crawl/bounds.ts";

const own = DEFAULTS.cli["own-machine"];
const remote = DEFAULTS.cli.remote;
const cap = CAPS.cli;
const both = (key: keyof typeof own) =>
  own[key] === remote[key] ? `default ${remote[key]}` : `default ${remote[key]}; ${own[key]} on your own machine`;

export const AUDIT_USAGE = `Usage: seo-audit-mcp audit <url> [options]
       seo-audit-mcp audit [url] --resume <report id> [output options]

Crawls the site (same host, robots.txt honoured for every URL) and prints the audit.
Sites on your own machine or network (localhost, 127.0.0.1, private addresses, .local, .test,
.internal, single-label hosts) are crawled fast: no gap, ${own.concurrency} in parallel. Others politely.
  --max-pages N        URLs to fetch as pages (${both("maxPages")}; max ${cap.maxPages})
  --max-depth N        clicks from the start URL (${both("maxDepth")}; max ${cap.maxDepth})
  --max-seconds N      time budget (${both("maxSeconds")}; max ${cap.maxSeconds})
  --concurrency N      parallel requests per host (${both("concurrency")}; max ${REMOTE_LIMITS.maxConcurrency} for remote sites, ${cap.concurrency} on your own)
  --min-interval-ms N  gap between requests per host (${both("minIntervalMs")}; at least ${REMOTE_LIMITS.minIntervalMs} for remote sites)
  --timeout-ms N       per-request timeout (${both("timeoutMs")}; max ${cap.timeoutMs})
  --no-resources       do not check images, scripts and stylesheets
  --no-sitemaps        do not read sitemaps
  --production-url URL the production address of the start page, when auditing a staging or
                       local copy (default: detected from the start page's canonical; "none": off)
  --render             also load every HTML page in a local headless Chromium (CHROME_PATH or the
                       usual install paths): audit the rendered HTML, compare it with the raw
                       HTML, follow links scripts add, lab metrics for 20 pages
  --lab-sample N       with --render: pages given lab metrics (default 20; 0 for none)
  --external-links N   links to other sites checked after the crawl, most-linked first (HEAD,
                       then GET; robots.txt and a gap per host honoured; default ${EXTERNAL_LINKS.max}; max ${EXTERNAL_LINKS.cap})
  --no-external-links  do not check links to other sites
  --compare ID|FILE    compare with an earlier report (its id, or a JSON file from --json)
  --html FILE          also write a self-contained HTML report (charts, sortable page table)
  --detailed           every finding with examples (default: the top fixes)
  --json               print the report as JSON instead of text
  --fail-on SEVERITY   exit 1 when a finding of this severity or a worse one is present:
                       critical, high, medium or low (for CI; default: exit 0 on any audit)
  --budget FILE        exit 1 when a check has more URLs than a JSON file allows,
                       e.g. {"broken-internal-link": 0, "image-missing-alt": 10}
  --sarif FILE         also write the findings as SARIF 2.1.0 (GitHub code scanning)
  --junit FILE         also write the checks as JUnit XML test cases (fired checks fail)
  --csv DIR            also write pages.csv and one <check id>.csv per finding (every URL)

  --resumable          keep the crawl on disk so that it can be resumed if interrupted (always
                       so beyond ${IN_MEMORY_PAGES.toLocaleString("en")} pages; not with --render)
  --resume ID          continue the interrupted crawl with this report id: its URL and options
                       are the saved ones (give none, or the same; --max-seconds is this run's),
                       pages it fetched are not fetched again, the report is the whole crawl's

Beyond ${IN_MEMORY_PAGES.toLocaleString("en")} pages (--max-pages up to ${cap.maxPages.toLocaleString("en")}), or with --resumable, each page's summary is
kept on disk instead of in memory: a SQLite file (node:sqlite, Node 22.13 or later) beside the
stored reports, named after the report id printed as the crawl starts. Ctrl-C (or a killed
process) leaves it for --resume for a day; a finished crawl removes it. On an older Node such a
crawl is refused.
  --help, --version

Exit codes: 0 audited, 1 the audit could not run, --fail-on found findings or a check is over
its --budget, 2 bad usage,
130 stopped by Ctrl-C (the partial report is printed first).
`;
