import assert from "node:assert/strict";
import { isPrivateAddress, sendEscalation } from "./send_escalation.ts";

Deno.test("private, loopback, link-local and shared addresses are recognised; public ones are not", () => {
  for (
    const address of ["127.0.0.1", "10.1.2.3", "172.20.0.1", "192.168.1.1", "169.254.169.254", "100.64.0.1"]
  ) {
    assert.equal(isPrivateAddress(address), true, address);
  }
  for (const address of ["::1", "::", "fd00::1", "fe80::1", "::ffff:127.0.0.1", "0.0.0.0"]) {
    assert.equal(isPrivateAddress(address), true, address);
  }
  for (const address of ["93.184.216.34", "8.8.8.8", "172.32.0.1", "2606:4700::1111"]) {
    assert.equal(isPrivateAddress(address), false, address);
  }
});

Deno.test("an escalation to a loopback, private or non-http(s) URL is refused without a request", async () => {
  const payload = { type: "budget_violation" };
  assert.deepEqual(await sendEscalation({ webhook_url: "http://127.0.0.1:9/x" }, payload), {
    sent: false,
    error: "webhook_url resolves to a private or loopback address",
  });
  assert.equal((await sendEscalation({ webhook_url: "http://localhost:9/x" }, payload)).sent, false);
  assert.equal(
    (await sendEscalation({ webhook_url: "file:///etc/passwd" }, payload)).error,
    "webhook_url must be http(s)",
  );
  const rebound = await sendEscalation({ webhook_url: "http://hooks.example/x" }, payload, {
    resolve: () => Promise.resolve(["93.184.216.34", "10.0.0.7"]),
  });
  assert.equal(rebound.error, "webhook_url resolves to a private or loopback address");
  assert.equal((await sendEscalation({ event_type: "ops" }, payload)).sent, false);
});

Deno.test("allow_private_network lets an escalation reach a local webhook; non-2xx and timeouts are reported", async () => {
  let slow = false;
  const bodies: unknown[] = [];
  await using server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (request) => {
    bodies.push(await request.json());
    if (slow) await new Promise((r) => setTimeout(r, 300));
    return new Response("no", { status: slow ? 200 : 503 });
  });
  const target = { webhook_url: `http://127.0.0.1:${server.addr.port}/h`, allow_private_network: true };
  const failed = await sendEscalation(target, { n: 1 });
  assert.deepEqual(failed, { sent: false, status: 503, error: "the webhook answered 503" });
  slow = true;
  const late = await sendEscalation(target, { n: 2 }, { timeoutMs: 50 });
  assert.deepEqual(late, { sent: false, error: "the webhook timed out" });
  assert.deepEqual(bodies, [{ n: 1 }, { n: 2 }]);
  await new Promise((r) => setTimeout(r, 300)); // let the slow handler finish before the server closes
});
