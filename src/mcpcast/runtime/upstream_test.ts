import assert from "node:assert/strict";
import { ToolError } from "../../mcp/mod.ts";
import { McpcastError } from "../errors.ts";
import { petPlan, TOKEN } from "../_test_plans.ts";
import { envOf, fakeUpstream, toolOf } from "./_test_runtime.ts";
import { Upstream } from "./upstream.ts";

const BEARER = { meta: { authorization: `Bearer ${TOKEN}` } };

async function failure(promise: Promise<unknown>): Promise<ToolError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof ToolError, `expected a ToolError, got ${error}`);
    return error;
  }
  assert.fail("the call should have failed");
}

function assertNoSecret(error: ToolError): void {
  assert.ok(!JSON.stringify(error.toPayload()).includes(TOKEN), "the error echoes the credential");
}

Deno.test("call sends the first route whose required params were given, with hidden defaults", async () => {
  const plan = petPlan();
  const fake = fakeUpstream();
  const upstream = new Upstream(plan.api, { fetch: fake.fetch, tools: plan.tools });
  const result = await upstream.call(toolOf(plan, "get_pet"), {
    petId: "a b/c",
    tags: ["x", "y"],
    flag: true,
  }, BEARER);
  assert.deepEqual(result, { ok: true });
  const [request] = fake.seen;
  assert.equal(request.method, "GET");
  assert.equal(request.url.pathname, "/v1/pets/a%20b%2Fc");
  assert.deepEqual([...request.url.searchParams], [["tags", "x"], ["tags", "y"], ["flag", "true"], [
    "api_version",
    "2024-01",
  ]]);
  assert.equal(request.headers.get("authorization"), `Bearer ${TOKEN}`);
  await upstream.call(toolOf(plan, "find_pets"), { name: "Rex", species: "dog" }, BEARER);
  assert.equal(fake.seen[1].url.pathname + fake.seen[1].url.search, "/v1/pets?name=Rex&species=dog");
  await upstream.call(toolOf(plan, "find_pets"), { owner: "ann", name: "Rex" }, BEARER);
  assert.equal(fake.seen[2].url.pathname, "/v1/owners/ann/pets", "the first route wins when both could run");
});

Deno.test("call refuses arguments no route can use, naming the alternatives", async () => {
  const plan = petPlan();
  const fake = fakeUpstream();
  const upstream = new Upstream(plan.api, { fetch: fake.fetch });
  const error = await failure(upstream.call(toolOf(plan, "find_pets"), { name: "Rex" }, BEARER));
  assert.equal(error.code, "VALIDATION_ERROR");
  assert.match(error.message, /Provide one of: owner \| name \+ species/);
  assert.equal(error.retryable, false);
  assert.equal(fake.seen.length, 0);
});

Deno.test("call sends JSON bodies under wire names and form bodies in bracket notation", async () => {
  const plan = petPlan();
  const fake = fakeUpstream(() => new Response(null, { status: 201 }));
  const upstream = new Upstream(plan.api, { fetch: fake.fetch });
  const created = await upstream.call(
    toolOf(plan, "create_pet"),
    { owner: "ann", body_owner: "bob", name: "Rex", note: null },
    BEARER,
  );
  assert.deepEqual(created, { status: 201 });
  assert.equal(fake.seen[0].headers.get("content-type"), "application/json");
  assert.deepEqual(JSON.parse(fake.seen[0].body), { owner: "bob", name: "Rex" });
  await upstream.call(toolOf(plan, "charge"), {
    amount: 500,
    metadata: { order: "7", lines: [{ sku: "a" }] },
  }, BEARER);
  assert.equal(fake.seen[1].headers.get("content-type"), "application/x-www-form-urlencoded");
  assert.equal(
    decodeURIComponent(fake.seen[1].body),
    "amount=500&metadata[order]=7&metadata[lines][0][sku]=a",
  );
});

