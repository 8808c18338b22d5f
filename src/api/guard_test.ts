import assert from "node:assert/strict";
import { Hono } from "hono";
import type { ApiEnv } from "./context.ts";
import { createGuard, HEALTH_PATH, MAX_URL_LENGTH, safeEqual } from "./guard.ts";
import { memoryLogger, testApi, TOKEN } from "../../tests/_api_harness.ts";

/** A tiny app behind the guard whose only handler answers `{passed: true}`. */
function guarded(options: { token?: string; loopback?: boolean } = {}) {
  const { logger, records } = memoryLogger();
  const app = new Hono<ApiEnv>();
  app.use("*", createGuard({ token: options.token, loopback: options.loopback ?? true, logger }));
  app.all("*", (c) => c.json({ passed: true }));
  const call = async (path: string, headers: Record<string, string> = {}, method = "GET") => {
    const response = await app.request(path, { method, headers });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
  };
  return { call, records };
}

const auth = (token = TOKEN) => ({ authorization: `Bearer ${token}` });

Deno.test("safeEqual is true only for identical strings", () => {
  assert.equal(safeEqual("s3cret-token", "s3cret-token"), true);
  assert.equal(safeEqual("", ""), true);
  assert.equal(safeEqual("jeton-été", "jeton-été"), true);
  assert.equal(safeEqual("s3cret-tokeN", "s3cret-token"), false);
  assert.equal(safeEqual("s3cret", "s3cret-token"), false);
  assert.equal(safeEqual("s3cret-token-and-more", "s3cret-token"), false);
  assert.equal(safeEqual("", "s3cret-token"), false);
  assert.equal(safeEqual("s3cret-token", ""), false);
  assert.equal(safeEqual("abab", "ab"), false);
  assert.equal(safeEqual("ab", "abab"), false);
  assert.equal(safeEqual("jeton-ete", "jeton-été"), false);
});

Deno.test("a loopback bind accepts loopback Host headers, with or without a port", async () => {
  const { call } = guarded();
  for (const host of ["localhost:9100", "[::1]:9100", "[::1]", "127.0.0.5", "127.0.0.1:9100", "LOCALHOST"]) {
    const answer = await call("/api/v1/processes", { host });
    assert.equal(answer.status, 200, host);
    assert.deepEqual(answer.body, { passed: true }, host);
  }
});

Deno.test("a loopback bind answers a non-loopback Host with 421 MISDIRECTED_REQUEST", async () => {
  const { call, records } = guarded();
  for (
    const host of ["evil.example", "evil.example:9100", "10.0.0.7:9100", "127.0.0.1.evil.example", "[::2]:80"]
  ) {
    const answer = await call(HEALTH_PATH, { host });
    assert.equal(answer.status, 421, host);
    assert.equal(answer.body.error.code, "MISDIRECTED_REQUEST", host);
    assert.equal(typeof answer.body.error.message, "string");
  }
  assert.equal(records.filter((r) => r.level === "warning" && r.fields.status === 421).length, 5);
});

Deno.test("a loopback bind lets through requests with no Host and no Origin", async () => {
  const { call } = guarded();
  assert.equal((await call("/api/v1/processes")).status, 200);
});

Deno.test("a loopback Origin passes; a cross-site or null Origin gets 403 CROSS_ORIGIN_REFUSED", async () => {
  const { call } = guarded();
  for (
    const origin of [
      "http://localhost:3000",
      "http://127.0.0.1:5173",
      "http://[::1]:8080",
      "https://localhost",
    ]
  ) {
    assert.equal((await call("/api/v1/processes", { origin })).status, 200, origin);
  }
  for (
    const origin of [
      "https://evil.example",
      "null",
      "http://localhost.evil.example",
      "file:///etc",
      "not a url",
    ]
  ) {
    const answer = await call("/api/v1/processes", { origin, host: "localhost:9100" });
    assert.equal(answer.status, 403, origin);
    assert.equal(answer.body.error.code, "CROSS_ORIGIN_REFUSED", origin);
  }
});

Deno.test("a non-loopback bind checks neither Host nor Origin, only the token", async () => {
  const { call } = guarded({ token: TOKEN, loopback: false });
  const foreign = { host: "agents.example:9100", origin: "https://dashboard.example" };
  assert.equal((await call("/api/v1/processes", { ...foreign, ...auth() })).status, 200);
  assert.equal((await call("/api/v1/processes", foreign)).status, 401);
});

Deno.test("with a token, only GET health passes without it; unknown paths and other methods get 401", async () => {
  const { call } = guarded({ token: TOKEN });
  assert.equal((await call(HEALTH_PATH)).status, 200);
  assert.equal((await call(`${HEALTH_PATH}?verbose=1`)).status, 200);
  for (
    const [method, path] of [
      ["POST", HEALTH_PATH],
      ["GET", "/api/v1/processes"],
      ["GET", "/api/v1/no-such-route"],
      ["GET", "/"],
      ["DELETE", "/api/v1/processes/a"],
      ["GET", `${HEALTH_PATH}/`],
    ]
  ) {
    const answer = await call(path, {}, method);
    assert.equal(answer.status, 401, `${method} ${path}`);
    assert.deepEqual(Object.keys(answer.body), ["error"]);
    assert.equal(answer.body.error.code, "UNAUTHORIZED");
    assert.equal(answer.body.error.error_id, undefined);
    assert.equal(answer.headers.get("www-authenticate"), "Bearer");
  }
});

