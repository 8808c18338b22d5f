/**
 * Issue 14 item 3, on the control API: clients that never finish a body, and a long poll (`/ask` waiting an
 * hour), must not hold SIGTERM: the API cuts every connection after its grace and the runtime exits 0.
 *
 * @module
 */

import assert from "node:assert/strict";
import { startRuntime } from "../_agent_harness.ts";
import { tempDir } from "../_cli_harness.ts";
import { CONTROL_STOP_GRACE_MS } from "../../src/api/server.ts";
import { rawClient, slowPost, within } from "../../src/_util/_test_raw_client.ts";

Deno.test("slow-body clients and an hour-long /ask do not hold SIGTERM of the runtime", async () => {
  await using dir = await tempDir();
  await using runtime = await startRuntime(["--data-dir", dir.path, "--no-token"], {});
  const { url } = await runtime.cli.listening();
  const port = Number(new URL(url).port);
  await runtime.client.deploy("desk", { inbox: { enabled: true } }); // created: it takes questions
  const asking = fetch(`${url}/api/v1/processes/desk/ask`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ content: "anyone there?", timeout: 3600 }),
  }).then((answer) => answer.text(), (error: unknown) => `cut: ${error}`);
  const clients = await Promise.all(
    Array.from({ length: 5 }, () => rawClient(port, slowPost("/api/v1/processes"))),
  );
  try {
    await new Promise((resolve) => setTimeout(resolve, 300));
    await runtime.client.close();
    const started = Date.now();
    const code = await within(CONTROL_STOP_GRACE_MS + 5_000, "SIGTERM", runtime.cli.stop("SIGTERM"));
    console.log(`SIGTERM with 5 slow clients and a long poll: exit ${code} in ${Date.now() - started} ms`);
    assert.equal(code, 0);
    await within(2_000, "the long poll's end", asking);
    await within(2_000, "the slow clients' end", Promise.all(clients.map((client) => client.answer)));
  } finally {
    for (const client of clients) client[Symbol.dispose]();
  }
});
