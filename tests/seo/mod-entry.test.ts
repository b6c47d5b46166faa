import assert from "node:assert/strict";
import { test } from "node:test";
import * as commands from "../../src/seo/commands.ts";
import * as seo from "../../src/seo/mod.ts";

test("the service's entry carries the command-line entry and what every adapter wires", async () => {
  for (const [name, value] of Object.entries(commands)) assert.equal(seo[name as keyof typeof seo], value, name);
  for (const name of ["createSeoHandler", "preloadSeoCode", "loadSeoConfig", "createStdioBridge", "parseGatewayEnv"])
    assert.equal(typeof seo[name as keyof typeof seo], "function", name);
  const out: string[] = [];
  const code = await seo.auditCommand(["--help"], {
    stdout: (s) => void out.push(s),
    stderr: (s) => void out.push(s),
    fetch,
    reports: { save: async () => "unused", load: async () => undefined },
    now: () => new Date(),
    isTTY: false,
  });
  assert.equal(code, 0);
  assert.match(out.join(""), /audit <url>/, "the lazily loaded command answers");
});
