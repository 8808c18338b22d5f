import assert from "node:assert/strict";
import { Conversation } from "./conversation.ts";

Deno.test("conversation drops the oldest messages past its bound, and 0 keeps everything", () => {
  const conversation = new Conversation();
  for (let i = 0; i < 4; i++) {
    conversation.append([{ role: "user", content: `q${i}` }, { role: "assistant", content: `a${i}` }], 4);
  }
  assert.deepEqual(conversation.messages().map((m) => m.content), ["q2", "a2", "q3", "a3"]);
  conversation.append([{ role: "user", content: "q4" }], 0);
  assert.equal(conversation.size, 5);
});

Deno.test("conversation restores only well-formed messages", () => {
  const conversation = new Conversation();
  conversation.restore([{ role: "user", content: "hi" }, { role: "tool", content: "x" }, {
    role: "assistant",
  }, 3]);
  assert.deepEqual(conversation.messages(), [{ role: "user", content: "hi" }]);
  conversation.restore("not a list");
  assert.equal(conversation.size, 0);
});
