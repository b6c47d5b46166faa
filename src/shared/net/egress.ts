/**
 * The egress guard: every outbound request a service makes goes through `guardedFetch`, which
 * refuses (UPSTREAM_BLOCKED) before any connection is made unless the URL is http(s), its host
 * is on the exact-match allowlist, and every address the host resolves to is public unicast.
 *
 * Address checks use ipaddr.js ranges after `process()` (IPv4-mapped IPv6 such as
 * `::ffff:10.0.0.1` is judged as the IPv4 it carries); only `unicast` passes, so loopback,
 * RFC 1918, link-local (incl. the 169.254.169.254 metadata address), CGNAT, unique-local
 * (incl. fd00:ec2::254), NAT64, 6to4, Teredo, multicast, reserved and unspecified are refused.
 * Odd IPv4 spellings (2130706433, 0x7f.1, 0177.0.0.1) are normalised by the WHATWG URL parser
 * to dotted quads first, so they are judged as the address they mean.
 *
 * Redirects are never followed blindly: `redirect: "manual"`, and each hop is checked again.
 * The check and the connection resolve DNS separately; a runtime adapter closes that
 * DNS-rebinding window by passing a `fetchImpl` whose connector uses `createGuardedLookup`
 * (lookup.ts), which applies the same rules at connect time.
 *
 * A public gateway fetches URLs its users name (`allowHosts: "any"`): then names that can only
 * mean a local machine (localhost, *.localhost, *.local, *.internal, *.home.arpa, single
 * labels) are refused before any DNS lookup, and where the runtime offers no resolver
 * (Workers) names are judged by name only; the deployer's own provider origins
 * (`trustedOrigins`) are not checked at all.
 * @module
 */
import { ipaddr } from "../../../deps.ts";
import { ApiError } from "../errors.ts";

export interface EgressPolicy {
  /**
   * Exact host names (or IP literals) that may be contacted; no wildcards, case-insensitive.
   * `"any"`: every public host (a gateway fetching URLs its users name); local-only names are refused.
   */
  allowHosts: readonly string[] | "any";
  /**
   * DNS lookup returning every A/AAAA answer; the Node shim passes one built on node:dns.
   * Absent where the runtime has no resolver (Workers): names are then judged by name only.
   */
  resolve?(host: string): Promise<string[]>;
  /** Origins (`https://host[:port]`) contacted without any check: the deployer's own endpoints. */
  trustedOrigins?: readonly string[];
  /**
   * Addresses trusted although not public (exact IPs or CIDRs, e.g. "127.0.0.1/32" for a
   * sidecar feed or a test server). Empty by default: private ranges stay blocked.
   */
  allowAddresses?: string[];
  /** Redirect hops followed after re-checking each one (default 3). */
  maxRedirects?: number;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

function blocked(message: string): ApiError {
  return new ApiError("UPSTREAM_BLOCKED", `Outbound request refused: ${message}`);
}

/**
 * True when the address is public unicast (IPv4-mapped IPv6 judged as its IPv4). IPv6 in ::/96
 * (the deprecated IPv4-compatible form, `[::127.0.0.1]` = `::7f00:1`) is refused although
 * ipaddr.js calls it unicast: no public host has such an address.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const ip = ipaddr.process(address);
  if (ip.kind() === "ipv6" && ip.toByteArray().slice(0, 12).every((byte) => byte === 0)) return false;
  return ip.range() === "unicast";
}

function isTrusted(address: string, trusted: readonly string[]): boolean {
  if (!ipaddr.isValid(address)) return false;
  const ip = ipaddr.process(address);
  return trusted.some((entry) => {
    const [net, bits] = entry.includes("/")
      ? ipaddr.parseCIDR(entry)
      : [ipaddr.process(entry), ip.kind() === "ipv4" ? 32 : 128];
    return net.kind() === ip.kind() && ip.match(net, bits);
  });
}

/** True when the policy lets a connection go to this address (public, or explicitly trusted). */
export function isAllowedAddress(address: string, policy: EgressPolicy): boolean {
  return isPublicAddress(address) || isTrusted(address, policy.allowAddresses ?? []);
}

function checkAddress(address: string, host: string, policy: EgressPolicy): void {
  if (isAllowedAddress(address, policy)) return;
  const range = ipaddr.isValid(address) ? ipaddr.process(address).range() : "invalid";
  throw blocked(`${host} resolves to a ${range} address, not a public one`);
}

const normaliseHost = (host: string) =>
  host
    .toLowerCase()
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "");

