import assert from "node:assert/strict";
import { test } from "node:test";
import { type CurationContext, curationContext } from "./context.ts";
import { readProposal } from "./proposal.ts";
import { ruleViolations } from "./rules.ts";
import { addTool, goodProposal, petSpec, toolAt } from "./_test_curate.ts";
import type { SafetyProfile } from "../types.ts";

async function contextOf(profile: SafetyProfile = "read-only", maxTools = 25): Promise<CurationContext> {
  return curationContext(await petSpec(), { profile, maxTools });
}

/** The rule violations of `proposal` (which must fit the shape). */
async function violationsOf(
  proposal: Record<string, unknown>,
  context?: CurationContext,
): Promise<string[]> {
  const read = readProposal(proposal);
  assert.ok("proposal" in read, `does not fit: ${JSON.stringify(read)}`);
  return ruleViolations(read.proposal, context ?? await contextOf());
}

/** Asserts exactly one violation, containing every fragment. */
async function assertOne(proposal: Record<string, unknown>, fragments: string[], context?: CurationContext) {
  const violations = await violationsOf(proposal, context);
  assert.equal(violations.length, 1, violations.join("\n"));
  for (const fragment of fragments) {
    assert.ok(violations[0].includes(fragment), `${violations[0]} lacks ${fragment}`);
  }
}

test("a proposal keeping every rule has no violations", async () => {
  assert.deepEqual(await violationsOf(goodProposal()), []);
});

test("the reply's shape is read strictly: unknown keys and wrong types are named by field", () => {
  const proposal = goodProposal();
  toolAt(proposal).colour = "blue";
  toolAt(proposal).risk = "harmless";
  const read = readProposal(proposal);
  assert.ok("violations" in read);
  assert.ok(
    read.violations.some((line) => line.includes("tools[0].colour: unknown key")),
    read.violations.join(),
  );
  assert.ok(read.violations.some((line) => line.includes("tools[0].risk")), read.violations.join());
  assert.ok("violations" in readProposal({ tools: [{ ...toolAt(goodProposal()), operations: [] }] }));
});

test("over budget: more tools than max_tools is a violation naming both numbers", async () => {
  const proposal = goodProposal();
  addTool(proposal, "health", "read", ["getHealth"]);
  proposal.dropped = [{ operation_id: "oldListPets", reason: "deprecated" }];
  await assertOne(proposal, ["has 2 tools, over the budget of 1"], await contextOf("read-only", 1));
});

test("invalid, reserved and duplicate tool names are violations", async () => {
  const bad = goodProposal();
  toolAt(bad).name = "Find-Pets";
  await assertOne(bad, ["tool name 'Find-Pets' must match"]);
  const reserved = goodProposal();
  toolAt(reserved).name = "delete";
  await assertOne(reserved, ["tool name 'delete' is reserved"]);
  const twice = goodProposal();
  addTool(twice, "find_pets", "read", ["getHealth"]);
  twice.dropped = [{ operation_id: "oldListPets", reason: "deprecated" }];
  await assertOne(twice, ["tool name 'find_pets' is used by more than one tool"]);
});

test("an empty description is a violation", async () => {
  const proposal = goodProposal();
  toolAt(proposal).description = "  ";
  await assertOne(proposal, ["tool 'find_pets' has an empty description"]);
});

test("unknown, unmappable, repeated and shared operations are violations", async () => {
  const unknown = goodProposal();
  toolAt(unknown).operations = ["getPet", "listPets", "getOwner"];
  await assertOne(unknown, ["lists operation 'getOwner', which is not in the catalogue"]);
  const unmappable = goodProposal();
  toolAt(unmappable).operations = ["getPet", "listPets", "uploadPhoto"];
  await assertOne(unmappable, ["'uploadPhoto', which mcpcast cannot serve", "image/png"]);
  const twice = goodProposal();
  toolAt(twice).operations = ["getPet", "listPets", "getPet"];
  await assertOne(twice, ["tool 'find_pets' lists operation 'getPet' twice"]);
  const shared = goodProposal();
  addTool(shared, "get_pet", "read", ["getPet"]);
  await assertOne(shared, ["operation 'getPet' is in both tool 'find_pets' and tool 'get_pet'"]);
});

