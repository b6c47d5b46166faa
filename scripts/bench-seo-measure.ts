/**
 * How `scripts/bench-seo-crawl.ts` measures a crawler: whole-process wall time and peak RSS from
 * /usr/bin/time -v, or for a browser (many processes) the peak PSS of the process tree.
 * @module
 */
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

export function timed(
  command: string[],
  env: NodeJS.ProcessEnv,
  wholeTree = false,
): Promise<{ wallS: number; rssMiB: number; stdout: string }> {
  return new Promise((done, fail) => {
    const child = spawn("/usr/bin/time", ["-v", ...command], { stdio: ["ignore", "pipe", "pipe"], env });
    // /usr/bin/time reports the largest single process; a browser is many: sum the tree instead.
    let peakPss = 0;
    const sampler = wholeTree
      ? setInterval(() => void (peakPss = Math.max(peakPss, treePssKiB(child.pid ?? 0))), 100)
      : undefined;
    let err = "";
    let out = "";
    child.stderr.on("data", (chunk: Buffer) => void (err += chunk.toString()));
    child.stdout.on("data", (chunk: Buffer) => void (out.length < 4096 && (out += chunk.toString())));
    child.on("error", fail);
    child.on("close", (code) => {
      clearInterval(sampler);
      const wall = /Elapsed \(wall clock\) time.*: (?:(\d+):)?(\d+):([\d.]+)/.exec(err);
      const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(err);
      if (code !== 0 || !wall || !rss) return fail(new Error(`${command.join(" ")} failed (${code}): ${err.slice(-800)}`));
      const wallS = Number(wall[1] ?? 0) * 3600 + Number(wall[2]) * 60 + Number(wall[3]);
      done({ wallS, rssMiB: (wholeTree ? peakPss : Number(rss[1])) / 1024, stdout: out });
    });
  });
}

/** Process ids under `root` (itself included), from /proc's parent links. */
function tree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(name)]);
    } catch {
      // the process ended meanwhile
    }
  }
  const out: number[] = [];
  const walk = (pid: number) => {
    out.push(pid);
    for (const child of children.get(pid) ?? []) walk(child);
  };
  walk(root);
  return out;
}

/** PSS of every process under `root` in KiB: shared pages counted once across the tree. */
function treePssKiB(root: number): number {
  let sum = 0;
  for (const pid of tree(root)) {
    try {
      sum += Number(/^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"))?.[1] ?? 0);
    } catch {
      // the process ended meanwhile
    }
  }
  return sum;
}
