/**
 * The rendering mode's contract: the core asks an injected `Renderer` (a real browser, supplied
 * by the runtime's adapter: `shim/node/seo/render-browser.ts`) for a page's HTML after its
 * scripts ran, and decides itself which of the page's own requests may go out.
 * @module
 */

/**
 * Asked for every request a rendered page makes (the document included): undefined lets it go,
 * a reason blocks it. The crawl's rules: same site only, robots.txt, the per-host gap, the budget.
 */
export type SubRequestGate = (url: string) => Promise<string | undefined>;

export interface RenderOptions {
  gate: SubRequestGate;
  /** Time for the page to load and its network to go quiet; what is there then is taken. */
  timeoutMs: number;
  signal?: AbortSignal;
}

/** A request the gate refused, with its reason. */
export interface BlockedRequest {
  url: string;
  reason: string;
}

export interface RenderedPage {
  /** The DOM serialised after rendering; empty when the page could not be rendered. */
  html: string;
  /** Why the page could not be rendered (navigation failed or timed out before any answer). */
  error?: string;
  /** Requests that went out, the document included. */
  requests: number;
  /** Requests the gate refused (at most a few kept, `blockedCount` counts them all). */
  blocked: BlockedRequest[];
  blockedCount: number;
}

/** Lab figures of one page load in the browser. */
export interface LabMetrics {
  url: string;
  /** Largest Contentful Paint, ms from navigation start. */
  lcpMs: number | null;
  /** Cumulative Layout Shift (shifts without recent input), unitless. */
  cls: number;
  /** Total Blocking Time: the sum over long tasks (> 50 ms) of their time beyond 50 ms. */
  tbtMs: number;
  /** Bytes over the network: the document and every resource (transferSize). */
  transferBytes: number;
  requests: number;
  /** Scripts and stylesheets the browser marked render-blocking. */
  renderBlocking: string[];
  error?: string;
}

/** The network and CPU conditions lab metrics are measured under. */
export interface Throttling {
  /** Name of the preset, e.g. "Lighthouse mobile (simulated slow 4G, 4x CPU slowdown)". */
  name: string;
  rttMs: number;
  downloadKbps: number;
  uploadKbps: number;
  cpuSlowdown: number;
}

/** A browser session for one audit; `close` ends it (and every tab). */
export interface Renderer {
  /** Tabs open at once at most: renders beyond it wait. */
  readonly tabs: number;
  render(url: string, options: RenderOptions): Promise<RenderedPage>;
  /** Loads `url` in a fresh tab under `throttling` and measures it. */
  measure(url: string, options: RenderOptions & { throttling: Throttling }): Promise<LabMetrics>;
  close(): Promise<void>;
}

/**
 * Starts a browser session; throws `ApiError` BROWSER_UNAVAILABLE, saying how to install one,
 * when the machine has no browser to drive.
 */
export type RendererFactory = () => Promise<Renderer>;

/** Lighthouse's default mobile throttling (its "slow 4G" and 4x CPU), applied in the browser. */
export const LAB_THROTTLING: Throttling = {
  name: "Lighthouse mobile: 150 ms RTT, 1.6 Mbps down, 750 kbps up, 4x CPU slowdown (applied in the browser)",
  rttMs: 150,
  downloadKbps: 1_638.4,
  uploadKbps: 750,
  cpuSlowdown: 4,
};