test("keeping a deprecated operation is a violation", async () => {
  const proposal = goodProposal();
  proposal.dropped = [{ operation_id: "getHealth", reason: "health check" }];
  addTool(proposal, "old_pets", "write", ["oldListPets"]);
  await assertOne(proposal, ["tool 'old_pets' keeps deprecated operation 'oldListPets'; drop it"]);
});

test("a risk may be raised but never lowered below the classifier's highest of the tool's operations", async () => {
  const raised = goodProposal();
  toolAt(raised).risk = "write";
  assert.deepEqual(await violationsOf(raised, await contextOf("standard")), []);
  const lowered = {
    tools: [{ name: "remove_pet", description: "Remove a pet.", risk: "write", operations: ["deletePet"] }],
  };
  await assertOne(lowered, [
    "tool 'remove_pet' has risk 'write', below 'destructive' of its operation 'deletePet'",
    "never lowered",
  ], await contextOf("standard"));
});

test("adjusting a parameter the tool's operations lack is a violation", async () => {
  const proposal = goodProposal();
  toolAt(proposal).params = { colour: { description: "Fur colour" } };
  await assertOne(proposal, [
    "tool 'find_pets' adjusts parameter 'colour', which none of its operations has",
  ]);
});

test("hiding a parameter some operation requires needs a default", async () => {
  const proposal = goodProposal();
  toolAt(proposal).operations = ["getPet"];
  toolAt(proposal).params = { petId: { hidden: true, default: null } };
  toolAt(proposal).example = null;
  proposal.dropped = [...proposal.dropped as unknown[], { operation_id: "listPets", reason: "not needed" }];
  await assertOne(proposal, [
    "hides parameter 'petId', which operation 'getPet' requires, without a default",
  ]);
  toolAt(proposal).params = { petId: { hidden: true, default: 1 } };
  assert.deepEqual(await violationsOf(proposal), []);
});

test("dispatch: an operation listed after one needing a subset of its parameters can never be called", async () => {
  const proposal = goodProposal();
  toolAt(proposal).operations = ["listPets", "getPet"];
  await assertOne(proposal, [
    "tool 'find_pets': operation 'getPet' can never be called, because operation 'listPets' is listed before it",
    "list the more specific operation first",
  ]);
});

test("example keys must be visible parameters of the tool", async () => {
  const proposal = goodProposal();
  toolAt(proposal).example = { petId: 1, limit: 5, colour: "red" };
  await assertOne(proposal, ["example using unknown or hidden parameter(s) 'limit', 'colour'"]);
});

test("dropped operations must be known, not kept and dropped once, with a reason", async () => {
  const proposal = goodProposal();
  proposal.dropped = [
    { operation_id: "getHealth", reason: "health check" },
    { operation_id: "getHealth", reason: "again" },
    { operation_id: "getOwner", reason: "no" },
    { operation_id: "getPet", reason: "kept too" },
    { operation_id: "oldListPets", reason: " " },
  ];
  assert.deepEqual(await violationsOf(proposal), [
    "operation 'getHealth' is dropped twice",
    "dropped operation 'getOwner' is not in the catalogue",
    "operation 'getPet' is both in tool 'find_pets' and dropped",
    "dropped operation 'oldListPets' has no reason",
  ]);
});

test("a proposal the profile would leave empty is a violation while the catalogue has operations it keeps", async () => {
  const writes = {
    tools: [{ name: "add_pet", description: "Add a pet.", risk: "write", operations: ["createPet"] }],
  };
  await assertOne(writes, ["no proposed tool is of a risk profile 'read-only' generates"]);
  assert.deepEqual(await violationsOf(writes, await contextOf("standard")), []);
  assert.deepEqual(await violationsOf({ tools: [] }, await contextOf("standard")).then((v) => v.length), 1);
});
