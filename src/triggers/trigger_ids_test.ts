import assert from "node:assert/strict";
import { parseProcessConfig, type TriggerConfig } from "../runtime/mod.ts";
import {
  maskTriggerConfig,
  parseLegacyTriggerId,
  stableTriggerIds,
  triggerConfigJson as canonicalJson,
  triggerDigest,
} from "./trigger_ids.ts";

/** The resolved trigger configs of a process config with these `triggers`. */
function resolve(...triggers: Record<string, unknown>[]): TriggerConfig[] {
  const parsed = parseProcessConfig({ triggers });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return parsed.config.triggers;
}

const CRON = { type: "cron", cron_expression: "0 9 * * *" };
const EVENT = { type: "event", event_type: "order.created", event_source: "shop" };
const MESSAGE = { type: "message", topic: "reports.*" };

Deno.test("trigger id is <type>-<10 hex digest> of the resolved config", () => {
  const [cron, event] = stableTriggerIds(resolve(CRON, EVENT));
  assert.match(cron, /^cron-[0-9a-f]{10}$/);
  assert.match(event, /^event-[0-9a-f]{10}$/);
  assert.equal(triggerDigest(resolve(CRON)[0]).length, 10);
});

Deno.test("trigger id does not depend on position or key order", () => {
  const a = stableTriggerIds(resolve(CRON, EVENT, MESSAGE));
  const b = stableTriggerIds(resolve(
    { event_source: "shop", event_type: "order.created", type: "event" },
    { topic: "reports.*", type: "message" },
    { cron_expression: "0 9 * * *", type: "cron" },
  ));
  assert.deepEqual(new Set(a), new Set(b));
  assert.equal(a[0], b[2]);
});

Deno.test("trigger id is the same after a restart, i.e. for a fresh parse of the same input", () => {
  assert.deepEqual(stableTriggerIds(resolve(CRON, MESSAGE)), stableTriggerIds(resolve(CRON, MESSAGE)));
});

Deno.test("trigger id is computed from resolved configs, so an explicit default gives the same id", () => {
  const [implicit] = stableTriggerIds(resolve({ type: "webhook" }));
  const [explicit] = stableTriggerIds(resolve({ type: "webhook", webhook_port: 9090, custom_config: {} }));
  const [other] = stableTriggerIds(resolve({ type: "webhook", webhook_port: 9091 }));
  assert.equal(implicit, explicit);
  assert.notEqual(implicit, other);
  assert.match(implicit, /^webhook-[0-9a-f]{10}$/);
});

Deno.test("trigger id changes with any field, custom_config included", () => {
  const ids = stableTriggerIds(resolve(
    CRON,
    { ...CRON, cron_expression: "0 10 * * *" },
    { ...CRON, cron_timezone: "Europe/Paris" },
    { ...CRON, custom_config: { team: "ops" } },
  ));
  assert.equal(new Set(ids).size, 4);
});

Deno.test("identical trigger configs get -2, -3 in order of appearance", () => {
  const ids = stableTriggerIds(resolve(CRON, EVENT, CRON, { ...CRON }, EVENT));
  const [cron, event] = ids;
  assert.deepEqual(ids, [cron, event, `${cron}-2`, `${cron}-3`, `${event}-2`]);
});

/** Trigger configs whose ids are persisted; their ids below are pinned (computed before any refactor). */
const PINNED: Record<string, unknown>[] = [
  { type: "cron", cron_expression: "0 9 * * *" },
  {
    type: "cron",
    cron_expression: "*/5 * * * *",
    cron_timezone: "Europe/Paris",
    custom_config: { team: "ops" },
  },
  { type: "webhook" },
  {
    type: "webhook",
    webhook_path: "/hooks/github",
    webhook_port: 8443,
    hmac_secret: "${GITHUB_WEBHOOK_SECRET}",
    custom_config: { z: [3, { b: true, a: null }], "é": "ü", A: -1.5e-7, nested: { y: 2, x: [1, "two"] } },
  },
  {
    type: "file_watch",
    watch_path: "./inbox",
    watch_patterns: ["*.csv", "*.json"],
    watch_events: ["created"],
  },
  { type: "event", event_type: "order.created", event_source: "shop" },
  { type: "message", topic: "reports.*", custom_config: { limits: { max: 10, min: 0 }, tags: [] } },
  // What YAML's .inf and .nan parse to, and a number JSON writes in exponent form.
  { type: "cron", cron_expression: "0 9 * * *", custom_config: { ratio: Infinity, missing: NaN, n: 1e21 } },
  { type: "event", event_type: "order.created", event_source: "shop" },
  // Integer-like keys: JavaScript's property order puts them first, in numeric order.
  {
    type: "webhook",
    custom_config: { statuses: { "10": "ten", "9": "nine", "": "none", b: 1 }, "200": "ok" },
  },
];

