/**
 * A call parked in a {@linkcode PendingApprover} whose client goes away, on a real socket over both
 * protocol revisions: the request is withdrawn at once, deciding it says so, and the audit records the
 * call as cancelled.
 *
 * @module
 */

import assert from "node:assert/strict";
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPClientTransport as LegacyHttp } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { AuditEntry } from "../audit/audit_middleware.ts";
import { PendingApprover } from "./pending_approver.ts";
import { textOf, waitFor as poll } from "./_test_setup.ts";
import { type Bank, type BankClient, legacyClient, modernClient, serveBank } from "./_test_revisions.ts";

type Connect = (bank: Bank, options: { apiKey: string }) => Promise<BankClient>;

/** Polls `condition` (about 2 s), failing with `what` when it is not reached. */
async function waitFor(condition: () => boolean, what: string): Promise<void> {
  await poll(condition).catch(() => assert.fail(`${what}: not within the wait`));
}

async function auditEntryOf(bank: Bank, clientId: string): Promise<AuditEntry> {
  for (let i = 0; i < 200; i++) {
    const entry = (await bank.entries()).find((e) => e.client_id === clientId && e.tool === "transfer");
    if (entry) return entry;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`no audit entry for ${clientId}'s transfer`);
}

const LEGS: [string, Connect][] = [["2025 session", legacyClient], ["2026-07-28 request", modernClient]];

for (const [leg, connect] of LEGS) {
  Deno.test(`${leg}: a parked call whose client aborts is withdrawn at once, deciding it says so, audited cancelled`, async () => {
    const queue = new PendingApprover();
    await using bank = await serveBank(queue, { queue });
    await using alice = await connect(bank, { apiKey: "k-alice" });
    await using bob = await connect(bank, { apiKey: "k-bob" });
    const controller = new AbortController();
    const call = alice.call("transfer", { amount: 9 }, { signal: controller.signal }).then(
      () => "answered",
      () => "rejected",
    );
    await waitFor(() => queue.size === 1, "alice's call parked");
    const [parked] = JSON.parse(textOf(await bob.call("approvals_list")));
    assert.equal(parked.tool, "transfer");
    // Past the modern leg's 100 ms grace, so its answer is a stream by now.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const abortedAt = Date.now();
    controller.abort();
    assert.equal(await call, "rejected");
    await waitFor(() => queue.size === 0, "the aborted call's request withdrawn");
    assert.ok(Date.now() - abortedAt < 1_000, "withdrawn within a second");
    assert.deepEqual(JSON.parse(textOf(await bob.call("approvals_list"))), []);
    const decided = JSON.parse(
      textOf(await bob.call("approvals_decide", { request_id: parked.request_id, approve: true })),
    );
    assert.deepEqual(decided, {
      resolved: false,
      error: `approval request '${parked.request_id}' was withdrawn: the call was cancelled`,
    });
    const entry = await auditEntryOf(bank, "alice");
    assert.equal(entry.status, "error");
    assert.equal(entry.error_code, "CANCELLED");
    assert.deepEqual(entry.approval, { request_id: parked.request_id, decision: "cancelled" });
  });
}

Deno.test("2025 session: a parked call whose client closes its session (DELETE) is withdrawn and audited cancelled", async () => {
  const queue = new PendingApprover();
  await using bank = await serveBank(queue, { queue });
  await using bob = await legacyClient(bank, { apiKey: "k-bob" });
  const alice = new LegacyClient({ name: "leaving", version: "1.0.0" });
  const transport = new LegacyHttp(bank.url, { requestInit: { headers: { "x-api-key": "k-alice" } } });
  await alice.connect(transport);
  try {
    const call = alice.callTool({ name: "transfer", arguments: { amount: 3 } }).then(
      () => "answered",
      () => "rejected",
    );
    await waitFor(() => queue.size === 1, "alice's call parked");
    const [parked] = JSON.parse(textOf(await bob.call("approvals_list")));
    await transport.terminateSession();
    await waitFor(() => queue.size === 0, "the closed session's request withdrawn");
    const decided = JSON.parse(
      textOf(await bob.call("approvals_decide", { request_id: parked.request_id, approve: true })),
    );
    assert.match(decided.error, /was withdrawn: the call was cancelled/);
    const entry = await auditEntryOf(bank, "alice");
    assert.deepEqual(entry.approval, { request_id: parked.request_id, decision: "cancelled" });
    await alice.close();
    assert.equal(await call, "rejected");
  } finally {
    await alice.close();
  }
});
