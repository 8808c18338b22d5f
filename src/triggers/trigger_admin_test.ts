import assert from "node:assert/strict";
import { Logger, memorySink } from "../log.ts";
import { AgentRuntime, RuntimeError } from "../runtime/mod.ts";
import { addTrigger, listTriggers } from "./trigger_admin.ts";

const quiet = () => new Logger("test", { sink: memorySink() });

Deno.test("addTrigger takes a trigger as a deploy does (defaults filled) and refuses an invalid one by field", async () => {
  const runtime = new AgentRuntime({ logger: quiet() });
  const process = await runtime.deploy("a", { triggers: [{ type: "event", event_type: "order.created" }] });
  const added = await addTrigger(runtime, process, {
    config: { type: "cron", cron_expression: "0 * * * *" },
  });
  assert.equal(added.effective_from, "next_start");
  const cron = process.config.triggers[1];
  assert.equal(cron.type === "cron" ? cron.cron_timezone : "not a cron trigger", null);
  assert.deepEqual(listTriggers(process).map((t) => t.id)[1], added.trigger_id);
  await assert.rejects(
    addTrigger(runtime, process, { config: { type: "webhook", webhook_port: "9091" } as never }),
    (error: unknown) => {
      assert.ok(error instanceof RuntimeError && error.code === "INVALID_CONFIG", String(error));
      assert.deepEqual((error as RuntimeError<"INVALID_CONFIG">).details.issues, [
        { field: "triggers[2].webhook_port", expected: "an integer from 1 to 65535 (got a string)" },
      ]);
      return true;
    },
  );
  assert.equal(process.config.triggers.length, 2);
  await runtime.close();
});
