/**
 * Approval by the client's user over the rounds of a 2026-07-28 request (SDK v2 client on a socket):
 * the first round ends input_required with the question, the retry carrying the answer is decided;
 * both rounds are audited under one approval id, and the call is charged once by the rate limiter.
 *
 * @module
 */

import assert from "node:assert/strict";
import { verifyAuditLog } from "../audit/audit_verify.ts";
import { rateLimitMiddleware } from "../middleware/rate_limit.ts";
import { elicitationApprover } from "./elicitation_approver.ts";
import { errorOf, textOf } from "./_test_setup.ts";
import { AUDIT_SECRET, modernClient, serveBank } from "./_test_revisions.ts";

const YES = { action: "accept" as const, content: { approve: true } };

Deno.test("2026-07-28 request: the client's user approves or declines over two rounds, one approval id in both entries", async () => {
  // One call a minute per caller: the input_required round is refunded, so approving costs one call.
  const limit = rateLimitMiddleware({ ratePerMinute: 1, burst: 1 });
  await using bank = await serveBank(elicitationApprover(), { middleware: [limit] });
  const asked: string[] = [];
  await using alice = await modernClient(bank, {
    apiKey: "k-alice",
    onElicit: (message) => (asked.push(message), YES),
  });
  assert.equal(textOf(await alice.call("transfer", { amount: 5 })), "sent 5");
  assert.equal(bank.sessions(), 0, "a stateless 2026-07-28 client");
  assert.equal(asked.length, 1, "asked once, on the input_required round");
  assert.match(asked[0], /call tool 'transfer' with arguments \{"amount":5\}/);
  const [waiting, approved] = await bank.entries();
  assert.equal(waiting.status, "input_required");
  assert.deepEqual(waiting.pending, { e1: "elicitation/create" });
  assert.equal(waiting.error, undefined);
  assert.deepEqual(waiting.approval, {
    request_id: waiting.approval?.request_id,
    decision: "input_required",
  });
  assert.match(waiting.approval?.request_id ?? "", /^[0-9a-f]{32}$/);
  assert.equal(approved.status, "ok");
  assert.deepEqual(approved.approval, {
    request_id: waiting.approval?.request_id,
    decision: "approved",
    reviewer_id: "elicitation:client-user",
  });
  assert.notEqual(approved.request_id, waiting.request_id, "two rounds, two requests");

  const limited = errorOf(await alice.call("transfer", { amount: 6 }));
  assert.equal(limited.code, "RATE_LIMIT_EXCEEDED", "the approved call was charged once, and only once");
  assert.equal(asked.length, 1);
  await using carol = await modernClient(bank, {
    apiKey: "k-carol",
    onElicit: (message) => (asked.push(message), { action: "decline" }),
  });
  const declined = errorOf(await carol.call("transfer", { amount: 6 }));
  assert.equal(declined.code, "APPROVAL_DENIED");
  assert.equal(declined.message, "Approval denied for tool 'transfer': the client's user declined");
  const [, , , asking, denied] = await bank.entries();
  assert.equal(asking.status, "input_required");
  assert.equal(denied.status, "error");
  assert.equal(denied.error_code, "APPROVAL_DENIED");
  assert.equal(denied.approval?.decision, "denied");
  assert.equal(denied.approval?.request_id, asking.approval?.request_id);
  assert.equal(declined.details?.approval_request_id, asking.approval?.request_id);
  assert.notEqual(asking.approval?.request_id, waiting.approval?.request_id, "another call, another id");
  const report = await verifyAuditLog(bank.auditPath, { keys: [AUDIT_SECRET] });
  assert.equal(report.ok, true);
  assert.equal(report.entries, 5);
});
