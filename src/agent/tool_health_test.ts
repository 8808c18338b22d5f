import assert from "node:assert/strict";
import { HealthMonitor } from "../runtime/mod.ts";
import { HealthConfigSchema } from "../runtime/config/mod.ts";
import { Logger } from "../log.ts";
import type { ToolBox } from "./tool_loop.ts";
import { withHealthWatch } from "./tool_health.ts";

const box: ToolBox = {
  specs: () => [{ name: "echo", description: "echo", inputSchema: { type: "object" } }],
  call: (name, args) => Promise.resolve({ content: `${name}:${JSON.stringify(args)}`, isError: false }),
};

Deno.test("without a watch the tool box is the same object (health off costs nothing)", () => {
  assert.equal(withHealthWatch(box, undefined), box);
});

Deno.test("a watched tool box shows every call to the run's watch and still runs it", async () => {
  const host = {
    name: "p",
    processId: "id",
    config: { health: HealthConfigSchema.parse({ enabled: true, stuck_threshold: 2 }) },
    suspend: () => Promise.resolve(),
    resolveReferences: <T>(value: T) => value,
  };
  const monitor = new HealthMonitor(host, { logger: new Logger("test", { sink: () => {} }) });
  const watch = monitor.watch("r1");
  const tools = withHealthWatch(box, watch);
  assert.deepEqual(tools.specs(), box.specs());
  const signal = new AbortController().signal;
  assert.equal((await tools.call("echo", { a: 1 }, signal)).content, 'echo:{"a":1}');
  assert.equal(monitor.status().anomalies, 0);
  await tools.call("echo", { a: 1 }, signal);
  assert.equal(monitor.status().last_anomaly?.type, "stuck");
});
