/**
 * The files `seo-audit-mcp audit` writes besides its printed report: --html, --sarif, --junit
 * and --csv. A file that cannot be written is one stderr line and exit 1; the report is printed
 * all the same.
 * @module
 */
import { ApiError, messageOf } from "../../shared/errors.ts";
import { failureLine } from "../../shared/cli/failure.ts";
import type { AuditReport } from "../audit/report.ts";
import type { CliIo } from "./audit.ts";
import { junitOf, sarifOf } from "./ci-formats.ts";
import { csvFiles } from "./csv.ts";

/** The output files the command line asked for. */
/** The CI report files the command line asked for (--sarif, --junit, --csv). */
export interface OutputFiles {
  sarif?: string;
  junit?: string;
  csv?: string;
}

/** One WRITE_FAILED line, pointing to the command's help. */
function writeFailed(io: CliIo, message: string): void {
  io.stderr(`${failureLine(new ApiError("WRITE_FAILED", message), "seo-audit-mcp audit --help")}\n`);
}

/** Writes one file; false, after one stderr line, when it could not be written. */
async function written(path: string, text: string, io: CliIo, unavailable: string): Promise<boolean> {
  if (!io.writeText) {
    io.stderr(`WRITE_FAILED: ${unavailable}\n`);
    return false;
  }
  try {
    await io.writeText(path, text);
    return true;
  } catch (err) {
    writeFailed(io, `cannot write ${path}: ${messageOf(err)}`);
    return false;
  }
}

const kilobytes = (text: string) => Math.round(text.length / 1024);

/** Writes one output file of the report; 1 when it could not be written (the report is printed anyway). */
async function writeOutput(flag: string, path: string, text: string, io: CliIo): Promise<number> {
  if (!(await written(path, text, io, `${flag} is not available here (no file system); run the audit from a terminal`))) return 1;
  io.stderr(`${flag}: ${path} (${kilobytes(text)} KB)\n`);
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
    writeFailed(io, `cannot make ${dir}: ${messageOf(err)}`);
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
  const unavailable = "--html is not available here (no file system); run the audit from a terminal to get the HTML report";
  if (!(await written(path, html, io, unavailable))) return 1;
  io.stderr(`HTML report: ${path} (${kilobytes(html)} KB, self-contained)\n`);
  return 0;
}
