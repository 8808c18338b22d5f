import assert from "node:assert/strict";
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  PromptListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { createTestClient, createToolServer } from "../../src/mcp/mod.ts";
import { DYNAMIC_LIMIT, registerListChangeTools } from "./list_change_tools.ts";

function server() {
  const built = createToolServer({ name: "list-change-tools", settings: {} });
  registerListChangeTools(built);
  return built;
}

/** Resolves once `count` notifications were seen (bounded: rejects after 2 s). */
function counter(): { seen: () => void; reached: (count: number) => Promise<void> } {
  let total = 0;
  const waiters: Array<() => void> = [];
  return {
    seen: () => {
      total++;
      for (const wake of waiters.splice(0)) wake();
    },
    reached: async (count) => {
      const deadline = Date.now() + 2_000;
      while (total < count) {
        assert.ok(Date.now() < deadline, `expected ${count} notifications, saw ${total}`);
        await new Promise<void>((wake) => {
          waiters.push(wake);
          setTimeout(wake, 50);
        });
      }
    },
  };
}

Deno.test("test_trigger_tool_change adds a numbered tool and sessions hear tools/list_changed", async () => {
  await using client = await createTestClient(server());
  const changes = counter();
  client.client.setNotificationHandler(ToolListChangedNotificationSchema, changes.seen);
  const before = (await client.listTools()).map((tool) => tool.name);
  assert.deepEqual(before, ["test_trigger_tool_change", "test_trigger_prompt_change"]);
  const result = await client.callTool("test_trigger_tool_change");
  assert.deepEqual(result.content, [{ type: "text", text: "Added tool dynamic_tool_1" }]);
  await changes.reached(1);
  await client.callTool("test_trigger_tool_change");
  await changes.reached(2);
  const after = (await client.listTools()).map((tool) => tool.name);
  assert.deepEqual(after, [...before, "dynamic_tool_1", "dynamic_tool_2"]);
  assert.deepEqual((await client.callTool("dynamic_tool_2")).content, [
    { type: "text", text: "dynamic_tool_2 ran" },
  ]);
});

Deno.test("test_trigger_prompt_change adds a numbered prompt and sessions hear prompts/list_changed", async () => {
  await using client = await createTestClient(server());
  const changes = counter();
  client.client.setNotificationHandler(PromptListChangedNotificationSchema, changes.seen);
  assert.deepEqual(await client.listPrompts(), []);
  await client.callTool("test_trigger_prompt_change");
  await changes.reached(1);
  assert.deepEqual((await client.listPrompts()).map((prompt) => prompt.name), ["dynamic_prompt_1"]);
  const got = await client.getPrompt("dynamic_prompt_1");
  assert.deepEqual(got.messages, [{
    role: "user",
    content: { type: "text", text: "This is dynamic_prompt_1." },
  }]);
});

Deno.test("the triggers stop adding items at the limit with a tool error", async () => {
  await using client = await createTestClient(server());
  for (let i = 0; i < DYNAMIC_LIMIT; i++) await client.callTool("test_trigger_prompt_change");
  const refused = await client.callTool("test_trigger_prompt_change");
  assert.equal(refused.isError, true);
  assert.match(JSON.stringify(refused.content), /LIMIT_REACHED/);
  assert.equal((await client.listPrompts()).length, DYNAMIC_LIMIT);
});
