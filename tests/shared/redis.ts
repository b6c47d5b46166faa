/**
 * Test helper: a real `redis-server` (Debian's package, installed by scripts/setup.sh) on a free
 * loopback port, without persistence, stopped and restarted on demand.
 * @module
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";

export interface RunningRedis {
  port: number;
  url: string;
  /** Stops the server (SIGKILL: an outage, not a clean shutdown) and waits for it to exit. */
  kill(): Promise<void>;
  /** Starts it again on the same port (empty: nothing persisted). */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function launch(port: number): Promise<ChildProcess> {
  const child = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let out = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`redis-server did not start within 10 s: ${out}`));
    }, 10_000);
    child.once("error", (err) => {
      clearTimeout(timer);
      reject(new Error(`cannot run redis-server (scripts/setup.sh installs it): ${err.message}`));
    });
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
      if (out.includes("Ready to accept connections")) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code}: ${out}`));
    });
  });
}

function ended(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill(signal);
  });
}

export async function startRedis(): Promise<RunningRedis> {
  const port = await freePort();
  let child = await launch(port);
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    kill: () => ended(child, "SIGKILL"),
    async restart() {
      await ended(child, "SIGKILL");
      child = await launch(port);
    },
    stop: () => ended(child, "SIGTERM"),
  };
}
