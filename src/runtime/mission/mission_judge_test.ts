import assert from "node:assert/strict";
import { MissionConfigSchema } from "../config/mission_config.ts";
import { JUDGE_SYSTEM_MARKER, JudgeAnswerError, judgePrompt, parseJudgeAnswer } from "./mission_judge.ts";

Deno.test("a strict judge answer is read with every field", () => {
  const verdict = parseJudgeAnswer(
    '  {"achieved": true, "confidence": 0.85, "reasoning": "all sent", "progress_summary": "done"}\n',
  );
  assert.deepEqual(verdict, {
    achieved: true,
    confidence: 0.85,
    reasoning: "all sent",
    progress_summary: "done",
  });
});

Deno.test("malformed judge answers are refused, each with a JudgeAnswerError", () => {
  const bad = [
    "Yes, achieved.",
    '```json\n{"achieved": true, "confidence": 1, "reasoning": "", "progress_summary": ""}\n```',
    '{"achieved": "true", "confidence": 0.9, "reasoning": "r", "progress_summary": "p"}',
    '{"achieved": true, "confidence": "0.9", "reasoning": "r", "progress_summary": "p"}',
    '{"achieved": true, "confidence": 1.5, "reasoning": "r", "progress_summary": "p"}',
    '{"achieved": true, "confidence": -0.1, "reasoning": "r", "progress_summary": "p"}',
    '{"achieved": true, "confidence": 0.9, "reasoning": "r"}',
    '{"achieved": true, "confidence": 0.9, "reasoning": "r", "progress_summary": "p", "extra": 1}',
    '[{"achieved": true}]',
    "",
  ];
  for (const text of bad) {
    assert.throws(() => parseJudgeAnswer(text), JudgeAnswerError, `accepted: ${text}`);
  }
});

Deno.test("the judge prompt carries the marker, objective, criteria, counts, state, recent messages and reply", () => {
  const mission = MissionConfigSchema.parse({
    enabled: true,
    objective: "Close every ticket",
    success_criteria: "No open tickets",
  });
  const conversation = Array.from({ length: 12 }, (_, i) => ({ role: "user", content: `m${i}` }));
  const { system, user } = judgePrompt(mission, {
    invocation: 3,
    reply: "Closed the last one.",
    conversation,
    state: { open: 0 },
  });
  assert.ok(system.startsWith(JUDGE_SYSTEM_MARKER));
  assert.match(system, /"progress_summary"/);
  assert.match(user, /Objective: Close every ticket/);
  assert.match(user, /Success criteria: No open tickets/);
  assert.match(user, /Runs so far: 3/);
  assert.match(user, /Context state: \{"open":0\}/);
  assert.match(user, /Last reply: Closed the last one\./);
  assert.ok(user.includes("user: m11") && user.includes("user: m2"));
  assert.ok(!user.includes("user: m1\n"), "only the last 10 messages are shown");
});
