/**
 * Environments for children that run the repository's own scripts from source (`node
 * scripts/build.ts`, `npm pack`'s prepack, ...), with c8's coverage recording switched off. Such
 * a child loads `src/` files through Node's own type stripping, not tsx, and c8 cannot merge the
 * two readings of one file: whichever it read last won, so coverage of `src/` swung by several
 * points between runs. Those scripts are build steps, not tests of `src/`.
 *
 * Node copies NODE_V8_COVERAGE into every child whose `env` lacks the name, so it is set to ""
 * (off) rather than left out.
 */
export const NO_COVERAGE = { NODE_V8_COVERAGE: "" } as const;

export function scriptEnv(): NodeJS.ProcessEnv {
  return { ...process.env, ...NO_COVERAGE };
}
