/**
 * URL identity for the crawl: one spelling per resource, so a page is fetched and counted once,
 * and the same-site scope test.
 * @module
 */

import { ipaddr } from "../../../deps.ts";

const UNRESERVED_ESCAPE = /%(2[DdEe]|3\d|[46][1-9A-Fa-f]|[57][0-9Aa]|5[Ff]|7[Ee])/g;

/**
 * A root-relative href made only of characters WHATWG URL leaves as they are in a path, with no
 * dot segments, escapes or query: resolving it is concatenation. Most links are like this
 * (`/p/123`, `/docs/intro`), and each page has dozens.
 */
const PLAIN_PATH = /^\/(?![/\\])[A-Za-z0-9\-_~!$&'()*+,;=:@/]*$/;
/** The origin of a URL already in canonical spelling (lower-case http(s) scheme and host, no credentials). */
const CANONICAL_ORIGIN = /^https?:\/\/[a-z0-9.\-[\]:]+(?=\/|$)/;

let lastBase = "";
let lastOrigin: string | undefined;

/** The canonical origin of `base`, remembered for the next call: a page resolves all its links against one base. */
function originOf(base: string): string | undefined {
  if (base !== lastBase) {
    lastBase = base;
    lastOrigin = CANONICAL_ORIGIN.exec(base)?.[0];
  }
  return lastOrigin;
}

/**
 * The origin of an absolute URL, read off the string when it is in canonical spelling (as every
 * URL the crawl keeps is), parsed otherwise: the site checks ask it of every page.
 */
export function originOfUrl(url: string): string {
  return spelledOrigin(url) ?? new URL(url).origin;
}

/** The origin as written when it is already canonical (a default port is not). */
function spelledOrigin(url: string): string | undefined {
  const origin = CANONICAL_ORIGIN.exec(url)?.[0];
  if (origin === undefined || /^http:\/\/[^/]*:80$|^https:\/\/[^/]*:443$/.test(origin)) return undefined;
  return origin;
}

/** The host (with port) of an absolute URL, as `URL.host` gives it. */
export function hostOfUrl(url: string): string {
  const origin = originOfUrl(url);
  return origin.slice(origin.indexOf("//") + 2);
}

/** Path characters WHATWG URL keeps as written (escapes included). */
const SPELLED_PATH = /^\/[A-Za-z0-9\-_~!$&'()*+,;=:@/%]*$/;

/** The path of an absolute URL as `URL.pathname` gives it (read off a canonical spelling), or undefined when it does not parse. */
export function pathOfUrl(url: string): string | undefined {
  const origin = spelledOrigin(url);
  if (origin === undefined) return URL.parse(url)?.pathname;
  const rest = url.slice(origin.length);
  const end = rest.search(/[?#]/);
  const path = (end < 0 ? rest : rest.slice(0, end)) || "/";
  return SPELLED_PATH.test(path) && !path.includes("/.") ? path : new URL(url).pathname;
}

const isPlain = (path: string) => PLAIN_PATH.test(path) && !path.includes("/.");

/**
 * A plain root-relative href, or an absolute one on the base's own origin (canonicals often are).
 * The result is a fresh flat string: an attribute value is a slice of the page text, and a kept
 * URL that still pointed into it would keep the whole page alive.
 */
function plainPath(href: string, base: string): string | undefined {
  const origin = originOf(base);
  if (origin === undefined) return undefined;
  if (href.charCodeAt(0) === 0x2f) return isPlain(href) ? ` ${origin}${href}`.slice(1) : undefined;
  if (!href.startsWith(origin)) return undefined;
  const path = href.slice(origin.length);
  return path.charCodeAt(0) === 0x2f && isPlain(path) ? ` ${href}`.slice(1) : undefined;
}

/**
 * Absolute http(s) URL in canonical spelling, or undefined. Lower-case scheme and host, no
 * default port (WHATWG URL does those), no fragment, escapes of unreserved characters decoded
 * and other escapes upper-cased (RFC 3986 §6.2.2). The trailing slash and the query are kept
 * as written: `/a` and `/a/` can be different resources, and the server decides.
 */
export function normaliseUrl(href: string, base?: string | URL): string | undefined {
  if (typeof base === "string") {
    const plain = plainPath(href, base);
    if (plain !== undefined) return plain;
  }
  const url = URL.parse(href, base);
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) return undefined;
  // Setting the hash re-serialises the URL: only when there is one.
  if (url.hash !== "") url.hash = "";
  let text = url.href;
  if (text.endsWith("#")) text = text.slice(0, -1);
  if (text.includes("%")) {
    text = text
      .replace(UNRESERVED_ESCAPE, (esc) => String.fromCharCode(Number.parseInt(esc.slice(1), 16)))
      .replace(/%[0-9a-f]{2}/gi, (esc) => esc.toUpperCase());
  }
  return text;
}

/** `example.com` and `www.example.com` are one site; other subdomains are not. */
function siteHost(host: string): string {
  return host.startsWith("www.") ? host.slice(4) : host;
}

/**
 * Same site: the same host (with or without `www.`) and the same port, over http or https.
 * An https start URL still counts its http pages in scope so mixed-protocol problems show up.
 */
export function isSameSite(url: URL, root: URL): boolean {
  if (url.protocol !== "http:" && url.protocol !== "https:") return false;
  const port = (u: URL) => u.port || "default";
  return siteHost(url.hostname) === siteHost(root.hostname) && port(url) === port(root);
}

/**
 * The origins `isSameSite` accepts, as string prefixes of normalised URLs (each ends in "/"):
 * a cheap test for the hundreds of thousands of links a large crawl sees.
 */
export function sitePrefixes(root: URL): string[] {
  const host = root.hostname.startsWith("www.") ? root.hostname.slice(4) : root.hostname;
  const port = root.port ? `:${root.port}` : "";
  return ["http:", "https:"].flatMap((scheme) => [
    `${scheme}//${host}${port}/`,
    `${scheme}//www.${host}${port}/`,
  ]);
}

/** Loopback targets (`not-https` is not reported for them: dev servers are plain HTTP). */
export function isLoopback(url: URL): boolean {
  const host = url.hostname;
  return host === "localhost" || host.endsWith(".localhost") || host === "[::1]" || /^127\./.test(host);
}

/**
 * Host names that only ever mean the user's own machine or network: `localhost` and
 * `.localhost` (RFC 6761), `.local` (mDNS, RFC 6762), `.test` (RFC 6761, used for local dev
 * hosts), `.internal` (reserved for private use), `.home.arpa` (RFC 8375), and single labels
 * (`http://devbox:3000`, a compose service name), which only a local resolver answers.
 */
const OWN_NAMES = /(^|\.)(localhost|local|test|internal|home\.arpa)$|^[^.:[\]]+$/i;

/**
 * The user's own machine or private network: loopback, RFC 1918, link-local and IPv6
 * unique-local literals, and the reserved local names above. These get the "own machine"
 * crawl defaults (no politeness gap); every other host is remote and crawled politely.
 */
export function isOwnMachine(url: URL): boolean {
  const host = url.hostname.replace(/\.$/, "");
  return OWN_NAMES.test(host) || isPrivateAddress(url);
}

const PRIVATE_RANGES = new Set(["loopback", "private", "linkLocal", "uniqueLocal", "unspecified"]);

/**
 * Private, link-local, unique-local and loopback literal addresses (IPv4-mapped IPv6 judged as
 * the IPv4 it carries); the remote gateway refuses these.
 */
export function isPrivateAddress(url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (isLoopback(url)) return true;
  return ipaddr.isValid(host) && PRIVATE_RANGES.has(ipaddr.process(host).range());
}
