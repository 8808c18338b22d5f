import assert from "node:assert/strict";
import { ToolError } from "../../mcp/mod.ts";
import type { RoutePlan } from "../plan/types.ts";
import { buildRequestParts, encodeSegment } from "./request_build.ts";
import { petPlan } from "../_test_plans.ts";
import { toolOf } from "./_test_runtime.ts";
import { admitsNull, callValues, routeAlternatives, selectRoute } from "./route_select.ts";

function route(init: Partial<RoutePlan>): RoutePlan {
  return { operation_id: "op", method: "GET", path: "/", params: {}, body_encoding: "json", ...init };
}

function values(entries: Record<string, unknown>): Map<string, unknown> {
  return new Map(Object.entries(entries));
}

Deno.test("path segments are percent-encoded with no safe characters and refused when not one segment", () => {
  assert.equal(encodeSegment("a b/c?d#e!'()*"), "a%20b%2Fc%3Fd%23e%21%27%28%29%2A");
  const r = route({
    path: "/users/{user-id}/x",
    params: { userId: { location: "path", required: true, wire_name: "user-id" } },
  });
  assert.equal(
    buildRequestParts(r, values({ userId: 42 }), "https://h.example/v1").url.href,
    "https://h.example/v1/users/42/x",
  );
  for (const bad of ["", ".", "..", "a\u0000b", null, undefined]) {
    assert.throws(
      () => buildRequestParts(r, values({ userId: bad }), "https://h.example"),
      (error) =>
        error instanceof ToolError && error.code === "VALIDATION_ERROR" && error.message.includes("'userId'"),
    );
  }
});

Deno.test("query values by default (form, exploded): null omitted, booleans as words, arrays repeated, object keys as names", () => {
  const r = route({
    params: {
      a: { location: "query", required: false },
      b: { location: "query", required: false },
      c: { location: "query", required: false },
      d: { location: "query", required: false },
      e: { location: "query", required: false },
    },
  });
  const parts = buildRequestParts(
    r,
    values({ a: null, b: false, c: [1, "two"], d: { x: { y: "z" } }, e: [{ k: 1 }, { k: 2 }] }),
    "https://h.example",
  );
  assert.equal(
    decodeURIComponent(parts.url.search),
    '?b=false&c=1&c=two&x={"y":"z"}&e={"k":1}&e={"k":2}',
  );
  assert.equal(parts.body, undefined, "GET carries no body");
});

Deno.test("bodies: raw_body is the whole body, declared body params always make an object, GET and HEAD none", () => {
  const raw = route({ method: "PUT", params: { doc: { location: "raw_body", required: true } } });
  assert.deepEqual(buildRequestParts(raw, values({ doc: [1, 2] }), "https://h.example").body, {
    text: "[1,2]",
    contentType: "application/json",
  });
  const post = route({ method: "POST", params: { a: { location: "body", required: false } } });
  assert.equal(buildRequestParts(post, values({}), "https://h.example").body?.text, "{}");
  const form = route({
    method: "POST",
    body_encoding: "form",
    params: { doc: { location: "raw_body", required: true } },
  });
  assert.equal(
    buildRequestParts(form, values({ doc: { a: [1, 2] } }), "https://h.example").body?.text,
    "a=1&a=2",
  );
  const head = route({ method: "HEAD", params: { a: { location: "body", required: false } } });
  assert.equal(buildRequestParts(head, values({ a: 1 }), "https://h.example").body, undefined);
  const proto = route({
    method: "POST",
    params: { p: { location: "body", required: false, wire_name: "__proto__" } },
  });
  assert.equal(
    buildRequestParts(proto, values({ p: { x: 1 } }), "https://h.example").body?.text,
    '{"__proto__":{"x":1}}',
  );
});

Deno.test("query styles from the plan: form unexploded, pipe and space delimited, deepObject, allowReserved", () => {
  const r = route({
    params: {
      fields: { location: "query", required: false, explode: false },
      ids: { location: "query", required: false, style: "pipeDelimited", explode: false },
      words: { location: "query", required: false, style: "spaceDelimited", explode: false },
      filter: { location: "query", required: false, style: "deepObject", explode: true },
      color: { location: "query", required: false },
      next: { location: "query", required: false, allow_reserved: true },
    },
  });
  const parts = buildRequestParts(
    r,
    values({
      fields: ["a", "b"],
      ids: [1, 2],
      words: ["x", "y"],
      filter: { state: "open", tags: ["p", "q"] },
      color: { R: 100, G: 200 },
      next: "/page/2?x=1",
    }),
    "https://h.example",
  );
  assert.equal(
    parts.url.search,
    "?fields=a,b&ids=1%7C2&words=x%20y&filter%5Bstate%5D=open&filter%5Btags%5D%5B0%5D=p" +
      "&filter%5Btags%5D%5B1%5D=q&R=100&G=200&next=/page/2?x=1",
  );
});

