/**
 * MCP tasks (protocol 2025-11-25, experimental) for tools that declare task support: the SDK's
 * `Server` answers `tasks/get`, `tasks/result`, `tasks/list` and `tasks/cancel` from the
 * `TaskStore` made here, which also runs the work. A store outlives the per-request servers of
 * the stateless endpoint (one per handler), so a task started by one message is found by the
 * next. Bounded: at most `maxRunning` tasks work at once (another task-augmented call is refused
 * RATE_LIMITED) and at most `maxKept` ended tasks are kept, each for its ttl after it ended (the
 * oldest go first). Cancelling aborts the work; what it returns then (a partial report, say)
 * is kept as the cancelled task's result.
 * @module
 */
import type { CallToolResult, McpTask, McpTaskStore } from "../../../deps.ts";
import { messageOf } from "../errors.ts";

interface TaskLimits {
  /** Tasks working at once. */
  maxRunning: number;
  /** Ended tasks (and their results) kept. */
  maxKept: number;
  /** How long an ended task is kept when the client asks for no ttl, and the most it may ask for. */
  ttlMs: number;
  /** The polling interval suggested to clients. */
  pollIntervalMs: number;
}

const TASK_LIMITS: TaskLimits = { maxRunning: 4, maxKept: 32, ttlMs: 60 * 60_000, pollIntervalMs: 1000 };

/** The work of a task: it stops when `signal` aborts and reports progress as a status message. */
export type TaskWork = (signal: AbortSignal, progress: (message: string) => void) => Promise<CallToolResult>;

export interface ToolTasks {
  /** For the SDK server's `taskStore` option. */
  store: McpTaskStore;
  /** Creates a working task (ttl as asked, within the limit) and runs `work` in the background. */
  start(ttl: number | undefined, work: TaskWork): McpTask;
}

interface Entry {
  task: McpTask;
  controller: AbortController;
  result?: CallToolResult;
  /** Settles when the work has ended and its result (if any) is stored. */
  done: Promise<void>;
  endedAt?: number;
}

const TERMINAL = new Set(["completed", "failed", "cancelled"]);
const isEnded = (task: McpTask) => TERMINAL.has(task.status);

/** An error the SDK answers as a JSON-RPC error with this code. */
const rpcError = (code: number, message: string) => Object.assign(new Error(message), { code });
const INVALID_PARAMS = -32602;
const notFound = (taskId: string) => rpcError(INVALID_PARAMS, `Failed to retrieve task: Task not found (${taskId.slice(0, 100)}); it ended more than its ttl ago, or never existed`);

const PAGE = 50;

/** Drops ended tasks past their ttl, then the oldest ended ones beyond `maxKept`. */
function sweepEnded(entries: Map<string, Entry>, limits: TaskLimits, now: number): void {
  const ended = [...entries.values()].filter((e) => e.endedAt !== undefined);
  for (const e of ended) if (now - (e.endedAt ?? 0) >= (e.task.ttl ?? limits.ttlMs)) entries.delete(e.task.taskId);
  const kept = ended.filter((e) => entries.has(e.task.taskId)).sort((a, b) => (a.endedAt ?? 0) - (b.endedAt ?? 0));
  for (const e of kept.slice(0, Math.max(0, kept.length - limits.maxKept))) entries.delete(e.task.taskId);
}

const newTask = (created: string, ttl: number, pollInterval: number): McpTask => ({
  taskId: crypto.randomUUID(),
  status: "working",
  statusMessage: "started",
  createdAt: created,
  lastUpdatedAt: created,
  ttl,
  pollInterval,
});

