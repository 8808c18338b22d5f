import assert from "node:assert/strict";
import { z } from "zod";
import { coercePromptArguments, promptArguments, toPromptResult } from "./prompt_values.ts";

const schema = z.object({
  topic: z.string().describe("What to write about"),
  count: z.number().int().optional(),
  formal: z.boolean().default(false),
  tags: z.array(z.string()).optional(),
});

Deno.test("prompt arguments are advertised with descriptions and required flags", () => {
  assert.deepEqual(promptArguments(schema), [
    { name: "topic", required: true, description: "What to write about" },
    { name: "count", required: false },
    { name: "formal", required: false },
    { name: "tags", required: false },
  ]);
  assert.deepEqual(promptArguments(undefined), []);
});

Deno.test("prompt string arguments are coerced to the schema's types", () => {
  const args = coercePromptArguments({ topic: "x", count: "3", formal: "true", tags: '["a"]' }, schema);
  assert.deepEqual(args, { topic: "x", count: 3, formal: true, tags: ["a"] });
  assert.deepEqual(schema.parse(args).count, 3);
});

Deno.test("prompt coercion leaves unparseable values for validation to refuse", () => {
  const args = coercePromptArguments({ count: "many", formal: "yes", tags: "[" }, schema);
  assert.deepEqual(args, { count: Number.NaN, formal: "yes", tags: "[" });
  assert.equal(schema.safeParse({ topic: "x", ...args }).success, false);
});

Deno.test("prompt results accept strings, messages, lists and full results", () => {
  assert.deepEqual(toPromptResult("hi", "d"), {
    description: "d",
    messages: [{ role: "user", content: { type: "text", text: "hi" } }],
  });
  assert.deepEqual(toPromptResult([{ role: "assistant", content: "ok" }, "next"]).messages, [
    { role: "assistant", content: { type: "text", text: "ok" } },
    { role: "user", content: { type: "text", text: "next" } },
  ]);
  const full = { messages: [{ role: "user" as const, content: { type: "text" as const, text: "x" } }] };
  assert.equal(toPromptResult(full), full);
});
