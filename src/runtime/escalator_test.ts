import assert from "node:assert/strict";
import { Logger, memorySink } from "../log.ts";
import { escalateVia, Escalator } from "./escalator.ts";
import type { RuntimeEventInput } from "./escalator.ts";

const body = { type: "budget_violation", process_name: "p" };

Deno.test("an event-only target emits the body with the process as source and calls no webhook", async () => {
  const emitted: RuntimeEventInput[] = [];
  const escalator = new Escalator({ process: "p", events: { emit: (e) => void emitted.push(e) } });
  const delivery = await escalator.escalate({ event_type: "ops.alert" }, body);
  assert.deepEqual(emitted, [{ event_type: "ops.alert", source: "p", data: body }]);
  assert.deepEqual(delivery, { webhook: false, sent: false, event: "emitted" }, "no id: emit returned none");
});

Deno.test("an emit that throws is reported and logged, and the webhook is still called", async () => {
  const bodies: unknown[] = [];
  await using server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (request) => {
    bodies.push(await request.json());
    return new Response(null, { status: 200 });
  });
  const sink = memorySink();
  const escalator = new Escalator({
    process: "p",
    logger: new Logger("t", { sink }),
    events: {
      emit: () => {
        throw new TypeError("bus closed");
      },
    },
  });
  const url = `http://127.0.0.1:${server.addr.port}/hook`;
  const delivery = await escalator.escalate(
    { event_type: "ops.alert", webhook_url: url, allow_private_network: true },
    body,
  );
  assert.deepEqual(delivery, {
    webhook: true,
    sent: true,
    status: 200,
    event: "failed",
    event_error: "TypeError: bus closed",
  });
  assert.deepEqual(bodies, [body]);
  assert.deepEqual(sink.records.map((r) => r.message), ["escalation event not emitted"]);
});

Deno.test("a refused webhook is logged each time; a target without event_type emits nothing", async () => {
  const sink = memorySink();
  const emitted: RuntimeEventInput[] = [];
  const escalator = new Escalator({
    process: "p",
    logger: new Logger("t", { sink }),
    events: { emit: (e) => void emitted.push(e) },
  });
  for (let i = 0; i < 2; i++) {
    const delivery = await escalator.escalate({ webhook_url: "http://127.0.0.1:9/hook" }, body);
    assert.equal(delivery.event, "none");
    assert.equal(delivery.sent, false);
    assert.equal(delivery.error, "webhook_url resolves to a private or loopback address");
  }
  assert.equal(emitted.length, 0);
  assert.deepEqual(sink.records.map((r) => r.message), [
    "escalation webhook not delivered",
    "escalation webhook not delivered",
  ]);
});

Deno.test("escalateVia uses the host's escalate, else one escalator of its own that warns once", async () => {
  const emitted: RuntimeEventInput[] = [];
  const shared = new Escalator({ process: "p", events: { emit: (e) => void emitted.push(e) } });
  const viaHost = escalateVia({ name: "p", escalate: (t, b) => shared.escalate(t, b) });
  assert.equal((await viaHost({ event_type: "x" }, body)).event, "emitted");
  assert.equal(emitted.length, 1);
  const sink = memorySink();
  const own = escalateVia({ name: "q" }, { logger: new Logger("t", { sink }) });
  assert.equal((await own({ event_type: "x" }, body)).event, "no_event_bus");
  assert.equal((await own({ event_type: "x" }, body)).event, "no_event_bus");
  assert.equal(sink.records.length, 1, "warned once");
});
