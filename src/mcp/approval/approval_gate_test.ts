import assert from "node:assert/strict";
import FakeTimers from "@sinonjs/fake-timers";
import { middlewareRole } from "../chain.ts";
import { ClientContext } from "../client_context.ts";
import { ToolError } from "../errors.ts";
import { InputRequiredSignal } from "../input_required.ts";
import { ToolServer } from "../tool_server.ts";
import { DEAD_SESSION, testContext, testTool } from "../_test_context.ts";
import type { Guard } from "../types.ts";
import { type ApprovalDecision, approvalGate, type ApprovalRequest, type Approver } from "./approval_gate.ts";
import { approvalRecordOf } from "./approval_record.ts";

const GATED = testTool({ name: "wire", requiresApproval: true, annotations: { destructiveHint: true } });

function gatedContext(options: { guards?: Guard[]; args?: Record<string, unknown> } = {}) {
  const tool = options.guards ? { ...GATED, guards: options.guards } : GATED;
  const result = testContext({
    tool,
    args: options.args ?? { amount: 5, iban: "DE-SECRET" },
    requestId: "mcp-7",
  });
  result.ctx.clientId = "alice";
  result.ctx.client = new ClientContext({
    clientId: "alice",
    tenantId: "acme",
    subject: "alice",
    issuer: "idp",
  });
  return result;
}

/** An approver answering `decision` and remembering what it was asked. */
function recording(decision: ApprovalDecision | boolean = true) {
  const asked: ApprovalRequest[] = [];
  const cancelled: string[] = [];
  const approver: Approver = {
    decide(request) {
      asked.push(request);
      return Promise.resolve(typeof decision === "boolean" ? { approved: decision } : decision);
    },
    cancel: (id) => cancelled.push(id),
  };
  return { approver, asked, cancelled };
}

/** An approver that never answers. */
function silent() {
  const cancelled: string[] = [];
  const approver: Approver = {
    decide: () => new Promise(() => undefined),
    cancel: (id) => cancelled.push(id),
  };
  return { approver, cancelled };
}

async function failure(promise: Promise<unknown>): Promise<ToolError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  assert.ok(error instanceof ToolError, `expected a ToolError, got ${String(error)}`);
  return error;
}

const ok = () => Promise.resolve("ran");

Deno.test("approval gate lets tools without requiresApproval and non-tool requests through unasked", async () => {
  const { approver, asked } = recording(false);
  const gate = approvalGate(approver);
  assert.equal(await gate(testContext().ctx, ok), "ran");
  const { ctx } = testContext({ tool: GATED });
  Object.defineProperty(ctx, "requestType", { value: "resource" });
  assert.equal(await gate(ctx, ok), "ran");
  assert.equal(asked.length, 0);
});

Deno.test("approval gate is marked as the approval middleware so the server's readiness check sees it", () => {
  assert.equal(middlewareRole(approvalGate(() => true)), "approval");
  const server = new ToolServer({ name: "bank" });
  server.tool("wire", { requiresApproval: true }, () => "sent");
  assert.throws(
    () => server.assertReady(),
    /tool 'wire' requires approval, but no approval middleware is installed/,
  );
  server.use(approvalGate(() => true));
  server.assertReady();
});

Deno.test("approval gate evaluates the tool's guards before any approver is asked", async () => {
  const { approver, asked } = recording(true);
  const never: Guard = { name: "Never", check: () => false, describeDenial: () => "not for you" };
  const { ctx } = gatedContext({ guards: [never] });
  const error = await failure(approvalGate(approver)(ctx, ok));
  assert.equal(error.code, "ACCESS_DENIED");
  assert.equal(asked.length, 0);
});

Deno.test("an approved call runs, after a request describing the call and its caller", async () => {
  const { approver, asked } = recording({ approved: true, reviewer_id: "carol" });
  const { ctx, logs } = gatedContext();
  assert.equal(await approvalGate(approver, { timeout: 60 })(ctx, ok), "ran");
  const [request] = asked;
  assert.match(request.request_id, /^[0-9a-f]{32}$/);
  assert.deepEqual({ ...request, request_id: "x" }, {
    request_id: "x",
    tool_name: "wire",
    arguments: { amount: 5, iban: "DE-SECRET" },
    caller_user_id: "alice",
    context_summary: "server-side approval gate on 'test-server'",
    timeout: 60,
    metadata: {
      server: "test-server",
      mcp_request_id: "mcp-7",
      client_id: "alice",
      tenant_id: "acme",
      subject: "alice",
      issuer: "idp",
    },
    tool_annotations: { destructiveHint: true },
  });
  assert.deepEqual(logs.map((r) => r.message), ["approval requested", "approval granted"]);
  assert.equal(logs[1].fields.reviewer_id, "carol");
  assert.ok(!JSON.stringify(logs).includes("DE-SECRET"), "argument values must stay out of the log");
});

Deno.test("approval gate sends no arguments when includeArguments is false", async () => {
  const { approver, asked } = recording(true);
  await approvalGate(approver, { includeArguments: false })(gatedContext().ctx, ok);
  assert.deepEqual(asked[0].arguments, {});
});

