import assert from "node:assert/strict";
import FakeTimers from "@sinonjs/fake-timers";
import { type ApprovalDecision, approvalGate, type ApprovalRequest } from "./approval_gate.ts";
import { PendingApprover } from "./pending_approver.ts";
import { internalsOf } from "../tool_server.ts";
import { connect, errorOf, gatedServer, textOf, waitFor } from "./_test_setup.ts";

let counter = 0;

function request(
  caller?: string,
  tenant?: string,
  args: Record<string, unknown> = { amount: 5 },
): ApprovalRequest {
  counter++;
  return {
    request_id: counter.toString(16).padStart(32, "0"),
    tool_name: "transfer",
    arguments: args,
    caller_user_id: caller,
    context_summary: "server-side approval gate on 'bank'",
    timeout: 300,
    metadata: { server: "bank", mcp_request_id: `r${counter}`, client_id: caller, tenant_id: tenant },
  };
}

async function settledNow(promise: Promise<ApprovalDecision>): Promise<ApprovalDecision | "pending"> {
  return await Promise.race([
    promise,
    new Promise<"pending">((resolve) => queueMicrotask(() => resolve("pending"))),
  ]);
}

Deno.test("pending approver refuses caps that do not nest, and unknown options", () => {
  assert.throws(
    () => new PendingApprover({ maxPending: 10, maxPendingPerTenant: 11 }),
    /maxPendingPerTenant must not exceed maxPending/,
  );
  assert.throws(
    () => new PendingApprover({ maxPendingPerTenant: 5, maxPendingPerClient: 6 }),
    /must not exceed maxPendingPerTenant/,
  );
  assert.throws(
    () => new PendingApprover({ maxPending: 3, maxPendingPerClient: 4 }),
    /must not exceed maxPending/,
  );
  assert.throws(() => new PendingApprover({ maxPending: 0 }), TypeError);
  assert.throws(() => new PendingApprover({ maxPending: 1.5 }), TypeError);
  assert.throws(() => new PendingApprover({ approverRole: "" }), TypeError);
  assert.throws(() => new PendingApprover({ max_pending: 5 } as never), /unknown option 'max_pending'/);
  const ok = new PendingApprover({ maxPending: 10, maxPendingPerTenant: 10, maxPendingPerClient: 10 });
  assert.equal(ok.maxPending, 10);
});

Deno.test("pending approver denies at once past the store, tenant and client caps, naming the cap", async () => {
  const store = new PendingApprover({ maxPending: 1 });
  store.decide(request("alice"));
  assert.deepEqual(await store.decide(request("bob")), {
    approved: false,
    reason: "pending approval queue is full (1)",
  });

  const tenants = new PendingApprover({ maxPending: 10, maxPendingPerTenant: 2 });
  tenants.decide(request("alice", "acme"));
  tenants.decide(request("bob", "acme"));
  assert.equal(await settledNow(tenants.decide(request("carol", "globex"))), "pending");
  assert.deepEqual(await tenants.decide(request("carol", "acme")), {
    approved: false,
    reason: "per-tenant pending approval cap reached for tenant 'acme' (2 per tenant)",
  });

  const clients = new PendingApprover({ maxPendingPerClient: 1 });
  clients.decide(request("alice"));
  assert.deepEqual(await clients.decide(request("alice")), {
    approved: false,
    reason: "per-client pending approval cap reached for 'alice' (1 per client)",
  });
  assert.equal(clients.size, 1);
});

Deno.test("pending approver counts a caller by client id, else tenant, else the anonymous bucket", async () => {
  const queue = new PendingApprover({ maxPendingPerClient: 1 });
  const tenantOnly = request(undefined, "acme");
  queue.decide(tenantOnly);
  assert.equal(queue.list({ clientId: "ops" })[0].client_id, "acme");
  assert.match((await queue.decide(request(undefined, "acme"))).reason ?? "", /for 'acme'/);
  queue.decide(request());
  assert.match((await queue.decide(request())).reason ?? "", /for '' \(1 per client\)/);
});

