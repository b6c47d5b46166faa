/**
 * The prototype of a light stand-in for a platform class (a Request, a Response): its chain is
 * the class's, so `instanceof` holds, while the members a stand-in holds itself are plain
 * data slots, and every other member of the class reads the real object `realOf` builds on
 * first use. Constructing undici's objects costs about as much as a kept answer does; the
 * stand-ins are made per request on the hot path and are real only when something asks.
 * @module
 */

/**
 * A prototype over `base` that forwards every member not in `own` to `realOf(this)`, with a
 * writable slot (shadowing the class's getter) for each of `fields`, so a stand-in's own fields
 * are plain assignments (one hidden class, no property definitions per object).
 */
export function forwardingPrototype<T>(
  base: object,
  own: ReadonlySet<string | symbol>,
  fields: readonly (string | symbol)[],
  realOf: (light: T) => object,
): object {
  const proto = Object.create(base) as object;
  for (const key of Reflect.ownKeys(base)) {
    if (own.has(key)) continue;
    const member = Object.getOwnPropertyDescriptor(base, key) as PropertyDescriptor;
    if (member.get) {
      Object.defineProperty(proto, key, { get: function (this: T) { return Reflect.get(realOf(this), key); }, configurable: true });
    } else if (typeof member.value === "function") {
      const method = member.value as (...args: unknown[]) => unknown;
      Object.defineProperty(proto, key, { value: function (this: T, ...args: unknown[]) { return method.apply(realOf(this), args); }, configurable: true, writable: true });
    }
  }
  for (const key of fields) Object.defineProperty(proto, key, { value: undefined, writable: true });
  return proto;
}