Deno.test("each auth mode presents its own credential in the plan's slot", async () => {
  const fake = fakeUpstream();
  const envToken = petPlan({ auth: "env-token", credential_location: "query", credential_name: "api_key" });
  await new Upstream(envToken.api, { fetch: fake.fetch, env: envOf({ MCPCAST_UPSTREAM_TOKEN: TOKEN }) })
    .call(toolOf(envToken, "get_pet"), { petId: "1" });
  assert.equal(fake.seen[0].url.searchParams.get("api_key"), TOKEN);
  assert.equal(fake.seen[0].headers.get("authorization"), null);

  const apiKey = petPlan({ auth: "api-key", credential_name: "X-Api-Key" });
  const tokens = envOf({
    MCPCAST_UPSTREAM_TOKENS: JSON.stringify({ acme: `${TOKEN}-acme`, beta: `${TOKEN}-beta` }),
  });
  const tenantUpstream = new Upstream(apiKey.api, { fetch: fake.fetch, env: tokens });
  await tenantUpstream.call(toolOf(apiKey, "get_pet"), { petId: "1" }, { client: { tenantId: "beta" } });
  assert.equal(fake.seen[1].headers.get("x-api-key"), `${TOKEN}-beta`);

  const none = petPlan({ auth: "none" });
  await new Upstream(none.api, { fetch: fake.fetch }).call(toolOf(none, "get_pet"), { petId: "1" }, BEARER);
  assert.equal(fake.seen[2].headers.get("authorization"), null, "auth none forwards nothing");
});

Deno.test("a missing or malformed credential fails before anything is sent, without echoing it", async () => {
  const fake = fakeUpstream();
  const plan = petPlan();
  const upstream = new Upstream(plan.api, { fetch: fake.fetch });
  const tool = toolOf(plan, "get_pet");
  assert.equal((await failure(upstream.call(tool, { petId: "1" }, {}))).code, "UPSTREAM_AUTH_MISSING");
  const bearerOnly = { ...tool, routes: tool.routes.map((route) => ({ ...route, security: [["bearer"]] })) };
  const schemes = { bearer: { type: "bearer", in: "header", name: "Authorization" } } as const;
  const basic = await failure(
    new Upstream({ ...plan.api, security_schemes: schemes }, { fetch: fake.fetch })
      .call(bearerOnly, { petId: "1" }, { meta: { authorization: `Basic ${TOKEN}` } }),
  );
  assert.equal(basic.code, "UPSTREAM_AUTH_MISSING", "a Basic header does not meet a bearer scheme");
  const placeholder = petPlan({ auth: "env-token" });
  const invalid = await failure(
    new Upstream(placeholder.api, { fetch: fake.fetch, env: envOf({ MCPCAST_UPSTREAM_TOKEN: `<${TOKEN}>` }) })
      .call(toolOf(placeholder, "get_pet"), { petId: "1" }),
  );
  assert.equal(invalid.code, "UPSTREAM_AUTH_INVALID");
  assert.match(invalid.message, /MCPCAST_UPSTREAM_TOKEN/);
  for (const error of [basic, invalid]) assertNoSecret(error);
  assert.equal(fake.seen.length, 0);
});

Deno.test("a credential is never sent over plain http to a host that is not loopback", async () => {
  const fake = fakeUpstream();
  const remote = petPlan({ base_url: "http://api.example.com" });
  const refused = await failure(
    new Upstream(remote.api, { fetch: fake.fetch }).call(toolOf(remote, "get_pet"), { petId: "1" }, BEARER),
  );
  assert.equal(refused.code, "UPSTREAM_INSECURE");
  assert.equal(fake.seen.length, 0);
  const local = petPlan({ base_url: "http://127.0.0.1:9" });
  await new Upstream(local.api, { fetch: fake.fetch }).call(toolOf(local, "get_pet"), { petId: "1" }, BEARER);
  await new Upstream(remote.api, { fetch: fake.fetch, allowInsecureHttp: true })
    .call(toolOf(remote, "get_pet"), { petId: "1" }, BEARER);
  const none = petPlan({ base_url: "http://api.example.com", auth: "none" });
  await new Upstream(none.api, { fetch: fake.fetch }).call(toolOf(none, "get_pet"), { petId: "1" });
  assert.equal(fake.seen.length, 3);
});