Deno.test("a reviewer decides a parked request; it then disappears", async () => {
  const clock = FakeTimers.install({ toFake: ["Date"], now: 0 });
  try {
    const queue = new PendingApprover();
    const parked = request("alice", "acme", { amount: 7 });
    const decision = queue.decide(parked);
    clock.tick(4_500);
    assert.deepEqual(queue.list({ clientId: "bob" }), [{
      request_id: parked.request_id,
      tool: "transfer",
      arguments: { amount: 7 },
      client_id: "alice",
      tenant_id: "acme",
      age_seconds: 4,
    }]);
    assert.deepEqual(queue.resolve(parked.request_id, { clientId: "bob" }, { approve: true }), {
      resolved: true,
      request_id: parked.request_id,
      approved: true,
    });
    assert.deepEqual(await decision, { approved: true, reviewer_id: "bob" });
    assert.deepEqual(queue.list({ clientId: "bob" }), []);
    assert.deepEqual(queue.resolve(parked.request_id, { clientId: "bob" }, { approve: true }), {
      resolved: false,
      error: `no pending approval request '${parked.request_id}'`,
    });
  } finally {
    clock.uninstall();
  }
});

Deno.test("nobody approves their own request, but may deny it", async () => {
  const queue = new PendingApprover();
  const own = request("bob");
  const decision = queue.decide(own);
  assert.deepEqual(queue.resolve(own.request_id, { clientId: "bob" }, { approve: true }), {
    resolved: false,
    error: "cannot approve your own request (four-eyes rule)",
  });
  assert.equal(queue.size, 1);
  assert.equal(
    queue.resolve(own.request_id, { clientId: "bob" }, { approve: false, reason: "oops" }).resolved,
    true,
  );
  assert.deepEqual(await decision, { approved: false, reason: "oops", reviewer_id: "bob" });
});

Deno.test("a reviewer with a tenant sees and decides only that tenant's requests", () => {
  const queue = new PendingApprover();
  const acme = request("alice", "acme");
  const globex = request("gina", "globex");
  queue.decide(acme);
  queue.decide(globex);
  assert.deepEqual(queue.list({ clientId: "rita", tenantId: "acme" }).map((v) => v.request_id), [
    acme.request_id,
  ]);
  assert.equal(queue.list({ clientId: "root" }).length, 2);
  assert.deepEqual(
    queue.resolve(globex.request_id, { clientId: "rita", tenantId: "acme" }, { approve: true }),
    {
      resolved: false,
      error: `no pending approval request '${globex.request_id}'`,
    },
  );
  assert.equal(queue.size, 2);
});

Deno.test("cancel drops a parked request so it can no longer be decided", () => {
  const queue = new PendingApprover();
  const parked = request("alice");
  queue.decide(parked);
  queue.cancel(parked.request_id);
  assert.equal(queue.size, 0);
  assert.equal(queue.resolve(parked.request_id, { clientId: "bob" }, { approve: true }).resolved, false);
});

Deno.test("a withdrawn request answers why when decided, within its tenant, for the last maxPending ones", () => {
  const queue = new PendingApprover({ maxPending: 2 });
  const [cancelled, timedOut] = [request("alice", "acme"), request("alice", "acme")];
  for (const parked of [cancelled, timedOut]) void queue.decide(parked);
  queue.cancel(cancelled.request_id, "cancelled");
  queue.cancel(timedOut.request_id, "timed_out");
  assert.deepEqual(queue.list({ clientId: "bob" }), []);
  const decide = (id: string, tenantId?: string) =>
    queue.resolve(id, { clientId: "bob", tenantId }, { approve: true });
  assert.deepEqual(decide(cancelled.request_id, "acme"), {
    resolved: false,
    error: `approval request '${cancelled.request_id}' was withdrawn: the call was cancelled`,
  });
  assert.deepEqual(decide(timedOut.request_id), {
    resolved: false,
    error: `approval request '${timedOut.request_id}' was withdrawn: nobody decided it in time`,
  });
  assert.deepEqual(decide(cancelled.request_id, "globex"), {
    resolved: false,
    error: `no pending approval request '${cancelled.request_id}'`,
  }, "another tenant's withdrawn request looks unknown");
  const later = request("alice", "acme");
  void queue.decide(later);
  queue.cancel(later.request_id);
  assert.match(JSON.stringify(decide(later.request_id)), /was withdrawn: the call was cancelled/);
  assert.deepEqual(decide(cancelled.request_id), {
    resolved: false,
    error: `no pending approval request '${cancelled.request_id}'`,
  }, "only the last maxPending withdrawals are remembered");
});

