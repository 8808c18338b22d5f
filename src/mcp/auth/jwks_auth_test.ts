import assert from "node:assert/strict";
import FakeTimers from "@sinonjs/fake-timers";
import type { JWK } from "jose";
import { ToolError } from "../errors.ts";
import { JwksAuth } from "./jwks_auth.ts";
import { signToken, testKeyPair } from "./_test_keys.ts";
import type { TestKeyPair } from "./_test_keys.ts";

interface JwksServer extends AsyncDisposable {
  origin: string;
  jwksUrl: string;
  keys: JWK[];
  status: number;
  fetches: number;
  discovery?: Record<string, unknown>;
}

function jwksServer(keys: JWK[]): JwksServer {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (request) => {
    const { pathname } = new URL(request.url);
    if (pathname === "/jwks.json") {
      state.fetches++;
      return Response.json({ keys: state.keys }, { status: state.status });
    }
    if (pathname === "/.well-known/openid-configuration" && state.discovery) {
      return Response.json(state.discovery);
    }
    return new Response("not found", { status: 404 });
  });
  const origin = `http://127.0.0.1:${server.addr.port}`;
  const state: JwksServer = {
    origin,
    jwksUrl: `${origin}/jwks.json`,
    keys,
    status: 200,
    fetches: 0,
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
  return state;
}

const AUD = "orders-api";

function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

async function failure(promise: Promise<unknown>): Promise<ToolError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  assert.ok(error instanceof ToolError, `expected a ToolError, got ${error}`);
  assert.equal(error.code, "AUTHENTICATION_ERROR");
  return error;
}

function token(pair: TestKeyPair, claims: Record<string, unknown> = {}): Promise<string> {
  return signToken({ sub: "agent", aud: AUD, ...claims }, pair);
}

Deno.test("jwks auth accepts a token signed by a published key and fetches the set once", async () => {
  const rsa = await testKeyPair("RS256", "rsa-1");
  const ec = await testKeyPair("ES256", "ec-1");
  await using server = jwksServer([rsa.publicJwk, ec.publicJwk]);
  const auth = new JwksAuth({ jwksUrl: server.jwksUrl, audience: AUD });
  const identity = await auth.authenticate(bearer(await token(rsa, { roles: ["ops"] })));
  assert.equal(identity.clientId, "agent");
  assert.deepEqual(identity.roles, ["ops"]);
  assert.equal((await auth.authenticate(bearer(await token(ec)))).clientId, "agent");
  assert.equal(await auth.verifyToken(await token(ec)), true);
  assert.equal(server.fetches, 1);
});

Deno.test("jwks auth refuses a wrong or missing audience and a wrong issuer", async () => {
  const pair = await testKeyPair("RS256");
  await using server = jwksServer([pair.publicJwk]);
  const auth = new JwksAuth({ jwksUrl: server.jwksUrl, audience: AUD, issuer: "https://idp.example" });
  const ok = await token(pair, { iss: "https://idp.example", aud: ["x", AUD] });
  assert.equal((await auth.authenticate(bearer(ok))).clientId, "agent");
  for (
    const claims of [{ aud: "other-api" }, { aud: undefined }, { iss: "https://evil.example" }, {
      iss: undefined,
    }]
  ) {
    const bad = await token(pair, { iss: "https://idp.example", ...claims });
    const refusal = await failure(auth.authenticate(bearer(bad)));
    assert.equal(refusal.message, "Invalid token");
  }
});

Deno.test("jwks auth refuses symmetric and mismatched algorithms", async () => {
  const rsa = await testKeyPair("RS256", "rsa");
  const ec = await testKeyPair("ES256", "ec");
  await using server = jwksServer([rsa.publicJwk, ec.publicJwk]);
  const auth = new JwksAuth({ jwksUrl: server.jwksUrl, audience: AUD, algorithms: ["ES256"] });
  assert.equal((await failure(auth.authenticate(bearer(await token(rsa))))).message, "Invalid token");
  const hs = await signToken({ sub: "x", aud: AUD }, "secret", { kid: "ec" });
  assert.equal((await failure(auth.authenticate(bearer(hs)))).message, "Invalid token");
  const mixed = await signToken({ sub: "x", aud: AUD }, rsa, { kid: "ec" });
  const lenient = new JwksAuth({ jwksUrl: server.jwksUrl, audience: AUD });
  assert.equal((await failure(lenient.authenticate(bearer(mixed)))).message, "Invalid token");
});

Deno.test("jwks auth picks the only key for a token without kid, and refuses when several fit", async () => {
  const first = await testKeyPair("RS256", "a");
  const second = await testKeyPair("RS256", "b");
  await using server = jwksServer([first.publicJwk]);
  const auth = new JwksAuth({ jwksUrl: server.jwksUrl, audience: AUD });
  const noKid = await signToken({ sub: "solo", aud: AUD }, first, { kid: null });
  assert.equal((await auth.authenticate(bearer(noKid))).clientId, "solo");
  server.keys = [first.publicJwk, second.publicJwk];
  const auth2 = new JwksAuth({ jwksUrl: server.jwksUrl, audience: AUD });
  assert.equal((await failure(auth2.authenticate(bearer(noKid)))).message, "Invalid token");
});

