/**
 * Approvals end to end on a real socket, over a 2025-era session (SDK v1 client) and a 2026-07-28
 * request (SDK v2 client): approved, declined, refused for lack of elicitation, and decided by a
 * reviewer from another client; the audit file is read each time.
 *
 * @module
 */

import assert from "node:assert/strict";
import { verifyAuditLog } from "../audit/audit_verify.ts";
import { elicitationApprover } from "./elicitation_approver.ts";
import { PendingApprover } from "./pending_approver.ts";
import { errorOf, textOf, waitFor } from "./_test_setup.ts";
import { AUDIT_SECRET, legacyClient, modernClient, serveBank } from "./_test_revisions.ts";

const YES = { action: "accept" as const, content: { approve: true } };

Deno.test("2025 session: the client's user approves, declines, or cannot be asked; one audit entry each", async () => {
  await using bank = await serveBank(elicitationApprover());
  const asked: string[] = [];
  let answer: typeof YES | { action: "decline" } = YES;
  await using alice = await legacyClient(bank, {
    apiKey: "k-alice",
    onElicit: (message) => (asked.push(message), answer),
  });
  assert.equal(textOf(await alice.call("transfer", { amount: 5 })), "sent 5");
  assert.match(asked[0], /call tool 'transfer' with arguments \{"amount":5\}/);
  let [entry] = await bank.entries();
  assert.equal(entry.status, "ok");
  assert.equal(entry.client_id, "alice");
  assert.equal(entry.approval?.decision, "approved");
  assert.equal(entry.approval?.reviewer_id, "elicitation:client-user");
  assert.match(entry.approval?.request_id ?? "", /^[0-9a-f]{32}$/);

  answer = { action: "decline" };
  const declined = errorOf(await alice.call("transfer", { amount: 6 }));
  assert.equal(declined.code, "APPROVAL_DENIED");
  entry = (await bank.entries())[1];
  assert.equal(entry.status, "error");
  assert.equal(entry.error_code, "APPROVAL_DENIED");
  assert.deepEqual(entry.approval && { ...entry.approval, request_id: "" }, {
    request_id: "",
    decision: "denied",
    reviewer_id: "elicitation:client-user",
  });
  assert.equal(declined.details?.approval_request_id, entry.approval?.request_id);

  await using bob = await legacyClient(bank, { apiKey: "k-bob" });
  const refused = errorOf(await bob.call("transfer", { amount: 7 }));
  assert.equal(refused.code, "APPROVAL_DENIED");
  assert.match(refused.message, /this client cannot be asked: it declares no elicitation capability/);
  assert.match(refused.suggestion ?? "", /client that supports elicitation/);
  entry = (await bank.entries())[2];
  assert.equal(entry.client_id, "bob");
  assert.equal(entry.approval?.decision, "failed");
  assert.equal(entry.error_code, "APPROVAL_DENIED");
  assert.equal(asked.length, 2, "bob's client was never asked");
  assert.equal(bank.sessions(), 2);
  const report = await verifyAuditLog(bank.auditPath, { keys: [AUDIT_SECRET] });
  assert.equal(report.ok, true);
  assert.equal(report.entries, 3);
});

Deno.test("2026-07-28 request: a client without elicitation is refused with how to approve, and audited", async () => {
  await using bank = await serveBank(elicitationApprover());
  await using alice = await modernClient(bank, { apiKey: "k-alice" });
  const refused = errorOf(await alice.call("transfer", { amount: 5 }));
  assert.equal(refused.code, "APPROVAL_DENIED");
  assert.equal(
    refused.message,
    "Approval required for tool 'transfer', and this client cannot be asked: it declares no elicitation capability",
  );
  assert.match(refused.suggestion ?? "", /PendingApprover.*approvals_decide/);
  assert.equal(bank.sessions(), 0, "a stateless 2026-07-28 client");
  const [entry] = await bank.entries();
  assert.equal(entry.status, "error");
  assert.equal(entry.client_id, "alice");
  assert.deepEqual(entry.approval, { request_id: refused.details?.approval_request_id, decision: "failed" });
});

Deno.test("2026-07-28 request: a reviewer on another client decides a call parked within its HTTP request", async () => {
  const queue = new PendingApprover();
  await using bank = await serveBank(elicitationApprover({ fallback: queue }), { queue });
  await using alice = await modernClient(bank, { apiKey: "k-alice" });
  await using bob = await modernClient(bank, { apiKey: "k-bob" });
  const parked = alice.call("transfer", { amount: 5 });
  await waitFor(() => queue.size === 1);
  const listed = JSON.parse(textOf(await bob.call("approvals_list")));
  assert.equal(listed.length, 1);
  assert.equal(listed[0].client_id, "alice");
  const decided = JSON.parse(
    textOf(await bob.call("approvals_decide", { request_id: listed[0].request_id, approve: true })),
  );
  assert.deepEqual(decided, { resolved: true, request_id: listed[0].request_id, approved: true });
  assert.equal(textOf(await parked), "sent 5");
  assert.equal(bank.sessions(), 0, "stateless 2026-07-28 clients");
  const entries = await bank.entries();
  const transfer = entries.find((entry) => entry.tool === "transfer");
  assert.equal(transfer?.status, "ok");
  assert.deepEqual(transfer?.approval, {
    request_id: listed[0].request_id,
    decision: "approved",
    reviewer_id: "bob",
  });
  const denied = alice.call("transfer", { amount: 6 });
  await waitFor(() => queue.size === 1);
  const [second] = JSON.parse(textOf(await bob.call("approvals_list")));
  await bob.call("approvals_decide", { request_id: second.request_id, approve: false, reason: "not today" });
  const error = errorOf(await denied);
  assert.equal(error.message, "Approval denied for tool 'transfer': not today");
  const last = (await bank.entries()).filter((entry) => entry.tool === "transfer").at(-1);
  assert.deepEqual(last?.approval, { request_id: second.request_id, decision: "denied", reviewer_id: "bob" });
  assert.equal((await verifyAuditLog(bank.auditPath, { keys: [AUDIT_SECRET] })).ok, true);
});

Deno.test("stateless 2025 HTTP: a client declaring elicitation still cannot be asked, and is told why", async () => {
  await using bank = await serveBank(elicitationApprover(), { stateless: true });
  let asked = 0;
  await using alice = await legacyClient(bank, { apiKey: "k-alice", onElicit: () => (asked++, YES) });
  const refused = errorOf(await alice.call("transfer", { amount: 5 }));
  assert.equal(refused.code, "APPROVAL_DENIED");
  assert.match(
    refused.message,
    /cannot be asked: its request has no session to carry the question \(stateless HTTP\)/,
  );
  assert.equal(asked, 0);
  assert.equal(bank.sessions(), 0);
  const [entry] = await bank.entries();
  assert.equal(entry.approval?.decision, "failed");
  assert.equal(entry.error_code, "APPROVAL_DENIED");
});
