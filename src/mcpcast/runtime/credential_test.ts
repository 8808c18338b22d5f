import assert from "node:assert/strict";
import { ToolError } from "../../mcp/mod.ts";
import { type Credential, redactCredential, upstreamCredential } from "./credential.ts";
import { petPlan, TOKEN } from "../_test_plans.ts";
import { envOf } from "./_test_runtime.ts";

function codeOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof ToolError);
    assert.ok(
      !error.message.includes(TOKEN) && !(error.suggestion ?? "").includes(TOKEN),
      "echoes the credential",
    );
    return error.code;
  }
  return "none";
}

Deno.test("api-key mode sends the calling tenant's credential, an auth hook's own first", () => {
  const { api } = petPlan({ auth: "api-key", credential_name: "X-Key" });
  const env = envOf({ MCPCAST_UPSTREAM_TOKENS: JSON.stringify({ acme: TOKEN }) });
  assert.deepEqual(upstreamCredential(api, { client: { tenantId: "acme" } }, env), {
    value: TOKEN,
    location: "header",
    name: "X-Key",
  });
  const own = upstreamCredential(api, {
    client: { tenantId: "acme", extra: { upstream_credential: "hook-credential" } },
  }, env);
  assert.equal(own?.value, "hook-credential");
  assert.equal(
    codeOf(() => upstreamCredential(api, { client: { tenantId: "beta" } }, env)),
    "UPSTREAM_AUTH_MISSING",
  );
  assert.equal(codeOf(() => upstreamCredential(api, {}, env)), "UPSTREAM_AUTH_MISSING");
  const broken = envOf({ MCPCAST_UPSTREAM_TOKENS: `{"acme": "${TOKEN}"` });
  assert.equal(
    codeOf(() => upstreamCredential(api, { client: { tenantId: "acme" } }, broken)),
    "UPSTREAM_AUTH_INVALID",
  );
});

Deno.test("env-token mode reads MCPCAST_UPSTREAM_TOKEN on every call and refuses non-ASCII values", () => {
  const { api } = petPlan({ auth: "env-token" });
  let value: string | undefined;
  const env = (name: string) => name === "MCPCAST_UPSTREAM_TOKEN" ? value : undefined;
  assert.equal(codeOf(() => upstreamCredential(api, {}, env)), "UPSTREAM_AUTH_MISSING");
  value = `  Bearer ${TOKEN}\n`;
  assert.equal(upstreamCredential(api, {}, env)?.value, `Bearer ${TOKEN}`);
  value = `Bearer ${TOKEN}é`;
  assert.equal(codeOf(() => upstreamCredential(api, {}, env)), "UPSTREAM_AUTH_INVALID");
});

Deno.test("passthrough always uses the Authorization header, whatever the plan's slot", () => {
  const { api } = petPlan({ credential_location: "header", credential_name: "Authorization" });
  const credential = upstreamCredential(api, { meta: { authorization: `bearer ${TOKEN}` } }, envOf());
  assert.deepEqual(credential, { value: `bearer ${TOKEN}`, location: "header", name: "Authorization" });
});

Deno.test("redaction covers the full value, the bare token and URL-encoded forms; short values stay", () => {
  const credential: Credential = { value: `Bearer ${TOKEN}+/=`, location: "header", name: "Authorization" };
  const text = `a Bearer ${TOKEN}+/= b ${TOKEN}+/= c ${encodeURIComponent(`${TOKEN}+/=`)} d`;
  assert.equal(redactCredential(text, credential), "a [redacted] b [redacted] c [redacted] d");
  const short: Credential = { value: "abc", location: "query", name: "k" };
  assert.equal(redactCredential("abc abc", short), "abc abc");
  assert.equal(redactCredential("plain", undefined), "plain");
});
