/**
 * Issue 14 item 9, replayed against the real binary: a message topic with an empty segment (`a..b`, `.a`,
 * `a.`) passed validation at deploy and failed at start with 500 START_FAILED. Now it is refused with 422
 * at deploy and when a trigger is added at run time, nothing is stored, and valid topics (wildcards too)
 * still deploy and start.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { tempDir } from "../_cli_harness.ts";
import { type RawAnswer, runtimeOn } from "./_runtime_on.ts";

const BASE = { model: "openai-compatible:echo", instructions: "Read the news." };
/** No run happens: the model endpoint is never called. */
const ENV = { OPENAI_COMPATIBLE_BASE_URL: "http://127.0.0.1:9/v1" };
const BAD_TOPICS = ["a..b", ".a", "a.", ".", "..", "", "reports..*", "#."];
const GOOD_TOPICS = ["a.b", "reports.*", "#", "a.#.b", "news"];

function refused(answer: RawAnswer, field: string, what: string): void {
  assert.equal(answer.status, 422, `${what}: ${answer.text}`);
  const { error } = JSON.parse(answer.text);
  assert.ok(
    (error.details ?? []).some((detail: { field: string }) => detail.field === field),
    `${what}: ${answer.text}`,
  );
}

Deno.test("a topic with an empty segment is 422 at deploy and when a trigger is added; valid ones start", async () => {
  await using dir = await tempDir();
  const dataDir = join(dir.path, "state");
  await using runtime = await runtimeOn(dataDir, { root: dir.path, env: ENV });
  const { client, api } = runtime;
  for (const [index, topic] of BAD_TOPICS.entries()) {
    const config = { ...BASE, triggers: [{ type: "message", topic }] };
    const answer = await api("POST", "/processes", { name: `bad-${index}`, config, start: true });
    refused(answer, "config.triggers[0].topic", `deploy with topic ${JSON.stringify(topic)}`);
  }
  assert.equal((await client.listProcesses()).total, 0, "nothing was deployed");

  await client.deploy("reader", BASE, { start: true });
  for (const topic of BAD_TOPICS) {
    const answer = await api("POST", "/processes/reader/triggers", { type: "message", topic });
    assert.equal(answer.status, 422, `add trigger with topic ${JSON.stringify(topic)}: ${answer.text}`);
    assert.match(answer.text, /topic/);
  }
  assert.equal((await client.listTriggers("reader")).count, 0, "no trigger was added");
  assert.equal((await client.getProcess("reader")).state, "running");

  for (const [index, topic] of GOOD_TOPICS.entries()) {
    const deployed = await client.deploy(
      `good-${index}`,
      { ...BASE, triggers: [{ type: "message", topic }] },
      {
        start: true,
      },
    );
    assert.equal(deployed.state, "running", topic);
    const added = await client.addTrigger("reader", { type: "message", topic });
    assert.equal(added.live, true, topic);
  }
  assert.equal((await client.listTriggers("reader")).count, GOOD_TOPICS.length);
  assert.equal(await runtime.stop(), 0);

  // Only the valid deployments were stored: all come back running.
  await using again = await runtimeOn(dataDir, { root: dir.path, env: ENV });
  const { processes } = await again.client.listProcesses();
  assert.deepEqual(
    processes.map((p) => [p.name, p.state]).sort(),
    [["reader", "running"], ...GOOD_TOPICS.map((_, i) => [`good-${i}`, "running"])].sort(),
  );
  assert.equal(await again.stop(), 0);
});
