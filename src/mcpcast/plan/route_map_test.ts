import assert from "node:assert/strict";
import { SECRET } from "../_test_plans.ts";
import { operation, param } from "./_test_plan_fixtures.ts";
import type { CredentialSlot, Operation, SecurityScheme } from "../types.ts";
import {
  AUTHORIZATION_SLOT,
  credentialSlot,
  exposedParams,
  mapOperation,
  routeBaseUrl,
  routeFromOperation,
  sameSlot,
} from "./route_map.ts";

const BASE = "https://api.example.com";
const KEY_HEADER: SecurityScheme = { id: "keyAuth", type: "apiKey", in: "header", paramName: "X-API-Key" };
const BEARER: SecurityScheme = { id: "bearer", type: "http", scheme: "bearer" };

function secured(id: string, scheme: SecurityScheme, slot?: CredentialSlot): Operation {
  return operation(id, "GET", "/things", { securityScheme: scheme, credentialSlot: slot });
}

function reason(op: Operation, credential: CredentialSlot = AUTHORIZATION_SLOT): string | undefined {
  const mapped = mapOperation(op, { baseUrl: BASE, credential });
  return "reason" in mapped ? mapped.reason : undefined;
}

Deno.test("the credential slot is the one most operations need", () => {
  const key = { location: "header", name: "X-API-Key" } as const;
  const ops = [
    secured("a", BEARER, AUTHORIZATION_SLOT),
    secured("b", KEY_HEADER, key),
    secured("c", KEY_HEADER, { location: "header", name: "x-api-key" }),
    operation("d", "GET", "/d"),
  ];
  assert.deepEqual(credentialSlot(ops), key);
});

Deno.test("a credential slot tie goes to the first seen; no slot means the Authorization header", () => {
  const query = { location: "query", name: "api_key" } as const;
  const ops = [secured("a", KEY_HEADER, query), secured("b", BEARER, AUTHORIZATION_SLOT)];
  assert.deepEqual(credentialSlot(ops), query);
  assert.deepEqual(credentialSlot(ops.toReversed()), AUTHORIZATION_SLOT);
  assert.deepEqual(credentialSlot([operation("a", "GET", "/a")]), {
    location: "header",
    name: "Authorization",
  });
  assert.equal(sameSlot({ location: "query", name: "Key" }, { location: "query", name: "key" }), false);
});

Deno.test("an unsupported body is dropped with the parser's reason", () => {
  const op = operation("upload", "POST", "/files", {
    unsupportedBody: "unsupported request body media type multipart/form-data",
  });
  assert.equal(reason(op), "unsupported by mcpcast: unsupported request body media type multipart/form-data");
});

Deno.test("a route that fails validation is dropped with the route's problem", () => {
  const op = operation("getThing", "GET", "/things/{id}");
  assert.equal(
    reason(op),
    "unsupported by mcpcast: route 'getThing': path placeholder(s) 'id' have no matching path parameter",
  );
});

Deno.test("an operation-level server carrying a credential is dropped without echoing it", () => {
  const op = operation("getThing", "GET", "/things", { baseUrl: `https://me:${SECRET}@files.example.com` });
  const why = reason(op) ?? "";
  assert.ok(why.startsWith("unsupported by mcpcast: route base_url must not carry credentials"), why);
  assert.match(why, /host 'files\.example\.com'/);
  assert.ok(!why.includes(SECRET));
  const query = operation("getThing", "GET", "/things", {
    baseUrl: `https://files.example.com/?k=${SECRET}`,
  });
  assert.match(reason(query) ?? "", /query string or fragment/);
});

// slice C: header and cookie parameters are tool parameters now (they used to drop the operation).
Deno.test("header and cookie parameters become tool parameters, except the headers the server sets", () => {
  const header = operation("a", "GET", "/a", {
    params: [
      param("X-Request-Id", "header", { required: true }),
      param("session", "cookie", { required: true }),
    ],
  });
  assert.equal(reason(header), undefined);
  assert.deepEqual(
    routeFromOperation(header, { baseUrl: BASE, credential: AUTHORIZATION_SLOT }).params,
    {
      "X-Request-Id": { location: "header", required: true },
      session: { location: "cookie", required: true },
    },
  );
  for (const sent of ["Authorization", "Content-Type", "accept", "Host", "Content-Length", "User-Agent"]) {
    const op = operation("a", "GET", "/a", { params: [param(sent, "header", { required: true })] });
    assert.equal(reason(op), undefined, sent);
    assert.deepEqual(exposedParams(op, { credential: AUTHORIZATION_SLOT }), [], sent);
  }
  const key = operation("a", "GET", "/a", { params: [param("x-api-key", "header", { required: true })] });
  assert.equal(reason(key, { location: "header", name: "X-API-Key" }), undefined);
  assert.deepEqual(
    exposedParams(key, { credential: { location: "header", name: "X-API-Key" } }),
    [],
    "the credential header",
  );
});

