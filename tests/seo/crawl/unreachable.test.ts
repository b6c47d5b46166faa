/** A start URL that does not answer is a connection problem in plain words, with the next step. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { TLS_NEXT_STEP, unreachableStart } from "../../../src/seo/crawl/unreachable.ts";
import { ERRORS } from "../../../src/shared/errors.ts";

test("unreachableStart(): each network failure says what it means and what to do, never robots.txt's rule", () => {
  const cases: [string, RegExp][] = [
    ["connect ECONNREFUSED 127.0.0.1:3000", /: connection refused: nothing is listening there \(connect ECONNREFUSED 127\.0\.0\.1:3000\); /],
    ["getaddrinfo ENOTFOUND shop.test", /: the host name does not resolve \(getaddrinfo ENOTFOUND shop\.test\); /],
    ["socket hang up", /: the connection was closed before an answer \(socket hang up\); /],
    ["timeout", /^could not reach http:\/\/x\.test: timeout; /],
  ];
  for (const [error, what] of cases) {
    const err = unreachableStart("http://x.test", error);
    assert.equal(err.code, "UNREACHABLE");
    assert.match(err.message, what, error);
    assert.ok(err.message.endsWith(`; ${ERRORS.UNREACHABLE.hint}`), error);
    assert.doesNotMatch(err.message, /disallowed|RFC 9309/);
  }
  const tls = unreachableStart("https://x.test", "self-signed certificate in certificate chain");
  assert.ok(tls.message.endsWith(`; ${TLS_NEXT_STEP}`));
});
