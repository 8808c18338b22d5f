import assert from "node:assert/strict";
// @ts-types="@modelcontextprotocol/sdk/types"
import type {
  ElicitRequest,
  ElicitRequestFormParams,
  ElicitResult,
} from "@modelcontextprotocol/sdk/types.js";
import { ToolError } from "../errors.ts";
import { InputRequiredSignal } from "../input_required.ts";
import { DEAD_SESSION, testContext } from "../_test_context.ts";
import type { CallSession, ClientRequestOptions } from "../types.ts";
import { approvalGate, type ApprovalRequest } from "./approval_gate.ts";
import { elicitationApprover, isClientCannotElicit } from "./elicitation_approver.ts";
import { PendingApprover } from "./pending_approver.ts";
import { connect, errorOf, gatedServer, textOf } from "./_test_setup.ts";

const REQUEST: ApprovalRequest = {
  request_id: "a".repeat(32),
  tool_name: "transfer",
  arguments: { amount: 5 },
  caller_user_id: "alice",
  context_summary: "server-side approval gate on 'bank'",
  timeout: 300,
  metadata: { server: "bank", mcp_request_id: "r1" },
};

/** A live session whose client answers `answer` (or throws it when it is an Error). */
function answering(answer: ElicitResult | Error) {
  const asked: { params: ElicitRequestFormParams; options?: ClientRequestOptions }[] = [];
  const session: CallSession = {
    ...DEAD_SESSION,
    live: true,
    supports: (method) => method === "elicitation/create",
    elicit(params, options) {
      asked.push({ params, options });
      return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
    },
  };
  return { ctx: testContext({ session }).ctx, asked };
}

const INVALID = "the client returned an invalid elicitation response";
const DECLINED = "the client's user declined";
const UNREACHABLE = "the client could not be asked (the request failed or timed out)";

Deno.test("elicitation approver asks the calling client with an approve/reason form", async () => {
  const { ctx, asked } = answering({ action: "accept", content: { approve: true } });
  const decision = await elicitationApprover().decide(REQUEST, ctx);
  assert.deepEqual(decision, { approved: true, reviewer_id: "elicitation:client-user" });
  assert.deepEqual(asked, [{
    params: {
      message: `Approval required: call tool 'transfer' with arguments {"amount":5}. Approve?`,
      requestedSchema: {
        type: "object",
        properties: {
          approve: { type: "boolean", title: "Approve" },
          reason: { type: "string", title: "Reason" },
        },
        required: ["approve"],
      },
    },
    options: { timeoutMs: 60_000 },
  }]);
});

Deno.test("elicitation approver passes on the user's refusal and reason", async () => {
  const { ctx } = answering({ action: "accept", content: { approve: false, reason: "not today" } });
  assert.deepEqual(await elicitationApprover().decide(REQUEST, ctx), {
    approved: false,
    reason: "not today",
    reviewer_id: "elicitation:client-user",
  });
});

Deno.test("elicitation approver uses the message template and timeout it was given", async () => {
  const { ctx, asked } = answering({ action: "accept", content: { approve: true } });
  const approver = elicitationApprover({
    messageTemplate: (r) => `ok to run ${r.tool_name}?`,
    timeoutMs: 5_000,
  });
  await approver.decide(REQUEST, ctx);
  assert.equal(asked[0].params.message, "ok to run transfer?");
  assert.deepEqual(asked[0].options, { timeoutMs: 5_000 });
});

Deno.test("elicitation approver denies on decline, cancel, error or a malformed answer", async () => {
  const approver = elicitationApprover();
  assert.deepEqual(await approver.decide(REQUEST, answering({ action: "decline" }).ctx), {
    approved: false,
    reason: DECLINED,
    reviewer_id: "elicitation:client-user",
  });
  assert.deepEqual(await approver.decide(REQUEST, answering({ action: "cancel" }).ctx), {
    approved: false,
    reason: "the client's user dismissed the question without deciding",
    reviewer_id: "elicitation",
  });
  const answers: ElicitResult[] = [
    { action: "accept" },
    { action: "accept", content: { approve: "yes" } },
    { action: "accept", content: { reason: "sure" } },
  ];
  for (const answer of answers) {
    const decision = await approver.decide(REQUEST, answering(answer).ctx);
    assert.deepEqual(decision, { approved: false, reason: INVALID, reviewer_id: "elicitation:client-user" });
  }
  const { ctx } = answering(new Error("Request timed out"));
  assert.deepEqual(await approver.decide(REQUEST, ctx), {
    approved: false,
    reason: UNREACHABLE,
    reviewer_id: "elicitation",
  });
});

Deno.test("elicitation approver refuses unknown and malformed options", () => {
  assert.throws(() => elicitationApprover({ timeout: 5 } as never), /unknown option 'timeout'/);
  assert.throws(() => elicitationApprover({ timeoutMs: 0 }), TypeError);
  assert.throws(() => elicitationApprover({ messageTemplate: "hi" } as never), TypeError);
});

