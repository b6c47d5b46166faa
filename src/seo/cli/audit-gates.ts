/**
 * The audit command's CI gates: `--fail-on <severity>` and `--budget <file>` turn a finished
 * audit into exit 1 when findings pass the bar, as linkinator and Lighthouse CI budgets do.
 * Each gate says on stderr whether it passed, and what to do when it did not.
 * @module
 */
import { usage } from "../../shared/cli/args.ts";
import { type Severity, SEVERITY_RANK } from "../audit/catalogue.ts";
import type { AuditReport } from "../audit/report.ts";
import { type Budget, overBudget, parseBudget } from "./ci-formats.ts";

/** What the gates use of the command's I/O. */
interface GateIo {
  stderr(s: string): void;
  readText?(path: string): Promise<string>;
}

/** Severities --fail-on takes: "info" findings are notes, never a reason to fail a build. */
const FAIL_ON = ["critical", "high", "medium", "low"] as const satisfies readonly Severity[];
export type FailOn = (typeof FAIL_ON)[number];

export function failOnOf(text: string | undefined): FailOn | undefined {
  if (text === undefined || (FAIL_ON as readonly string[]).includes(text)) return text as FailOn | undefined;
  throw usage(`--fail-on takes ${FAIL_ON.join(", ")} (got "${text.slice(0, 40)}")`);
}

export async function readBudget(file: string, io: GateIo): Promise<Budget> {
  let text: string;
  try {
    if (!io.readText) throw new Error("no file system");
    text = await io.readText(file);
  } catch {
    throw usage(`--budget: cannot read ${file}; pass a JSON file of check ids to the most URLs allowed`);
  }
  return parseBudget(text, file);
}

/** Exit 1 when a check has more URLs than the --budget file allows. */
export function budgetExit(report: AuditReport, budget: Budget | undefined, io: GateIo): 0 | 1 {
  if (!budget) return 0;
  const over = overBudget(report, budget);
  if (over.length === 0) {
    io.stderr(`--budget: passed, ${budget.size} check(s) within budget\n`);
    return 0;
  }
  io.stderr(`--budget: failed, ${over.length} check(s) over budget: ${over.join(", ")}; fix them, or raise the budget\n`);
  return 1;
}

/** Exit 1 when --fail-on is given and a finding at or above it is present (a CI gate). */
export function failOnExit(report: AuditReport, failOn: FailOn | undefined, io: GateIo): 0 | 1 {
  if (failOn === undefined) return 0;
  const over = report.findings.filter((f) => SEVERITY_RANK[f.severity] <= SEVERITY_RANK[failOn]);
  if (over.length === 0) {
    io.stderr(`--fail-on ${failOn}: passed, no finding is ${failOn} or worse\n`);
    return 0;
  }
  const checks = over.map((f) => `${f.id} (${f.severity})`).join(", ");
  io.stderr(`--fail-on ${failOn}: failed, ${over.length} finding(s) ${failOn} or worse: ${checks}; fix them, or raise --fail-on\n`);
  return 1;
}