Deno.test("a denial fails the call with APPROVAL_DENIED naming the reason and reviewer", async () => {
  const { approver, asked } = recording({ approved: false, reason: "too large", reviewer_id: "carol" });
  const { ctx, logs } = gatedContext();
  let ran = false;
  const error = await failure(approvalGate(approver)(ctx, () => Promise.resolve(ran = true)));
  assert.equal(ran, false);
  assert.equal(error.code, "APPROVAL_DENIED");
  assert.equal(error.message, "Approval denied for tool 'wire': too large");
  assert.equal(error.retryable, false);
  assert.deepEqual(error.details, { approval_request_id: asked[0].request_id, reviewer_id: "carol" });
  assert.equal(logs.at(-1)?.message, "approval denied");
  const bare = await failure(approvalGate(() => false)(gatedContext().ctx, ok));
  assert.equal(bare.message, "Approval denied for tool 'wire'");
});

Deno.test("an approval that tries to change the arguments is denied", async () => {
  const { approver } = recording({ approved: true, reviewer_id: "carol", modified_arguments: { amount: 1 } });
  const error = await failure(approvalGate(approver)(gatedContext().ctx, ok));
  assert.equal(error.code, "APPROVAL_DENIED");
  assert.equal(error.message, "Approval denied for tool 'wire': the server cannot change bound arguments");
});

Deno.test("a bare approver function may answer a boolean or a decision; anything else denies", async () => {
  assert.equal(await approvalGate(() => true)(gatedContext().ctx, ok), "ran");
  assert.equal(await approvalGate(() => Promise.resolve({ approved: true }))(gatedContext().ctx, ok), "ran");
  const odd = approvalGate((() => "yes") as unknown as () => boolean);
  assert.equal((await failure(odd(gatedContext().ctx, ok))).code, "APPROVAL_DENIED");
});

Deno.test("an unanswered request is denied after the timeout, withdrawn, and leaves no timer", async () => {
  const clock = FakeTimers.install({ toFake: ["setTimeout", "clearTimeout", "Date"] });
  try {
    const { approver, cancelled } = silent();
    const outcome = failure(approvalGate(approver, { timeout: 2 })(gatedContext().ctx, ok));
    await clock.tickAsync(1_999);
    assert.deepEqual(cancelled, []);
    await clock.tickAsync(1);
    const error = await outcome;
    assert.equal(error.code, "APPROVAL_DENIED");
    assert.equal(error.message, "Approval for tool 'wire' timed out after 2s and was denied by default");
    assert.equal(cancelled.length, 1);
    assert.equal(error.details.approval_request_id, cancelled[0]);
    assert.equal(clock.countTimers(), 0);
  } finally {
    clock.uninstall();
  }
});

Deno.test("onTimeout allow runs an unanswered call after the timeout", async () => {
  const clock = FakeTimers.install({ toFake: ["setTimeout", "clearTimeout", "Date"] });
  try {
    const { approver, cancelled } = silent();
    const { ctx, logs } = gatedContext();
    const outcome = approvalGate(approver, { timeout: 1, onTimeout: "allow" })(ctx, ok);
    await clock.tickAsync(1_000);
    assert.equal(await outcome, "ran");
    assert.equal(cancelled.length, 1);
    assert.equal(logs.at(-1)?.message, "approval timed out; allowed by policy");
  } finally {
    clock.uninstall();
  }
});

Deno.test("a decision in time clears the gate's timer", async () => {
  const clock = FakeTimers.install({ toFake: ["setTimeout", "clearTimeout", "Date"] });
  try {
    const { approver, cancelled } = recording(true);
    assert.equal(await approvalGate(approver)(gatedContext().ctx, ok), "ran");
    assert.equal(clock.countTimers(), 0);
    assert.deepEqual(cancelled, []);
  } finally {
    clock.uninstall();
  }
});

Deno.test("an approver that throws fails the call with its error, not a denial", async () => {
  const boom = new Error("approver down");
  const gate = approvalGate({ decide: () => Promise.reject(boom) });
  await assert.rejects(gate(gatedContext().ctx, ok), (error) => error === boom);
  const sync = approvalGate(() => {
    throw boom;
  });
  await assert.rejects(sync(gatedContext().ctx, ok), (error) => error === boom);
});

Deno.test("a cancelled call withdraws its approval request", async () => {
  const { approver, cancelled } = silent();
  const abort = new AbortController();
  const { ctx } = testContext({ tool: GATED, signal: abort.signal });
  const outcome = failure(approvalGate(approver)(ctx, ok));
  await Promise.resolve();
  abort.abort();
  assert.equal((await outcome).code, "CANCELLED");
  assert.equal(cancelled.length, 1);
});

Deno.test("approval gate refuses bad options and approvers", () => {
  const bad: unknown[] = [
    { timeout: 0 },
    { timeout: -1 },
    { timeout: 86_401 },
    { timeout: Number.NaN },
    { timeout: "5" },
    { onTimeout: "maybe" },
    { includeArguments: "no" },
    { timeOut: 5 },
  ];
  for (const options of bad) {
    assert.throws(() => approvalGate(() => true, options as never), TypeError, JSON.stringify(options));
  }
  assert.throws(() => approvalGate({} as never), /approver must be a function or an object with decide/);
  assert.throws(
    () => approvalGate({ decide: () => Promise.resolve({ approved: true }), cancel: 1 } as never),
    TypeError,
  );
  approvalGate(() => true, { timeout: 86_400, onTimeout: "allow", includeArguments: false });
});

