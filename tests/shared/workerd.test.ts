import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { startWorker } from "./workerd.ts";

test("startWorker() runs a module worker in workerd, with bindings, over a real socket", async () => {
  const dir = mkdtempSync(join(tmpdir(), "workerd-"));
  const script = join(dir, "worker.js");
  writeFileSync(
    script,
    `export default { async fetch(request, env) {
       return Response.json({ path: new URL(request.url).pathname, token: env.TOKEN, runtime: navigator.userAgent });
     } };`,
  );
  const worker = await startWorker({ scriptPath: script, bindings: { TOKEN: "t-1" } });
  try {
    const viaSocket = await (await fetch(`${worker.url}/healthz`)).json();
    assert.deepEqual(viaSocket, { path: "/healthz", token: "t-1", runtime: "Cloudflare-Workers" });
    const viaDispatch = await (await worker.dispatch("/x")).json();
    assert.equal((viaDispatch as { path: string }).path, "/x");
  } finally {
    await worker.dispose();
  }
});
