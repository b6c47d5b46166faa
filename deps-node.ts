/**
 * Packages only the Node adapters (shim/node) use, kept out of deps.ts on purpose: every bundle
 * that imports deps.ts must resolve what it re-exports, and a Workers bundle cannot resolve
 * a package built on Node's own modules. src/ never imports this file.
 * @module
 */

// --- the shared rate-limit store (CHARGING_REDIS_URL) ---
export { Redis } from "ioredis";
