/**
 * robots.txt per RFC 9309: parsing, product-token group selection with `*` fallback, group
 * merging, and longest-match path matching where Allow wins ties. Crawl-delay (not in the
 * RFC) and Sitemap lines are read too, since the crawler honours the first and follows the second.
 * @module
 */

/** RFC 9309 §2.5: crawlers must parse at least 500 KiB; content beyond the limit is ignored. */
export const ROBOTS_PARSE_LIMIT = 500 * 1024;

interface Rule {
  allow: boolean;
  pattern: string;
}

interface Group {
  agents: string[];
  rules: Rule[];
  crawlDelay?: number;
}

export interface Robots {
  /** Whether `path` (path plus query, as sent on the wire) may be fetched by `agent`. */
  isAllowed(path: string): boolean;
  /** Crawl-delay in seconds for the selected group, if given. */
  crawlDelay: number | undefined;
  sitemaps: string[];
  /** Lines a crawler ignores: no `key: value`, an unknown key, or a rule before any User-agent. */
  ignored: { count: number; examples: string[] };
}

/** Keys some crawlers read beyond RFC 9309: not errors, just not ours. */
const EXTENSION_KEYS = new Set(["host", "clean-param", "request-rate", "visit-time", "noindex", "nofollow"]);

const encoder = new TextEncoder();

/** Percent-encodes octets outside US-ASCII and upper-cases existing escapes (RFC 9309 §2.2.2). */
function normalisePattern(pattern: string): string {
  let out = "";
  for (const char of pattern) {
    const code = char.codePointAt(0) ?? 0;
    if (code < 0x80) {
      out += char;
      continue;
    }
    for (const byte of encoder.encode(char)) out += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out.replace(/%[0-9a-f]{2}/gi, (esc) => esc.toUpperCase());
}

function uppercaseEscapes(path: string): string {
  return path.includes("%") ? path.replace(/%[0-9a-f]{2}/gi, (esc) => esc.toUpperCase()) : path;
}

/** `*` matches any run of octets, a trailing `$` anchors the end; otherwise a prefix match. */
export function patternMatches(pattern: string, path: string): boolean {
  if (!pattern.includes("*") && !pattern.endsWith("$")) return path.startsWith(pattern);
  const anchored = pattern.endsWith("$");
  const body = anchored ? pattern.slice(0, -1) : pattern;
  const parts = body.split("*");
  let at = 0;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as string;
    if (i === 0) {
      if (!path.startsWith(part)) return false;
      at = part.length;
      continue;
    }
    const last = i === parts.length - 1;
    if (last && anchored) return path.length - part.length >= at && path.endsWith(part);
    const found = path.indexOf(part, at);
    if (found < 0) return false;
    at = found + part.length;
  }
  return !anchored || at === path.length || body.endsWith("*");
}

/** The product token a user-agent line names: its leading token characters. */
function agentToken(value: string): string {
  if (value.startsWith("*")) return "*";
  return (/^[A-Za-z_-]+/.exec(value)?.[0] ?? "").toLowerCase();
}

interface Parsed {
  groups: Group[];
  sitemaps: string[];
  ignored: Robots["ignored"];
}

/** The groups, Sitemap lines and ignored lines of a robots.txt, in file order. */
function parseGroups(text: string): Parsed {
  const groups: Group[] = [];
  const sitemaps: string[] = [];
  const ignored: Robots["ignored"] = { count: 0, examples: [] };
  const ignore = (line: string) => {
    ignored.count++;
    if (ignored.examples.length < 3) ignored.examples.push(line.slice(0, 100));
  };
  let current: Group | undefined;
  let lastWasAgent = false;
  for (const line of robotsLines(text)) {
    const colon = line.indexOf(":");
    if (colon <= 0) {
      if (line !== "") ignore(line);
      continue;
    }
    const key = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (key === "user-agent") {
      if (!current || !lastWasAgent) {
        current = { agents: [], rules: [] };
        groups.push(current);
      }
      current.agents.push(agentToken(value));
      lastWasAgent = true;
      continue;
    }
    if (key === "sitemap") {
      if (value) sitemaps.push(value);
      continue;
    }
    if (key !== "allow" && key !== "disallow" && key !== "crawl-delay") {
      if (!EXTENSION_KEYS.has(key)) ignore(line);
      continue;
    }
    lastWasAgent = false;
    if (!current) {
      ignore(line); // rules before any user-agent line belong to no group
      continue;
    }
    addRule(current, key, value);
  }
  return { groups, sitemaps, ignored };
}

/** The lines to parse: within the parse limit, without a byte-order mark, comments or surrounding blanks. */
function robotsLines(text: string): string[] {
  return text
    .slice(0, ROBOTS_PARSE_LIMIT)
    .replace(/^\ufeff/, "")
    .split(/\r\n|\r|\n/)
    .map((raw) => raw.replace(/#.*$/, "").trim());
}

/** A group's Allow, Disallow or Crawl-delay line; an empty pattern or an unreadable delay says nothing. */
function addRule(group: Group, key: "allow" | "disallow" | "crawl-delay", value: string): void {
  if (key === "crawl-delay") {
    const seconds = Number(value);
    if (Number.isFinite(seconds) && seconds >= 0) group.crawlDelay = seconds;
  } else if (value) {
    group.rules.push({ allow: key === "allow", pattern: normalisePattern(value) });
  }
}

/** Parses `text` and selects the groups that apply to `productToken` (merged), else `*`. */
export function parseRobots(text: string, productToken: string): Robots {
  const { groups, sitemaps, ignored } = parseGroups(text);
  const token = productToken.toLowerCase();
  let chosen = groups.filter((group) => group.agents.includes(token));
  if (chosen.length === 0) chosen = groups.filter((group) => group.agents.includes("*"));
  const rules = chosen.flatMap((group) => group.rules);
  const delays = chosen.map((group) => group.crawlDelay).filter((d): d is number => d !== undefined);
  return {
    crawlDelay: delays.length > 0 ? delays.reduce((a, b) => Math.max(a, b)) : undefined,
    sitemaps,
    ignored,
    isAllowed(path: string): boolean {
      const target = uppercaseEscapes(path || "/");
      if (target === "/robots.txt") return true;
      let best: Rule | undefined;
      for (const rule of rules) {
        if (!patternMatches(rule.pattern, target)) continue;
        const longer = !best || rule.pattern.length > best.pattern.length;
        const tieAllow = best && rule.pattern.length === best.pattern.length && rule.allow;
        if (longer || tieAllow) best = rule;
      }
      return best ? best.allow : true;
    },
  };
}

/** Rules for the RFC 9309 §2.3.1 outcomes that have no file to parse. */
export const allowAll: Robots = {
  isAllowed: () => true,
  crawlDelay: undefined,
  sitemaps: [],
  ignored: { count: 0, examples: [] },
};
export const disallowAll: Robots = { ...allowAll, isAllowed: (path) => path === "/robots.txt" };

/** Path plus query of a URL as the matcher wants it. */
export function robotsPathOf(url: URL): string {
  return `${url.pathname || "/"}${url.search}`;
}
