/**
 * `audit --csv DIR`: the page table and every finding as CSV files, the workflow of a desktop
 * crawler (issue → every URL → spreadsheet): `pages.csv`, and one `<check id>.csv` per check
 * that fired with every stored URL and its evidence.
 * @module
 */
import type { AuditReport } from "../audit/report.ts";

/**
 * One CSV cell, RFC 4180 quoted. A cell a spreadsheet would run as a formula (=, +, -, @, tab,
 * CR first) gets a leading `'`: crawled titles and URLs are not the user's to execute.
 */
export function csvCell(value: unknown): string {
  let text = value === null || value === undefined ? "" : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

const csv = (rows: unknown[][]) => `${rows.map((r) => r.map(csvCell).join(",")).join("\r\n")}\r\n`;

/** The CSV files of a report: file name → text. */
export function csvFiles(report: AuditReport): Map<string, string> {
  const files = new Map<string, string>();
  files.set(
    "pages.csv",
    csv([
      ["url", "status", "depth", "inlinks", "problems", "words", "in_sitemap", "type", "title", "final_url", "ttfb_ms"],
      ...report.pages.map((p) => [
        p.url,
        p.status,
        p.depth,
        p.inlinks,
        (p.issue_ids ?? []).join(" "),
        p.words,
        p.in_sitemap ? "yes" : "",
        p.type ?? p.state,
        p.title,
        p.final_url,
        p.ttfb_ms,
      ]),
    ]),
  );
  for (const f of report.findings)
    files.set(`${f.id}.csv`, csv([["check_id", "severity", "url", "evidence"], ...f.examples.map((e) => [f.id, f.severity, e.url, e.evidence])]));
  return files;
}
