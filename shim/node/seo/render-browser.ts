/**
 * The rendering mode's browser on Node: a headless Chromium or Chrome already on this machine
 * (`CHROME_PATH`, else the usual install paths), driven by puppeteer-core; nothing is
 * downloaded. Tabs are pooled up to a bound; each render has a time bound; every request a page
 * makes is intercepted and asks the crawl's gate first (same site, robots.txt, per-host gap).
 * @module
 */
import { access, constants } from "node:fs/promises";
import type { Browser, BrowserContext, HTTPRequest, Page } from "../../../deps-browser.ts";
import { ApiError, ERRORS, messageOf } from "../../../src/shared/errors.ts";
import type {
  LabMetrics,
  RenderedPage,
  Renderer,
  RendererFactory,
  RenderOptions,
  SubRequestGate,
  Throttling,
} from "../../../src/seo/mod.ts";
import { USER_AGENT } from "../../../src/seo/audit/crawl-and-audit.ts";
import { LAB_SCRIPT, type LabReading, labMetricsOf } from "./render-lab.ts";

/** Where Chromium and Chrome are installed by the usual packages, in the order tried. */
export const BROWSER_PATHS = [
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
  "/usr/bin/google-chrome-stable",
  "/snap/bin/chromium",
  "/opt/google/chrome/chrome",
  "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
  "/Applications/Chromium.app/Contents/MacOS/Chromium",
  "C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe",
];

/** Tabs open at once by default: two cores render about four pages at a time usefully. */
export const DEFAULT_TABS = 4;
/** Requests one rendered page may make; the rest are refused. */
export const MAX_REQUESTS_PER_PAGE = 300;
/** Quiet network time after load that ends a render (the page's data fetches have landed). */
const IDLE_MS = 300;
const BLOCKED_KEPT = 5;

const executable = (path: string) => access(path, constants.X_OK).then(() => true, () => false);

/** The browser to drive: CHROME_PATH when set (it must exist), else the first usual path that does. */
export async function findBrowser(env: Record<string, string | undefined> = process.env): Promise<string> {
  const given = env.CHROME_PATH?.trim();
  if (given) {
    if (await executable(given)) return given;
    throw new ApiError("BROWSER_UNAVAILABLE", `CHROME_PATH is ${given}, which is not an executable file; ${ERRORS.BROWSER_UNAVAILABLE.hint}`);
  }
  for (const path of BROWSER_PATHS) if (await executable(path)) return path;
  throw new ApiError(
    "BROWSER_UNAVAILABLE",
    `no Chromium or Chrome found (CHROME_PATH is not set; looked in ${BROWSER_PATHS.slice(0, 4).join(", ")} and the other usual places); ${ERRORS.BROWSER_UNAVAILABLE.hint}`,
  );
}

const LAUNCH_ARGS = [
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-extensions",
  "--mute-audio",
];

/**
 * Chromium's sandbox stays on (pages from any site run in it) except as root, where Chromium
 * refuses to start sandboxed (containers, CI).
 */
const sandboxArgs = () => (process.getuid?.() === 0 ? ["--no-sandbox"] : []);

/** Counts and vets one page's requests through the gate while it renders. */
class RequestWatch {
  requests = 0;
  blockedCount = 0;
  readonly blocked: RenderedPage["blocked"] = [];
  readonly #gate: SubRequestGate;

  constructor(gate: SubRequestGate) {
    this.#gate = gate;
  }

  readonly onRequest = (request: HTTPRequest): void => {
    const url = request.url();
    if (url.startsWith("data:") || url.startsWith("blob:")) return void request.continue().catch(() => {});
    if (this.requests + this.blockedCount >= MAX_REQUESTS_PER_PAGE) return this.#block(request, url, `more than ${MAX_REQUESTS_PER_PAGE} requests for one page`);
    this.#gate(url).then(
      (reason) => {
        if (reason !== undefined) return this.#block(request, url, reason);
        this.requests++;
        request.continue().catch(() => {});
      },
      () => this.#block(request, url, "the crawl's gate failed"),
    );
  };

  #block(request: HTTPRequest, url: string, reason: string): void {
    this.blockedCount++;
    if (this.blocked.length < BLOCKED_KEPT) this.blocked.push({ url: url.slice(0, 300), reason });
    request.abort("blockedbyclient").catch(() => {});
  }
}

const firstLineOf = (err: unknown) => messageOf(err).split("\n")[0] ?? "";