Deno.test("jwks auth accepts a rotated-in key after one refetch", async () => {
  const clock = FakeTimers.install({ toFake: ["Date"], now: 1_700_000_000_000 });
  try {
    const old = await testKeyPair("RS256", "old");
    const next = await testKeyPair("RS256", "new");
    await using server = jwksServer([old.publicJwk]);
    const auth = new JwksAuth({ jwksUrl: server.jwksUrl, audience: AUD });
    assert.equal((await auth.authenticate(bearer(await token(old)))).clientId, "agent");
    server.keys = [old.publicJwk, next.publicJwk];
    clock.tick(30_000);
    assert.equal((await auth.authenticate(bearer(await token(next)))).clientId, "agent");
    assert.equal(server.fetches, 2);
    assert.equal((await auth.authenticate(bearer(await token(next)))).clientId, "agent");
    assert.equal((await auth.authenticate(bearer(await token(old)))).clientId, "agent");
    assert.equal(server.fetches, 2);
  } finally {
    clock.uninstall();
  }
});

Deno.test("jwks auth refetches for an unknown kid once per kid per minute and once per second", async () => {
  const clock = FakeTimers.install({ toFake: ["Date"], now: 1_700_000_000_000 });
  try {
    const pair = await testKeyPair("RS256", "known");
    await using server = jwksServer([pair.publicJwk]);
    const auth = new JwksAuth({ jwksUrl: server.jwksUrl, audience: AUD });
    const ghost = (kid: string) => signToken({ sub: "x", aud: AUD }, pair, { kid });
    await auth.authenticate(bearer(await token(pair)));
    assert.equal(server.fetches, 1);
    clock.tick(2_000);
    await failure(auth.authenticate(bearer(await ghost("ghost"))));
    assert.equal(server.fetches, 2, "unknown kid refetches at once");
    await failure(auth.authenticate(bearer(await ghost("ghost"))));
    clock.tick(2_000);
    await failure(auth.authenticate(bearer(await ghost("ghost"))));
    assert.equal(server.fetches, 2, "same kid within a minute does not refetch");
    await failure(auth.authenticate(bearer(await ghost("ghost-2"))));
    assert.equal(server.fetches, 3, "another kid may refetch");
    clock.tick(500);
    await failure(auth.authenticate(bearer(await ghost("ghost-3"))));
    assert.equal(server.fetches, 3, "at most one fetch per second overall");
    clock.tick(600);
    await failure(auth.authenticate(bearer(await ghost("ghost-3"))));
    assert.equal(server.fetches, 4);
    clock.tick(60_000);
    await failure(auth.authenticate(bearer(await ghost("ghost"))));
    assert.equal(server.fetches, 5, "a minute later the first kid may refetch again");
  } finally {
    clock.uninstall();
  }
});

Deno.test("jwks auth keeps the key set five minutes and then drops removed keys", async () => {
  const clock = FakeTimers.install({ toFake: ["Date"], now: 1_700_000_000_000 });
  try {
    const old = await testKeyPair("ES256", "old");
    const next = await testKeyPair("ES256", "new");
    await using server = jwksServer([old.publicJwk]);
    const auth = new JwksAuth({ jwksUrl: server.jwksUrl, audience: AUD });
    await auth.authenticate(bearer(await token(old)));
    server.keys = [next.publicJwk];
    clock.tick(299_999);
    assert.equal((await auth.authenticate(bearer(await token(old)))).clientId, "agent");
    assert.equal(server.fetches, 1);
    clock.tick(1);
    assert.equal((await failure(auth.authenticate(bearer(await token(old))))).message, "Invalid token");
    assert.equal(server.fetches, 2);
    assert.equal((await auth.authenticate(bearer(await token(next)))).clientId, "agent");
    assert.equal(server.fetches, 2);
  } finally {
    clock.uninstall();
  }
});

Deno.test("jwks auth tolerates clock skew up to its leeway", async () => {
  const pair = await testKeyPair("RS256");
  await using server = jwksServer([pair.publicJwk]);
  const now = Math.floor(Date.now() / 1000);
  const auth = new JwksAuth({ jwksUrl: server.jwksUrl, audience: AUD });
  assert.equal((await auth.authenticate(bearer(await token(pair, { exp: now - 30 })))).clientId, "agent");
  assert.equal((await auth.authenticate(bearer(await token(pair, { nbf: now + 30 })))).clientId, "agent");
  assert.equal(
    (await failure(auth.authenticate(bearer(await token(pair, { exp: now - 90 }))))).message,
    "Token expired",
  );
  const strict = new JwksAuth({ jwksUrl: server.jwksUrl, audience: AUD, leeway: 0 });
  assert.equal(
    (await failure(strict.authenticate(bearer(await token(pair, { exp: now - 30 }))))).message,
    "Token expired",
  );
  const noExp = await signToken({ sub: "x", aud: AUD }, pair, { expiresIn: null });
  assert.equal((await failure(strict.authenticate(bearer(noExp)))).message, "Invalid token");
});

