import assert from "node:assert/strict";
import { RefResolver } from "./refs.ts";
import { credentialSlotFor, operationSecurity, securitySchemesOf } from "./security.ts";

const OAS3 = {
  components: {
    securitySchemes: {
      key: { type: "APIKEY", in: "Header", name: "X-API-Key" },
      queryKey: { type: "apiKey", in: "query", name: "api_key" },
      cookieKey: { type: "apiKey", in: "cookie", name: "session" },
      bearer: { type: "http", scheme: "Bearer" },
      oauth: { type: "oauth2", flows: {} },
      oidc: { type: "openIdConnect", openIdConnectUrl: "https://x" },
      mtls: { type: "mutualTLS" },
      shared: { $ref: "#/components/x-shared" },
      weird: { type: "kerberos" },
      broken: "not a mapping",
    },
    "x-shared": { type: "http", scheme: "basic" },
  },
};

const SCHEMES = securitySchemesOf(OAS3, new RefResolver(OAS3));

Deno.test("security schemes are read case-insensitively and unknown or broken entries are skipped", () => {
  assert.deepEqual(SCHEMES, {
    key: { id: "key", type: "apiKey", in: "header", paramName: "X-API-Key" },
    queryKey: { id: "queryKey", type: "apiKey", in: "query", paramName: "api_key" },
    cookieKey: { id: "cookieKey", type: "apiKey", in: "cookie", paramName: "session" },
    bearer: { id: "bearer", type: "http", scheme: "bearer" },
    oauth: { id: "oauth", type: "oauth2" },
    oidc: { id: "oidc", type: "openIdConnect" },
    mtls: { id: "mtls", type: "mutualTLS" },
    shared: { id: "shared", type: "http", scheme: "basic" },
  });
});

Deno.test("Swagger 2 securityDefinitions are read, basic included", () => {
  const document = {
    securityDefinitions: { basicAuth: { type: "basic" }, key: { type: "apiKey", in: "header", name: "k" } },
  };
  assert.deepEqual(securitySchemesOf(document, new RefResolver(document)), {
    basicAuth: { id: "basicAuth", type: "basic" },
    key: { id: "key", type: "apiKey", in: "header", paramName: "k" },
  });
});

Deno.test("credential slots: header/query keys as named, token schemes in Authorization, cookies and mTLS none", () => {
  assert.deepEqual(credentialSlotFor(SCHEMES.key), { location: "header", name: "X-API-Key" });
  assert.deepEqual(credentialSlotFor(SCHEMES.queryKey), { location: "query", name: "api_key" });
  for (const id of ["bearer", "oauth", "oidc", "shared"]) {
    assert.deepEqual(credentialSlotFor(SCHEMES[id]), { location: "header", name: "Authorization" }, id);
  }
  assert.equal(credentialSlotFor({ id: "b", type: "basic" })?.name, "Authorization");
  assert.equal(credentialSlotFor(SCHEMES.cookieKey), undefined);
  assert.equal(credentialSlotFor(SCHEMES.mtls), undefined);
});

Deno.test("the effective scheme is the first single-scheme alternative the server can present", () => {
  const security = operationSecurity(
    [{ cookieKey: [] }, { key: [], bearer: [] }, { oauth: ["read"] }],
    SCHEMES,
  );
  assert.equal(security.scheme?.id, "oauth");
  assert.deepEqual(security.credentialSlot, { location: "header", name: "Authorization" });
});

Deno.test("without a presentable alternative the first scheme that resolves is effective", () => {
  const security = operationSecurity([{ unknown: [] }, { cookieKey: [], mtls: [] }], SCHEMES);
  assert.equal(security.scheme?.id, "cookieKey");
  assert.equal(security.credentialSlot, undefined);
  assert.deepEqual(operationSecurity([{ unknown: [] }], SCHEMES), {
    scheme: undefined,
    credentialSlot: undefined,
    scopes: ["unknown"],
    requirements: [["unknown"]],
  });
});

Deno.test("every requirement is kept with its schemes, in spec order (AND within, OR between)", () => {
  const security = operationSecurity([{ key: [], bearer: [] }, { oauth: ["read"] }, {}], SCHEMES);
  assert.deepEqual(security.requirements, [["key", "bearer"], ["oauth"], []]);
});

Deno.test("scopes are the sorted union, a scheme without scopes contributing its own id", () => {
  const security = operationSecurity([{ oauth: ["write:pets", "read:pets"] }, { key: [] }, {
    oauth: ["admin:org"],
  }], SCHEMES);
  assert.deepEqual(security.scopes, ["admin:org", "key", "read:pets", "write:pets"]);
  assert.deepEqual(operationSecurity([], SCHEMES), {
    scheme: undefined,
    credentialSlot: undefined,
    scopes: [],
    requirements: [],
  });
  assert.deepEqual(operationSecurity([{}], SCHEMES).scopes, []);
  assert.deepEqual(operationSecurity("nonsense", SCHEMES), { scopes: [] });
});