Deno.test("trigger ids of representative configs stay exactly as they were (they are persisted)", () => {
  assert.deepEqual(stableTriggerIds(resolve(...PINNED)), [
    "cron-b02ce0d3ac",
    "cron-ff42c297a3",
    "webhook-91e56924fa",
    "webhook-3ad295c5e5",
    "file_watch-6547ac92e1",
    "event-194a351ae5",
    "message-5e0fcdc774",
    "cron-c3018cb44a",
    "event-194a351ae5-2",
    "webhook-4480e4de2e",
  ]);
});

Deno.test("canonical JSON sorts keys at every depth and keeps array order", () => {
  assert.equal(canonicalJson({ b: 1, a: { d: [2, 1], c: null } }), '{"a":{"c":null,"d":[2,1]},"b":1}');
  assert.equal(canonicalJson({ a: undefined, b: 1 }), '{"b":1}');
});

Deno.test("legacy static_<n> ids parse to n, and nothing else does", () => {
  assert.equal(parseLegacyTriggerId("static_0"), 0);
  assert.equal(parseLegacyTriggerId("static_7"), 7);
  assert.equal(parseLegacyTriggerId("static_12"), 12);
  for (
    const id of [
      "static_",
      "static_-1",
      "static_1.5",
      "static_01",
      "static_1a",
      "Static_1",
      "static_ 1",
      "x_1",
      "cron-abc",
      "static_99999999999999999999",
    ]
  ) {
    assert.equal(parseLegacyTriggerId(id), undefined, id);
  }
});

Deno.test("masking replaces hmac_secret when present and leaves other fields alone", () => {
  const [config] = resolve({ type: "webhook", hmac_secret: "0123456789abcdef0123" });
  assert.ok(config.type === "webhook");
  const masked = maskTriggerConfig(config);
  assert.equal(masked.hmac_secret, "***");
  assert.equal(masked.webhook_port, 9090);
  assert.equal(config.hmac_secret, "0123456789abcdef0123");
  assert.equal("hmac_secret" in maskTriggerConfig(resolve({ type: "webhook" })[0]), false);
});

Deno.test("masking hides credential-like custom_config keys at any depth, case-insensitively", () => {
  const [config] = resolve({
    type: "message",
    topic: "a",
    custom_config: {
      team: "ops",
      API_KEY: "k1",
      apiKey: "k2",
      accessToken: "t",
      db_password: "p",
      client_secret: "s",
      Authorization: "Bearer x",
      credentials: { user: "u", pass: "p" },
      signature: "sig",
      session_cookie: "c",
      nested: { deeper: [{ refresh_token: "r", name: "n" }], count: 3 },
      empty_token: null,
    },
  });
  const masked = maskTriggerConfig(config);
  assert.deepEqual(masked.custom_config, {
    team: "ops",
    API_KEY: "***",
    apiKey: "***",
    accessToken: "***",
    db_password: "***",
    client_secret: "***",
    Authorization: "***",
    credentials: "***",
    signature: "***",
    session_cookie: "***",
    nested: { deeper: [{ refresh_token: "***", name: "n" }], count: 3 },
    empty_token: "***",
  });
  assert.equal(masked.topic, "a");
  assert.equal(
    (config.custom_config.nested as { deeper: Array<{ refresh_token: string }> }).deeper[0].refresh_token,
    "r",
  );
});

Deno.test("masking leaves credential-like names outside custom_config alone", () => {
  const [config] = resolve({ type: "event", event_type: "token.issued", custom_config: {} });
  const masked = maskTriggerConfig(config);
  assert.equal(masked.event_type, "token.issued");
  assert.deepEqual(masked.custom_config, {});
});
