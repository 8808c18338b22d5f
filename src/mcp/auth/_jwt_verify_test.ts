import assert from "node:assert/strict";
import FakeTimers from "@sinonjs/fake-timers";
import { ToolError } from "../errors.ts";
import { JwtVerifier, readToken, stripBearer } from "./_jwt_verify.ts";
import { signToken } from "./_test_keys.ts";

const SECRET = "verifier-test-secret";

function countingVerifier(cacheSize: number): { verifier: JwtVerifier; loads: () => number } {
  let loads = 0;
  const key = new TextEncoder().encode(SECRET);
  const verifier = new JwtVerifier({
    algorithms: ["HS256"],
    cacheSize,
    clockTolerance: 0,
    key: {
      kind: "static",
      load: () => {
        loads++;
        return Promise.resolve(key);
      },
    },
  });
  return { verifier, loads: () => loads };
}

Deno.test("jwt verifier serves a repeated token from its cache", async () => {
  const { verifier, loads } = countingVerifier(2);
  const token = await signToken({ sub: "a" }, SECRET);
  assert.equal((await verifier.verify(token)).sub, "a");
  assert.equal((await verifier.verify(token)).sub, "a");
  assert.equal(loads(), 1);
});

Deno.test("jwt verifier evicts the least recently used token", async () => {
  const { verifier, loads } = countingVerifier(2);
  const [a, b, c] = await Promise.all(["a", "b", "c"].map((sub) => signToken({ sub }, SECRET)));
  await verifier.verify(a);
  await verifier.verify(b);
  await verifier.verify(a);
  await verifier.verify(c);
  assert.equal(loads(), 3);
  await verifier.verify(a);
  assert.equal(loads(), 3, "a was used recently and stays");
  await verifier.verify(b);
  assert.equal(loads(), 4, "b was evicted");
});

Deno.test("jwt verifier with cache size 0 verifies every time", async () => {
  const { verifier, loads } = countingVerifier(0);
  const token = await signToken({ sub: "a" }, SECRET);
  await verifier.verify(token);
  await verifier.verify(token);
  assert.equal(loads(), 2);
});

Deno.test("jwt verifier drops a cached token at its exp and never caches refusals", async () => {
  const clock = FakeTimers.install({ toFake: ["Date"], now: 1_800_000_000_000 });
  try {
    const { verifier, loads } = countingVerifier(4);
    const token = await signToken({ sub: "a" }, SECRET, { expiresIn: 5 });
    await verifier.verify(token);
    clock.tick(5_000);
    const error = await verifier.verify(token).then(() => undefined, (e: unknown) => e);
    assert.ok(error instanceof ToolError && error.message === "Token expired");
    await assert.rejects(verifier.verify(token), /Token expired/);
    assert.equal(loads(), 3);
  } finally {
    clock.uninstall();
  }
});

Deno.test("readToken and stripBearer handle prefixes and absent headers", () => {
  assert.equal(stripBearer("  bEaReR   abc "), "abc");
  assert.equal(stripBearer("Bearerabc"), "Bearerabc");
  assert.equal(readToken({ authorization: "Bearer t" }, "authorization"), "t");
  assert.throws(() => readToken({}, "constructor"), /Missing authentication token/);
});
