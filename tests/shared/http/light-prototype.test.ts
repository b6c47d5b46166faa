import assert from "node:assert/strict";
import { test } from "node:test";
import { forwardingPrototype } from "../../../src/shared/http/light-prototype.ts";

test("a stand-in is an instance of the class, holds its own fields, and reads every other member from one real object made on first use", async () => {
  const made: Response[] = [];
  type Light = { status: number; real?: Response };
  const realOf = (light: Light) => (light.real ??= (made.push(new Response("body", { status: light.status })), made.at(-1) as Response));
  const proto = forwardingPrototype<Light>(Response.prototype, new Set(["constructor", "status"]), ["status"], realOf);
  const light = Object.create(proto) as Light;
  light.status = 201;

  assert.ok(light instanceof Response);
  assert.equal(light.status, 201, "an own field is a plain slot");
  assert.deepEqual(Object.keys(light), ["status"]);
  assert.equal(made.length, 0, "nothing real until a forwarded member is read");
  assert.equal((light as unknown as Response).statusText, "", "a getter forwards");
  assert.equal(await (light as unknown as Response).text(), "body", "a method forwards, bound to the real object");
  assert.equal(made.length, 1, "one real object, made once");
});
