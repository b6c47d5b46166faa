/**
 * The seo-check skill's loop, played through the real MCP client over stdio against the built
 * server: audit a local site with planted problems, apply the fixes the report ranks first by
 * editing the site's files, re-audit against the first report, and check exactly which problems
 * are fixed, new and persisting; then fix the rest until nothing ranked remains. The expected
 * sets are derived from the planted problems and the edits, not from a snapshot of a report.
 * @module
 */
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { CHECKS } from "../../../../../src/seo/audit/catalogue.ts";
import { CLIENT_KEYS, PACKAGE_VARIABLE } from "../../../../../src/seo/clients.ts";
import { type StaticSite, serveStaticCopy } from "../../../../seo/fakes/static-site.ts";
import { ensureBundle, spawnServer, type StdioServer } from "../../../../seo/fakes/stdio.ts";

const SKILL = "shim/claude-plugin/skills/seo-check/SKILL.md";

/** Planted in fixtures/seo/sites/bakery: "check_id path" for every problem the first audit must find. */
const PLANTED = [
  "title-missing /about",
  "title-missing /contact",
  "meta-description-missing /menu",
  "image-missing-alt /menu",
  "h1-missing /visit",
  "broken-internal-link /catering",
];
// Time to first byte depends on the machine's load, not on the site; the skill says not to chase it locally.
const TIMING = new Set(["slow-response"]);
const BOUNDS = { min_interval_ms: 0 };

interface Example {
  url: string;
  evidence: string;
}
interface RankedFix {
  rank: number;
  check_id: string;
  urls_affected: number;
  examples: Example[];
}
interface Bucket {
  count: number;
  items: { check_id: string; url: string }[];
}
interface Comparison {
  against: string;
  fixed: Bucket;
  new: Bucket;
  persisting: Bucket;
}

/** An agent's edit for one ranked fix: what it changes in the site's files, and what that does to the audit. */
interface Edit {
  apply(site: StaticSite, paths: string[]): void;
  /** Other checks the same edit clears at the same paths. */
  clears?: string[];
  /** Problems the edit introduces. */
  introduces?(paths: string[]): string[];
}

// A title pasted onto every page that lacked one: the kind of fix a re-audit exists to catch.
const PASTED_TITLE = "Larchmont Bakery, a neighbourhood bakery";
const OWN_TITLES: Record<string, string> = {
  "/about": "About Larchmont Bakery: our bakers and our oven",
  "/contact": "Contact Larchmont Bakery: orders and questions",
};

function fileOf(site: StaticSite, path: string): string {
  const file = site.fileFor(path);
  assert.ok(file, `a file answers ${path}`);
  return file;
}

function editFile(site: StaticSite, path: string, change: (html: string) => string): void {
  const file = fileOf(site, path);
  const before = site.read(file);
  const after = change(before);
  assert.notEqual(after, before, `the edit changed ${file}`);
  site.write(file, after);
}

/** Turns every link to each path into plain text, in the files found holding one (search, as the skill says). */
function unlink(site: StaticSite, paths: string[]): void {
  for (const path of paths) {
    const anchor = new RegExp(`<a href="${path}">([^<]*)</a>`, "g");
    const holders = readdirSync(site.root).filter((f) => f.endsWith(".html") && anchor.test(site.read(f)));
    assert.ok(holders.length > 0, `some file links to ${path}`);
    for (const file of holders) site.write(file, site.read(file).replace(anchor, "$1"));
  }
}

/** An edit of the file behind each affected path. */
const inFiles =
  (change: (html: string, path: string) => string) =>
  (site: StaticSite, paths: string[]): void => {
    for (const p of paths) editFile(site, p, (html) => change(html, p));
  };
const intoHead = (tag: string) => inFiles((html) => html.replace("</head>", `${tag}\n</head>`));
const LOAF_ALT = "A loaf of white sourdough";
const MENU_DESCRIPTION =
  "Our breads, pastries and cakes: what each one is like, when it is baked, and the weekend specials to reserve.";