Deno.test("a stalled upstream fails with UPSTREAM_TIMEOUT, retryable", async () => {
  const plan = petPlan();
  const stalled = (request: Request) =>
    new Promise<Response>((_, reject) =>
      request.signal.addEventListener("abort", () => reject(request.signal.reason))
    );
  const upstream = new Upstream(plan.api, { fetch: stalled, timeoutSeconds: 0.05 });
  const error = await failure(upstream.call(toolOf(plan, "get_pet"), { petId: "1" }, BEARER));
  assert.equal(error.code, "UPSTREAM_TIMEOUT");
  assert.equal(error.retryable, true);
  assert.deepEqual(error.details, { timeout: 0.05 });
  const endless = () =>
    Promise.resolve(new Response(new ReadableStream({ start: (c) => c.enqueue(new Uint8Array(1)) })));
  const slowBody = new Upstream(plan.api, { fetch: endless, timeoutSeconds: 0.05 });
  assert.equal(
    (await failure(slowBody.call(toolOf(plan, "get_pet"), { petId: "1" }, BEARER))).code,
    "UPSTREAM_TIMEOUT",
  );
});

Deno.test("answers over the byte cap fail, declared or streamed", async () => {
  const plan = petPlan();
  const declared = () =>
    Promise.resolve(new Response("x".repeat(64), { headers: { "content-length": "64" } }));
  const streamed = () =>
    Promise.resolve(
      new Response(
        new ReadableStream({
          start(controller) {
            for (let i = 0; i < 8; i++) controller.enqueue(new Uint8Array(16));
            controller.close();
          },
        }),
      ),
    );
  for (const fetch of [declared, streamed]) {
    const upstream = new Upstream(plan.api, { fetch, maxResponseBytes: 32 });
    const error = await failure(upstream.call(toolOf(plan, "get_pet"), { petId: "1" }, BEARER));
    assert.equal(error.code, "UPSTREAM_RESPONSE_TOO_LARGE");
    assert.deepEqual(error.details, { status: 200, limit: 32 });
  }
});

Deno.test("HTTP errors map to UPSTREAM_ERROR with status, retry hints, and the credential redacted", async () => {
  const plan = petPlan();
  const tool = toolOf(plan, "get_pet");
  const cases: Array<[number, boolean, Record<string, string>]> = [
    [404, false, {}],
    [401, false, {}],
    [429, true, { "retry-after": "7" }],
    [503, true, {}],
  ];
  for (const [status, retryable, headers] of cases) {
    const answer = () => new Response(`denied for Bearer ${TOKEN} (raw ${TOKEN})`, { status, headers });
    const error = await failure(
      new Upstream(plan.api, { fetch: fakeUpstream(answer).fetch }).call(tool, { petId: "1" }, BEARER),
    );
    assert.equal(error.code, "UPSTREAM_ERROR");
    assert.equal(error.retryable, retryable, `status ${status}`);
    assert.equal(error.details.status, status);
    assert.match(
      error.message,
      new RegExp(`^GET /pets/\\{petId\\} returned HTTP ${status}: denied for \\[redacted\\]`),
    );
    assertNoSecret(error);
  }
  const limited = () => new Response("slow down", { status: 429, headers: { "retry-after": "7" } });
  const error = await failure(
    new Upstream(plan.api, { fetch: fakeUpstream(limited).fetch }).call(tool, { petId: "1" }, BEARER),
  );
  assert.equal(error.details.retry_after_seconds, 7);
  assert.match(error.suggestion ?? "", /Wait 7 seconds/);
  const quiet = new Upstream(plan.api, { fetch: fakeUpstream(limited).fetch, errorExcerptChars: 0 });
  assert.equal(
    (await failure(quiet.call(tool, { petId: "1" }, BEARER))).message,
    "GET /pets/{petId} returned HTTP 429",
  );
});

Deno.test("transport failures are UPSTREAM_UNREACHABLE naming only the error type", async () => {
  const plan = petPlan({ auth: "env-token", credential_location: "query", credential_name: "key" });
  const broken = (request: Request) =>
    Promise.reject(new TypeError(`error sending request for url (${request.url})`));
  const upstream = new Upstream(plan.api, {
    fetch: fakeUpstream(broken).fetch,
    env: envOf({ MCPCAST_UPSTREAM_TOKEN: TOKEN }),
  });
  const error = await failure(upstream.call(toolOf(plan, "get_pet"), { petId: "1" }));
  assert.equal(error.code, "UPSTREAM_UNREACHABLE");
  assert.equal(error.retryable, true);
  assert.equal(error.message, "Could not reach the upstream API (TypeError)");
  assertNoSecret(error);
});

