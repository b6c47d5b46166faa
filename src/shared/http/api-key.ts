/**
 * The optional free-key gate. Keys arrive in `x-api-key` (or as `Authorization: Bearer <key>`),
 * never in the query string, which ends up in access logs. Both sides are hashed with SHA-256
 * and compared over their fixed 32 bytes against every configured key without an early exit,
 * so timing tells nothing about how much of a key matched, or which key.
 * @module
 */

export type KeyVerdict = "ok" | "missing" | "invalid";

/** Checks a request's key; with no keys configured every request passes. */
export type KeyGate = (request: Request) => Promise<KeyVerdict>;

async function digest(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
}

/** The key a request presents, from `x-api-key` or a Bearer authorization. */
export function presentedKey(request: Request): string | undefined {
  const header = request.headers.get("x-api-key");
  if (header) return header.trim();
  return bearerToken(request);
}

/** The token of an `Authorization: Bearer <token>` header, and nothing else. */
export function bearerToken(request: Request): string | undefined {
  const auth = request.headers.get("authorization");
  const match = auth ? /^Bearer[ \t]+(\S+)\s*$/i.exec(auth) : null;
  return match?.[1];
}

/**
 * Builds the gate for `keys` (empty: every request passes). `present` says where a request
 * carries its key (default: `x-api-key` or a Bearer authorization).
 */
export function createKeyGate(
  keys: readonly string[],
  present: (request: Request) => string | undefined = presentedKey,
): KeyGate {
  if (keys.length === 0) return async () => "ok";
  const digests = Promise.all(keys.map(digest));
  return async (request) => {
    const key = present(request);
    if (!key) return "missing";
    const [known, seen] = await Promise.all([digests, digest(key)]);
    let matches = 0;
    for (const candidate of known) {
      let diff = 0;
      for (let i = 0; i < 32; i++) diff |= (candidate[i] as number) ^ (seen[i] as number);
      matches |= diff === 0 ? 1 : 0;
    }
    return matches === 1 ? "ok" : "invalid";
  };
}
