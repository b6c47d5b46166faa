import assert from "node:assert/strict";
import { test } from "node:test";
import { addressKey, clientKey, UNKNOWN_CLIENT } from "../../../src/shared/http/client-ip.ts";

test("addressKey() keeps IPv4, unwraps IPv4-mapped IPv6 and buckets IPv6 by /64", () => {
  assert.equal(addressKey("203.0.113.7"), "203.0.113.7");
  assert.equal(addressKey("::ffff:203.0.113.7"), "203.0.113.7");
  assert.equal(addressKey("2001:db8:1:2:aaaa::1"), "2001:db8:1:2::/64");
  assert.equal(addressKey("2001:0db8:0001:0002:ffff:0:0:9"), "2001:db8:1:2::/64");
  assert.equal(addressKey("[2001:db8::1]"), "2001:db8:0:0::/64");
  assert.equal(addressKey("fe80::1%eth0"), "fe80:0:0:0::/64");
  assert.equal(addressKey("::1"), "0:0:0:0::/64");
});

test("addressKey() puts missing and unreadable addresses in one shared bucket", () => {
  for (const bad of [
    undefined,
    "",
    "999.1.1.1",
    "not-an-ip",
    "1:2:3",
    "1::2::3",
    "1:2:3:4:5:6:7:8:9",
    "g::1",
  ]) {
    assert.equal(addressKey(bad), UNKNOWN_CLIENT, String(bad));
  }
});

test("clientKey() ignores x-forwarded-for unless proxies are trusted, then takes the n-th from the right", () => {
  const request = new Request("http://x/", {
    headers: { "x-forwarded-for": "6.6.6.6, 198.51.100.1, 10.0.0.2" },
  });
  assert.equal(clientKey(request, "10.0.0.9", 0), "10.0.0.9");
  assert.equal(clientKey(request, "10.0.0.9", 1), "10.0.0.2");
  assert.equal(clientKey(request, "10.0.0.9", 2), "198.51.100.1");
  assert.equal(clientKey(request, "10.0.0.9", 4), "10.0.0.9", "shorter chain than trusted hops: peer");
  assert.equal(clientKey(new Request("http://x/"), "::ffff:127.0.0.1", 1), "127.0.0.1");
});
