import assert from "node:assert/strict";
import { test } from "node:test";
import { isLocalHost } from "../../../src/seo/page-report/local.ts";

test("isLocalHost(): loopback, private ranges, bare intranet names and .local are local; public hosts are not", () => {
  for (const h of [
    "localhost",
    "app.localhost",
    "127.0.0.1",
    "10.1.2.3",
    "192.168.0.1",
    "172.20.0.1",
    "[::1]",
    "intranet",
    "printer.local",
  ]) {
    assert.equal(isLocalHost(h), true, h);
  }
  for (const h of ["example.com", "8.8.8.8", "172.32.0.1", "[2001:db8::1]"])
    assert.equal(isLocalHost(h), false, h);
});
