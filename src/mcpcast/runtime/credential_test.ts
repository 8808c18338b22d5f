import assert from "node:assert/strict";
import { ToolError } from "../../mcp/mod.ts";
import { type Credential, redactCredential, upstreamCredential, upstreamCredentials } from "./credential.ts";
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

/** A plan with the Petstore's two schemes: OAuth 2 in the plan's own slot, an `api_key` header. */
function twoSchemes(auth: string) {
  return petPlan({
    auth,
    security_schemes: {
      petstore_auth: { type: "bearer", in: "header", name: "Authorization" },
      api_key: { type: "api_key", in: "header", name: "api_key" },
      basic: { type: "basic", in: "header", name: "Authorization" },
      gh: { type: "http", in: "header", name: "Authorization", http_scheme: "token" },
      q: { type: "api_key", in: "query", name: "key" },
      sid: { type: "api_key", in: "cookie", name: "sid" },
    },
  }).api;
}

const sent = (credentials: Credential[]) =>
  credentials.map(({ value, location, name }) => ({ value, location, name }));

Deno.test("env-token shapes the value by scheme: a bare token gets Bearer, user:password becomes Basic", () => {
  const api = twoSchemes("env-token");
  const env = envOf({ MCPCAST_UPSTREAM_TOKEN: TOKEN, MCPCAST_UPSTREAM_TOKEN_BASIC: "ann:pa55-word-x" });
  const call = (security: string[][]) => sent(upstreamCredentials(api, {}, { env, route: { security } }));
  assert.deepEqual(call([["petstore_auth"]]), [{
    value: `Bearer ${TOKEN}`,
    location: "header",
    name: "Authorization",
  }]);
  assert.deepEqual(call([["basic"]]), [{
    value: `Basic ${btoa("ann:pa55-word-x")}`,
    location: "header",
    name: "Authorization",
  }]);
  assert.deepEqual(call([["gh"]]), [{ value: `token ${TOKEN}`, location: "header", name: "Authorization" }]);
  const ready = envOf({ MCPCAST_UPSTREAM_TOKEN: `Bearer ${TOKEN}` });
  assert.equal(
    upstreamCredentials(api, {}, { env: ready, route: { security: [["petstore_auth"]] } })[0].value,
    `Bearer ${TOKEN}`,
  );
  const bare = envOf({ MCPCAST_UPSTREAM_TOKEN_BASIC: TOKEN });
  assert.equal(
    codeOf(() => upstreamCredentials(api, {}, { env: bare, route: { security: [["basic"]] } })),
    "UPSTREAM_AUTH_INVALID",
    "a basic credential without a colon is refused, naming the variable",
  );
});

Deno.test("the first requirement whose credentials are all configured is used; AND sends them all", () => {
  const api = twoSchemes("env-token");
  const security = [["api_key", "q"], ["petstore_auth"], ["api_key"]];
  const only = envOf({ MCPCAST_UPSTREAM_TOKEN_API_KEY: `${TOKEN}-k` });
  assert.deepEqual(sent(upstreamCredentials(api, {}, { env: only, route: { security } })), [
    { value: `${TOKEN}-k`, location: "header", name: "api_key" },
  ]);
  const all = envOf({
    MCPCAST_UPSTREAM_TOKEN_API_KEY: `${TOKEN}-k`,
    MCPCAST_UPSTREAM_TOKEN_Q: `${TOKEN}-q`,
    MCPCAST_UPSTREAM_TOKEN_SID: `${TOKEN}-s`,
  });
  assert.deepEqual(sent(upstreamCredentials(api, {}, { env: all, route: { security } })), [
    { value: `${TOKEN}-k`, location: "header", name: "api_key" },
    { value: `${TOKEN}-q`, location: "query", name: "key" },
  ]);
  assert.deepEqual(sent(upstreamCredentials(api, {}, { env: all, route: { security: [["sid"]] } })), [
    { value: `${TOKEN}-s`, location: "cookie", name: "sid" },
  ]);
  assert.deepEqual(upstreamCredentials(api, {}, { env: envOf(), route: { security: [] } }), []);
  assert.deepEqual(
    upstreamCredentials(api, {}, { env: envOf(), route: { security: [["api_key"], []] } }),
    [],
  );
  let message = "";
  try {
    upstreamCredentials(api, {}, { env: envOf(), route: { security: [["api_key"], ["petstore_auth"]] } });
  } catch (error) {
    assert.ok(error instanceof ToolError);
    assert.equal(error.code, "UPSTREAM_AUTH_MISSING");
    message = error.message;
  }
  assert.match(
    message,
    /MCPCAST_UPSTREAM_TOKEN_API_KEY \(scheme 'api_key'\), or MCPCAST_UPSTREAM_TOKEN_PETSTORE_AUTH or MCPCAST_UPSTREAM_TOKEN/,
  );
});

