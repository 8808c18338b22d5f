import assert from "node:assert/strict";
import FakeTimers from "@sinonjs/fake-timers";
import { decodeJwt } from "jose";
import { ToolError } from "../errors.ts";
import { AsymmetricJwtAuth, JwtAuth } from "./jwt_auth.ts";
import { signToken, testKeyPair, unsignedToken } from "./_test_keys.ts";

const SECRET = "test-secret-that-is-long-enough-for-hs256";

async function refusal(promise: Promise<unknown>, message: string, token?: string): Promise<void> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  assert.ok(error instanceof ToolError, `expected a ToolError, got ${error}`);
  assert.equal(error.code, "AUTHENTICATION_ERROR");
  assert.equal(error.message, message);
  assert.equal(error.retryable, false);
  if (token) assert.ok(!JSON.stringify(error.toPayload()).includes(token.slice(0, 20)));
}

function bearer(token: string, header = "authorization"): Record<string, string> {
  return { [header]: `Bearer ${token}` };
}

Deno.test("jwt auth accepts its own token and reports sub, roles and claims", async () => {
  const auth = new JwtAuth({ secret: SECRET });
  const token = await auth.createToken({ sub: "agent-1", roles: ["reader", 7, "writer"], team: "x" });
  const identity = await auth.authenticate(bearer(token));
  assert.equal(identity.clientId, "agent-1");
  assert.deepEqual(identity.roles, ["reader", "writer"]);
  assert.equal(identity.claims?.team, "x");
  assert.equal(typeof identity.claims?.exp, "number");
  assert.equal(auth.header, "authorization");
});

Deno.test("jwt auth strips a Bearer prefix in any case and accepts a bare token", async () => {
  const auth = new JwtAuth({ secret: SECRET });
  const token = await auth.createToken({ sub: "a" });
  for (const value of [`Bearer ${token}`, `bearer ${token}`, `BEARER   ${token}`, token, ` ${token} `]) {
    assert.equal((await auth.authenticate({ authorization: value })).clientId, "a");
  }
});

Deno.test("jwt auth refuses a missing or empty token", async () => {
  const auth = new JwtAuth({ secret: SECRET });
  await refusal(auth.authenticate({}), "Missing authentication token");
  await refusal(auth.authenticate({ authorization: "Bearer " }), "Missing authentication token");
  await refusal(auth.authenticate({ "x-other": "abc" }), "Missing authentication token");
});

Deno.test("jwt auth reads a custom header, lower-cased", async () => {
  const auth = new JwtAuth({ secret: SECRET, header: "X-Token" });
  assert.equal(auth.header, "x-token");
  const token = await auth.createToken({ sub: "a" });
  assert.equal((await auth.authenticate({ "x-token": token })).clientId, "a");
  await refusal(auth.authenticate(bearer(token)), "Missing authentication token");
});

Deno.test("jwt auth takes the client id from sub, then client_id, then unknown", async () => {
  const auth = new JwtAuth({ secret: SECRET });
  const id = async (claims: Record<string, unknown>) =>
    (await auth.authenticate(bearer(await auth.createToken(claims)))).clientId;
  assert.equal(await id({ sub: "s", client_id: "c" }), "s");
  assert.equal(await id({ client_id: "c" }), "c");
  assert.equal(await id({ sub: "", client_id: 5 }), "unknown");
  assert.equal(await id({}), "unknown");
});

Deno.test("jwt auth refuses expired tokens and tokens without exp", async () => {
  const auth = new JwtAuth({ secret: SECRET });
  const now = Math.floor(Date.now() / 1000);
  const expired = await signToken({ sub: "a", exp: now - 1 }, SECRET);
  await refusal(auth.authenticate(bearer(expired)), "Token expired", expired);
  const noExp = await signToken({ sub: "a" }, SECRET, { expiresIn: null });
  await refusal(auth.authenticate(bearer(noExp)), "Invalid token", noExp);
  const badExp = await signToken({ sub: "a", exp: "soon" }, SECRET);
  await refusal(auth.authenticate(bearer(badExp)), "Invalid token");
});

Deno.test("jwt auth refuses a token whose nbf is in the future", async () => {
  const auth = new JwtAuth({ secret: SECRET });
  const now = Math.floor(Date.now() / 1000);
  await refusal(auth.authenticate(bearer(await signToken({ nbf: now + 60 }, SECRET))), "Invalid token");
  assert.equal(
    (await auth.authenticate(bearer(await signToken({ sub: "a", nbf: now - 5 }, SECRET)))).clientId,
    "a",
  );
});