Deno.test("the token must match exactly; the Bearer scheme name is case-insensitive", async () => {
  const { call } = guarded({ token: TOKEN });
  assert.equal((await call("/api/v1/processes", auth())).status, 200);
  assert.equal((await call("/api/v1/processes", { authorization: `bearer ${TOKEN}` })).status, 200);
  for (
    const authorization of [
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.slice(0, -1)}`,
      "Bearer ",
      TOKEN,
      `Basic ${btoa(`user:${TOKEN}`)}`,
      `Token ${TOKEN}`,
    ]
  ) {
    assert.equal((await call("/api/v1/processes", { authorization })).status, 401, authorization);
  }
});

Deno.test("without a token every request passes the guard", async () => {
  const { call } = guarded();
  assert.equal((await call("/api/v1/processes", {}, "POST")).status, 200);
  assert.equal((await call("/api/v1/anything")).status, 200);
});

Deno.test("an over-long URL is refused with 414 HTTP_ERROR", async () => {
  const { call } = guarded();
  const answer = await call(`/api/v1/processes?pad=${"x".repeat(MAX_URL_LENGTH)}`);
  assert.equal(answer.status, 414);
  assert.equal(answer.body.error.code, "HTTP_ERROR");
});

Deno.test("refusals are logged as warnings with status and client, never with the presented token", async () => {
  const { call, records } = guarded({ token: TOKEN });
  await call("/api/v1/processes", { authorization: "Bearer wrong-token-6d1e" });
  await call("/api/v1/processes", { origin: "https://evil.example", ...auth() });
  const warnings = records.filter((r) => r.level === "warning");
  assert.deepEqual(warnings.map((r) => r.fields.status), [401, 403]);
  for (const record of warnings) assert.equal(record.fields.client, "unknown");
  const logged = JSON.stringify(records);
  assert.ok(!logged.includes("wrong-token-6d1e"));
  assert.ok(!logged.includes(TOKEN));
});

Deno.test("every API route needs the token except GET /api/v1/health, and nothing runs without it", async () => {
  await using api = await testApi({ onShutdown: () => assert.fail("shutdown must not run") });
  const routes: Array<[string, string]> = [
    ["GET", "/api/v1/runtime/status"],
    ["POST", "/api/v1/runtime/start-all"],
    ["POST", "/api/v1/runtime/stop-all"],
    ["POST", "/api/v1/runtime/shutdown"],
    ["GET", "/api/v1/processes"],
    ["POST", "/api/v1/processes"],
    ["GET", "/api/v1/processes/a"],
    ["DELETE", "/api/v1/processes/a"],
    ["GET", "/api/v1/processes/a/metrics"],
    ["POST", "/api/v1/processes/a/start"],
    ["POST", "/api/v1/processes/a/stop"],
    ["POST", "/api/v1/processes/a/restart"],
    ["POST", "/api/v1/processes/a/suspend"],
    ["POST", "/api/v1/processes/a/resume"],
    ["GET", "/api/v1/processes/a/journal"],
    ["GET", "/api/v1/openapi.json"],
    ["GET", "/api/v1/unknown"],
    ["PUT", "/api/v1/processes"],
    ["POST", "/api/v1/health"],
  ];
  for (const [method, path] of routes) {
    const json = method === "GET" ? undefined : { name: "a", config: {} };
    const answer = await api.call(method, path, { token: null, json });
    assert.equal(answer.status, 401, `${method} ${path}`);
    assert.equal(answer.body.error.code, "UNAUTHORIZED", `${method} ${path}`);
  }
  assert.equal(api.runtime.size, 0);
  const health = await api.call("GET", "/api/v1/health", { token: null });
  assert.equal(health.status, 200);
  assert.deepEqual(health.body, { status: "healthy", process_count: 0 });
});

Deno.test("a loopback web UI gets CORS: preflight answered 204 without a token, answers carry its origin", async () => {
  const { call } = guarded({ token: TOKEN });
  const origin = "http://localhost:5173";
  const preflight = await call("/api/v1/processes", {
    origin,
    "access-control-request-method": "POST",
    "access-control-request-headers": "authorization, content-type",
  }, "OPTIONS");
  assert.equal(preflight.status, 204);
  assert.equal(preflight.headers.get("access-control-allow-origin"), origin);
  assert.match(preflight.headers.get("access-control-allow-headers") ?? "", /authorization/);
  assert.match(preflight.headers.get("access-control-allow-methods") ?? "", /DELETE/);
  const refused = await call("/api/v1/processes", { origin });
  assert.equal(refused.status, 401);
  assert.equal(refused.headers.get("access-control-allow-origin"), origin);
  const passed = await call("/api/v1/processes", { origin, ...auth() });
  assert.equal(passed.status, 200);
  assert.equal(passed.headers.get("access-control-allow-origin"), origin);
  assert.equal(passed.headers.get("vary"), "Origin");
});

Deno.test("no CORS headers without an Origin, for cross-site origins, or on a non-loopback bind", async () => {
  const loopback = guarded({ token: TOKEN });
  const plain = await loopback.call("/api/v1/processes", auth());
  assert.equal(plain.headers.get("access-control-allow-origin"), null);
  const evil = await loopback.call("/api/v1/processes", { origin: "https://evil.example", ...auth() });
  assert.equal(evil.status, 403);
  assert.equal(evil.headers.get("access-control-allow-origin"), null);
  const evilPreflight = await loopback.call("/api/v1/processes", {
    origin: "https://evil.example",
    "access-control-request-method": "POST",
  }, "OPTIONS");
  assert.equal(evilPreflight.status, 403);
  const open = guarded({ token: TOKEN, loopback: false });
  const preflight = await open.call("/api/v1/processes", {
    origin: "http://localhost:5173",
    "access-control-request-method": "POST",
  }, "OPTIONS");
  assert.equal(preflight.status, 401);
  assert.equal(preflight.headers.get("access-control-allow-origin"), null);
});