function pendingServer(options: { timeout?: number } = {}) {
  const queue = new PendingApprover();
  const server = gatedServer(approvalGate(queue, options));
  queue.register(server);
  return { queue, server };
}

Deno.test("pending approval end to end: alice's call waits until bob approves it", async () => {
  const { queue, server } = pendingServer();
  await using alice = await connect(server, { apiKey: "k-alice" });
  await using bob = await connect(server, { apiKey: "k-bob" });
  const call = alice.call("transfer", { amount: 5 });
  await waitFor(() => queue.size === 1);
  const listed = JSON.parse(textOf(await bob.call("approvals_list")));
  assert.equal(listed.length, 1);
  assert.equal(listed[0].tool, "transfer");
  assert.equal(listed[0].client_id, "alice");
  assert.deepEqual(listed[0].arguments, { amount: 5 });
  const answer = JSON.parse(
    textOf(await bob.call("approvals_decide", { request_id: listed[0].request_id, approve: true })),
  );
  assert.deepEqual(answer, { resolved: true, request_id: listed[0].request_id, approved: true });
  assert.equal(textOf(await call), "sent 5");
});

Deno.test("pending approval end to end: bob cannot approve his own call, and alice cannot review", async () => {
  const { queue, server } = pendingServer();
  await using alice = await connect(server, { apiKey: "k-alice" });
  await using bob = await connect(server, { apiKey: "k-bob" });
  const call = bob.call("transfer", { amount: 9 });
  await waitFor(() => queue.size === 1);
  const [{ request_id }] = JSON.parse(textOf(await bob.call("approvals_list")));
  const own = JSON.parse(textOf(await bob.call("approvals_decide", { request_id, approve: true })));
  assert.deepEqual(own, { resolved: false, error: "cannot approve your own request (four-eyes rule)" });
  assert.equal(
    errorOf(await alice.call("approvals_decide", { request_id, approve: true })).code,
    "ACCESS_DENIED",
  );
  assert.equal(errorOf(await alice.call("approvals_list")).code, "ACCESS_DENIED");
  const withdrawn = JSON.parse(
    textOf(await bob.call("approvals_decide", { request_id, approve: false, reason: "typo" })),
  );
  assert.equal(withdrawn.resolved, true);
  const error = errorOf(await call);
  assert.equal(error.code, "APPROVAL_DENIED");
  assert.equal(error.message, "Approval denied for tool 'transfer': typo");
  assert.deepEqual(error.details, { approval_request_id: request_id, reviewer_id: "bob" });
});

Deno.test("pending approval end to end: an undecided call is denied at the timeout and leaves the queue", async () => {
  const clock = FakeTimers.install({ toFake: ["setTimeout", "clearTimeout", "Date"] });
  try {
    const { queue, server } = pendingServer({ timeout: 1 });
    await using alice = await connect(server, { apiKey: "k-alice" });
    const call = alice.call("transfer", { amount: 5 });
    for (let i = 0; i < 100 && queue.size === 0; i++) await clock.tickAsync(0);
    assert.equal(queue.size, 1);
    await clock.tickAsync(1_000);
    const error = errorOf(await call);
    assert.equal(error.code, "APPROVAL_DENIED");
    assert.equal(error.message, "Approval for tool 'transfer' timed out after 1s and was denied by default");
    assert.equal(queue.size, 0);
  } finally {
    clock.uninstall();
  }
});

Deno.test("register adds the reviewer tools behind auth, the approver role and the approvals tag", () => {
  const queue = new PendingApprover({ approverRole: "ops" });
  const server = queue.register(gatedServer(approvalGate(queue)));
  for (const name of ["approvals_list", "approvals_decide"]) {
    const tool = internalsOf(server).registry.tools.get(name);
    assert.ok(tool, name);
    assert.equal(tool.auth, true);
    assert.deepEqual(tool.roles, ["ops"]);
    assert.deepEqual(tool.tags, ["approvals"]);
    assert.equal(tool.cache, false);
  }
});