Deno.test("a scheme the server cannot present makes an operation unmappable", () => {
  const mtls: SecurityScheme = { id: "mtls", type: "mutualTLS" };
  assert.equal(
    reason(secured("a", mtls)),
    "unsupported by mcpcast: requires security scheme 'mtls' (mutual TLS (a client certificate)), which the " +
      "generated server cannot present",
  );
  const odd: SecurityScheme = { id: "odd", type: "http" };
  assert.match(reason(secured("a", odd)) ?? "", /HTTP unknown authentication/);
});

Deno.test("an operation whose scheme needs another slot than the plan's is kept, naming its scheme", () => {
  const cookie: SecurityScheme = { id: "cookieAuth", type: "apiKey", in: "cookie", paramName: "sid" };
  for (const scheme of [KEY_HEADER, cookie, BEARER]) {
    const op = secured("a", scheme);
    assert.equal(reason(op, { location: "query", name: "api_key" }), undefined, scheme.id);
    assert.deepEqual(routeFromOperation(op, { baseUrl: BASE, credential: AUTHORIZATION_SLOT }).security, [[
      scheme.id,
    ]]);
  }
});

Deno.test("requirements the server can meet are kept; a required header a scheme fills is not a problem", () => {
  const schemes = {
    keyAuth: KEY_HEADER,
    bearer: BEARER,
    mtls: { id: "mtls", type: "mutualTLS" } as SecurityScheme,
  };
  const op = operation("a", "GET", "/a", {
    security: [["mtls"], ["keyAuth", "bearer"], ["bearer"]],
    params: [param("X-API-Key", "header", { required: true })],
  });
  const context = { baseUrl: BASE, credential: AUTHORIZATION_SLOT, schemes };
  assert.equal("reason" in mapOperation(op, context), false);
  assert.deepEqual(routeFromOperation(op, context).security, [["keyAuth", "bearer"], ["bearer"]]);
  const open = operation("b", "GET", "/b");
  assert.equal(routeFromOperation(open, { ...context, declared: true }).security?.length, 0);
  assert.equal(routeFromOperation(open, context).security, undefined, "no security anywhere: the plan's one");
  const queryKey: SecurityScheme = { id: "q", type: "apiKey", in: "query", paramName: "key" };
  const withKey = operation("c", "GET", "/c", { security: [["q"]], params: [param("key", "query")] });
  assert.deepEqual(routeFromOperation(withKey, { ...context, schemes: { q: queryKey } }).params, {});
});

Deno.test("a route maps exposed parameters with wire names; the query credential stays out", () => {
  const op = operation("updatePet", "PUT", "/pets/{id}", {
    params: [
      param("id", "path"),
      param("verbose", "query"),
      param("api_key", "query", { required: true }),
      param("X-Trace", "header"),
      param("body_id", "body", { wireName: "id", required: true }),
    ],
    bodyEncoding: "form",
  });
  const route = routeFromOperation(op, { baseUrl: BASE, credential: { location: "query", name: "api_key" } });
  assert.deepEqual(route, {
    operation_id: "updatePet",
    method: "PUT",
    path: "/pets/{id}",
    params: {
      id: { location: "path", required: true },
      verbose: { location: "query", required: false },
      body_id: { location: "body", required: true, wire_name: "id" },
      "X-Trace": { location: "header", required: false },
    },
    body_encoding: "form",
  });
});

Deno.test("a route carries a base URL only for an operation's own different server", () => {
  const own = operation("a", "GET", "/a", { baseUrl: "https://files.example.com/", docBaseUrl: BASE });
  assert.equal(routeBaseUrl(own, BASE), "https://files.example.com");
  assert.equal(routeBaseUrl(own, "https://files.example.com"), undefined);
  assert.equal(routeBaseUrl(operation("a", "GET", "/a"), "https://elsewhere.example.com"), undefined);
});
