/**
 * Keyless lab metrics for the page report: without a PageSpeed key (or for a local page Google
 * cannot reach), one cold load in the local headless browser the adapter injects, under the
 * rendering mode's throttling. Only requests to the page's own site go out.
 * @module
 */
import { isApiError } from "../../shared/errors.ts";
import { isSameSite } from "../fetch/url.ts";
import { type Labelled, unavailable } from "../provenance.ts";
import { LAB_THROTTLING, type LabMetrics, type RendererFactory, type SubRequestGate } from "../render/renderer.ts";

/** Time for the one load, throttled: a slow page on a slow 4G link takes a while. */
const LAB_TIMEOUT_MS = 30_000;

const LAB_BASIS = `lab, one cold load in the local headless browser; throttling: ${LAB_THROTTLING.name}`;

function sameSite(url: string): SubRequestGate {
  const root = new URL(url);
  return async (href) => (URL.canParse(href) && isSameSite(new URL(href), root) ? undefined : "off the page's site");
}

/**
 * The page's lab metrics, or undefined when PageSpeed Insights answers for it (a key is set and
 * Google can reach the page) or this runtime has no browser to offer (the gateway).
 */
export async function labFor(
  renderer: RendererFactory | undefined,
  url: string,
  psiAnswers: boolean,
  at: string,
): Promise<Labelled<LabMetrics> | undefined> {
  if (!renderer || psiAnswers) return undefined;
  let session: Awaited<ReturnType<RendererFactory>>;
  try {
    session = await renderer();
  } catch (err) {
    if (isApiError(err) && err.code === "BROWSER_UNAVAILABLE")
      return unavailable(`no PageSpeed key and no local browser for lab metrics: ${err.message}`, "no-key");
    throw err;
  }
  try {
    const metrics = await session.measure(url, { gate: sameSite(url), timeoutMs: LAB_TIMEOUT_MS, throttling: LAB_THROTTLING });
    if (metrics.error !== undefined) return unavailable(`the page did not load in the browser: ${metrics.error}`);
    return { value: metrics, provenance: { kind: "measured", basis: LAB_BASIS, at } };
  } finally {
    await session.close();
  }
}
