/**
 * Cooperative time slicing: a long walk (a continent-wide count with a filter, a deep offset)
 * checks the clock every few hundred steps and hands the event loop back once its slice is
 * used, so no search holds other requests up for longer than one slice.
 * @module
 */

export interface Pacer {
  /** Call once per step (or once per `steps` of them); true when the slice is used up and the walk should `pause()`. */
  due(steps?: number): boolean;
  pause(): Promise<void>;
}

export interface PaceOptions {
  /** Longest stretch of work between two pauses (default 5 ms). */
  sliceMs?: number;
  /** How to let other work run (default a zero timeout; the Node adapter passes setImmediate). */
  yieldNow?: () => Promise<void>;
  /** Milliseconds clock (default performance.now). */
  clock?: () => number;
}

const STEPS_PER_CHECK = 256;

const timeoutYield = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

export function createPacer(options: PaceOptions = {}): Pacer {
  const { sliceMs = 5, yieldNow = timeoutYield, clock = () => performance.now() } = options;
  let steps = 0;
  let deadline = clock() + sliceMs;
  return {
    due(weight = 1) {
      steps += weight;
      if (steps < STEPS_PER_CHECK) return false;
      steps = 0;
      return clock() >= deadline;
    },
    async pause() {
      await yieldNow();
      deadline = clock() + sliceMs;
    },
  };
}
