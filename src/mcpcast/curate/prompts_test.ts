import assert from "node:assert/strict";
import { test } from "node:test";
import { curationContext } from "./context.ts";
import { systemPrompt, userPrompt } from "./prompts.ts";
import { petSpec } from "./_test_curate.ts";

test("the system prompt states the budget, the dispatch rule, the risk rule and the one JSON reply", () => {
  const prompt = systemPrompt(7);
  for (
    const fragment of [
      "at most 7 tools",
      "never merge a\n   read with an operation that changes data",
      "first of its operations (in the\n   order you list them) whose required parameters the caller supplied",
      "lower-case snake_case",
      "Name another tool only if it is in your proposal and the profile\n   keeps it",
      "raise a tool's risk above the\n   catalogue's, never lower it",
      "Reply with ONE JSON object",
      "Every catalogue operation appears exactly once",
    ]
  ) assert.ok(prompt.includes(fragment), `lacks: ${fragment}`);
});

test("the user prompt gives the API, the budget, the profile's classes and one catalogue line per mappable operation", async () => {
  const spec = await petSpec();
  spec.operations[0].description = "d".repeat(1_000);
  spec.operations[0].params[0].description = "p".repeat(300);
  const context = curationContext(spec, {
    profile: "standard",
    maxTools: 4,
    description: "Adopt pets. ".repeat(60),
  });
  const lines = userPrompt(context).split("\n");
  assert.equal(lines[0], `API: test — ${"Adopt pets. ".repeat(60).trim().slice(0, 500)}`);
  assert.equal(lines[1], "Operations: 6. Tool budget: at most 4 tools.");
  assert.match(lines[2], /profile 'standard' is applied: only tools of risk read, write are generated/);
  const catalogue = lines.slice(4).map((line) => JSON.parse(line));
  assert.deepEqual(catalogue.map((entry) => entry.operation_id), [
    "listPets",
    "createPet",
    "getPet",
    "deletePet",
    "getHealth",
    "oldListPets",
  ]);
  const [listPets] = catalogue;
  assert.equal(listPets.description.length, 400);
  assert.equal(listPets.params[0].description.length, 200);
  assert.deepEqual(listPets.params[0].type, "integer");
  assert.deepEqual(
    catalogue.map((entry) => [entry.risk, entry.deprecated]),
    [["read", false], ["write", false], ["read", false], ["destructive", false], ["read", false], [
      "write",
      true,
    ]],
  );
  assert.deepEqual(catalogue[1].params, [{
    name: "name",
    in: "body",
    required: true,
    type: "string",
    description: "",
  }]);
});