const EDITS: Record<string, Edit> = {
  "title-missing": {
    apply: intoHead(`<title>${PASTED_TITLE}</title>`),
    introduces: (paths) => (paths.length > 1 ? paths.map((p) => `title-duplicate ${p}`) : []),
  },
  "title-duplicate": {
    apply: inFiles((html, p) => html.replace(`<title>${PASTED_TITLE}</title>`, `<title>${OWN_TITLES[p]}</title>`)),
  },
  "meta-description-missing": { apply: intoHead(`<meta name="description" content="${MENU_DESCRIPTION}">`) },
  "image-missing-alt": {
    apply: inFiles((html) => html.replace(/<img src="([^"]+)">/g, `<img src="$1" alt="${LOAF_ALT}">`)),
  },
  "h1-missing": {
    apply: inFiles((html) => html.replace("<main>", "<main>\n<h1>Opening hours, directions and access</h1>")),
  },
  "broken-internal-link": { apply: unlink, clears: ["http-4xx"] },
  "http-4xx": { apply: unlink, clears: ["broken-internal-link"] },
};

let site: StaticSite;
let server: StdioServer;
let cache: string;
/** Every structured result of the loop, for checking the names the skill uses. */
const results: Record<string, unknown>[] = [];
const errorCodes = new Set<string>();

before(async () => {
  ensureBundle();
  cache = mkdtempSync(join(tmpdir(), "seo-check-cache-"));
  site = await serveStaticCopy("bakery");
  server = await spawnServer({ SEO_CACHE_DIR: cache });
});
after(async () => {
  await server.close();
  await site.close();
  rmSync(cache, { recursive: true, force: true });
});

const pathOf = (url: string) => url.replace(site.origin, "");
const sorted = (items: Iterable<string>) => [...items].sort();

/** Every URL of one check, read from the stored report a page at a time, as the skill says. */
async function urlsOf(reportId: string, check: string): Promise<Example[]> {
  const out: Example[] = [];
  let cursor: string | undefined;
  do {
    const page = await server.call("seo_audit_site", { report_id: reportId, check, ...(cursor ? { cursor } : {}) });
    assert.equal(page.isError, undefined, page.text);
    results.push(page.structured);
    out.push(...(page.structured.items as { value: Example[] }).value);
    cursor = page.structured.next_cursor as string | undefined;
  } while (cursor);
  return out;
}

async function audit(args: Record<string, unknown> = {}) {
  const result = await server.call("seo_audit_site", { url: `${site.origin}/`, ...BOUNDS, ...args });
  assert.equal(result.isError, undefined, result.text);
  results.push(result.structured);
  const id = result.structured.report_id as string;
  const shown = (result.structured.top_fixes as RankedFix[]).filter((f) => !TIMING.has(f.check_id));
  // The examples are the first few; the skill reads every URL of a fix from the stored report.
  const fixes = await Promise.all(shown.map(async (f) => ({ ...f, examples: await urlsOf(id, f.check_id) })));
  const counted = (result.structured.findings as { value: Record<string, Record<string, number>> }).value;
  const others = Object.entries(counted)
    .filter(([severity]) => severity !== "info")
    .flatMap(([, checks]) => Object.keys(checks).filter((id) => !TIMING.has(id)).map((id) => ({ id })));
  const rest = await Promise.all(others.map(async (f) => ({ check_id: f.id, examples: await urlsOf(id, f.id) })));
  const comparison = (result.structured.comparison as { value: Comparison } | undefined)?.value;
  return { result, fixes, all: [...fixes, ...rest], comparison };
}

/** The problems of a list of checks, every URL read by check. */
function problemsOf(fixes: { check_id: string; examples: Example[]; urls_affected?: number }[]): string[] {
  for (const f of fixes)
    if (f.urls_affected !== undefined) assert.equal(f.examples.length, f.urls_affected, `${f.check_id}: every URL read`);
  return sorted(fixes.flatMap((f) => f.examples.map((e) => `${f.check_id} ${pathOf(e.url)}`)));
}

