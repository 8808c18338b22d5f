import assert from "node:assert/strict";
import { decodeJwt } from "jose";
import { JwtAuth } from "../auth/jwt_auth.ts";
import { tokenEndpoint } from "./token_endpoint.ts";

const auth = new JwtAuth({ secret: "test-secret-with-enough-length" });
const endpoint = tokenEndpoint({
  auth,
  clients: {
    "agent-1": { secret: "s3cret", roles: ["reader"], claims: { tenant_id: "acme" } },
    "short": { secret: "other", expiresIn: 60 },
  },
});

function post(
  body: unknown,
  headers: Record<string, string> = { "content-type": "application/json" },
): Request {
  return new Request("http://localhost/auth/token", {
    method: "POST",
    headers,
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

Deno.test("the token endpoint issues a verifiable JWT for valid client credentials", async () => {
  const response = await endpoint(
    post({ grant_type: "client_credentials", client_id: "agent-1", client_secret: "s3cret" }),
  );
  assert.equal(response.status, 200);
  assert.equal(response.headers.get("cache-control"), "no-store");
  const body = await response.json();
  assert.equal(body.token_type, "bearer");
  assert.equal(body.expires_in, 86400);
  assert.equal(await auth.verifyToken(body.access_token), true);
  const claims = decodeJwt(body.access_token);
  assert.equal(claims.sub, "agent-1");
  assert.deepEqual(claims.roles, ["reader"]);
  assert.equal(claims.tenant_id, "acme");
  assert.equal(claims.exp! - claims.iat!, 86400);
});

Deno.test("grant_type defaults to client_credentials and per-client lifetimes apply", async () => {
  const response = await endpoint(post({ client_id: "short", client_secret: "other" }));
  const body = await response.json();
  assert.equal(body.expires_in, 60);
  assert.deepEqual(decodeJwt(body.access_token).roles, []);
});

Deno.test("a wrong secret or unknown client gets 401 invalid_client", async () => {
  for (
    const fields of [{ client_id: "agent-1", client_secret: "nope" }, {
      client_id: "ghost",
      client_secret: "s3cret",
    }]
  ) {
    const response = await endpoint(post(fields));
    assert.equal(response.status, 401);
    assert.deepEqual(await response.json(), { error: "invalid_client" });
  }
});

Deno.test("other grant types get 400 unsupported_grant_type", async () => {
  const response = await endpoint(
    post({ grant_type: "password", client_id: "agent-1", client_secret: "s3cret" }),
  );
  assert.equal(response.status, 400);
  assert.deepEqual(await response.json(), { error: "unsupported_grant_type" });
});

Deno.test("the token endpoint refuses other methods, non-JSON bodies, big bodies and missing fields", async () => {
  const get = await endpoint(new Request("http://localhost/auth/token"));
  assert.equal(get.status, 405);
  assert.equal(get.headers.get("allow"), "POST");
  await get.body?.cancel();
  const form = await endpoint(post("client_id=a", { "content-type": "application/x-www-form-urlencoded" }));
  assert.equal(form.status, 415);
  await form.body?.cancel();
  const big = await endpoint(post({ client_id: "agent-1", client_secret: "x".repeat(70_000) }));
  assert.equal(big.status, 413);
  await big.body?.cancel();
  const missing = await endpoint(post({ client_id: "agent-1" }));
  assert.equal(missing.status, 400);
  assert.deepEqual(await missing.json(), { error: "invalid_request" });
  const broken = await endpoint(post("{not json"));
  assert.equal(broken.status, 400);
  await broken.body?.cancel();
});

Deno.test("tokenEndpoint refuses bad configuration", () => {
  assert.throws(() => tokenEndpoint({ auth, clients: { a: { secret: "" } } }), /non-empty secret/);
  assert.throws(
    () => tokenEndpoint({ auth, clients: { a: { secret: "s", role: [] } as never } }),
    /unknown option 'role'/,
  );
  assert.throws(() => tokenEndpoint({ auth, clients: {}, defaultExpiresIn: 0 }), /positive/);
  assert.throws(() => tokenEndpoint({ auth, clients: {}, extra: 1 } as never), /unknown option 'extra'/);
  assert.equal(tokenEndpoint({ auth, clients: {}, path: "/token" }).path, "/token");
});
