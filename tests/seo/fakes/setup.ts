/**
 * Test wiring for the fake providers: a service account with a fresh RSA key, configs with and
 * without keys, and provider deps whose sleep records the waits instead of spending them.
 * @module
 */
import { generateKeyPairSync } from "node:crypto";
import { loadConfig, type SeoConfig } from "../../../src/seo/config.ts";
import type { ProviderDeps } from "../../../src/seo/providers/types.ts";
import { type Fakes, KEYS } from "./providers.ts";

export function serviceAccount(): { json: string; publicKey: string; privateKey: string } {
  const { publicKey, privateKey } = generateKeyPairSync("rsa", {
    modulusLength: 2048,
    publicKeyEncoding: { type: "spki", format: "pem" },
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
  });
  const json = JSON.stringify({
    type: "service_account",
    project_id: "fake",
    private_key_id: "kid-1",
    private_key: privateKey,
    client_email: "seo@fake.iam.gserviceaccount.com",
    token_uri: "https://oauth2.googleapis.com/token",
  });
  return { json, publicKey, privateKey };
}

/** Environment with every endpoint on the fakes, and keys when asked. */
export function envFor(fakes: Fakes, withKeys: boolean, gscJson?: string): Record<string, string> {
  return {
    ...fakes.env,
    SEO_TRANCO_INTERVAL_MS: "0",
    SEO_PROVIDER_TIMEOUT_MS: "1500",
    ...(withKeys
      ? { SEO_PSI_KEY: KEYS.psi, SEO_CRUX_KEY: KEYS.crux, SEO_OPR_KEY: KEYS.opr, SEO_BING_KEY: KEYS.bing }
      : {}),
    ...(gscJson ? { SEO_GSC_CREDENTIALS: gscJson } : {}),
  };
}

export function configFor(fakes: Fakes, withKeys: boolean, gscJson?: string): SeoConfig {
  return loadConfig({ env: envFor(fakes, withKeys, gscJson) });
}

export function recordingDeps(): ProviderDeps & { waits: number[] } {
  const waits: number[] = [];
  return {
    fetch: globalThis.fetch,
    now: () => new Date(),
    sleep: async (ms) => {
      waits.push(ms);
    },
    waits,
  };
}
