/**
 * Command-line parsing for `charging` subcommands: positional arguments and `--name value`
 * (or `--name=value`) options. Unknown options and missing values are usage errors (exit 2).
 * @module
 */

export class UsageError extends Error {
  override name = "UsageError";
}

export interface OptionSpec {
  /** Takes a value (`--limit 5`) rather than being a switch (`--json`). */
  value: boolean;
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
    if (/^-[^-]/.test(arg)) throw new UsageError(`unknown option ${arg}`);
    if (!arg.startsWith("--")) {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const name = arg.slice(2, eq === -1 ? undefined : eq);
    const spec = known[name];
    if (!spec) throw new UsageError(`unknown option --${name}`);
    if (name in options) throw new UsageError(`--${name} given more than once`);
    if (!spec.value) {
      if (eq !== -1) throw new UsageError(`--${name} takes no value`);
      options[name] = true;
      continue;
    }
    const value = eq === -1 ? argv[++i] : arg.slice(eq + 1);
    if (value === undefined || value === "" || (eq === -1 && value.startsWith("--"))) {
      throw new UsageError(`--${name} needs a value`);
    }
    options[name] = value;
  }
  return { positionals, options };
}
