import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { parseSpec } from "../../mcpcast/mod.ts";
import {
  approvalChoices,
  authChoices,
  credentialOf,
  equivalentCommand,
  previewOf,
  previewPlans,
  quoteArgument,
  riskBreakdown,
} from "./preview.ts";

const spec = (name: string) =>
  fileURLToPath(new URL(`../../../tests/fixtures/specs/${name}`, import.meta.url));

Deno.test("the preview breaks the operations down by risk and counts what each profile keeps", async () => {
  const parsed = await parseSpec(spec("petstore_swagger2.yaml"));
  assert.equal(riskBreakdown(parsed), "20 operations: 7 read · 10 write · 3 destructive");
  const plans = previewPlans(parsed);
  assert.deepEqual(previewOf(plans["read-only"]), { kept: 7, gated: 0, dropped: 13 });
  assert.deepEqual(previewOf(plans.standard), { kept: 16, gated: 9, dropped: 4 });
  assert.equal(previewOf(plans.full).gated, previewOf(plans.full).kept - 7);
  assert.equal(credentialOf(plans.full), "header 'Authorization'");
});

Deno.test("passthrough is offered only when the credential is the Authorization header", async () => {
  const parsed = await parseSpec(spec("petstore_swagger2.yaml"));
  const plan = previewPlans(parsed)["read-only"];
  assert.equal(authChoices(plan).find((c) => c.value === "passthrough")?.unavailable, undefined);
  const query = {
    ...plan,
    api: { ...plan.api, credential_location: "query" as const, credential_name: "key" },
  };
  assert.match(
    authChoices(query).find((c) => c.value === "passthrough")!.unavailable!,
    /query parameter 'key'/,
  );
  assert.deepEqual(authChoices(plan).map((c) => c.value), ["env-token", "passthrough", "api-key", "none"]);
});

Deno.test("pending approval is offered only with api-key auth", () => {
  assert.deepEqual(approvalChoices("api-key").map((c) => c.value), ["pending", "elicitation"]);
  assert.deepEqual(approvalChoices("env-token").map((c) => c.value), ["elicitation"]);
});

Deno.test("the equivalent command lists the auth mode and what differs from the defaults, shell-quoted", () => {
  assert.equal(
    equivalentCommand({ source: "spec.yaml", profile: "read-only", auth: "passthrough", force: false }),
    "agentry mcpcast spec.yaml --auth passthrough",
  );
  assert.equal(
    equivalentCommand({
      source: "my specs/it's.yaml",
      baseUrl: "http://127.0.0.1:8000",
      profile: "full",
      auth: "api-key",
      approval: "pending",
      name: "pets",
      out: "./out dir",
      force: true,
    }),
    "agentry mcpcast 'my specs/it'\\''s.yaml' --base-url http://127.0.0.1:8000 --profile full --auth api-key " +
      "--name pets --out './out dir' --force",
  );
  assert.equal(
    equivalentCommand({
      source: "s.yaml",
      profile: "read-only",
      auth: "passthrough",
      force: false,
      frameworkImport: "file:///src/agentry",
    }),
    "agentry mcpcast s.yaml --auth passthrough --framework-import file:///src/agentry",
  );
  assert.equal(quoteArgument("a$b"), "'a$b'");
});
