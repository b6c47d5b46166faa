/**
 * The command lines' conversion point: a failed command's stderr line and exit code. Every
 * failure is one line, `CODE: what happened; what to do`: the code from the registry, so a
 * user can look it up and a script can match it, and a next step, so the line is enough to
 * act on. Usage, configuration and data-file problems exit 2; every other failure exits 1.
 * @module
 */
import { ERRORS, type ErrorCode, isApiError, messageOf } from "../errors.ts";

/** The codes that mean the command line, a setting or an input file is at fault: exit 2. */
export const USAGE_CODES: readonly ErrorCode[] = ["INVALID_USAGE", "INVALID_CONFIG", "INVALID_DATA"];

/** The next step of a failure nobody planned for (a bug, or the machine refusing something). */
export const UNEXPECTED_NEXT_STEP = "this is unexpected: run the command again, and if it fails again report it with the command line you ran";

/** The exit code of a command that failed with `err`. */
export function exitCodeOf(err: unknown): 1 | 2 {
  return isApiError(err, ...USAGE_CODES) ? 2 : 1;
}

/** Line breaks inside a message would split the one line a script reads. */
const oneLine = (text: string) => text.replace(/\s*[\r\n]+\s*/g, " ").trim();

/** Whether a message already says what to do (the registry's messages put it after "; "). */
const hasNextStep = (message: string) => message.includes("; ");

/**
 * The one line that reports `err`. `help` is the command's own help invocation (e.g.
 * `charging search --help`), the next step of a usage error that names none.
 */
export function failureLine(err: unknown, help: string): string {
  if (!isApiError(err)) {
    return `INTERNAL: ${oneLine(messageOf(err))}; ${UNEXPECTED_NEXT_STEP}`;
  }
  const message = oneLine(err.message);
  if (hasNextStep(message)) return `${err.code}: ${message}`;
  const next = err.code === "INVALID_USAGE" ? `see ${help}` : ERRORS[err.code].hint;
  return `${err.code}: ${message}; ${next}`;
}

/** Writes `err`'s one line (no newline) to `stderr` and answers its exit code; what is not an `ApiError` is rethrown (unexpected). */
export function reportFailure(err: unknown, help: string, stderr: (line: string) => void): 1 | 2 {
  if (!isApiError(err)) throw err;
  stderr(failureLine(err, help));
  return exitCodeOf(err);
}
