/**
 * A DNS lookup for connection time that applies the egress address rules again, so a host
 * that passed `guardedFetch`'s check cannot be re-resolved to a private address when the
 * socket connects (DNS rebinding). Shaped like `dns.lookup`, so a runtime adapter can hand
 * it to `net.connect`, `http.request` or an undici `Agent({ connect: { lookup } })`.
 * @module
 */
import { ipaddr } from "../../../deps.ts";
import { ApiError } from "../errors.ts";
import { type EgressPolicy, isAllowedAddress } from "./egress.ts";

interface LookupAddress {
  address: string;
  family: 4 | 6;
}

export type LookupCallback = (
  err: (Error & { code?: string }) | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/** `family` as node passes it: 0/4/6 or "IPv4"/"IPv6". */
export type GuardedLookup = (
  hostname: string,
  options: { all?: boolean; family?: number | string },
  callback: LookupCallback,
) => void;

const familyOf = (family: number | string | undefined) =>
  family === "IPv4" ? 4 : family === "IPv6" ? 6 : family || 0;

// Node hands this very object to the request's "error" listener, so the refusal stays typed.
function refused(hostname: string, address: string): ApiError {
  return new ApiError("UPSTREAM_BLOCKED", `egress guard: ${hostname} resolved to ${address}, which is not allowed`);
}

const noResolver = (host: string) => Promise.reject(new Error(`no DNS resolver to look up ${host}`));

/** A `dns.lookup`-compatible function that answers only addresses the policy allows. */
export function createGuardedLookup(policy: EgressPolicy): GuardedLookup {
  const resolve = policy.resolve ?? noResolver;
  return (hostname, options, callback) => {
    const host = hostname.replace(/^\[|\]$/g, "");
    const answers = ipaddr.isValid(host) ? Promise.resolve([host]) : resolve(host);
    const fail = (err: Error) => callback(err, options.all ? [] : "");
    const family = familyOf(options.family);
    answers.then(
      (list) => {
        const bad = list.find((address) => !isAllowedAddress(address, policy));
        if (bad !== undefined || list.length === 0) return fail(refused(hostname, bad ?? "no address"));
        const found = list
          .map((address): LookupAddress => ({ address, family: ipaddr.parse(address).kind() === "ipv6" ? 6 : 4 }))
          .filter((a) => !family || a.family === family);
        const first = found[0];
        if (!first) fail(refused(hostname, "no address of the requested family"));
        else if (options.all) callback(null, found);
        else callback(null, first.address, first.family);
      },
      (err: unknown) => fail(err instanceof Error ? err : new Error(String(err))),
    );
  };
}