Deno.test("jwt auth with an audience requires aud to include it", async () => {
  const auth = new JwtAuth({ secret: SECRET, audience: "orders" });
  const ok = async (aud: unknown) =>
    (await auth.authenticate(bearer(await signToken({ sub: "a", aud }, SECRET)))).clientId;
  assert.equal(await ok("orders"), "a");
  assert.equal(await ok(["billing", "orders"]), "a");
  await refusal(
    auth.authenticate(bearer(await signToken({ sub: "a", aud: "billing" }, SECRET))),
    "Invalid token",
  );
  await refusal(
    auth.authenticate(bearer(await signToken({ sub: "a", aud: ["x"] }, SECRET))),
    "Invalid token",
  );
  await refusal(auth.authenticate(bearer(await signToken({ sub: "a" }, SECRET))), "Invalid token");
});

Deno.test("jwt auth with an issuer requires iss to match exactly", async () => {
  const auth = new JwtAuth({ secret: SECRET, issuer: "https://id.example" });
  const token = (iss?: string) => signToken(iss === undefined ? { sub: "a" } : { sub: "a", iss }, SECRET);
  assert.equal((await auth.authenticate(bearer(await token("https://id.example")))).clientId, "a");
  await refusal(auth.authenticate(bearer(await token("https://id.example/"))), "Invalid token");
  await refusal(auth.authenticate(bearer(await token("https://ID.example"))), "Invalid token");
  await refusal(auth.authenticate(bearer(await token())), "Invalid token");
});

Deno.test("jwt auth refuses other algorithms, alg none and a wrong secret", async () => {
  const auth = new JwtAuth({ secret: SECRET });
  const hs384 = await signToken({ sub: "a" }, SECRET, { alg: "HS384" });
  await refusal(auth.authenticate(bearer(hs384)), "Invalid token", hs384);
  const exp = Math.floor(Date.now() / 1000) + 60;
  await refusal(auth.authenticate(bearer(unsignedToken({ sub: "a", exp }))), "Invalid token");
  const rs = await signToken({ sub: "a" }, await testKeyPair("RS256"));
  await refusal(auth.authenticate(bearer(rs)), "Invalid token");
  await refusal(auth.authenticate(bearer(await signToken({ sub: "a" }, "another-secret"))), "Invalid token");
  await refusal(auth.authenticate(bearer("not.a.jwt")), "Invalid token");
});

Deno.test("jwt auth verifyToken answers true or false and strips Bearer", async () => {
  const auth = new JwtAuth({ secret: SECRET });
  const token = await auth.createToken({ sub: "a" });
  assert.equal(await auth.verifyToken(token), true);
  assert.equal(await auth.verifyToken(`Bearer ${token}`), true);
  assert.equal(await auth.verifyToken(`${token}x`), false);
  assert.equal(await auth.verifyToken(""), false);
});

Deno.test("jwt auth createToken adds iat, exp, aud and iss", async () => {
  const auth = new JwtAuth({ secret: SECRET, audience: "orders", issuer: "me" });
  const now = Math.floor(Date.now() / 1000);
  const claims = decodeJwt(await auth.createToken({ sub: "a", aud: "other" }, { expiresIn: 120 }));
  assert.ok(Math.abs((claims.iat ?? 0) - now) <= 1);
  assert.equal(claims.exp, (claims.iat ?? 0) + 120);
  assert.equal(claims.aud, "orders");
  assert.equal(claims.iss, "me");
  const plain = decodeJwt(await new JwtAuth({ secret: SECRET }).createToken({}));
  assert.equal(plain.exp, (plain.iat ?? 0) + 3600);
  assert.equal(plain.aud, undefined);
  await assert.rejects(auth.createToken({}, { expiresIn: 0 }), TypeError);
});

Deno.test("jwt auth refuses a cached token once its exp passes", async () => {
  const clock = FakeTimers.install({ toFake: ["Date"], now: 1_700_000_000_000 });
  try {
    const auth = new JwtAuth({ secret: SECRET });
    const token = await auth.createToken({ sub: "a" }, { expiresIn: 10 });
    assert.equal((await auth.authenticate(bearer(token))).clientId, "a");
    clock.tick(9_000);
    assert.equal((await auth.authenticate(bearer(token))).clientId, "a");
    clock.tick(1_000);
    await refusal(auth.authenticate(bearer(token)), "Token expired");
  } finally {
    clock.uninstall();
  }
});

