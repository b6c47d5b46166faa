/**
 * The build stage marker and version. esbuild inlines package.json at build time, so a
 * bundle carries the numbers it was built with, whatever package.json says later.
 * @module
 */
import pkg from "../../package.json" with { type: "json" };

/** Integer stage marker of this build: see README "Build stage". */
export const STAGE: number = pkg.stage;
/** Package version of this build. */
export const VERSION: string = pkg.version;
