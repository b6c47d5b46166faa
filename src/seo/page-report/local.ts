/**
 * Whether a URL's host is local or private: Google's services (PageSpeed Insights, CrUX)
 * cannot see such pages, so asking them would only waste quota.
 * @module
 */

export function isLocalHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, "");
  if (host.includes(":")) return host === "::1" || /^f[cd]/.test(host) || /^fe[89ab]/.test(host);
  if (host === "localhost" || host.endsWith(".localhost") || host.endsWith(".local")) return true;
  // A single label (http://intranet/) only resolves on a private network.
  if (!host.includes(".")) return true;
  const v4 = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(host);
  if (!v4) return false;
  const a = Number(v4[1]);
  const b = Number(v4[2]);
  return (
    a === 127 ||
    a === 10 ||
    a === 0 ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168)
  );
}