const bucket = (b: Bucket) => {
  const items = b.items.filter((i) => !TIMING.has(i.check_id)).map((i) => `${i.check_id} ${pathOf(i.url)}`);
  return sorted(items);
};

/** Applies the edits for `fixes`; returns the problems they fix and the ones they introduce. */
function applyFixes(fixes: RankedFix[]): { fixed: Set<string>; introduced: string[] } {
  const fixed = new Set<string>();
  const introduced: string[] = [];
  for (const fix of fixes) {
    const edit = EDITS[fix.check_id];
    assert.ok(edit, `an edit for ${fix.check_id}`);
    const paths = fix.examples.map((e) => pathOf(e.url));
    edit.apply(site, paths);
    for (const p of paths) for (const id of [fix.check_id, ...(edit.clears ?? [])]) fixed.add(`${id} ${p}`);
    introduced.push(...(edit.introduces?.(paths) ?? []));
  }
  return { fixed, introduced };
}

let baseline = "";

test("seo-check loop: audit, fix the first-ranked problems, re-audit: exactly which are fixed, new, persisting", async () => {
  const first = await audit();
  baseline = first.result.structured.report_id as string;
  assert.match(baseline, /^audit-/);
  assert.deepEqual(problemsOf(first.all), sorted(PLANTED), "the first audit finds exactly the planted problems");
  assert.deepEqual(fileOf(site, "/about"), "about.html", "a page's URL leads to the file that holds it");

  // Round 1: the two fixes ranked first. A title missing on two pages outranks single-page problems.
  const applied = first.fixes.slice(0, 2);
  assert.ok(
    applied.some((f) => f.check_id === "title-missing"),
    "the pasted-title fix is among the first applied",
  );
  const edits = applyFixes(applied);
  const fixed = PLANTED.filter((p) => edits.fixed.has(p));

  const second = await audit({ compare_to: baseline });
  assert.ok(second.comparison);
  assert.equal(second.comparison.against, baseline);
  assert.deepEqual(bucket(second.comparison.fixed), sorted(fixed));
  assert.deepEqual(bucket(second.comparison.new), sorted(edits.introduced));
  assert.deepEqual(bucket(second.comparison.persisting), sorted(PLANTED.filter((p) => !fixed.includes(p))));
  assert.ok(edits.introduced.length > 0 && fixed.length > 0 && fixed.length < PLANTED.length);
  const { fixed: f, new: n, persisting: p } = second.comparison;
  assert.match(
    second.result.text,
    new RegExp(`Compared with ${baseline}: ${f.count} fixed, ${n.count} new, ${p.count} persisting`),
  );
  process.stderr.write(
    `seo-check round 1: ${f.count} fixed, ${n.count} new, ${p.count} persisting (against ${PLANTED.length} planted)\n`,
  );

  // Round 2 on: the new problems rank with the rest; fix what is ranked, re-audit against the
  // baseline, until nothing ranked remains (a concise answer shows five fixes at a time).
  let third = second;
  for (let round = 0; round < 4 && third.fixes.length > 0; round++) {
    applyFixes(third.fixes);
    third = await audit({ compare_to: baseline });
  }
  assert.ok(third.comparison);
  assert.deepEqual(bucket(third.comparison.fixed), sorted(PLANTED));
  assert.deepEqual(bucket(third.comparison.new), []);
  assert.deepEqual(bucket(third.comparison.persisting), []);
  assert.deepEqual(third.fixes, [], "nothing ranked remains: the loop stops");
  const last = third.comparison;
  process.stderr.write(
    `seo-check round 2: ${last.fixed.count} fixed, ${last.new.count} new, ${last.persisting.count} persisting\n`,
  );
});

test("seo-check errors: the codes the skill tells the agent to act on", async () => {
  const closed = await server.call("seo_audit_site", { url: "http://127.0.0.1:9/", ...BOUNDS });
  assert.equal(closed.isError, true);
  assert.match(closed.text, /^UNREACHABLE: /);
  site.write("robots.txt", "User-agent: *\nDisallow: /\n");
  const refused = await server.call("seo_audit_site", { url: `${site.origin}/`, ...BOUNDS });
  assert.equal(refused.isError, true);
  assert.match(refused.text, /^ROBOTS_DISALLOWED: /);
  for (const r of [closed, refused]) errorCodes.add(r.text.slice(0, r.text.indexOf(":")));
});

