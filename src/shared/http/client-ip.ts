/**
 * Which client a request counts against. The TCP peer address is the truth unless the
 * deployer says how many reverse proxies they run; only then is `x-forwarded-for` read, and
 * only the entry their nearest trusted proxy appended (entries further left are client-made).
 * IPv6 clients are bucketed by /64, since one host can rotate addresses inside it.
 * @module
 */

/** Bucket for requests whose address is missing or unreadable: shared, so never unlimited. */
export const UNKNOWN_CLIENT = "unknown";

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const HEXTET = /^[0-9a-f]{1,4}$/;

function ipv6Groups(address: string): string[] | undefined {
  const halves = address.split("::");
  if (halves.length > 2) return undefined;
  const head = halves[0] ? halves[0].split(":") : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(":") : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  const groups = [...head, ...Array<string>(missing).fill("0"), ...tail];
  return groups.every((g) => HEXTET.test(g)) ? groups : undefined;
}

/** A rate-limit key for one address: the IPv4 address, an IPv6 /64 prefix, or UNKNOWN_CLIENT. */
export function addressKey(raw: string | undefined): string {
  if (!raw) return UNKNOWN_CLIENT;
  let address = raw.trim().toLowerCase();
  if (address.startsWith("[") && address.endsWith("]")) address = address.slice(1, -1);
  const zone = address.indexOf("%");
  if (zone !== -1) address = address.slice(0, zone);
  if (address.startsWith("::ffff:") && IPV4.test(address.slice(7))) address = address.slice(7);
  if (IPV4.test(address)) return address;
  const groups = ipv6Groups(address);
  if (!groups) return UNKNOWN_CLIENT;
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g, 16).toString(16))
    .join(":")}::/64`;
}

/**
 * The key of the client behind `request`. With `trustedProxies` = n > 0, the n-th address
 * from the right of `x-forwarded-for` is used (each trusted proxy appends one); a shorter
 * chain means a proxy was bypassed, so the peer address is used instead.
 */
export function clientKey(request: Request, peer: string | undefined, trustedProxies: number): string {
  if (trustedProxies > 0) {
    const header = request.headers.get("x-forwarded-for");
    if (header) {
      const chain = header.split(",");
      const entry = chain[chain.length - trustedProxies];
      if (entry !== undefined) return addressKey(entry);
    }
  }
  return addressKey(peer);
}
