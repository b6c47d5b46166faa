/**
 * The one command-line parser of the `charging` and `seo-audit-mcp audit` commands: positional
 * arguments and `--name value` (or `--name=value`) options against the options a command
 * knows. Unknown options, repeated ones and missing values are INVALID_USAGE (exit 2).
 * `node:util`'s `parseArgs` is not used because `src/` imports no `node:` module.
 * @module
 */
import { ApiError } from "../errors.ts";

/** A command-line mistake: INVALID_USAGE, exit 2. */
export const usage = (message: string) => new ApiError("INVALID_USAGE", message);

export interface OptionSpec {
  /** Takes a value (`--limit 5`) rather than being a switch (`--json`). */
  value: boolean;
}

/** A command's options table: the names that take a value, and the switches. */
export function optionTable(valued: readonly string[], switches: readonly string[]): Record<string, OptionSpec> {
  return Object.fromEntries([...valued.map((name) => [name, { value: true }]), ...switches.map((name) => [name, { value: false }])]);
}

export interface ParsedArgs {
  positionals: string[];
  options: Record<string, string | true>;
}

/** Parses `argv` (without node and script) against the options the command knows. */
export function parseArgs(argv: readonly string[], known: Readonly<Record<string, OptionSpec>>): ParsedArgs {
  const positionals: string[] = [];
  const options: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === "--") {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (arg === "-h") {
      options.help = true;
      continue;
    }
    // Short options other than -h do not exist; "-l 5" must not pass as a site id.
    if (/^-[^-]/.test(arg)) throw usage(`unknown option ${arg}`);
    if (!arg.startsWith("--")) {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const name = arg.slice(2, eq === -1 ? undefined : eq);
    // Own keys only: "--constructor" must not find Object.prototype's.
    const spec = Object.hasOwn(known, name) ? known[name] : undefined;
    if (!spec) throw usage(`unknown option --${name}`);
    if (Object.hasOwn(options, name)) throw usage(`--${name} given more than once`);
    if (!spec.value) {
      if (eq !== -1) throw usage(`--${name} takes no value`);
      options[name] = true;
      continue;
    }
    const value = eq === -1 ? argv[++i] : arg.slice(eq + 1);
    if (value === undefined || value === "" || (eq === -1 && value.startsWith("--"))) {
      throw usage(`--${name} needs a value`);
    }
    options[name] = value;
  }
  return { positionals, options };
}

/** The value of a value-taking option, or undefined when it was not given. */
export function valueOf(parsed: ParsedArgs, name: string): string | undefined {
  const value = parsed.options[name];
  return typeof value === "string" ? value : undefined;
}

/**
 * `--help` (or `-h`) and `--version` anywhere before `--`: every command answers them, before
 * its own options are checked, so `charging search --bogus --help` still shows the help.
 */
export function metaFlagOf(argv: readonly string[]): "help" | "version" | undefined {
  for (const arg of argv) {
    if (arg === "--") return undefined;
    if (arg === "--help" || arg === "-h") return "help";
    if (arg === "--version") return "version";
  }
  return undefined;
}
