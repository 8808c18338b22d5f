/**
 * Issue 14 item 5, replayed against the real binary: "a refused operation still changes the saved state".
 * Before the fix the desired state was saved before the operation ran, so a suspend refused with 400
 * SUSPEND_FAILED, a resume refused with 400 RESUME_FAILED, or a start on a suspended process came back
 * after a runtime restart in the state the refused operation asked for. Now each process comes back
 * in the state it was in before.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import type { ProcessState } from "../../src/api/client.ts";
import { tempDir } from "../_cli_harness.ts";
import { type RawAnswer, runtimeOn } from "./_runtime_on.ts";

const CONFIG = { model: "openai-compatible:echo", instructions: "Stay as you are." };
/** No run happens: the model endpoint is never called. */
const ENV = { OPENAI_COMPATIBLE_BASE_URL: "http://127.0.0.1:9/v1" };

/** Each case: the process's state, the refused operation, and the answer it gets. */
const CASES: Array<{ name: string; state: ProcessState; operation: string; status: number; code?: string }> =
  [
    { name: "stopped-suspend", state: "stopped", operation: "suspend", status: 400, code: "SUSPEND_FAILED" },
    { name: "created-suspend", state: "created", operation: "suspend", status: 400, code: "SUSPEND_FAILED" },
    { name: "running-resume", state: "running", operation: "resume", status: 400, code: "RESUME_FAILED" },
    { name: "stopped-resume", state: "stopped", operation: "resume", status: 400, code: "RESUME_FAILED" },
    // A start on a started process changes nothing and answers the current state.
    { name: "suspended-start", state: "suspended", operation: "start", status: 200 },
  ];

function check(answer: RawAnswer, expected: { status: number; code?: string }, what: string): void {
  assert.equal(answer.status, expected.status, `${what}: ${answer.text}`);
  const body = JSON.parse(answer.text);
  if (expected.code !== undefined) assert.equal(body.error.code, expected.code, what);
}

Deno.test("a refused suspend, resume or start changes nothing, before and after a runtime restart", async () => {
  await using dir = await tempDir();
  const dataDir = join(dir.path, "state");
  {
    await using runtime = await runtimeOn(dataDir, { root: dir.path, env: ENV });
    const { client, api } = runtime;
    for (const { name, state } of CASES) {
      await client.deploy(name, CONFIG, { start: state !== "created" });
      if (state === "stopped") await client.stopProcess(name);
      if (state === "suspended") await client.suspendProcess(name);
      assert.equal((await client.getProcess(name)).state, state, name);
    }
    for (const { name, state, operation, ...expected } of CASES) {
      check(await api("POST", `/processes/${name}/${operation}`), expected, `${operation} ${name}`);
      assert.equal((await client.getProcess(name)).state, state, `${name} after the refused ${operation}`);
    }
    assert.equal(await runtime.stop(), 0);
  }
  await using again = await runtimeOn(dataDir, { root: dir.path, env: ENV });
  for (const { name, state, operation } of CASES) {
    // A stopped (or never started) process comes back as created (control_api.md, What survives a restart).
    const expected = state === "stopped" ? "created" : state;
    assert.equal(
      (await again.client.getProcess(name)).state,
      expected,
      `${name} after a restart (${operation} refused)`,
    );
  }
  assert.equal(await again.stop(), 0);
});
