/**
 * The command lines' conversion point: a failed command's stderr line and exit code. Usage,
 * configuration and data-file problems exit 2 with the bare message (the command adds its
 * usage or where to read it); every other `ApiError` exits 1 as `CODE: message`. Anything
 * else is unexpected: it goes up to the entry point, which prints its message and exits 1.
 * @module
 */
import { type ErrorCode, isApiError } from "../errors.ts";

/** The codes that mean the command line, a setting or an input file is at fault: exit 2. */
export const USAGE_CODES: readonly ErrorCode[] = ["INVALID_USAGE", "INVALID_CONFIG", "INVALID_DATA"];

export interface CliFailure {
  exit: 1 | 2;
  /** What to print after the command's prefix (no newline). */
  line: string;
}

/** The exit code of a command that failed with `err`. */
export function exitCodeOf(err: unknown): 1 | 2 {
  return isApiError(err, ...USAGE_CODES) ? 2 : 1;
}

/** How a command reports `err`; undefined when it is not an `ApiError` (unexpected: rethrow it). */
export function cliFailure(err: unknown): CliFailure | undefined {
  if (!isApiError(err)) return undefined;
  const exit = exitCodeOf(err);
  return { exit, line: exit === 2 ? err.message : `${err.code}: ${err.message}` };
}
