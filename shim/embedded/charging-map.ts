/**
 * The map page's browser files (script, stylesheet, MapLibre worker). Run from source (tests,
 * tsx), they are bundled with esbuild on first use (scripts/map-assets.ts); in a bundle,
 * scripts/build.ts replaces this module with the files it bundled at build time, so the built
 * servers (Node and Workers) carry them and bundle nothing at run time.
 * @module
 */
import { type MapAssets, once } from "../../src/charging/mod.ts";
import { bundleMapAssets } from "../../scripts/map-assets.ts";

export const mapAssets: () => MapAssets = once(bundleMapAssets);
