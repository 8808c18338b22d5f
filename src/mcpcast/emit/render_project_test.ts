import assert from "node:assert/strict";
import { McpcastError } from "../errors.ts";
import { loadPlan } from "../plan/yaml.ts";
import { emitPlan, HOSTILE } from "./_test_emit.ts";
import { hasGeneratedHeader } from "./header.ts";
import { renderProject } from "./render_project.ts";
import { typeScriptProblem } from "./syntax_check.ts";

Deno.test("a project has the plan, launcher, server, one module per group, tests, README and scaffold", () => {
  const files = renderProject(emitPlan());
  assert.deepEqual(Object.keys(files), [
    "mcpcast.plan.yaml",
    "deno.json",
    "main.ts",
    "src/server.ts",
    "src/tools/pets.ts",
    "src/tools/orders.ts",
    "tests/tools_test.ts",
    "README.md",
    "Dockerfile",
    ".env.example",
    ".gitignore",
  ]);
  assert.deepEqual(loadPlan(files["mcpcast.plan.yaml"]), emitPlan());
  for (
    const path of [
      "deno.json",
      "main.ts",
      "src/server.ts",
      "src/tools/pets.ts",
      "tests/tools_test.ts",
      "README.md",
    ]
  ) {
    assert.ok(hasGeneratedHeader(files[path]), `${path} has the header`);
  }
  for (const path of ["Dockerfile", ".env.example", ".gitignore"]) {
    assert.ok(!hasGeneratedHeader(files[path]));
  }
  assert.equal(renderProject(emitPlan(), { includePlan: false })["mcpcast.plan.yaml"], undefined);
});

