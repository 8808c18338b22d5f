import assert from "node:assert/strict";
import { checkWebhookUrl, sendEscalation } from "./escalation.ts";
import { isPublicAddress } from "./_public_address.ts";

Deno.test("only public unicast addresses are public", () => {
  const refused = [
    "127.0.0.1",
    "10.1.2.3",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "224.0.0.1",
    "255.255.255.255",
    "::1",
    "::",
    "[::1]",
    "fd00::1",
    "fe80::1",
    "ff02::1",
    "::ffff:127.0.0.1",
    "::ffff:10.0.0.1",
    "2001:db8::1",
    "not-an-ip",
  ];
  for (const address of refused) assert.equal(isPublicAddress(address), false, address);
  for (const address of ["8.8.8.8", "1.1.1.1", "172.32.0.1", "2606:4700::1111", "::ffff:8.8.8.8"]) {
    assert.equal(isPublicAddress(address), true, address);
  }
});

Deno.test("a webhook URL is refused for a private host, a non-http scheme or credentials", async () => {
  assert.equal(await checkWebhookUrl("http://127.0.0.1:8080/x"), "the address is not public");
  assert.equal(await checkWebhookUrl("http://[::1]/x"), "the address is not public");
  assert.equal(await checkWebhookUrl("http://169.254.169.254/latest"), "the address is not public");
  assert.equal(await checkWebhookUrl("http://localhost/x"), "the address is not public");
  assert.equal(await checkWebhookUrl("ftp://8.8.8.8/x"), "not an http(s) URL");
  assert.equal(await checkWebhookUrl("https://user:pw@8.8.8.8/x"), "credentials in the URL");
  assert.equal(await checkWebhookUrl("https://8.8.8.8/x"), undefined);
});

Deno.test("an escalation is emitted as an event, and nothing is POSTed to a refused webhook", async () => {
  // A listener on loopback: it must never be called, the policy refuses loopback.
  let posted = 0;
  await using server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, () => {
    posted++;
    return new Response("ok");
  });
  const emitted: [string, Record<string, unknown>][] = [];
  const outcome = await sendEscalation(
    { webhook_url: `http://127.0.0.1:${server.addr.port}/hook`, event_type: "agent.alert" },
    { type: "health_anomaly" },
    { emit: (type, payload) => emitted.push([type, payload]) },
  );
  assert.deepEqual(outcome, { webhook: "refused", reason: "the address is not public", event: "emitted" });
  assert.deepEqual(emitted, [["agent.alert", { type: "health_anomaly" }]]);
  assert.equal(posted, 0);
  assert.deepEqual(await sendEscalation({ event_type: "x" }, {}), { webhook: "none", event: "no_event_bus" });
});