// RFC 6761 localhost, RFC 6762 mDNS, ICANN's private-use .internal (metadata.google.internal),
// RFC 8375 home networks: names that only ever mean a machine on the caller's own network.
const LOCAL_NAME = /(^|\.)(localhost|local|internal|home\.arpa)$/;

/** Why a host name cannot be a public site, or undefined when it may be one. */
function localNameReason(host: string): string | undefined {
  if (LOCAL_NAME.test(host)) return `${host} is a local name`;
  if (!host.includes(".")) return `${host} is a single-label name, which only resolves on a private network`;
  return undefined;
}

function checkHostAllowed(host: string, policy: EgressPolicy): void {
  if (policy.allowHosts !== "any") {
    if (!policy.allowHosts.some((allowed) => normaliseHost(allowed) === host)) {
      throw blocked(`host ${host} is not on the allowlist`);
    }
    return;
  }
  const local = ipaddr.isValid(host) ? undefined : localNameReason(host);
  if (local) throw blocked(local);
}

function parseTarget(url: string): URL {
  const target = URL.parse(url);
  if (!target) throw blocked("not an absolute URL");
  if (target.protocol !== "https:" && target.protocol !== "http:") {
    throw blocked(`scheme ${target.protocol} is not http or https`);
  }
  if (target.username || target.password) throw blocked("credentials in the URL are not allowed");
  return target;
}

/** Checks one URL against the policy (scheme, credentials, allowlist, resolved addresses). */
export async function checkUrl(url: string, policy: EgressPolicy): Promise<URL> {
  const target = parseTarget(url);
  if (policy.trustedOrigins?.includes(target.origin)) return target;
  const host = normaliseHost(target.hostname);
  checkHostAllowed(host, policy);
  if (ipaddr.isValid(host)) {
    checkAddress(host, host, policy);
    return target;
  }
  if (!policy.resolve) return target;
  let addresses: string[];
  try {
    addresses = await policy.resolve(host);
  } catch {
    throw new ApiError("UPSTREAM_UNAVAILABLE", `Outbound request failed: ${host} could not be resolved`);
  }
  if (addresses.length === 0) {
    throw new ApiError("UPSTREAM_UNAVAILABLE", `Outbound request failed: ${host} has no address`);
  }
  for (const address of addresses) checkAddress(address, host, policy);
  return target;
}

/**
 * `fetch` behind the egress guard: every hop is checked before it is contacted. Throws
 * UPSTREAM_BLOCKED (nothing was sent) or UPSTREAM_UNAVAILABLE (DNS failure, redirect loop).
 */
export async function guardedFetch(
  url: string,
  init: RequestInit,
  policy: EgressPolicy,
  fetchImpl: typeof fetch,
): Promise<Response> {
  let current = url;
  let request: RequestInit = { ...init, redirect: "manual" };
  const maxRedirects = policy.maxRedirects ?? 3;
  for (let hop = 0; ; hop++) {
    const target = await checkUrl(current, policy);
    const response = await fetchImpl(target.href, request);
    const location = response.headers.get("location");
    if (!REDIRECTS.has(response.status) || location === null) return response;
    await response.body?.cancel();
    if (hop >= maxRedirects) {
      throw new ApiError("UPSTREAM_UNAVAILABLE", `Outbound request failed: more than ${maxRedirects} redirects`);
    }
    const next = new URL(location, target);
    if (target.protocol === "https:" && next.protocol === "http:") throw blocked("redirect from https to http");
    const method = (request.method ?? "GET").toUpperCase();
    // A 303, and a 301/302 after a POST, are followed with a GET, as browsers do.
    if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === "POST")) {
      request = { ...request, method: "GET", body: null };
    }
    current = next.href;
  }
}

/**
 * A `fetch` behind the guard, for code written against plain fetch: `redirect: "manual"`
 * callers (which follow hops themselves) get each hop checked as they ask for it; others get
 * `guardedFetch`'s checked redirects. Takes URLs, not Request objects, so no part of a request
 * can slip past the check.
 */
export function egressFetch(policy: EgressPolicy, fetchImpl: typeof fetch): typeof fetch {
  return async (input, init = {}) => {
    if (input instanceof Request) throw new TypeError("egressFetch takes a URL, not a Request");
    const url = String(input);
    if (init.redirect !== "manual") return guardedFetch(url, init, policy, fetchImpl);
    const target = await checkUrl(url, policy);
    return fetchImpl(target.href, init);
  };
}