/** Single words the skill quotes that are HTML, npm scripts or the server's name, not tool fields. */
const NOT_API = new Set(["alt", "head", "href", "meta", "metadata", "noindex", "dev", "start", "preview", "seo"]);

/** The property names an output schema declares, at any depth. */
function schemaFields(schema: unknown, into: Set<string>): void {
  if (!schema || typeof schema !== "object") return;
  const properties = (schema as { properties?: Record<string, unknown> }).properties;
  for (const [k, v] of Object.entries(properties ?? {})) {
    into.add(k);
    schemaFields(v, into);
  }
  const items = (schema as { items?: unknown }).items;
  if (items) schemaFields(items, into);
}

/** Every key of every object in `value`, at any depth. */
function keysOf(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) keysOf(v, into);
  else if (value && typeof value === "object")
    for (const [k, v] of Object.entries(value)) {
      into.add(k);
      keysOf(v, into);
    }
  return into;
}

test("every tool, input, result field, check id and error code the skill names exists", async () => {
  assert.ok(results.length >= 3, "runs after the loop");
  const { tools } = await server.client.listTools();
  const inputs = new Map<string, { enum?: unknown[] }>();
  for (const t of tools)
    for (const [name, schema] of Object.entries(t.inputSchema.properties ?? {})) inputs.set(name, schema as never);
  // Fields the loop's answers carried, and those the tools' output schemas declare (a next_cursor
  // appears only when a check has more URLs than one answer holds).
  const fields = keysOf(results);
  for (const t of tools) schemaFields(t.outputSchema, fields);
  // The keys, and the variable the plugin reads the packed tarball's path from.
  const env = new Set([...CLIENT_KEYS.map((k) => k.env), PACKAGE_VARIABLE]);
  const text = readFileSync(SKILL, "utf8");
  const named = [...text.matchAll(/`([^`\n]+)`/g)].map((m) => m[1] ?? "");
  let checked = 0;
  for (const token of named) {
    if (/\.(json|toml|html|vue|py|js|tsx?|txt|xml)$/.test(token)) continue; // a file name
    if (/^seo_[a-z_]+$/.test(token)) {
      assert.ok(tools.some((t) => t.name === token), `tool ${token}`);
    } else if (/^[a-z]+(_[a-z]+)+: /.test(token)) {
      const [name = "", value = ""] = token.split(": ");
      assert.ok(inputs.has(name), `input ${name}`);
      if (value.startsWith('"')) assert.ok(inputs.get(name)?.enum?.includes(JSON.parse(value)), token);
    } else if (/^[a-z]+(_[a-z]+)*(\.[a-z_]+)*$/.test(token) && /[._]/.test(token)) {
      for (const part of token.split("."))
        assert.ok(inputs.has(part) || fields.has(part), `field ${part} of ${token}`);
    } else if (/^[a-z0-9]+(-[a-z0-9]+)*-\*$/.test(token)) {
      assert.ok([...CHECKS.keys()].some((id) => id.startsWith(token.slice(0, -1))), `checks ${token}`);
    } else if (/^[a-z0-9]+(-[a-z0-9]+)+$/.test(token)) {
      assert.ok((CHECKS as ReadonlyMap<string, unknown>).has(token), `check ${token}`);
    } else if (/^[a-z]+$/.test(token)) {
      assert.ok(inputs.has(token) || fields.has(token) || NOT_API.has(token), `field ${token}`);
    } else if (/^[A-Z]+(_[A-Z]+)*$/.test(token)) {
      assert.ok(errorCodes.has(token) || env.has(token), `code or variable ${token}`);
    } else continue;
    checked++;
  }
  assert.ok(checked >= 50, `${checked} names checked`);
});
