/**
 * Security checks Screaming Frog's Security tab makes: forms that post in the clear, resources
 * loaded by protocol-relative URLs, new-tab links that hand over `window.opener`, and the
 * security response headers, judged once per site on its start page.
 * @module
 */
import { isOwnMachine } from "../fetch/url.ts";
import type { CheckId } from "./catalogue.ts";
import { clip, type Hit } from "./finding.ts";
import type { HtmlFacts } from "./html-facts.ts";

type HitFn = (id: CheckId, evidence: string) => void;

const hostOf = (href: string, base: string) => URL.parse(href, base)?.host;

/** Page-level security findings of an HTML page at `pageUrl` (links resolved against `base`). */
export function securityHits(html: HtmlFacts, pageUrl: string, base: string, hit: HitFn): void {
  const https = pageUrl.startsWith("https:");
  const insecure = html.formActions.filter((action) => /^http:\/\//i.test(action));
  if (https && insecure.length > 0) hit("form-insecure", `form posts to ${clip(insecure[0] ?? "", 100)}`);
  const relative = html.resources.filter((src) => src.trim().startsWith("//"));
  if (relative.length > 0)
    hit("protocol-relative-resource", `${relative.length} resource(s), e.g. ${clip(relative[0] ?? "", 100)}`);
  const host = hostOf(pageUrl, pageUrl);
  const unsafe = html.blankLinks.filter((href) => {
    const target = hostOf(href, base);
    return target !== undefined && target !== host && /^https?:/i.test(new URL(href, base).protocol);
  });
  if (unsafe.length > 0)
    hit("target-blank-unsafe", `${unsafe.length} link(s) with target=_blank and no rel=noopener, e.g. ${clip(unsafe[0] ?? "", 100)}`);
}

/** What `headers` lack of the five headers Screaming Frog checks (HSTS only counts over HTTPS). */
export function missingSecurityHeaders(url: string, headers: { get(name: string): string | null }): string[] {
  const missing: string[] = [];
  if (url.startsWith("https:") && !headers.get("strict-transport-security")) missing.push("Strict-Transport-Security");
  const csp = headers.get("content-security-policy");
  if (!csp) missing.push("Content-Security-Policy");
  if ((headers.get("x-content-type-options") ?? "").trim().toLowerCase() !== "nosniff") missing.push("X-Content-Type-Options: nosniff");
  if (!headers.get("x-frame-options") && !/frame-ancestors/i.test(csp ?? "")) missing.push("X-Frame-Options");
  const referrer = (headers.get("referrer-policy") ?? "").toLowerCase();
  if (referrer === "" || /unsafe-url|no-referrer-when-downgrade/.test(referrer))
    missing.push(referrer === "" ? "Referrer-Policy" : `a secure Referrer-Policy (not ${referrer})`);
  return missing;
}

/**
 * The site's security headers, judged on its start page: they are set once, by the server or
 * the CDN, so one finding says what to add. A site on your own machine is not judged (dev
 * servers do not send them; the production host does).
 */
export function securityHeaderHit(url: string, headers: { get(name: string): string | null }): Hit | undefined {
  if (isOwnMachine(new URL(url))) return undefined;
  const missing = missingSecurityHeaders(url, headers);
  if (missing.length === 0) return undefined;
  return { id: "security-headers-missing", url, evidence: `missing ${missing.join(", ")}` };
}
