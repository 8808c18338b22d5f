import assert from "node:assert/strict";
import { formatAge, formatTimeLeft, itemLabel, operatorBlock, orderItems } from "./operator_block.ts";
import type { InboxItem } from "./inbox_types.ts";

const NOW = 1_800_000_000;
let next = 0;

function item(overrides: Partial<InboxItem>): InboxItem {
  return {
    message_id: `msg_${String(++next).padStart(24, "0")}`,
    message_type: "context",
    priority: "normal",
    content: "text",
    sender_id: null,
    metadata: {},
    created_at: NOW,
    expires_at: NOW + 3600,
    status: "queued",
    ...overrides,
  };
}

Deno.test("labels: capitals, priority left out for normal", () => {
  assert.equal(itemLabel(item({ message_type: "directive", priority: "high" })), "[HIGH DIRECTIVE]");
  assert.equal(itemLabel(item({ message_type: "question" })), "[QUESTION]");
  assert.equal(
    itemLabel(item({ message_type: "correction", priority: "critical" })),
    "[CRITICAL CORRECTION]",
  );
  assert.equal(itemLabel(item({ priority: "low" })), "[LOW CONTEXT]");
});

Deno.test("ages and time left are rounded down at their unit", () => {
  assert.deepEqual([0, 59, 60, 119, 3599, 3600, 7199, 90000].map(formatAge), [
    "just now",
    "just now",
    "1 min ago",
    "1 min ago",
    "59 min ago",
    "1h ago",
    "1h ago",
    "25h ago",
  ]);
  assert.deepEqual([0, 59, 60, 3599, 3600, 86400, null].map(formatTimeLeft), [
    "expires in <1 min",
    "expires in <1 min",
    "expires in 1 min",
    "expires in 59 min",
    "expires in 1h",
    "expires in 24h",
    "no expiry",
  ]);
});

Deno.test("items are ordered by priority, then oldest first", () => {
  const items = [
    item({ content: "n-new", created_at: NOW - 10 }),
    item({ content: "l-old", priority: "low", created_at: NOW - 900 }),
    item({ content: "c", priority: "critical", created_at: NOW - 5 }),
    item({ content: "n-old", created_at: NOW - 100 }),
    item({ content: "h", priority: "high", created_at: NOW - 1 }),
  ];
  assert.deepEqual(orderItems(items).map((i) => i.content), ["c", "h", "n-old", "n-new", "l-old"]);
});

Deno.test("the block, exactly: header, entries with label, number, sender, age, time left, footer", () => {
  const block = operatorBlock([
    item({
      message_type: "question",
      content: "How many orders wait?",
      created_at: NOW - 30,
      expires_at: NOW + 150,
    }),
    item({
      message_type: "directive",
      priority: "critical",
      sender_id: "ops",
      content: "Stop refunds.",
      created_at: NOW - 300,
      expires_at: NOW + 3300,
    }),
    item({
      message_type: "question",
      priority: "high",
      sender_id: "cfo",
      content: "Budget?",
      created_at: NOW - 7200,
    }),
    item({
      message_type: "context",
      priority: "low",
      content: "FYI",
      created_at: NOW - 60,
      expires_at: null,
    }),
    item({ message_type: "question", status: "answered", content: "already answered" }),
  ], NOW);
  assert.equal(
    block,
    [
      "=== OPERATOR MESSAGES ===",
      "",
      "[CRITICAL DIRECTIVE] (from: ops, 5 min ago, expires in 55 min)",
      "Stop refunds.",
      "",
      "[HIGH QUESTION] Q1 (from: cfo, 2h ago, expires in 1h)",
      "Budget?",
      'Answer in your final reply with a line starting "ANSWER Q1:".',
      "",
      "[QUESTION] Q2 (just now, expires in 2 min)",
      "How many orders wait?",
      'Answer in your final reply with a line starting "ANSWER Q2:".',
      "",
      "[LOW CONTEXT] (1 min ago, no expiry)",
      "FYI",
      "",
      "=== END OPERATOR MESSAGES ===",
    ].join("\n"),
  );
});

Deno.test("nothing pending, or only answered questions: no block", () => {
  assert.equal(operatorBlock([], NOW), "");
  assert.equal(operatorBlock([item({ message_type: "question", status: "answered" })], NOW), "");
});
