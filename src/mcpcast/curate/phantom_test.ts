import assert from "node:assert/strict";
import { test } from "node:test";
import { curationContext } from "./context.ts";
import { phantomViolations, removePhantomSentences } from "./phantom.ts";
import { type Proposal, readProposal } from "./proposal.ts";
import { addTool, goodProposal, petSpec, toolAt } from "./_test_curate.ts";
import type { SafetyProfile } from "../types.ts";

function proposalOf(value: Record<string, unknown>): Proposal {
  const read = readProposal(value);
  assert.ok("proposal" in read);
  return read.proposal;
}

/** The good proposal plus a write tool `add_pet`, with `description` on `find_pets`. */
function withAddPet(description: string, paramDescription?: string): Proposal {
  const proposal = goodProposal();
  toolAt(proposal).description = description;
  if (paramDescription !== undefined) toolAt(proposal).params = { tag: { description: paramDescription } };
  addTool(proposal, "add_pet", "write", ["createPet"]);
  return proposalOf(proposal);
}

async function contextOf(profile: SafetyProfile = "read-only") {
  return curationContext(await petSpec(), { profile, maxTools: 25 });
}

test("naming a proposed tool the profile removes is a violation saying why and what may be named", async () => {
  const proposal = withAddPet("Find pets. To create one, call add_pet.");
  const [violation, ...rest] = phantomViolations(proposal, await contextOf());
  assert.deepEqual(rest, []);
  assert.equal(
    violation,
    "tool 'find_pets' description names 'add_pet', a tool the server will not have (the proposed tool is " +
      "write, which profile 'read-only' does not generate); name only tools it has: find_pets",
  );
  assert.deepEqual(phantomViolations(proposal, await contextOf("standard")), []);
});

test("naming the derived tool name of an operation that is not a tool is a violation; served ones say by which tool", async () => {
  const context = await contextOf();
  const dropped = phantomViolations(withAddPet("Find pets. Check get_health first."), context);
  assert.equal(dropped.length, 1);
  assert.ok(dropped[0].includes("names 'get_health'"), dropped[0]);
  assert.ok(dropped[0].includes("it is the name of operation 'getHealth', which is not a tool"), dropped[0]);
  const merged = phantomViolations(withAddPet("Find pets; this replaces list_pets."), context);
  assert.ok(merged[0].includes("operation 'listPets', which tool 'find_pets' serves"), merged[0]);
  const unmappable = phantomViolations(withAddPet("Find pets. Photos need upload_photo."), context);
  assert.ok(unmappable[0].includes("'uploadPhoto', which mcpcast cannot serve"), unmappable[0]);
});

test("parameter names and unrelated snake_case words are not phantom tools; parameter descriptions are checked", async () => {
  const context = await contextOf();
  assert.deepEqual(
    phantomViolations(withAddPet("Find pets by pet_id or page_size. Uses find_pets."), context),
    [],
  );
  const inParam = phantomViolations(withAddPet("Find pets.", "Tag; create tags with add_pet."), context);
  assert.equal(inParam.length, 1);
  assert.ok(
    inParam[0].startsWith("tool 'find_pets' description of parameter 'tag' names 'add_pet'"),
    inParam[0],
  );
});

test("on the last attempt sentences naming phantom tools are removed, an emptied description falls back to the spec's", async () => {
  const context = await contextOf();
  const { proposal, removed } = removePhantomSentences(
    withAddPet("Find pets by id or page. To add one, call add_pet! Returns pets.", "Call get_health first."),
    context,
  );
  assert.deepEqual(removed, ["To add one, call add_pet!", "Call get_health first."]);
  assert.equal(proposal.tools[0].description, "Find pets by id or page. Returns pets.");
  assert.deepEqual(proposal.tools[0].params, { tag: {} });
  assert.deepEqual(phantomViolations(proposal, context), []);
  const emptied = removePhantomSentences(withAddPet("Use add_pet to add."), context);
  assert.equal(emptied.proposal.tools[0].description, "Get a pet");
  assert.equal(emptied.proposal.tools[1].description, "The add_pet tool.");
});
