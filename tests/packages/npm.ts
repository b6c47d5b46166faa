/**
 * The two npm packages as a user gets them: `npm pack` of a workspace (its prepack stages the
 * files), then `npm install <tarball>` into an empty folder with an empty npm cache, offline
 * (the packages have no dependencies: an install that needed the network would fail here).
 * @module
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { NO_COVERAGE } from "../shared/script-env.ts";

export interface Packed {
  name: string;
  version: string;
  filename: string;
  /** Bytes of the .tgz and of its files unpacked, as npm reports them. */
  size: number;
  unpackedSize: number;
  files: { path: string; size: number; mode: number }[];
  /** Absolute path of the tarball. */
  tarball: string;
}

export interface Installed {
  /** The folder the package was installed in (its node_modules is the only thing there). */
  dir: string;
  /** Absolute path of an installed bin. */
  bin(name: string): string;
}

/** npm with nothing of this machine's: a scratch home and cache, offline, no notices. */
export function npmEnv(scratch: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "",
    HOME: scratch,
    npm_config_cache: join(scratch, "npm-cache"),
    npm_config_userconfig: join(scratch, "npmrc"),
    npm_config_offline: "true",
    npm_config_update_notifier: "false",
    npm_config_fund: "false",
    npm_config_audit: "false",
    npm_config_loglevel: "error",
    ...NO_COVERAGE,
  };
}

const STAGING_LOCK = "dist/.package-staging-lock";

/**
 * Runs `stage` while no other test file stages a package: prepack rebuilds
 * packages/<name>/dist/, and two test files packing at once would pack each other's half-written
 * files. The lock is a directory (mkdir is atomic); a lock older than 10 minutes is a crashed run's.
 */
export async function whileStaging<T>(stage: () => T | Promise<T>): Promise<T> {
  mkdirSync("dist", { recursive: true });
  for (let waited = 0; ; waited += 100) {
    try {
      mkdirSync(STAGING_LOCK);
      break;
    } catch {
      if (waited > 600_000) rmSync(STAGING_LOCK, { recursive: true, force: true });
      await new Promise((done) => setTimeout(done, 100));
    }
  }
  try {
    return await stage();
  } finally {
    rmSync(STAGING_LOCK, { recursive: true, force: true });
  }
}

/** `npm pack` of one workspace (prepack runs: build, declarations, checks) into `destination`. */
export function pack(workspace: string, destination: string, scratch: string): Promise<Packed> {
  return whileStaging(() => packNow(workspace, destination, scratch));
}

function packNow(workspace: string, destination: string, scratch: string): Packed {
  mkdirSync(destination, { recursive: true });
  const out = execFileSync("npm", ["pack", "--json", "-w", workspace, "--pack-destination", destination], {
    encoding: "utf8",
    env: npmEnv(scratch),
    stdio: ["ignore", "pipe", "pipe"],
    maxBuffer: 16 * 1024 * 1024,
  });
  // prepack's progress lines come before npm's JSON on stdout.
  const [packed] = JSON.parse(out.slice(out.indexOf("[\n"))) as Omit<Packed, "tarball">[];
  if (!packed) throw new Error(`npm pack -w ${workspace} printed no package`);
  return { ...packed, tarball: resolve(destination, packed.filename) };
}

/** Installs the tarball into `dir` (created empty) and returns where its bins are. */
export function install(tarball: string, dir: string, scratch: string): Installed {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), `${JSON.stringify({ name: "consumer", private: true, type: "module" })}\n`);
  execFileSync("npm", ["install", "--no-package-lock", tarball], {
    cwd: dir,
    env: npmEnv(scratch),
    stdio: ["ignore", "ignore", "pipe"],
  });
  return { dir, bin: (name) => join(dir, "node_modules", ".bin", name) };
}

/**
 * Starts a server command on a free port; resolves its URL from the start-up line. It runs in
 * a process group of its own, stopped as a whole: npx starts the server as its child.
 */
export function startServer(
  command: string,
  args: string[],
  env: Record<string, string>,
  cwd?: string,
): Promise<{ url: string; stop(): Promise<void> }> {
  const child = spawn(command, args, { env, cwd, detached: true, stdio: ["ignore", "ignore", "pipe"] });
  // Resolves once every process of the group has let go of the stderr pipe.
  const closed = new Promise<void>((resolve) => child.once("close", () => resolve()));
  const stop = () => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, "SIGTERM");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ESRCH") throw err;
    }
    return closed;
  };
  let log = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`no start-up line within 20 s; stderr: ${log}`));
    }, 20_000);
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      log += chunk;
      const url = /listening on (http:\/\/\S+)/.exec(log)?.[1];
      if (!url) return;
      clearTimeout(timer);
      resolve({ url, stop });
    });
    child.once("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${command} exited with ${code}: ${log}`));
    });
  });
}

/** Every file of an unpacked tarball's contents as text, by path (for what must not be in it). */
export function fileText(tarball: string, path: string): string {
  return execFileSync("tar", ["-xOzf", tarball, `package/${path}`], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
}

export const repoVersion = (): string =>
  (JSON.parse(readFileSync("package.json", "utf8")) as { version: string }).version;