Deno.test("jwks auth answers a retryable error when the key set cannot be fetched", async () => {
  const pair = await testKeyPair("RS256");
  await using server = jwksServer([pair.publicJwk]);
  server.status = 500;
  const auth = new JwksAuth({ jwksUrl: server.jwksUrl, audience: AUD });
  const error = await failure(auth.authenticate(bearer(await token(pair))));
  assert.equal(error.retryable, true);
  assert.ok(!error.message.includes("127.0.0.1"));
  assert.equal(await auth.verifyToken(await token(pair)), false);
  assert.equal(server.fetches, 1, "a second attempt within a second does not fetch");
  await failure(auth.authenticate({}));
});

Deno.test("jwks auth gives up on a key set fetch after requestTimeout", async () => {
  const hanging: typeof fetch = (_input, init) =>
    new Promise((_resolve, reject) =>
      init?.signal?.addEventListener("abort", () => reject(new Error("aborted")))
    );
  const pair = await testKeyPair("RS256");
  const auth = new JwksAuth({
    jwksUrl: "https://idp.example/jwks",
    audience: AUD,
    fetch: hanging,
    requestTimeout: 0.05,
  });
  const error = await failure(auth.authenticate(bearer(await token(pair))));
  assert.equal(error.retryable, true);
});

Deno.test("jwks auth from discovery trusts jwks_uri only when the issuer matches", async () => {
  const pair = await testKeyPair("RS256");
  await using server = jwksServer([pair.publicJwk]);
  server.discovery = { issuer: server.origin, jwks_uri: server.jwksUrl };
  const auth = await JwksAuth.fromDiscovery(server.origin, { audience: AUD });
  assert.equal(
    (await auth.authenticate(bearer(await token(pair, { iss: server.origin })))).clientId,
    "agent",
  );
  await failure(auth.authenticate(bearer(await token(pair, { iss: "https://elsewhere" }))));
  await assert.rejects(JwksAuth.fromDiscovery(`${server.origin}/`, { audience: AUD }), /refusing its keys/);
  server.discovery = { issuer: "https://evil.example", jwks_uri: server.jwksUrl };
  await assert.rejects(JwksAuth.fromDiscovery(server.origin, { audience: AUD }), /refusing its keys/);
  server.discovery = { issuer: server.origin };
  await assert.rejects(JwksAuth.fromDiscovery(server.origin, { audience: AUD }), /no jwks_uri/);
  server.discovery = { issuer: server.origin, jwks_uri: "http://keys.example/jwks" };
  await assert.rejects(JwksAuth.fromDiscovery(server.origin, { audience: AUD }), /https/);
  await assert.rejects(
    JwksAuth.fromDiscovery(server.origin, { audience: AUD, jwksUrl: "x" } as never),
    TypeError,
  );
});

Deno.test("jwks auth refuses bad options", () => {
  const jwksUrl = "https://idp.example/jwks";
  assert.throws(() => new JwksAuth({ jwksUrl } as never), /audience is required/);
  assert.throws(() => new JwksAuth({ jwksUrl, audience: AUD, algorithms: ["HS256" as "RS256"] }), TypeError);
  assert.throws(() => new JwksAuth({ jwksUrl, audience: AUD, algorithms: [] }), TypeError);
  assert.throws(() => new JwksAuth({ jwksUrl: "http://idp.example/jwks", audience: AUD }), /https/);
  assert.throws(() => new JwksAuth({ jwksUrl, audience: AUD, cacheSize: 3 } as never), /unknown option/);
  assert.throws(() => new JwksAuth({ jwksUrl, audience: AUD, leeway: -1 }), TypeError);
  assert.equal(new JwksAuth({ jwksUrl, audience: AUD, header: "X-Auth" }).header, "x-auth");
});

Deno.test("jwks auth shares one key set fetch between concurrent first calls", async () => {
  const pair = await testKeyPair("ES256");
  await using server = jwksServer([pair.publicJwk]);
  const auth = new JwksAuth({ jwksUrl: server.jwksUrl, audience: AUD });
  const jwt = await token(pair);
  const identities = await Promise.all(Array.from({ length: 5 }, () => auth.authenticate(bearer(jwt))));
  assert.deepEqual(identities.map((identity) => identity.clientId), Array(5).fill("agent"));
  assert.equal(server.fetches, 1);
});

Deno.test("jwks auth refuses an oversized or malformed key set", async () => {
  const pair = await testKeyPair("RS256");
  const huge: typeof fetch = () => Promise.resolve(new Response("x".repeat(600 * 1024)));
  const big = new JwksAuth({ jwksUrl: "https://idp.example/jwks", audience: AUD, fetch: huge });
  assert.equal((await failure(big.authenticate(bearer(await token(pair))))).retryable, true);
  const noKeys: typeof fetch = () => Promise.resolve(Response.json({ keys: "none" }));
  const odd = new JwksAuth({ jwksUrl: "https://idp.example/jwks", audience: AUD, fetch: noKeys });
  assert.equal((await failure(odd.authenticate(bearer(await token(pair))))).retryable, true);
});
