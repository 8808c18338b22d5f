import assert from "node:assert/strict";
import { HostPolicy } from "./_host_policy.ts";
import { pathOf } from "./_http.ts";

function statusFor(policy: HostPolicy, host: string, origin?: string): number {
  const headers: Record<string, string> = { host };
  if (origin !== undefined) headers.origin = origin;
  return policy.check(new Request("http://127.0.0.1/mcp", { headers }))?.status ?? 200;
}

Deno.test("loopback names pass on any port; other hosts need an allowedHosts entry", () => {
  const policy = new HostPolicy(["api.example.com", "pinned.example.com:8443"], []);
  for (const host of ["127.0.0.1:3000", "localhost", "[::1]:8080", "LOCALHOST:1", "api.example.com:9"]) {
    assert.equal(statusFor(policy, host), 200, host);
  }
  assert.equal(statusFor(policy, "pinned.example.com:8443"), 200);
  assert.equal(statusFor(policy, "pinned.example.com:8080"), 421);
  assert.equal(statusFor(policy, "evil.example.com"), 421);
  assert.equal(statusFor(policy, ""), 421);
});

Deno.test("origins must be http(s) on an allowed host or listed exactly", () => {
  const policy = new HostPolicy(["api.example.com"], ["https://console.example.org"]);
  assert.equal(statusFor(policy, "localhost", "http://localhost:5173"), 200);
  assert.equal(statusFor(policy, "localhost", "https://api.example.com:444"), 200);
  assert.equal(statusFor(policy, "localhost", "https://console.example.org"), 200);
  assert.equal(statusFor(policy, "localhost", "http://console.example.org"), 403);
  assert.equal(statusFor(policy, "localhost", "null"), 403);
  assert.equal(statusFor(policy, "localhost", "file://localhost"), 403);
});

Deno.test("HostPolicy refuses malformed entries", () => {
  assert.throws(() => new HostPolicy(["http://example.com"], []), /not a host name/);
  assert.throws(() => new HostPolicy([""], []), /not a host name/);
  assert.throws(() => new HostPolicy([], ["example.com"]), /not an http\(s\) origin/);
});

Deno.test("pathOf takes the path of absolute URLs without query or fragment", () => {
  assert.equal(pathOf("http://127.0.0.1:8080/mcp"), "/mcp");
  assert.equal(pathOf("http://h/messages/?session_id=1"), "/messages/");
  assert.equal(pathOf("http://h/a#x"), "/a");
  assert.equal(pathOf("http://h"), "/");
  assert.equal(pathOf("https://[::1]:9/health/ready?x=1"), "/health/ready");
});
