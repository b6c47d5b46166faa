/**
 * Per-host politeness: a minimum gap between request starts (raised to Crawl-delay, clamped),
 * pauses after Retry-After, and stopping a host after a run of 5xx/429 answers.
 * @module
 */
import { sleep } from "../../shared/sleep.ts";

// An aborted wait ends the wait, not the crawl: the caller sees the signal and stops cleanly.
const stopWaiting = () => {};

interface HostState {
  intervalMs: number;
  nextSlot: number;
  errorStreak: number;
  stopped: boolean;
}

export class HostGate {
  readonly #hosts = new Map<string, HostState>();
  readonly #intervalMs: number;
  readonly #stopAfter: number;
  readonly #clock: () => number;

  constructor(intervalMs: number, stopAfter: number, clock: () => number = () => performance.now()) {
    this.#intervalMs = intervalMs;
    this.#stopAfter = stopAfter;
    this.#clock = clock;
  }

  #host(origin: string): HostState {
    let state = this.#hosts.get(origin);
    if (!state) {
      state = { intervalMs: this.#intervalMs, nextSlot: 0, errorStreak: 0, stopped: false };
      this.#hosts.set(origin, state);
    }
    return state;
  }

  /** Raises the gap for `origin` (robots Crawl-delay), never lowers it. */
  raiseInterval(origin: string, ms: number): void {
    const state = this.#host(origin);
    state.intervalMs = Math.max(state.intervalMs, ms);
  }

  /** Waits for this host's next slot and takes it. */
  async take(origin: string, signal?: AbortSignal): Promise<void> {
    const state = this.#host(origin);
    const now = this.#clock();
    const slot = Math.max(now, state.nextSlot);
    state.nextSlot = slot + state.intervalMs;
    if (slot > now) await sleep(slot - now, signal).catch(stopWaiting);
  }

  /** Pushes the host's next slot out by `ms` (Retry-After, backoff). */
  pause(origin: string, ms: number): void {
    const state = this.#host(origin);
    state.nextSlot = Math.max(state.nextSlot, this.#clock() + ms);
  }

  /** Records an answer; returns true when this one stopped the host. */
  record(origin: string, status: number): boolean {
    const state = this.#host(origin);
    if (status === 429 || status >= 500 || status === 0) state.errorStreak++;
    else state.errorStreak = 0;
    if (!state.stopped && state.errorStreak >= this.#stopAfter) {
      state.stopped = true;
      return true;
    }
    return false;
  }

  isStopped(origin: string): boolean {
    return this.#hosts.get(origin)?.stopped ?? false;
  }
}

/** Retry-After as milliseconds (delta-seconds or an HTTP date), clamped to [0, cap]. */
export function retryAfterMs(header: string | null, now: number, fallback: number, cap: number): number {
  if (header === null || header.trim() === "") return Math.min(fallback, cap);
  const seconds = Number(header.trim());
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - now;
  return Number.isFinite(ms) ? Math.min(Math.max(0, ms), cap) : Math.min(fallback, cap);
}
