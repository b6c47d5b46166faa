/**
 * The files `seo-audit-mcp audit` writes besides its printed report: --html, --sarif, --junit
 * and --csv. A file that cannot be written is one stderr line and exit 1; the report is printed
 * all the same.
 * @module
 */
import { ApiError } from "../../shared/errors.ts";
import { failureLine } from "../../shared/cli/failure.ts";
import type { AuditReport } from "../audit/report.ts";
import type { CliIo } from "./audit.ts";
import { junitOf, sarifOf } from "./ci-formats.ts";
import { csvFiles } from "./csv.ts";

/** The output files the command line asked for. */
export interface OutputFiles {
  sarif?: string;
  junit?: string;
  csv?: string;
}

/** Writes one output file of the report; 1 when it could not be written (the report is printed anyway). */
async function writeOutput(flag: string, path: string, text: string, io: CliIo): Promise<number> {
  if (!io.writeText) {
    io.stderr(`WRITE_FAILED: ${flag} is not available here (no file system); run the audit from a terminal\n`);
    return 1;
  }
  try {
    await io.writeText(path, text);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    io.stderr(`${failureLine(new ApiError("WRITE_FAILED", `cannot write ${path}: ${why}`), "seo-audit-mcp audit --help")}\n`);
    return 1;
  }
  io.stderr(`${flag}: ${path} (${Math.round(text.length / 1024)} KB)\n`);
  return 0;
}

/** The --sarif and --junit files. */
export async function writeCiFiles(parsed: OutputFiles, report: AuditReport, io: CliIo): Promise<number> {
  let failed = 0;
  if (parsed.sarif !== undefined) failed = Math.max(failed, await writeOutput("--sarif", parsed.sarif, sarifOf(report), io));
  if (parsed.junit !== undefined) failed = Math.max(failed, await writeOutput("--junit", parsed.junit, junitOf(report), io));
  if (parsed.csv !== undefined) failed = Math.max(failed, await writeCsv(parsed.csv, report, io));
  return failed;
}

/** The --csv directory: made if missing, then pages.csv and one file per finding. */
async function writeCsv(dir: string, report: AuditReport, io: CliIo): Promise<number> {
  try {
    await io.makeDir?.(dir);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    io.stderr(`${failureLine(new ApiError("WRITE_FAILED", `cannot make ${dir}: ${why}`), "seo-audit-mcp audit --help")}\n`);
    return 1;
  }
  const files = csvFiles(report);
  const base = dir.replace(/[\\/]+$/, "");
  let failed = 0;
  for (const [name, text] of files) failed = Math.max(failed, await writeOutput("--csv", `${base}/${name}`, text, quiet(io)));
  if (failed === 0) io.stderr(`--csv: ${files.size} file(s) in ${dir} (pages.csv and one per check)\n`);
  return failed;
}

/** The io with its stderr kept for failures: one summary line instead of a line per CSV file. */
function quiet(io: CliIo): CliIo {
  return { ...io, stderr: (s) => (s.startsWith("--csv: ") ? undefined : io.stderr(s)) };
}

export async function writeHtml(path: string, html: string, io: CliIo): Promise<number> {
  if (!io.writeText) {
    io.stderr("WRITE_FAILED: --html is not available here (no file system); run the audit from a terminal to get the HTML report\n");
    return 1;
  }
  try {
    await io.writeText(path, html);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    io.stderr(`${failureLine(new ApiError("WRITE_FAILED", `cannot write ${path}: ${why}`), "seo-audit-mcp audit --help")}\n`);
    return 1;
  }
  io.stderr(`HTML report: ${path} (${Math.round(html.length / 1024)} KB, self-contained)\n`);
  return 0;
}
