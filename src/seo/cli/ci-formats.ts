/**
 * The audit in the formats CI systems show inline: SARIF 2.1.0 (GitHub code scanning and other
 * SARIF viewers: one rule per check, one result per affected URL) and JUnit XML (one test case
 * per check of the catalogue, failed when its check fired), plus a budget of findings per check.
 * @module
 */
import { ApiError } from "../../shared/errors.ts";
import { VERSION } from "../../shared/build-info.ts";
import { CHECKS, type CheckId, type Severity } from "../audit/catalogue.ts";
import type { AuditReport } from "../audit/report.ts";

const LEVEL: Record<Severity, "error" | "warning" | "note" | "none"> = {
  critical: "error",
  high: "error",
  medium: "warning",
  low: "note",
  info: "none",
};

/** The report as a SARIF 2.1.0 log: every stored URL of every finding is a result. */
export function sarifOf(report: AuditReport): string {
  const fired = report.findings;
  const rules = fired.map((f) => ({
    id: f.id,
    name: f.id,
    shortDescription: { text: f.title },
    help: { text: f.fix },
    defaultConfiguration: { level: LEVEL[f.severity] },
    properties: { category: f.category, severity: f.severity, provenance: f.provenance.kind },
  }));
  const results = fired.flatMap((f, ruleIndex) =>
    f.examples.map((e) => ({
      ruleId: f.id,
      ruleIndex,
      level: LEVEL[f.severity],
      message: { text: `${f.title}: ${e.evidence}` },
      locations: [{ physicalLocation: { artifactLocation: { uri: e.url } } }],
    })),
  );
  const log = {
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    version: "2.1.0",
    runs: [
      {
        tool: {
          driver: {
            name: "seo-audit-mcp",
            version: VERSION,
            informationUri: "https://www.npmjs.com/package/seo-audit-mcp",
            rules,
          },
        },
        originalUriBaseIds: { SITE: { uri: `${new URL(report.target).origin}/` } },
        results,
        properties: { report_id: report.id, target: report.target, score: report.scores.overall },
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}

/** Control characters XML 1.0 cannot carry at all, not even escaped (tab, LF and CR it can). */
const xmlForbidden = (code: number) => code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d;

const xml = (text: string) =>
  [...text]
    .filter((c) => !xmlForbidden(c.charCodeAt(0)))
    .join("")
    .replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The report as JUnit XML: every check of the catalogue is a test case; a fired check (not info) fails. */
export function junitOf(report: AuditReport): string {
  const byId = new Map(report.findings.map((f) => [f.id, f]));
  const cases = [...CHECKS.values()].map((check) => {
    const f = byId.get(check.id);
    const name = `classname="seo.${check.category}" name="${xml(check.id)}"`;
    if (!f) return `    <testcase ${name}/>`;
    const urls = f.examples.map((e) => `${e.url}: ${e.evidence}`).join("\n");
    const text = `${f.fix}\n\n${urls}`;
    if (f.severity === "info") return `    <testcase ${name}><system-out>${xml(text)}</system-out></testcase>`;
    return `    <testcase ${name}><failure type="${f.severity}" message="${xml(`${f.title}: ${f.count} URL(s)`)}">${xml(text)}</failure></testcase>`;
  });
  const failures = report.findings.filter((f) => f.severity !== "info").length;
  return `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="seo-audit-mcp" tests="${CHECKS.size}" failures="${failures}">
  <testsuite name="${xml(`SEO audit of ${report.target}`)}" tests="${CHECKS.size}" failures="${failures}" timestamp="${report.finished_at}">
${cases.join("\n")}
  </testsuite>
</testsuites>
`;
}

/** A budget: the most URLs each named check may have before the build fails. */
export type Budget = Map<CheckId, number>;

/** Reads a budget file's text: `{"broken-internal-link": 0, "image-missing-alt": 10}`. */
export function parseBudget(text: string, file: string): Budget {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new ApiError("INVALID_USAGE", `--budget: ${file} is not JSON; write {"<check id>": <max URLs>, ...}`);
  }
  if (!data || typeof data !== "object" || Array.isArray(data))
    throw new ApiError("INVALID_USAGE", `--budget: ${file} must be an object of check ids to the most URLs allowed`);
  const budget: Budget = new Map();
  for (const [id, max] of Object.entries(data)) {
    if (!CHECKS.has(id as CheckId))
      throw new ApiError("INVALID_USAGE", `--budget: "${id.slice(0, 60)}" in ${file} is not a check id (see the check table in AUDIT.md)`);
    if (typeof max !== "number" || !Number.isInteger(max) || max < 0)
      throw new ApiError("INVALID_USAGE", `--budget: ${id} in ${file} must be a whole number of URLs, 0 or more`);
    budget.set(id as CheckId, max);
  }
  return budget;
}

/** The checks over budget, as "id N > max". */
export function overBudget(report: AuditReport, budget: Budget): string[] {
  const counts = new Map(report.findings.map((f) => [f.id, f.count]));
  return [...budget].flatMap(([id, max]) => {
    const count = counts.get(id) ?? 0;
    return count > max ? [`${id} ${count} > ${max}`] : [];
  });
}