Deno.test("jwt auth refuses bad options", () => {
  assert.throws(() => new JwtAuth({ secret: "" }), TypeError);
  assert.throws(() => new JwtAuth({ secret: SECRET, audiences: "x" } as never), /unknown option "audiences"/);
  assert.throws(() => new JwtAuth({ secret: SECRET, cacheSize: -1 }), TypeError);
  assert.throws(() => new JwtAuth({ secret: SECRET, header: "" }), TypeError);
  assert.throws(() => new JwtAuth({ secret: SECRET, audience: "" }), TypeError);
});

Deno.test("asymmetric jwt auth accepts RS256 tokens by default from PEM text", async () => {
  const pair = await testKeyPair("RS256");
  const auth = new AsymmetricJwtAuth({ publicKey: pair.publicPem, audience: "api", issuer: "idp" });
  const token = await signToken({ sub: "svc", aud: "api", iss: "idp", roles: ["admin"] }, pair);
  const identity = await auth.authenticate(bearer(token));
  assert.equal(identity.clientId, "svc");
  assert.deepEqual(identity.roles, ["admin"]);
  await refusal(
    auth.authenticate(bearer(await signToken({ sub: "svc", aud: "api" }, pair))),
    "Invalid token",
  );
  await refusal(
    auth.authenticate(bearer(await signToken({ sub: "svc", iss: "idp" }, pair))),
    "Invalid token",
  );
  const other = await signToken({ sub: "svc", aud: "api", iss: "idp" }, await testKeyPair("RS256"));
  await refusal(auth.authenticate(bearer(other)), "Invalid token");
});

Deno.test("asymmetric jwt auth with ES256 refuses RS256 tokens and HS256 made with the public key", async () => {
  const pair = await testKeyPair("ES256");
  const auth = new AsymmetricJwtAuth({ publicKey: pair.publicPem, algorithm: "ES256" });
  assert.equal((await auth.authenticate(bearer(await signToken({ sub: "ec" }, pair)))).clientId, "ec");
  await refusal(
    auth.authenticate(bearer(await signToken({ sub: "x" }, await testKeyPair("RS256")))),
    "Invalid token",
  );
  const confused = await signToken({ sub: "x" }, pair.publicPem);
  await refusal(auth.authenticate(bearer(confused)), "Invalid token");
  assert.equal(await auth.verifyToken(confused), false);
});

Deno.test("asymmetric jwt auth refuses expired and not-yet-valid tokens", async () => {
  const pair = await testKeyPair("RS256");
  const auth = new AsymmetricJwtAuth({ publicKey: pair.publicPem });
  const now = Math.floor(Date.now() / 1000);
  await refusal(auth.authenticate(bearer(await signToken({ exp: now - 1 }, pair))), "Token expired");
  await refusal(auth.authenticate(bearer(await signToken({ nbf: now + 30 }, pair))), "Invalid token");
  await refusal(auth.authenticate(bearer(await signToken({}, pair, { expiresIn: null }))), "Invalid token");
});

Deno.test("asymmetric jwt auth reads a PEM path once, on first use", async () => {
  const dir = await Deno.makeTempDir({ prefix: "agentry_jwt_" });
  try {
    const pair = await testKeyPair("ES256");
    const path = `${dir}/issuer.pem`;
    const auth = new AsymmetricJwtAuth({ publicKey: path, algorithm: "ES256" });
    const token = await signToken({ sub: "file" }, pair);
    const missing = await auth.authenticate(bearer(token)).then(() => undefined, (e: unknown) => e);
    assert.ok(
      missing instanceof Error && !(missing instanceof ToolError),
      "a missing key file is a server fault",
    );
    await Deno.writeTextFile(path, pair.publicPem);
    assert.equal((await auth.authenticate(bearer(token))).clientId, "file");
    await Deno.remove(path);
    assert.equal(await auth.verifyToken(await signToken({ sub: "again" }, pair)), true);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("asymmetric jwt auth refuses bad options", () => {
  assert.throws(() => new AsymmetricJwtAuth({ publicKey: "" }), TypeError);
  assert.throws(
    () => new AsymmetricJwtAuth({ publicKey: "k.pem", algorithm: "HS256" as "RS256" }),
    TypeError,
  );
  assert.throws(() => new AsymmetricJwtAuth({ publicKey: "k.pem", secret: "x" } as never), TypeError);
});