/** Loads `url` within `timeoutMs`: load, then a quiet network, whichever the time allows. */
async function load(page: Page, url: string, timeoutMs: number): Promise<string | undefined> {
  const deadline = performance.now() + timeoutMs;
  try {
    const response = await page.goto(url, { waitUntil: "load", timeout: timeoutMs });
    if (!response) return "no response";
  } catch (err) {
    return /timeout/i.test(firstLineOf(err)) ? `not loaded within ${timeoutMs} ms` : firstLineOf(err);
  }
  const left = deadline - performance.now();
  if (left > IDLE_MS) await page.waitForNetworkIdle({ idleTime: IDLE_MS, timeout: left }).catch(() => {});
  return undefined;
}

class BrowserRenderer implements Renderer {
  readonly tabs: number;
  readonly #browser: Browser;
  readonly #userAgent: string;
  readonly #idle: Page[] = [];
  readonly #waiters: (() => void)[] = [];
  #open = 0;

  constructor(browser: Browser, userAgent: string, tabs: number) {
    this.#browser = browser;
    this.#userAgent = userAgent;
    this.tabs = tabs;
  }

  async #acquire(): Promise<Page> {
    for (;;) {
      const idle = this.#idle.pop();
      if (idle) return idle;
      if (this.#open < this.tabs) {
        this.#open++;
        try {
          return await this.#newTab(this.#browser);
        } catch (err) {
          this.#open--;
          throw err;
        }
      }
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
    }
  }

  async #newTab(owner: Browser | BrowserContext): Promise<Page> {
    const page = await owner.newPage();
    await page.setUserAgent({ userAgent: this.#userAgent });
    await page.setRequestInterception(true);
    return page;
  }

  /** A tab back to the pool; one whose render failed is closed instead (it may be stuck). */
  #release(page: Page, healthy: boolean): void {
    if (healthy) this.#idle.push(page);
    else {
      this.#open--;
      page.close().catch(() => {});
    }
    this.#waiters.shift()?.();
  }

  async render(url: string, options: RenderOptions): Promise<RenderedPage> {
    const page = await this.#acquire();
    const watch = new RequestWatch(options.gate);
    page.on("request", watch.onRequest);
    let error: string | undefined;
    let html = "";
    try {
      error = await load(page, url, options.timeoutMs);
      if (error === undefined) html = await page.content();
    } catch (err) {
      error = firstLineOf(err);
    } finally {
      page.off("request", watch.onRequest);
      this.#release(page, error === undefined);
    }
    return {
      html,
      ...(error !== undefined ? { error } : {}),
      requests: watch.requests,
      blocked: watch.blocked,
      blockedCount: watch.blockedCount,
    };
  }

  /** A cold load in a context of its own (empty cache), throttled, one at a time with the renders' tabs. */
  async measure(url: string, options: RenderOptions & { throttling: Throttling }): Promise<LabMetrics> {
    const context = await this.#browser.createBrowserContext();
    try {
      const page = await this.#newTab(context);
      const watch = new RequestWatch(options.gate);
      page.on("request", watch.onRequest);
      await throttle(page, options.throttling);
      await page.evaluateOnNewDocument(LAB_SCRIPT);
      const error = await load(page, url, options.timeoutMs);
      const reading = error === undefined ? ((await page.evaluate("window.__seoLab()")) as LabReading) : undefined;
      return labMetricsOf(url, reading, watch.requests, error);
    } catch (err) {
      return labMetricsOf(url, undefined, 0, firstLineOf(err));
    } finally {
      await context.close().catch(() => {});
    }
  }

  async close(): Promise<void> {
    await this.#browser.close().catch(() => {});
  }
}

async function throttle(page: Page, t: Throttling): Promise<void> {
  await page.emulateNetworkConditions({
    download: (t.downloadKbps * 1024) / 8,
    upload: (t.uploadKbps * 1024) / 8,
    latency: t.rttMs,
  });
  await page.emulateCPUThrottling(t.cpuSlowdown);
}

/** Starts the browser for one audit; BROWSER_UNAVAILABLE when there is none, or it does not start. */
export function browserRenderer(options: { tabs?: number; env?: Record<string, string | undefined> } = {}): RendererFactory {
  return async () => {
    const executablePath = await findBrowser(options.env);
    const { puppeteer } = await import("../../../deps-browser.ts");
    let browser: Browser;
    try {
      browser = await puppeteer.launch({ executablePath, headless: true, args: [...LAUNCH_ARGS, ...sandboxArgs()] });
    } catch (err) {
      throw new ApiError("BROWSER_UNAVAILABLE", `${executablePath} did not start: ${firstLineOf(err)}; ${ERRORS.BROWSER_UNAVAILABLE.hint}`);
    }
    const userAgent = `${await browser.userAgent()} ${USER_AGENT}`;
    return new BrowserRenderer(browser, userAgent, options.tabs ?? DEFAULT_TABS);
  };
}