Deno.test("JSON answers come back as values, text as text, with the credential redacted", async () => {
  const plan = petPlan();
  const tool = toolOf(plan, "get_pet");
  const json = () => Response.json({ echo: `Bearer ${TOKEN}` });
  assert.deepEqual(
    await new Upstream(plan.api, { fetch: fakeUpstream(json).fetch }).call(tool, { petId: "1" }, BEARER),
    {
      echo: "[redacted]",
    },
  );
  const text = () => new Response(`hello ${TOKEN}`, { headers: { "content-type": "text/plain" } });
  assert.equal(
    await new Upstream(plan.api, { fetch: fakeUpstream(text).fetch }).call(tool, { petId: "1" }, BEARER),
    "hello [redacted]",
  );
  const broken = () => new Response("{oops", { headers: { "content-type": "application/json" } });
  assert.equal(
    (await failure(
      new Upstream(plan.api, { fetch: fakeUpstream(broken).fetch }).call(tool, { petId: "1" }, BEARER),
    )).code,
    "UPSTREAM_ERROR",
  );
});

Deno.test("MCPCAST_BASE_URL's override replaces the plan's base URL", async () => {
  const plan = petPlan();
  const fake = fakeUpstream();
  const upstream = new Upstream(plan.api, { fetch: fake.fetch, baseUrl: "https://staging.example.com/api" });
  await upstream.call(toolOf(plan, "get_pet"), { petId: "1" }, BEARER);
  assert.equal(fake.seen[0].url.href, "https://staging.example.com/api/pets/1?api_version=2024-01");
});

Deno.test("a route's own server wins over MCPCAST_BASE_URL, which replaces only the plan's", async () => {
  const plan = petPlan();
  const fake = fakeUpstream();
  const upstream = new Upstream(plan.api, { fetch: fake.fetch, baseUrl: "https://staging.example.com/api" });
  const tool = toolOf(plan, "get_pet");
  const own = {
    ...tool,
    routes: tool.routes.map((route) => ({ ...route, base_url: "https://files.example.com" })),
  };
  await upstream.call(own, { petId: "1" }, BEARER);
  assert.equal(fake.seen[0].url.origin, "https://files.example.com");
});

Deno.test("one call sends every credential of its requirement: header, query parameter and cookies", async () => {
  const plan = petPlan({
    auth: "env-token",
    security_schemes: {
      key: { type: "api_key", in: "header", name: "X-Key" },
      q: { type: "api_key", in: "query", name: "key" },
      a: { type: "api_key", in: "cookie", name: "a" },
      b: { type: "api_key", in: "cookie", name: "b" },
    },
  });
  const fake = fakeUpstream();
  const env = envOf({
    MCPCAST_UPSTREAM_TOKEN_KEY: `${TOKEN}-h`,
    MCPCAST_UPSTREAM_TOKEN_Q: `${TOKEN}-q`,
    MCPCAST_UPSTREAM_TOKEN_A: "va",
    MCPCAST_UPSTREAM_TOKEN_B: "vb",
  });
  const tool = toolOf(plan, "get_pet");
  const secured = {
    ...tool,
    routes: tool.routes.map((route) => ({ ...route, security: [["key", "q", "a", "b"]] })),
  };
  await new Upstream(plan.api, { fetch: fake.fetch, env }).call(secured, { petId: "1" });
  const [seen] = fake.seen;
  assert.equal(seen.headers.get("x-key"), `${TOKEN}-h`);
  assert.equal(seen.url.searchParams.get("key"), `${TOKEN}-q`);
  assert.equal(seen.headers.get("cookie"), "a=va; b=vb");
  assert.equal(seen.headers.get("authorization"), null);
  const open = { ...tool, routes: tool.routes.map((route) => ({ ...route, security: [] })) };
  await new Upstream(plan.api, { fetch: fake.fetch, env: envOf() }).call(open, { petId: "1" });
  assert.equal(fake.seen[1].headers.get("authorization"), null, "security: [] needs and sends nothing");
});

Deno.test("tool and pick find plan tools, and name a tool the plan lacks", () => {
  const plan = petPlan();
  const upstream = new Upstream(plan.api, { tools: plan.tools });
  const picked = upstream.pick(["get_pet", "charge"]);
  assert.equal(picked.get_pet.name, "get_pet");
  assert.deepEqual(Object.keys(picked), ["get_pet", "charge"]);
  assert.throws(
    () => upstream.tool("gone"),
    (error) => error instanceof McpcastError && /'gone'/.test(error.message),
  );
});
