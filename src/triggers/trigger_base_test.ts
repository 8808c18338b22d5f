import assert from "node:assert/strict";
import { TriggerBase } from "./trigger_base.ts";
import type { TriggerEvent } from "./types.ts";

/** A trigger whose events come from the test, recorded through a slow `accept`. */
class ManualTrigger extends TriggerBase {
  push(n: number): Promise<"queued" | "full" | "unrecorded"> {
    return this.admit(this.makeEvent({ n }));
  }
  protected listen(): Promise<void> {
    return Promise.resolve();
  }
  protected unlisten(): Promise<void> {
    return Promise.resolve();
  }
}

Deno.test("admit refuses an event while the writes under way fill the queue: nothing is queued unrecorded", async () => {
  const recorded: TriggerEvent[] = [];
  const writes: Array<() => void> = [];
  const trigger = new ManualTrigger({
    triggerId: "manual-1",
    type: "event",
    capacity: 2,
    accept: (event) =>
      new Promise<void>((resolve) =>
        writes.push(() => {
          recorded.push(event);
          resolve();
        })
      ),
  });
  const first = trigger.push(1);
  const second = trigger.push(2);
  // Both places are reserved by writes under way: a third is refused at once, not queued past them.
  assert.equal(await trigger.push(3), "full");
  assert.equal(trigger.dropped, 1);
  for (const write of writes.splice(0)) write();
  assert.deepEqual([await first, await second], ["queued", "queued"]);
  assert.equal(trigger.queueSize, 2);
  assert.equal(await trigger.push(4), "full");
  assert.deepEqual(
    [(await trigger.waitForNext()).payload, (await trigger.waitForNext()).payload],
    recorded.map((event) => event.payload),
    "every queued event was recorded first",
  );
});
