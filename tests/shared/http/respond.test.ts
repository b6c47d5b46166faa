import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { joinPrepared, prepareText, preparedText } from "../../../src/shared/http/respond.ts";

test("joinPrepared gives the bytes of its parts' text joined, whatever they hold", () => {
  // Strings are encoded in place with room for their longest form: non-ASCII, astral and
  // lone surrogates (encoded as U+FFFD) must come out as TextEncoder writes them.
  const part = fc.oneof(fc.string({ unit: "grapheme" }), fc.string({ unit: "binary" }), fc.constantFrom(",", "é", "€", ""));
  fc.assert(
    fc.property(fc.array(fc.tuple(part, fc.boolean()), { maxLength: 12 }), (parts) => {
      const joined = joinPrepared(parts.map(([text, prepared]) => (prepared ? prepareText(text) : text)));
      assert.deepEqual(Buffer.from(joined.bytes), Buffer.from(new TextEncoder().encode(parts.map(([text]) => text).join(""))));
    }),
  );
});

test("joinPrepared copies a search page's parts and commas into one answer", () => {
  const comma = prepareText(",");
  const joined = joinPrepared([prepareText('{"data":['), prepareText('{"id":"a"}'), comma, prepareText('{"id":"ü"}'), '],"page":{"total":2}}']);
  assert.equal(preparedText(joined), '{"data":[{"id":"a"},{"id":"ü"}],"page":{"total":2}}');
  assert.equal(joined.bytes.byteLength, Buffer.byteLength(preparedText(joined)));
});
