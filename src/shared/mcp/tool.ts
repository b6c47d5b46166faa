/**
 * What a service's MCP tool is: a valibot input schema, a JSON Schema for its structured
 * output, annotations for agents, and one async function. Transports never see valibot. A
 * failure the agent can act on is an `ApiError` (src/shared/errors.ts) whose message says what
 * to do next; it becomes an `isError` result.
 * @module
 */
import type { v } from "../../../deps.ts";
import type { ErrorCode } from "../errors.ts";
import type { RestFace } from "../http/rest-face.ts";
import type { ResourceLink } from "./resource.ts";
import type { AnyObjectSchema } from "../validate.ts";

/** What a running tool may use besides its input. */
export interface ToolContext {
  /** Aborted when the client cancels the call or disconnects. */
  signal: AbortSignal;
  /** Reports progress to the client when it asked for it (a no-op otherwise). */
  progress(done: number, total?: number, message?: string): void;
  /** Set when progress only updates a task's status message: cheap, so every step may report. */
  progressIsStatus?: boolean;
}

/** A tool's answer: the structured payload, the text an agent reads first, and links to resources it can read later. */
export interface ToolOutput {
  structured: Record<string, unknown>;
  text: string;
  links?: ResourceLink[];
}

/**
 * Written out rather than taken from the SDK's Tool type: the published packages bundle the SDK,
 * so their declarations may not name it (scripts/pack-package.ts refuses a library entry that does).
 */
export interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface ToolDef<S extends AnyObjectSchema = AnyObjectSchema> {
  name: string;
  title: string;
  /** Written for agents: what it does, when to use it, what it returns. */
  description: string;
  input: S;
  /** JSON Schema (type object) of `structured`; the SDK client validates results against it. */
  output?: Record<string, unknown>;
  annotations?: ToolAnnotations;
  /**
   * "optional": a client may call it as an MCP task (tasks.ts), where the server runs tasks;
   * unset: never as a task.
   */
  taskSupport?: "optional";
  /**
   * Set when the tool is listed but cannot run where this server runs (a capability the
   * runtime lacks): every call answers this error, whatever its arguments.
   */
  unavailable?: { code: ErrorCode; message: string };
  /** The same tool as a GET route (its structured result is the JSON answer); absent: MCP only. */
  rest?: RestFace;
  run(input: v.InferOutput<S>, context: ToolContext): Promise<ToolOutput>;
}

/** Declares a tool with its input type inferred from the schema. */
export function defineTool<S extends AnyObjectSchema>(tool: ToolDef<S>): ToolDef {
  return tool as unknown as ToolDef;
}
