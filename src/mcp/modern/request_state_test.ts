import assert from "node:assert/strict";
import FakeTimers from "@sinonjs/fake-timers";
import { createRequestStateCodec, ProtocolError } from "@modelcontextprotocol/server";
import { type RequestStateBinding, RequestStates, secretBytes } from "./request_state.ts";

const SECRET = "0123456789abcdef0123456789abcdef";
const BINDING: RequestStateBinding = { method: "tools/call", name: "deploy", args: { env: "prod", n: 2 } };
const STATE = { answers: { e1: { action: "accept", content: { ok: true } } }, round: 1 };

async function refused(promise: Promise<unknown>): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof ProtocolError);
    assert.equal(error.code, -32602);
    assert.equal(error.message, "Invalid or expired requestState");
    assert.deepEqual(error.data, { reason: "invalid_request_state" });
    return true;
  });
}

Deno.test("a sealed state opens with its answers and round for the same request", async () => {
  const states = new RequestStates(SECRET);
  const token = await states.seal(BINDING, STATE);
  assert.equal(typeof token, "string");
  assert.deepEqual(await states.open(token, BINDING), STATE);
  // The arguments are hashed canonically: another key order is the same call.
  assert.deepEqual(await states.open(token, { ...BINDING, args: { n: 2, env: "prod" } }), STATE);
});

Deno.test("a tampered, foreign-key or malformed state is refused with -32602", async () => {
  const states = new RequestStates(SECRET);
  const token = await states.seal(BINDING, STATE);
  await refused(states.open(`${token}-TAMPERED`, BINDING));
  const [prefix, body, mac] = token.split(".");
  const forged = btoa(JSON.stringify({ p: { m: "tools/call", n: "deploy", a: {}, r: 0 }, exp: 9e9 }))
    .replaceAll("=", "");
  await refused(states.open(`${prefix}.${forged}.${mac}`, BINDING));
  await refused(states.open(`${prefix}.${body}`, BINDING));
  await refused(states.open(42, BINDING));
  await refused(states.open("", BINDING));
  await refused(new RequestStates(`${SECRET}-other`).open(token, BINDING));
  // Signed with the same secret but not a state of ours (another use of the key).
  const stranger = await createRequestStateCodec({ key: SECRET }).mint({ m: "tools/call", n: "deploy" });
  await refused(states.open(stranger, BINDING));
});

Deno.test("a state minted for another method, name, arguments or caller is refused", async () => {
  const states = new RequestStates(SECRET);
  const token = await states.seal({ ...BINDING, subject: "alice" }, STATE);
  assert.deepEqual(await states.open(token, { ...BINDING, subject: "alice" }), STATE);
  await refused(states.open(token, { ...BINDING, subject: "bob" }));
  await refused(states.open(token, BINDING));
  await refused(states.open(token, { ...BINDING, subject: "alice", method: "prompts/get" }));
  await refused(states.open(token, { ...BINDING, subject: "alice", name: "destroy" }));
  await refused(states.open(token, { ...BINDING, subject: "alice", args: { env: "staging", n: 2 } }));
});

Deno.test("a state expires after its time to live", async () => {
  const clock = FakeTimers.install({ toFake: ["Date"] });
  try {
    const states = new RequestStates(SECRET, { ttlSeconds: 60 });
    const token = await states.seal(BINDING, STATE);
    clock.tick(59_000);
    assert.deepEqual(await states.open(token, BINDING), STATE);
    clock.tick(2_000);
    await refused(states.open(token, BINDING));
  } finally {
    clock.uninstall();
  }
});

Deno.test("secrets shorter than 32 bytes and bad lifetimes are refused", () => {
  assert.throws(() => new RequestStates("short"), /at least 32 bytes \(got 5\)/);
  assert.throws(() => new RequestStates(new Uint8Array(31)), /at least 32 bytes/);
  assert.throws(() => new RequestStates(SECRET, { ttlSeconds: 0 }), /ttlSeconds/);
  assert.throws(() => secretBytes(42, "tool server"), /tool server: requestStateSecret must be a string/);
  // Multi-byte characters count as their UTF-8 bytes.
  assert.equal(secretBytes("é".repeat(16), "x").byteLength, 32);
  assert.ok(new RequestStates(new Uint8Array(32)));
});
