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
 * @module
 */
import { ipaddr } from "../../../deps.ts";
import { ApiError } from "../errors.ts";

export interface EgressPolicy {
  /** Exact host names (or IP literals) that may be contacted; no wildcards, case-insensitive. */
  allowHosts: string[];
  /** DNS lookup returning every A/AAAA answer; the Node shim passes one built on node:dns. */
  resolve(host: string): Promise<string[]>;
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

/** True when the address is public unicast (IPv4-mapped IPv6 judged as its IPv4). */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === "unicast";
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

/** Checks one URL against the policy (scheme, credentials, allowlist, resolved addresses). */
export async function checkUrl(url: string, policy: EgressPolicy): Promise<URL> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw blocked("not an absolute URL");
  }
  if (target.protocol !== "https:" && target.protocol !== "http:") {
    throw blocked(`scheme ${target.protocol} is not http or https`);
  }
  if (target.username || target.password) throw blocked("credentials in the URL are not allowed");
  const host = normaliseHost(target.hostname);
  if (!policy.allowHosts.some((allowed) => normaliseHost(allowed) === host)) {
    throw blocked(`host ${host} is not on the allowlist`);
  }
  if (ipaddr.isValid(host)) {
    checkAddress(host, host, policy);
    return target;
  }
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
      throw new ApiError(
        "UPSTREAM_UNAVAILABLE",
        `Outbound request failed: more than ${maxRedirects} redirects`,
      );
    }
    const next = new URL(location, target);
    if (target.protocol === "https:" && next.protocol === "http:") {
      throw blocked("redirect from https to http");
    }
    const method = (request.method ?? "GET").toUpperCase();
    if (
      response.status === 303 ||
      ((response.status === 301 || response.status === 302) && method === "POST")
    ) {
      request = { ...request, method: "GET", body: null };
    }
    current = next.href;
  }
}
