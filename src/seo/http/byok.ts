/**
 * Bring-your-own-key over a gateway: one request header per provider key. A key in a header
 * replaces the deployer's own (environment or Workers secret) for that request only; it is
 * sent to its own provider and nowhere else, and kept out of every log line and answer.
 * @module
 */
import type { RequestKeys } from "../config.ts";

/** The header carrying each key, and the variable it stands in for. */
export const BYOK_HEADERS = {
  psi: { header: "x-seo-psi-key", variable: "SEO_PSI_KEY" },
  crux: { header: "x-seo-crux-key", variable: "SEO_CRUX_KEY" },
  opr: { header: "x-seo-opr-key", variable: "SEO_OPR_KEY" },
  bing: { header: "x-seo-bing-key", variable: "SEO_BING_KEY" },
  gsc: { header: "x-seo-gsc-credentials", variable: "SEO_GSC_CREDENTIALS" },
} as const;

/** Every BYOK header name, for CORS allow-headers and the OpenAPI document. */
export const BYOK_HEADER_NAMES: readonly string[] = Object.values(BYOK_HEADERS).map((h) => h.header);

/** The keys a request brings (empty values count as absent). */
export function requestKeys(headers: Headers): RequestKeys {
  const keys: RequestKeys = {};
  for (const [slot, { header }] of Object.entries(BYOK_HEADERS) as [keyof typeof BYOK_HEADERS, { header: string }][]) {
    const value = headers.get(header)?.trim();
    if (value) keys[slot] = value;
  }
  if (keys.gsc) keys.gscName = `the ${BYOK_HEADERS.gsc.header} header`;
  return keys;
}
