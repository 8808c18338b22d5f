import assert from "node:assert/strict";
import FakeTimers from "@sinonjs/fake-timers";
import { MemoryJournal, ProcessJournal } from "../../journal/mod.ts";
import type { SecretsConfig } from "../config/mod.ts";
import { isRuntimeError } from "../errors.ts";
import { heldBytesOf, SecretStore } from "./secret_store.ts";

function settings(overrides: Partial<SecretsConfig> = {}): SecretsConfig {
  return {
    enabled: true,
    secrets: { API: "plant-literal", TOKEN: "tok-${TOKEN_VAR}" },
    default_ttl: null,
    ttls: {},
    revoke_on_stop: true,
    ...overrides,
  };
}

const env = (name: string) => (name === "TOKEN_VAR" ? "from-env" : undefined);

function setup(config: SecretsConfig = settings()) {
  const journal = new ProcessJournal(new MemoryJournal(), { process: "p", level: "full" });
  const secrets = new SecretStore({ process: "p", settings: () => config, journal });
  return { secrets, journal };
}

Deno.test("resolve reads literals and ${VAR} references; get journals the access but never the value", async () => {
  const { secrets, journal } = setup();
  assert.equal(secrets.get("API"), undefined);
  secrets.resolve(env);
  assert.equal(secrets.get("API"), "plant-literal");
  assert.equal(secrets.get("TOKEN"), "tok-from-env");
  assert.equal(secrets.get("NOPE"), undefined);
  assert.equal(secrets.activeCount, 2);
  const entries = await journal.read({ type: "secret_access" });
  assert.deepEqual(entries.map((e) => e.data), [
    { action: "access", secret_name: "API" },
    { action: "access", secret_name: "TOKEN" },
  ]);
  assert.doesNotMatch(JSON.stringify(entries), /plant-literal|from-env/);
});

Deno.test("an unresolvable reference throws naming the secret and variable, never a value, and holds nothing", () => {
  const { secrets } = setup();
  assert.throws(() => secrets.resolve(() => undefined), (e: Error) => {
    assert.match(e.message, /secret TOKEN: environment variable TOKEN_VAR is not set or not allowed/);
    assert.doesNotMatch(e.message, /plant-literal/);
    return true;
  });
  assert.equal(secrets.resolved, false);
  assert.equal(secrets.get("API"), undefined);
  assert.ok(heldBytesOf(secrets).length === 0);
});

Deno.test("revoke zero-fills every byte array the store held, rotated-away values included", async () => {
  const { secrets, journal } = setup();
  secrets.resolve(env);
  await secrets.rotate("API", "second-value");
  const held = heldBytesOf(secrets);
  assert.equal(held.length, 3);
  assert.ok(held.every((bytes) => bytes.some((b) => b !== 0)));
  await secrets.revoke();
  assert.ok(held.every((bytes) => bytes.length > 0 && bytes.every((b) => b === 0)));
  assert.equal(secrets.get("API"), undefined);
  assert.equal(secrets.activeCount, 0);
  assert.equal(secrets.redact("second-value plant-literal"), "second-value plant-literal");
  const actions = (await journal.read({ type: "secret_access" })).map((e) => e.data.action);
  assert.deepEqual(actions, ["rotate", "revoke"]);
});

Deno.test("a ttl counts from the resolve or the rotation, and an expired secret reads as undefined", async () => {
  const clock = FakeTimers.install({ toFake: ["Date"], now: Date.UTC(2026, 0, 1) });
  try {
    const { secrets } = setup(settings({ default_ttl: 60, ttls: { TOKEN: 10 } }));
    secrets.resolve(env);
    clock.tick(9_999);
    assert.equal(secrets.get("TOKEN"), "tok-from-env");
    clock.tick(1);
    assert.equal(secrets.get("TOKEN"), undefined);
    assert.equal(secrets.get("API"), "plant-literal");
    assert.equal(secrets.activeCount, 1);
    const { expires_at } = await secrets.rotate("TOKEN", "renewed", 5);
    assert.equal(expires_at, (Date.UTC(2026, 0, 1) + 15_000) / 1000);
    assert.equal(secrets.get("TOKEN"), "renewed");
    clock.tick(50_000);
    assert.equal(secrets.get("API"), undefined);
    assert.equal(secrets.get("TOKEN"), undefined);
    const listed = secrets.metadata().secrets;
    assert.deepEqual(listed.map((s) => s.active), [false, false]);
    assert.equal(listed[1].rotated_at, (Date.UTC(2026, 0, 1) + 10_000) / 1000);
  } finally {
    clock.uninstall();
  }
});

Deno.test("rotate refuses unknown names, empty values, bad ttls and unresolved stores", async () => {
  const { secrets } = setup();
  await assert.rejects(secrets.rotate("API", "x"), (e) => isRuntimeError(e, "ROTATION_FAILED"));
  secrets.resolve(env);
  await assert.rejects(secrets.rotate("GHOST", "x"), (e) => isRuntimeError(e, "SECRET_NOT_FOUND"));
  await assert.rejects(secrets.rotate("API", ""), (e) => isRuntimeError(e, "ROTATION_FAILED"));
  for (const ttl of [0, -1, Number.NaN]) {
    await assert.rejects(secrets.rotate("API", "x", ttl), (e) => isRuntimeError(e, "ROTATION_FAILED"));
  }
  assert.equal(secrets.get("API"), "plant-literal");
  const disabled = setup(settings({ enabled: false })).secrets;
  await assert.rejects(disabled.rotate("API", "x"), (e) => isRuntimeError(e, "SECRETS_DISABLED"));
  assert.throws(() => disabled.metadata(), (e) => isRuntimeError(e, "SECRETS_DISABLED"));
});

Deno.test("redact masks every value held since the resolve, longest first and JSON-escaped too", async () => {
  const { secrets } = setup(settings({ secrets: { A: "abc", B: "abc-longer", Q: 'q"uote' } }));
  secrets.resolve(env);
  await secrets.rotate("A", "rotated-1");
  assert.deepEqual(secrets.values().sort(), ["abc-longer", 'q"uote', "rotated-1"]);
  const text = `old abc, new rotated-1, long abc-longer, json ${JSON.stringify({ v: 'q"uote' })}`;
  assert.equal(
    secrets.redact(text),
    'old [REDACTED], new [REDACTED], long [REDACTED], json {"v":"[REDACTED]"}',
  );
});

Deno.test("metadata lists names, activity, source and times, never values nor variable names", () => {
  const { secrets } = setup();
  assert.deepEqual(secrets.metadata(), {
    name: "p",
    enabled: true,
    secrets: [
      { name: "API", active: false, source: "literal", expires_at: null, rotated_at: null },
      { name: "TOKEN", active: false, source: "env", expires_at: null, rotated_at: null },
    ],
    active_count: 0,
  });
  secrets.resolve(env);
  const text = JSON.stringify(secrets.metadata());
  assert.match(text, /"active_count":2/);
  assert.doesNotMatch(text, /plant-literal|from-env|TOKEN_VAR/);
});
