import assert from "node:assert/strict";
import { test } from "node:test";
import { DEFAULT_ENDPOINTS, loadConfig, redact } from "../../../src/seo/config.ts";
import { isApiError } from "../../../src/shared/errors.ts";
import { serviceAccount } from "../fakes/setup.ts";

test("loadConfig() with an empty environment: no keys, default endpoints", () => {
  const config = loadConfig({ env: {} });
  assert.deepEqual(config.keys, {});
  assert.equal(config.gsc, undefined);
  assert.deepEqual(config.endpoints, DEFAULT_ENDPOINTS);
  assert.equal(config.trancoIntervalMs, 1000);
  assert.deepEqual(config.secrets, []);
});

test("loadConfig() reads keys, treats empty strings and unexpanded placeholders as unset", () => {
  const warnings: string[] = [];
  const config = loadConfig({
    env: {
      SEO_PSI_KEY: " abc123 ",
      SEO_CRUX_KEY: "",
      SEO_OPR_KEY: "${SEO_OPR_KEY}",
      SEO_BING_KEY: "${user_config.bing}",
    },
    warn: (l) => warnings.push(l),
  });
  assert.deepEqual(config.keys, { psi: "abc123" });
  assert.deepEqual(config.secrets, ["abc123"]);
  assert.equal(warnings.length, 2);
  assert.match(warnings[0] ?? "", /SEO_OPR_KEY holds an unexpanded placeholder/);
});

test("loadConfig() takes endpoint overrides without trailing slashes and rejects bad ones", () => {
  const config = loadConfig({
    env: { SEO_PSI_ENDPOINT: "http://127.0.0.1:9/psi/", SEO_TRANCO_INTERVAL_MS: "0" },
  });
  assert.equal(config.endpoints.SEO_PSI_ENDPOINT, "http://127.0.0.1:9/psi");
  assert.equal(config.trancoIntervalMs, 0);
  assert.throws(
    () => loadConfig({ env: { SEO_CRUX_ENDPOINT: "not a url" } }),
    (err) => isApiError(err, "INVALID_CONFIG"),
  );
  assert.throws(
    () => loadConfig({ env: { SEO_OPR_ENDPOINT: "ftp://x/" } }),
    /SEO_OPR_ENDPOINT must be an http/,
  );
  assert.throws(() => loadConfig({ env: { SEO_PROVIDER_TIMEOUT_MS: "-5" } }), /whole number/);
});

test("loadConfig() reads service-account credentials inline or from a file, and explains bad ones", () => {
  const { json } = serviceAccount();
  const inline = loadConfig({ env: { SEO_GSC_CREDENTIALS: json } });
  assert.ok(inline.gsc && "account" in inline.gsc);
  assert.equal(inline.gsc.account.client_email, "seo@fake.iam.gserviceaccount.com");
  assert.equal(inline.secrets.length, 1);
  const fromFile = loadConfig({ env: { SEO_GSC_CREDENTIALS: "/keys/sa.json" }, readText: () => json });
  assert.ok(fromFile.gsc && "account" in fromFile.gsc);
  const unreadable = loadConfig({
    env: { SEO_GSC_CREDENTIALS: "/missing.json" },
    readText: () => {
      throw new Error("ENOENT");
    },
  });
  assert.ok(unreadable.gsc && "problem" in unreadable.gsc);
  assert.match(unreadable.gsc.problem, /cannot be read/);
  const notJson = loadConfig({ env: { SEO_GSC_CREDENTIALS: "{oops" } });
  assert.match(notJson.gsc && "problem" in notJson.gsc ? notJson.gsc.problem : "", /not valid JSON/);
  const wrong = loadConfig({ env: { SEO_GSC_CREDENTIALS: '{"client_email":"x"}' } });
  assert.match(wrong.gsc && "problem" in wrong.gsc ? wrong.gsc.problem : "", /not a service-account key/);
});

test("redact() removes every secret, ignoring trivially short ones", () => {
  assert.equal(redact("key=abcd1234&x=abcd1234", ["abcd1234"]), "key=[redacted]&x=[redacted]");
  assert.equal(redact("a b", ["a"]), "a b");
});
