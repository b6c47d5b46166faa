import assert from "node:assert/strict";
import { test } from "node:test";
import { isApiError } from "../../../src/shared/errors.ts";
import { allowedMethods, describeRoutes, type Route, routeTable } from "../../../src/shared/http/route-table.ts";

const text = (body: string) => () => new Response(body);
const ROUTES: Route<string>[] = [
  { method: "GET", path: "/a", handle: (_r, _p, context) => new Response(`a:${context}`) },
  { method: "POST", path: "/a", handle: text("posted") },
  { method: "GET", path: "/items/:id", handle: (_r, p) => new Response(`one:${p.id}`) },
  { method: "GET", path: "/files/:path+", handle: (_r, p) => new Response(`file:${p.path}`) },
  { method: "POST", path: "/rpc", handle: (r) => new Response(`rpc:${r.method}`), everyMethod: true },
];
const dispatch = routeTable(ROUTES);
const send = async (method: string, path: string) => {
  const request = new Request(`http://x.test${path}`, { method });
  const response = await dispatch(request, new URL(request.url), "ctx");
  return response === undefined ? undefined : response.text();
};

test("routeTable: first match in table order, context and raw params passed through", async () => {
  assert.equal(await send("GET", "/a"), "a:ctx");
  assert.equal(await send("HEAD", "/a"), "a:ctx");
  assert.equal(await send("POST", "/a"), "posted");
  assert.equal(await send("GET", "/items/x%2Fy"), "one:x%2Fy");
  assert.equal(await send("GET", "/files/a/b/c"), "file:a/b/c");
  for (const method of ["GET", "PUT", "DELETE"]) assert.equal(await send(method, "/rpc"), `rpc:${method}`);
});

test("routeTable: fixed paths match only as written; unknown paths are undefined", async () => {
  for (const path of ["/a/", "/a//", "//a", "/rpc/", "/items/x/y", "/items/", "/files/", "/b"]) {
    assert.equal(await send("GET", path), undefined, path);
  }
});

test("routeTable: a known path with another method is METHOD_NOT_ALLOWED naming what it answers", async () => {
  await assert.rejects(send("DELETE", "/a"), (err) => {
    assert.ok(isApiError(err, "METHOD_NOT_ALLOWED"));
    assert.equal(err.headers.allow, "GET, HEAD, POST");
    assert.equal(err.message, "This route answers GET, HEAD and POST only");
    return true;
  });
  await assert.rejects(send("POST", "/items/1"), (err) => isApiError(err, "METHOD_NOT_ALLOWED") && err.headers.allow === "GET, HEAD");
  assert.deepEqual(allowedMethods(ROUTES, "/rpc"), ["POST"]);
});

test("describeRoutes lists paths per method, params without itty's +, one entry per trailing-slash pair", () => {
  assert.equal(describeRoutes(ROUTES), "GET /a, /items/:id, /files/:path and POST /a, /rpc");
  assert.equal(
    describeRoutes([
      { method: "GET", path: "/s", handle: text("") },
      { method: "GET", path: "/s/", handle: text("") },
    ]),
    "GET /s",
  );
  assert.equal(
    describeRoutes([
      { method: "GET", path: "/report", required: "url", handle: text("") },
      { method: "POST", path: "/rpc", handle: text("") },
    ]),
    "GET /report?url= and POST /rpc",
    "a row's required parameter is shown with its path",
  );
  assert.equal(describeRoutes([]), "");
});