Deno.test("hostile plan text cannot change generated code: every module parses and carries no raw text", () => {
  const files = renderProject(emitPlan());
  for (const [path, text] of Object.entries(files)) {
    if (path.endsWith(".ts")) assert.equal(typeScriptProblem(text), undefined, path);
    if (path.endsWith(".ts")) assert.ok(!text.includes("evil()`"), `${path} carries the raw text`);
  }
  const pets = files["src/tools/pets.ts"];
  assert.match(pets, /^ \* - get_pet \(read\): Fetch a pet\. Ends \* \/ here;/m);
  assert.match(pets, /server\.tool\(\n {4}"get_pet",\n {4}planToolOptions\(TOOLS\.get_pet\),/);
  assert.match(files["src/server.ts"], /import \* as pets_tools from "\.\/tools\/pets\.ts";/);
  assert.match(files["src/server.ts"], /orders_tools\.register\(server, upstream\);/);
  const readme = files["README.md"];
  assert.ok(!readme.includes(HOSTILE.split("\n")[0]), "README carries unescaped text");
  assert.match(readme, /Ends \\\*\/ here; \\`\$\{evil\(\)\}\\`/);
});

Deno.test("the generated tests call each read example and each gated tool", () => {
  const tests = renderProject(emitPlan())["tests/tools_test.ts"];
  assert.match(tests, /\{"tool":"get_pet","args":\{"petId":"7"\},"method":"GET","target":"\/v1\/pets\/7\?v=/);
  assert.match(
    tests,
    /\{"tool":"list_orders","args":\{\},"method":"GET","target":"\/v1\/orders","operation":"listOrders"\}/,
  );
  assert.match(tests, /GATED_CALLS: readonly Call\[\] = \[\n {2}\{"tool":"create_order"/);
  assert.match(tests, /"authorization": "Bearer test-token"/);
  assert.doesNotMatch(tests, /checkRequest/, "no contract test without the spec");
});

Deno.test("with the spec, the project carries its operations and a contract test that checks against them", () => {
  const spec = {
    openapi: "3.0.3",
    paths: {
      "/orders": {
        get: {
          parameters: [{ $ref: "#/components/parameters/Limit" }],
          responses: { "200": { description: "ok" } },
        },
      },
    },
    components: {
      parameters: { Limit: { name: "limit", in: "query", schema: { $ref: "#/components/schemas/Count" } } },
      schemas: { Count: { type: "integer" }, Unused: { type: "string" } },
    },
  };
  const files = renderProject(emitPlan(), { spec });
  const contract = JSON.parse(files["tests/contract.json"]);
  assert.deepEqual(contract.operations.listOrders, {
    method: "GET",
    path: "/orders",
    parameters: [{
      name: "limit",
      in: "query",
      required: false,
      schema: { $ref: "#/components/schemas/Count" },
    }],
  });
  assert.deepEqual(contract.components, { schemas: { Count: { type: "integer" } } });
  assert.equal(contract.operations.getPet, undefined, "a route the spec lacks is left out");
  const tests = files["tests/tools_test.ts"];
  assert.match(tests, /import CONTRACT_JSON from "\.\/contract\.json" with \{ type: "json" \};/);
  assert.match(tests, /checkRequest\(CONTRACT, call\.operation, upstream\.received\[0\]/);
});

Deno.test("deno.json maps the framework, and the Dockerfile serves HTTP only for header-carrying modes", () => {
  const files = renderProject(emitPlan(), { frameworkImport: "jsr:@agentry/agentry@^0.2/" });
  const config = JSON.parse(files["deno.json"].split("\n").slice(1).join("\n"));
  assert.deepEqual(config.imports, { "@agentry/agentry/": "jsr:/@agentry/agentry@^0.2/" });
  const published = JSON.parse(renderProject(emitPlan())["deno.json"].split("\n").slice(1).join("\n"));
  assert.deepEqual(published.imports, { "@agentry/agentry/": "jsr:/@agentry/agentry@^0.1/" });
  assert.deepEqual(Object.keys(config.tasks), ["start", "start:http", "test", "check"]);
  assert.deepEqual(config.unstable, ["no-legacy-abort"]); // no Deno.serve legacy-abort warning
  assert.match(files.Dockerfile, /--host", "0\.0\.0\.0"/);
  assert.match(files.Dockerfile, /^USER deno$/m);
  const local = renderProject(emitPlan({ auth: "env-token" }));
  assert.doesNotMatch(local.Dockerfile, /"--transport"/);
  assert.match(local[".env.example"], /^MCPCAST_UPSTREAM_TOKEN=<token>$/m);
  assert.match(local[".env.example"], /^# MCPCAST_BASE_URL=https:\/\/api\.example\.com\/v1$/m);
});

Deno.test("the README says exactly what to put in each credential variable, per scheme", () => {
  const plan = emitPlan({
    auth: "env-token",
    security_schemes: {
      oauth: { type: "bearer", in: "header", name: "Authorization" },
      key: { type: "api_key", in: "query", name: "api-key" },
      login: { type: "basic", in: "header", name: "Authorization" },
    },
  });
  const readme = renderProject(plan)["README.md"];
  const connect = readme.slice(readme.indexOf("## Connect an AI"));
  assert.match(
    connect,
    /`MCPCAST_UPSTREAM_TOKEN` \(security scheme `oauth`\): the bare token \(the server sends `Authorization: Bearer <token>`/,
  );
  assert.match(
    connect,
    /`MCPCAST_UPSTREAM_TOKEN_KEY` \(security scheme `key`\): the API key itself, sent as it is in query parameter `api-key`/,
  );
  assert.match(connect, /"MCPCAST_UPSTREAM_TOKEN_KEY": "<api key>"/);
  assert.match(connect, /both MCP protocol revisions, on stdio and HTTP: 2025-era clients/);
  assert.match(connect, /`MCPCAST_UPSTREAM_TOKEN_LOGIN` \(security scheme `login`\): `user:password`/);
  assert.match(
    connect,
    /--env MCPCAST_UPSTREAM_TOKEN="<token>" --env MCPCAST_UPSTREAM_TOKEN_KEY="<api key>"/,
  );
  const basic = renderProject(emitPlan({
    auth: "env-token",
    credential_name: "Authorization",
    security_schemes: { login: { type: "basic", in: "header", name: "Authorization" } },
  }))["README.md"];
  assert.match(
    basic,
    /`MCPCAST_UPSTREAM_TOKEN` \(security scheme `login`\): `user:password` \(the server sends `Authorization: Basic <base64>`\)/,
  );
  const tenants =
    renderProject({ ...plan, api: { ...plan.api, auth: "api-key", approval: null } })["README.md"];
  assert.match(tenants, /both MCP protocol revisions/, "the HTTP README says so too");
  assert.match(
    tenants,
    /MCPCAST_UPSTREAM_TOKENS='\{"acme": \{"oauth":"<token>","key":"<api key>","login":"<user>:<password>"\}\}'/,
  );
});

Deno.test("a tool name that is not a valid tool name is refused before rendering", () => {
  const plan = emitPlan();
  plan.tools[0] = { ...plan.tools[0], name: "x); evil(" };
  assert.throws(() => renderProject(plan), McpcastError);
});

Deno.test("the contract file carries no external reference (nor the credentials its URL may hold)", () => {
  const spec = {
    openapi: "3.0.3",
    paths: {
      "/orders": {
        get: {
          parameters: [{
            name: "limit",
            in: "query",
            schema: { $ref: "https://u:s3cret@schemas.example/x.json#/L" },
          }],
          responses: { "200": { description: "ok" } },
        },
      },
    },
  };
  const text = renderProject(emitPlan(), { spec })["tests/contract.json"];
  assert.ok(!text.includes("s3cret") && !text.includes("schemas.example"), text);
  assert.deepEqual(JSON.parse(text).operations.listOrders.parameters[0].schema, {});
});