/** The tasks and what every part of them needs: limits, clock, and how a task ends. */
function tasksOf(limits: TaskLimits, now: () => number) {
  const entries = new Map<string, Entry>();
  const stamp = () => new Date(now()).toISOString();

  const sweep = () => sweepEnded(entries, limits, now());

  const end = (entry: Entry, status: McpTask["status"], message?: string) => {
    entry.task = { ...entry.task, status, lastUpdatedAt: stamp(), ...(message ? { statusMessage: message } : {}) };
    entry.endedAt = now();
  };

  /** Runs the work; its answer (or its failure, as an INTERNAL error result) becomes the result. */
  const run = (entry: Entry, work: TaskWork): Promise<void> => {
    const progress = (message: string) => {
      if (!isEnded(entry.task)) entry.task = { ...entry.task, statusMessage: message };
    };
    return work(entry.controller.signal, progress).then(
      (result) => {
        entry.result = result;
        if (!isEnded(entry.task)) end(entry, result.isError ? "failed" : "completed", result.isError ? "the tool answered an error" : "done");
      },
      (err: unknown) => {
        const text = `INTERNAL: the task failed unexpectedly (${messageOf(err)})`;
        entry.result = { isError: true, content: [{ type: "text", text }] };
        if (!isEnded(entry.task)) end(entry, "failed", "failed unexpectedly");
      },
    );
  };

  const start = (ttl: number | undefined, work: TaskWork): McpTask => {
    sweep();
    const running = [...entries.values()].filter((e) => !isEnded(e.task)).length;
    if (running >= limits.maxRunning) {
      throw rpcError(-32000, `RATE_LIMITED: ${running} tasks are already working here (at most ${limits.maxRunning}); wait for one (tasks/result) or cancel one (tasks/cancel), then call again`);
    }
    const task = newTask(stamp(), Math.min(ttl ?? limits.ttlMs, limits.ttlMs), limits.pollIntervalMs);
    const entry: Entry = { task, controller: new AbortController(), done: Promise.resolve() };
    entries.set(task.taskId, entry);
    entry.done = run(entry, work);
    return { ...task };
  };

  const lookup = (taskId: string) => {
    sweep();
    return entries.get(taskId);
  };
  return { entries, stamp, sweep, end, start, lookup };
}

type Tasks = ReturnType<typeof tasksOf>;

/** The SDK's view of the tasks: it answers tasks/get, tasks/result, tasks/list and tasks/cancel from this. */
function storeOf(tasks: Tasks): McpTaskStore {
  return {
    // Tasks are created by `start`, which runs the work too; the SDK never creates them itself here.
    createTask: () => Promise.reject(new Error("tasks are created by tools/call")),
    async getTask(taskId) {
      const entry = tasks.lookup(taskId);
      return entry ? { ...entry.task } : null;
    },
    storeTaskResult: () => Promise.reject(new Error("a task's result is stored when its work ends")),
    async getTaskResult(taskId) {
      const entry = tasks.lookup(taskId);
      if (!entry) throw notFound(taskId);
      // A cancelled task's work may still be winding down: its result is what it returns then.
      await entry.done;
      return entry.result ?? { isError: true, content: [{ type: "text", text: "the task was cancelled before it returned anything" }] };
    },
    async updateTaskStatus(taskId, status, statusMessage) {
      const entry = tasks.lookup(taskId);
      if (!entry) throw notFound(taskId);
      if (isEnded(entry.task)) throw rpcError(INVALID_PARAMS, `task ${taskId.slice(0, 100)} already ended (${entry.task.status})`);
      if (!TERMINAL.has(status)) {
        entry.task = { ...entry.task, status, lastUpdatedAt: tasks.stamp() };
        return;
      }
      tasks.end(entry, status, statusMessage);
      if (status === "cancelled") entry.controller.abort(new Error("the task was cancelled"));
    },
    async listTasks(cursor) {
      tasks.sweep();
      const ids = [...tasks.entries.keys()];
      const from = cursor === undefined ? 0 : ids.indexOf(cursor) + 1;
      if (from === 0 && cursor !== undefined) throw rpcError(INVALID_PARAMS, `unknown cursor ${cursor.slice(0, 100)}; list again without it`);
      const page = ids.slice(from, from + PAGE);
      const more = from + PAGE < ids.length;
      return { tasks: page.map((id) => ({ ...(tasks.entries.get(id) as Entry).task })), ...(more ? { nextCursor: page.at(-1) } : {}) };
    },
  };
}

export function createToolTasks(limits: TaskLimits = TASK_LIMITS, now: () => number = Date.now): ToolTasks {
  const tasks = tasksOf(limits, now);
  return { store: storeOf(tasks), start: tasks.start };
}