Deno.test("elicitation approval end to end: the client's yes runs the call and its no denies it", async () => {
  const server = gatedServer(approvalGate(elicitationApprover()));
  const seen: ElicitRequest[] = [];
  let approve = true;
  await using alice = await connect(server, {
    apiKey: "k-alice",
    onElicit: (request) => {
      seen.push(request);
      return approve ? { action: "accept", content: { approve: true } } : { action: "decline" };
    },
  });
  assert.equal(textOf(await alice.call("transfer", { amount: 5 })), "sent 5");
  assert.match(String(seen[0].params.message), /call tool 'transfer' with arguments \{"amount":5\}/);
  approve = false;
  const error = errorOf(await alice.call("transfer", { amount: 6 }));
  assert.equal(error.code, "APPROVAL_DENIED");
  assert.equal(error.message, `Approval denied for tool 'transfer': ${DECLINED}`);
  assert.equal(error.details?.reviewer_id, "elicitation:client-user");
});

Deno.test("elicitation approval end to end: a client without elicitation support is refused with how to approve", async () => {
  const server = gatedServer(approvalGate(elicitationApprover()));
  await using alice = await connect(server, { apiKey: "k-alice" });
  const error = errorOf(await alice.call("transfer", { amount: 5 }));
  assert.equal(error.code, "APPROVAL_DENIED");
  assert.equal(
    error.message,
    "Approval required for tool 'transfer', and this client cannot be asked: it declares no elicitation capability",
  );
  assert.match(
    error.suggestion ?? "",
    /client that supports elicitation.*PendingApprover.*approvals_decide/s,
  );
  assert.equal(error.details?.reason, "client_cannot_elicit");
  assert.match(String(error.details?.approval_request_id), /^[0-9a-f]{32}$/);
});

Deno.test("elicitation approval end to end: guards refuse before the client is asked", async () => {
  const server = gatedServer(approvalGate(elicitationApprover()));
  server.tool("purge", { requiresApproval: true, roles: ["admin"] }, () => "purged");
  let asked = 0;
  await using alice = await connect(server, {
    apiKey: "k-alice",
    onElicit: () => {
      asked++;
      return { action: "accept", content: { approve: true } };
    },
  });
  assert.equal(errorOf(await alice.call("purge")).code, "ACCESS_DENIED");
  assert.equal(asked, 0);
});

/** A session that cannot ask its client: `era` and `live` as given, no capability. */
function unaskable(era: "legacy" | "modern", live: boolean) {
  return testContext({ session: { ...DEAD_SESSION, era, live } }).ctx;
}

Deno.test("elicitation approver refuses with how to approve when the client cannot be asked", async () => {
  const approver = elicitationApprover();
  const cases = [
    [unaskable("modern", true), "it declares no elicitation capability"],
    [unaskable("legacy", true), "it declares no elicitation capability"],
    [unaskable("legacy", false), "its request has no session to carry the question (stateless HTTP)"],
  ] as const;
  for (const [ctx, why] of cases) {
    const error = await approver.decide(REQUEST, ctx).then(() => undefined, (e: unknown) => e);
    assert.ok(error instanceof ToolError, `expected a ToolError, got ${String(error)}`);
    assert.ok(isClientCannotElicit(error));
    assert.equal(error.code, "APPROVAL_DENIED");
    assert.equal(error.retryable, false);
    assert.equal(
      error.message,
      `Approval required for tool 'transfer', and this client cannot be asked: ${why}`,
    );
    assert.match(error.suggestion ?? "", /^Call again from an MCP client that supports elicitation/);
    assert.deepEqual(error.details, {
      approval_request_id: REQUEST.request_id,
      reason: "client_cannot_elicit",
    });
  }
});

Deno.test("elicitation approver hands a client that cannot be asked to its fallback, and forwards cancel", async () => {
  const queue = new PendingApprover();
  const approver = elicitationApprover({ fallback: queue });
  const parked = approver.decide(REQUEST, unaskable("modern", true));
  assert.equal(queue.size, 1);
  assert.deepEqual(queue.resolve(REQUEST.request_id, { clientId: "bob" }, { approve: true }), {
    resolved: true,
    request_id: REQUEST.request_id,
    approved: true,
  });
  assert.deepEqual(await parked, { approved: true, reviewer_id: "bob" });
  void approver.decide({ ...REQUEST, request_id: "b".repeat(32) }, unaskable("legacy", false));
  assert.equal(queue.size, 1);
  approver.cancel?.("b".repeat(32));
  assert.equal(queue.size, 0, "the gate's cancel reached the fallback's queue");
  const byFunction = elicitationApprover({ fallback: () => false });
  assert.equal(byFunction.cancel, undefined);
  assert.deepEqual(await byFunction.decide(REQUEST, unaskable("modern", true)), { approved: false });
  assert.throws(() => elicitationApprover({ fallback: 5 as never }), /fallback must be an approver/);
});

Deno.test("elicitation approver lets an input_required signal through (a 2026-07-28 round), never a denial", async () => {
  const signal = new InputRequiredSignal({ e1: { method: "elicitation/create" } });
  const { ctx } = answering(signal);
  const outcome = await elicitationApprover().decide(REQUEST, ctx).then(() => undefined, (e: unknown) => e);
  assert.equal(outcome, signal);
  assert.equal(isClientCannotElicit(signal), false);
  assert.equal(isClientCannotElicit(new ToolError("APPROVAL_DENIED", "no")), false);
});
