import assert from "node:assert/strict";
import { test } from "node:test";
import { validatePlan } from "../plan/mod.ts";
import { curate } from "./curate.ts";
import { goodProposal, petSpec, scripted, toolAt } from "./_test_curate.ts";

test("curate turns a proposal into a valid plan: merged routes in dispatch order, params merged with the model's changes", async () => {
  const { complete } = scripted(goodProposal());
  const result = await curate(await petSpec(), { complete });
  assert.equal(validatePlan(result.plan).ok, true);
  assert.equal(result.attempts, 1);
  assert.deepEqual(result.violations, []);
  assert.deepEqual(result.renamed, { find_pets: ["getPet", "listPets"] });
  const [tool] = result.plan.tools;
  assert.equal(tool.name, "find_pets");
  assert.deepEqual(tool.routes.map((route) => route.operation_id), ["getPet", "listPets"]);
  assert.deepEqual(Object.keys(tool.params), ["petId", "limit", "tag"]);
  // Required only if every route requires it; the model's description, hidden and default applied.
  assert.equal(tool.params.petId.required, false);
  assert.deepEqual(tool.params.limit, {
    description: "How many pets to return",
    json_schema: { type: "integer", maximum: 100 },
    required: false,
    default: 20,
    hidden: true,
  });
  assert.equal(tool.params.tag.description, "");
  assert.deepEqual(tool.example, { petId: 7 });
  assert.deepEqual(tool.tags, ["pets"]);
  assert.equal(tool.requires_approval, false);
});

test("operations never mentioned are dropped as not selected; unmappable ones come last with their reason", async () => {
  const { complete } = scripted(goodProposal());
  const { plan } = await curate(await petSpec(), { complete });
  assert.deepEqual(plan.dropped, [
    { operation_id: "getHealth", reason: "health check" },
    { operation_id: "oldListPets", reason: "deprecated" },
    { operation_id: "createPet", reason: "not selected by curation" },
    { operation_id: "deletePet", reason: "not selected by curation" },
    { operation_id: "uploadPhoto", reason: "unsupported by mcpcast: request body of type image/png" },
  ]);
});

test("the profile removes tools it forbids (operations dropped with its reason) and gates the ones it keeps", async () => {
  const proposal = goodProposal();
  (proposal.tools as unknown[]).push(
    { name: "add_pet", description: "Add a pet.", risk: "write", operations: ["createPet"] },
    { name: "remove_pet", description: "Remove a pet.", risk: "destructive", operations: ["deletePet"] },
  );
  const readOnly = await curate(await petSpec(), { complete: scripted(proposal).complete });
  assert.deepEqual(readOnly.plan.tools.map((tool) => tool.name), ["find_pets"]);
  assert.deepEqual(readOnly.plan.dropped.slice(0, 2), [
    { operation_id: "createPet", reason: "write operation excluded by profile 'read-only'" },
    { operation_id: "deletePet", reason: "destructive operation excluded by profile 'read-only'" },
  ]);
  assert.deepEqual(Object.keys(readOnly.renamed), ["find_pets"]);
  const standard = await curate(await petSpec(), {
    complete: scripted(proposal).complete,
    profile: "standard",
  });
  assert.deepEqual(standard.plan.tools.map((tool) => [tool.name, tool.requires_approval]), [
    ["find_pets", false],
    ["add_pet", true],
  ]);
  assert.equal(standard.plan.profile, "standard");
  const full = await curate(await petSpec(), { complete: scripted(proposal).complete, profile: "full" });
  assert.equal(full.plan.tools.find((tool) => tool.name === "remove_pet")?.requires_approval, true);
});

test("a raised risk is accepted and gated; a lowered one is refused", async () => {
  const raised = goodProposal();
  toolAt(raised).risk = "write";
  const { plan } = await curate(await petSpec(), {
    complete: scripted(raised).complete,
    profile: "standard",
  });
  assert.deepEqual([plan.tools[0].risk, plan.tools[0].requires_approval], ["write", true]);
  const lowered = {
    tools: [{ name: "remove_pet", description: "Remove a pet.", risk: "read", operations: ["deletePet"] }],
  };
  await assert.rejects(
    curate(await petSpec(), { complete: scripted(lowered).complete, profile: "full", maxAttempts: 1 }),
    /curation failed after 1 attempt\(s\): tool 'remove_pet' has risk 'read', below 'destructive'/,
  );
});

test("an example that does not fit is replaced by a synthesised one; tags default to the operations' sorted union", async () => {
  const proposal = goodProposal();
  toolAt(proposal).example = { petId: "seven" };
  delete toolAt(proposal).tags;
  const { plan } = await curate(await petSpec(), { complete: scripted(proposal).complete });
  assert.deepEqual(plan.tools[0].example, { petId: 1 });
  assert.deepEqual(plan.tools[0].tags, ["detail", "pets"]);
});

test("the plan's API section follows the options the way buildPlan does", async () => {
  const { plan } = await curate(await petSpec(), {
    complete: scripted(goodProposal()).complete,
    name: "pets",
    baseUrl: "https://pets.example.org/api/",
    description: "Adopt pets.",
    specSource: "https://user:pw@specs.example.org/pets.json?token=x",
    auth: "env-token",
  });
  assert.equal(plan.api.name, "pets");
  assert.equal(plan.api.base_url, "https://pets.example.org/api");
  assert.equal(plan.api.description, "Adopt pets.");
  assert.equal(plan.api.auth, "env-token");
  assert.ok(!String(plan.api.spec_source).includes("pw"), String(plan.api.spec_source));
  const pending = await curate(await petSpec(), {
    complete: scripted(goodProposal()).complete,
    auth: "api-key",
    approval: "pending",
  });
  assert.deepEqual([pending.plan.api.auth, pending.plan.api.approval], ["api-key", "pending"]);
});