Deno.test("header parameters are simple and cookie parameters form pairs in one cookie header", () => {
  const r = route({
    params: {
      tags: { location: "header", required: false, wire_name: "X-Tags" },
      point: { location: "header", required: false, wire_name: "X-Point", explode: true },
      none: { location: "header", required: false },
      sid: { location: "cookie", required: false },
      prefs: { location: "cookie", required: false },
      langs: { location: "cookie", required: false, explode: false },
    },
  });
  const parts = buildRequestParts(
    r,
    values({
      tags: ["a", "b"],
      point: { x: 1 },
      none: null,
      sid: "a b",
      prefs: { dark: true },
      langs: ["en", "fr"],
    }),
    "https://h.example",
  );
  assert.deepEqual(parts.headers, [
    ["X-Tags", "a,b"],
    ["X-Point", "x=1"],
    ["cookie", "sid=a%20b; dark=true; langs=en,fr"],
  ]);
  assert.equal(buildRequestParts(route({}), values({}), "https://h.example").headers, undefined);
});

Deno.test("array and object path parameters are serialized by style instead of refused", () => {
  const r = route({
    path: "/a/{ids}/b/{point}/c{tags}/d{m}",
    params: {
      ids: { location: "path", required: true },
      point: { location: "path", required: true, explode: true },
      tags: { location: "path", required: true, style: "label" },
      m: { location: "path", required: true, style: "matrix", explode: true },
    },
  });
  const url = buildRequestParts(
    r,
    values({ ids: [3, "x/y"], point: { x: 1, y: 2 }, tags: ["p", "q"], m: ["u", "v"] }),
    "https://h.example",
  ).url;
  assert.equal(url.pathname, "/a/3,x%2Fy/b/x=1,y=2/c.p,q/d;m=u;m=v");
  for (const bad of [[], {}, ["a\u0001"]]) {
    assert.throws(
      () =>
        buildRequestParts(
          r,
          values({ ids: bad, point: { x: 1 }, tags: ["p"], m: ["u"] }),
          "https://h.example",
        ),
      (error) =>
        error instanceof ToolError && error.code === "VALIDATION_ERROR" && error.message.includes("'ids'"),
    );
  }
});

Deno.test("form bodies follow each property's encoding: style, explode and a JSON content type", () => {
  const r = route({
    method: "POST",
    body_encoding: "form",
    params: {
      metadata: { location: "body", required: false, style: "deepObject", explode: true },
      expand: { location: "body", required: false, style: "deepObject", explode: true },
      tags: { location: "body", required: false, explode: false },
      color: { location: "body", required: false },
      doc: { location: "body", required: false, content_type: "application/json" },
    },
  });
  const body = buildRequestParts(
    r,
    values({ metadata: { a: "1" }, expand: ["x", "y"], tags: ["p", "q"], color: { R: 1 }, doc: { k: [1] } }),
    "https://h.example",
  ).body;
  assert.equal(body?.contentType, "application/x-www-form-urlencoded");
  assert.equal(
    body?.text,
    "metadata%5Ba%5D=1&expand%5B0%5D=x&expand%5B1%5D=y&tags=p,q&R=1&doc=%7B%22k%22%3A%5B1%5D%7D",
  );
  assert.deepEqual([...new URLSearchParams(body?.text)].at(-1), ["doc", '{"k":[1]}']);
});

Deno.test("multipart bodies: scalars as text parts, arrays one part per item, objects as JSON, files by content type", () => {
  const r = route({
    method: "POST",
    body_encoding: "multipart",
    params: {
      note: { location: "body", required: false },
      tags: { location: "body", required: false },
      meta: { location: "body", required: false },
      file: { location: "body", required: false, content_type: "image/png" },
    },
  });
  const body = buildRequestParts(
    r,
    values({ note: "hi", tags: ["a", "b"], meta: { k: 1 }, file: "PNG" }),
    "https://h.example",
  ).body!;
  const boundary = body.contentType.match(/^multipart\/form-data; boundary=(.+)$/)?.[1];
  assert.ok(boundary);
  assert.equal(
    body.text,
    [
      `--${boundary}\r\nContent-Disposition: form-data; name="note"\r\n\r\nhi\r\n`,
      `--${boundary}\r\nContent-Disposition: form-data; name="tags"\r\n\r\na\r\n`,
      `--${boundary}\r\nContent-Disposition: form-data; name="tags"\r\n\r\nb\r\n`,
      `--${boundary}\r\nContent-Disposition: form-data; name="meta"\r\nContent-Type: application/json\r\n\r\n{"k":1}\r\n`,
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="file"\r\nContent-Type: image/png\r\n\r\nPNG\r\n`,
      `--${boundary}--\r\n`,
    ].join(""),
  );
});

Deno.test("callValues sends hidden defaults and ignores what the agent says about hidden params", () => {
  const tool = toolOf(petPlan(), "get_pet");
  const sent = callValues(tool, { petId: "1", api_version: "evil", unknown: 1 });
  assert.deepEqual(Object.fromEntries(sent), { petId: "1", api_version: "2024-01" });
});

Deno.test("selectRoute takes null only where the schema admits it, and lists alternatives", () => {
  const tool = toolOf(petPlan(), "find_pets");
  assert.equal(selectRoute(tool, values({ owner: "ann" })).operation_id, "petsByOwner");
  assert.throws(() => selectRoute(tool, values({ owner: null })), /Provide one of: owner \| name \+ species/);
  assert.equal(routeAlternatives(tool), "owner | name + species");
  assert.equal(admitsNull({ type: ["string", "null"] }), true);
  assert.equal(admitsNull({ nullable: true }), true);
  assert.equal(admitsNull({ anyOf: [{ type: "string" }, { type: "null" }] }), true);
  assert.equal(admitsNull({ type: "string" }), false);
});