Deno.test("an approver cannot change the arguments the handler receives", async () => {
  const { ctx } = gatedContext({ args: { amount: 5, to: { iban: "DE1" } } });
  const gate = approvalGate((request) => {
    request.arguments.amount = 5_000;
    (request.arguments.to as Record<string, unknown>).iban = "XX9";
    return true;
  });
  await gate(ctx, ok);
  assert.deepEqual(ctx.arguments, { amount: 5, to: { iban: "DE1" } });
});

Deno.test("the gate notes each call's approval step on the context for the audit chain", async () => {
  const approvedCall = gatedContext().ctx;
  await approvalGate(() => ({ approved: true, reviewer_id: "bob" }))(approvedCall, ok);
  const approved = approvalRecordOf(approvedCall);
  assert.match(approved?.request_id ?? "", /^[0-9a-f]{32}$/);
  assert.deepEqual(approved, { request_id: approved?.request_id, decision: "approved", reviewer_id: "bob" });
  const deniedCall = gatedContext().ctx;
  await failure(approvalGate(() => ({ approved: false, reviewer_id: "carol" }))(deniedCall, ok));
  assert.equal(approvalRecordOf(deniedCall)?.decision, "denied");
  assert.equal(approvalRecordOf(deniedCall)?.reviewer_id, "carol");
  const failedCall = gatedContext().ctx;
  await assert.rejects(approvalGate(() => Promise.reject(new Error("down")))(failedCall, ok), /down/);
  assert.deepEqual(Object.keys(approvalRecordOf(failedCall) ?? {}), ["request_id", "decision"]);
  assert.equal(approvalRecordOf(failedCall)?.decision, "failed");
  const ungated = testContext().ctx;
  await approvalGate(() => true)(ungated, ok);
  assert.equal(approvalRecordOf(ungated), undefined, "calls that need no approval carry no record");
  const clock = FakeTimers.install({ toFake: ["setTimeout", "clearTimeout"] });
  try {
    const timedOut = gatedContext().ctx;
    const running = approvalGate(silent().approver, { timeout: 1, onTimeout: "allow" })(timedOut, ok);
    await clock.tickAsync(1_000);
    assert.equal(await running, "ran");
    assert.equal(approvalRecordOf(timedOut)?.decision, "timed_out");
  } finally {
    clock.uninstall();
  }
});

Deno.test("an approver asking the client on a 2026-07-28 request ends the round, the approval id carried along", async () => {
  const signal = new InputRequiredSignal({ e1: { method: "elicitation/create" } }, { s1: "earlier" });
  const { approver, cancelled } = silent();
  approver.decide = () => Promise.reject(signal);
  const { ctx, logs } = gatedContext();
  let ran = false;
  const outcome = await approvalGate(approver)(ctx, () => (ran = true, ok())).then(
    () => undefined,
    (e: unknown) => e,
  );
  assert.ok(outcome instanceof InputRequiredSignal, "the round ends input_required, not with a denial");
  assert.equal(ran, false);
  const record = approvalRecordOf(ctx);
  assert.equal(record?.decision, "input_required");
  assert.deepEqual(outcome.requests, signal.requests);
  assert.deepEqual(outcome.answers, { s1: "earlier", "agentry.approval": record?.request_id });
  assert.deepEqual(cancelled, [record?.request_id], "the round's wait is withdrawn from the approver");
  const asked = logs.find((r) => r.message.startsWith("approval asked of the client"));
  assert.deepEqual(asked?.fields.pending, { e1: "elicitation/create" });
  assert.equal(logs.some((r) => r.message === "approval denied"), false);
});

Deno.test("the retried round of a 2026-07-28 call keeps the approval id its state carried; nothing else is trusted", async () => {
  const id = "c".repeat(32);
  const retried = (carried: Record<string, unknown>) => {
    const { ctx } = testContext({ tool: GATED, session: { ...DEAD_SESSION, era: "modern", carried } });
    return ctx;
  };
  const { approver, asked } = recording({ approved: true, reviewer_id: "elicitation:client-user" });
  const ctx = retried({ e1: { action: "accept", content: { approve: true } }, "agentry.approval": id });
  assert.equal(await approvalGate(approver)(ctx, ok), "ran");
  assert.equal(asked[0].request_id, id);
  assert.deepEqual(approvalRecordOf(ctx), {
    request_id: id,
    decision: "approved",
    reviewer_id: "elicitation:client-user",
  });
  for (const bad of ["not-an-id", 42, "C".repeat(32)]) {
    await approvalGate(approver)(retried({ "agentry.approval": bad }), ok);
    assert.match(asked.at(-1)!.request_id, /^[0-9a-f]{32}$/);
    assert.notEqual(asked.at(-1)!.request_id, bad);
  }
});
