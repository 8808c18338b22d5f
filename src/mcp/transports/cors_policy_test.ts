import assert from "node:assert/strict";
import { CorsPolicy } from "./cors_policy.ts";

function preflight(origin: string): Request {
  return new Request("http://localhost/mcp", {
    method: "OPTIONS",
    headers: { origin, "access-control-request-method": "POST" },
  });
}

Deno.test("a wildcard CORS policy answers any origin with * and no credentials", () => {
  const cors = new CorsPolicy({ allowOrigins: ["*"] });
  const answer = cors.preflight(preflight("https://anywhere.example"))!;
  assert.equal(answer.status, 204);
  assert.equal(answer.headers.get("access-control-allow-origin"), "*");
  assert.equal(answer.headers.get("access-control-allow-credentials"), null);
  assert.equal(answer.headers.get("access-control-allow-methods"), "GET, POST, DELETE, OPTIONS");
  assert.deepEqual(cors.origins, []);
});

Deno.test("listed origins are echoed with Vary and credentials when enabled", () => {
  const cors = new CorsPolicy({
    allowOrigins: ["https://App.example.com/"],
    allowCredentials: true,
    maxAge: 60,
  });
  const request = new Request("http://localhost/mcp", { headers: { origin: "https://app.example.com" } });
  const answer = cors.apply(request, new Response("ok", { headers: { "mcp-session-id": "s1" } }));
  assert.equal(answer.headers.get("access-control-allow-origin"), "https://app.example.com");
  assert.equal(answer.headers.get("access-control-allow-credentials"), "true");
  assert.equal(answer.headers.get("vary"), "Origin");
  assert.equal(answer.headers.get("mcp-session-id"), "s1");
  assert.equal(
    cors.preflight(preflight("https://app.example.com"))!.headers.get("access-control-max-age"),
    "60",
  );
});

Deno.test("requests that are not preflights or come from other origins are left alone", () => {
  const cors = new CorsPolicy({ allowOrigins: ["https://app.example.com"] });
  assert.equal(cors.preflight(new Request("http://localhost/mcp", { method: "OPTIONS" })), undefined);
  const response = new Response("ok");
  const other = new Request("http://localhost/mcp", { headers: { origin: "https://other.example.com" } });
  assert.equal(cors.apply(other, response), response);
});

Deno.test("CorsPolicy refuses unknown keys, bad lists and wildcard with credentials", () => {
  assert.throws(() => new CorsPolicy({ allowOrigin: ["*"] } as never), /unknown option 'allowOrigin'/);
  assert.throws(() => new CorsPolicy({ allowMethods: "GET" as never }), /list/);
  assert.throws(() => new CorsPolicy({ allowOrigins: ["*"], allowCredentials: true }), /cannot be combined/);
  assert.throws(() => new CorsPolicy({ maxAge: -1 }), /maxAge/);
});