Deno.test("a shared value that does not fit a scheme passes to the next requirement", () => {
  const api = twoSchemes("env-token");
  const env = envOf({ MCPCAST_UPSTREAM_TOKEN: `Bearer ${TOKEN}` });
  const credentials = upstreamCredentials(api, {}, {
    env,
    route: { security: [["basic"], ["petstore_auth"]] },
  });
  assert.equal(credentials[0].value, `Bearer ${TOKEN}`);
});

Deno.test("passthrough forwards Basic and token headers when the scheme matches, and api key headers by name", () => {
  const api = twoSchemes("passthrough");
  const env = envOf();
  const forward = (meta: Record<string, string>, security: string[][]) =>
    sent(upstreamCredentials(api, { meta }, { env, route: { security } }));
  const basic = `Basic ${btoa("ann:pa55-word-x")}`;
  assert.deepEqual(forward({ authorization: basic }, [["basic"]]), [{
    value: basic,
    location: "header",
    name: "Authorization",
  }]);
  assert.deepEqual(forward({ authorization: `token ${TOKEN}` }, [["petstore_auth"], ["gh"]]), [
    { value: `token ${TOKEN}`, location: "header", name: "Authorization" },
  ]);
  assert.deepEqual(forward({ api_key: TOKEN }, [["petstore_auth"], ["api_key"]]), [
    { value: TOKEN, location: "header", name: "api_key" },
  ]);
  assert.equal(codeOf(() => forward({ authorization: basic }, [["petstore_auth"]])), "UPSTREAM_AUTH_MISSING");
  assert.equal(
    codeOf(() => forward({ key: TOKEN }, [["q"]])),
    "UPSTREAM_AUTH_MISSING",
    "query keys are not forwarded",
  );
  assert.deepEqual(upstreamCredential(petPlan().api, { meta: { authorization: basic } }, env), {
    value: basic,
    location: "header",
    name: "Authorization",
  });
});

Deno.test("api-key mode takes a tenant's credentials by scheme id, a plain string for the plan's own slot", () => {
  const api = twoSchemes("api-key");
  const env = envOf({
    MCPCAST_UPSTREAM_TOKENS: JSON.stringify({ acme: { api_key: `${TOKEN}-k` }, beta: TOKEN }),
  });
  const call = (tenantId: string, security: string[][]) =>
    sent(upstreamCredentials(api, { client: { tenantId } }, { env, route: { security } }));
  assert.deepEqual(call("acme", [["petstore_auth"], ["api_key"]]), [{
    value: `${TOKEN}-k`,
    location: "header",
    name: "api_key",
  }]);
  assert.deepEqual(call("beta", [["api_key"], ["petstore_auth"]]), [
    { value: `Bearer ${TOKEN}`, location: "header", name: "Authorization" },
  ]);
  assert.equal(codeOf(() => call("acme", [["petstore_auth"]])), "UPSTREAM_AUTH_MISSING");
});

Deno.test("a plain route sends a bare token as Bearer in the Authorization header, an API key as it is", () => {
  const env = envOf({ MCPCAST_UPSTREAM_TOKEN: TOKEN });
  assert.equal(upstreamCredential(petPlan({ auth: "env-token" }).api, {}, env)?.value, `Bearer ${TOKEN}`);
  const key = petPlan({ auth: "env-token", credential_name: "X-Key" }).api;
  assert.equal(upstreamCredential(key, {}, env)?.value, TOKEN);
});

Deno.test("redaction covers every credential sent and a basic credential's password", () => {
  const credentials: Credential[] = [
    {
      value: `Basic ${btoa("ann:pa55-word-x")}`,
      location: "header",
      name: "Authorization",
      raw: "ann:pa55-word-x",
    },
    { value: `${TOKEN}-q`, location: "query", name: "key" },
  ];
  assert.equal(
    redactCredential(`pa55-word-x ann:pa55-word-x ${TOKEN}-q`, credentials),
    "[redacted] [redacted] [redacted]",
  );
});
