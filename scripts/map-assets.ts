/**
 * Bundles the charging map page's browser files with esbuild: the module
 * (shim/browser/charging/map.ts with MapLibre GL JS, from npm), its stylesheet (with
 * MapLibre's) and MapLibre's worker as the package ships it. Each name carries a hash of its
 * content, so a server can let browsers keep them for good. scripts/build.ts embeds the
 * result in the bundles; run from source, shim/embedded/charging-map.ts calls it on first use.
 * @module
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { buildSync } from "esbuild";
import type { MapAssets, MapFile } from "../src/charging/mod.ts";

const ENTRY = fileURLToPath(new URL("../shim/browser/charging/map.ts", import.meta.url));

const hashed = (stem: string, ext: string, text: string): MapFile => ({
  name: `${stem}-${createHash("sha256").update(text).digest("hex").slice(0, 12)}.${ext}`,
  text,
});

/** The page's script, stylesheet and MapLibre worker, named by content. */
export function bundleMapAssets(): MapAssets {
  const result = buildSync({
    entryPoints: [ENTRY],
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    minify: true,
    // MapLibre's licence (BSD-3-Clause) asks for its notice in redistributed copies.
    legalComments: "eof",
    outdir: "map",
    write: false,
    logLevel: "warning",
  });
  const text = (ext: string) => result.outputFiles.find((file) => file.path.endsWith(ext))?.text ?? "";
  const shipped = readFileSync(createRequire(import.meta.url).resolve("maplibre-gl/dist/maplibre-gl-worker.mjs"), "utf8");
  // Its source map is not served: the comment naming it would send browsers looking.
  const worker = shipped.replace(/\n\/\/# sourceMappingURL=\S+\s*$/, "\n");
  return {
    script: hashed("map", "js", text(".js")),
    style: hashed("map", "css", text(".css")),
    worker: hashed("maplibre-worker", "mjs", worker),
  };
}
