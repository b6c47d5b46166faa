/**
 * Domain inputs for authority lookups: accepts a host or a URL, answers the bare lower-case
 * (punycode) host without `www.`, the form Open PageRank and Tranco rank.
 * @module
 */

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** The normalised domain, or undefined when `input` is not a public-looking host name. */
export function normaliseDomain(input: string): string | undefined {
  const raw = input.trim();
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `http://${raw}`;
  const parsed = URL.parse(withScheme);
  if (!parsed) return undefined;
  const host = parsed.hostname.replace(/\.$/, "").replace(/^www\./, "");
  const labels = host.split(".");
  if (labels.length < 2 || host.length > 253) return undefined;
  if (!labels.every((l) => LABEL.test(l))) return undefined;
  // An IPv4 address has no domain rank.
  if (labels.every((l) => /^\d+$/.test(l))) return undefined;
  return host;
}
