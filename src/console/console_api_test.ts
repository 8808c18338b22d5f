import assert from "node:assert/strict";
import { createControlApi } from "../api/mod.ts";
import { AgentRuntime } from "../runtime/mod.ts";
import { consoleHandler } from "./mod.ts";
import { memoryLogger } from "../../tests/_api_harness.ts";

const TOKEN = "a-long-enough-test-token";

Deno.test("with the console in front, the page needs no token and the API still does", async () => {
  const runtime = new AgentRuntime({ logger: memoryLogger().logger });
  const api = createControlApi(runtime, { authToken: TOKEN, front: consoleHandler() });
  const page = await api.request("http://127.0.0.1:9100/console/", { headers: { host: "127.0.0.1:9100" } });
  assert.equal(page.status, 200);
  assert.match(await page.text(), /<main id="main"/);
  const root = await api.request("http://127.0.0.1:9100/");
  assert.equal(root.status, 302);
  assert.equal(root.headers.get("location"), "/console/");
  const refused = await api.request("http://127.0.0.1:9100/api/v1/processes");
  assert.equal(refused.status, 401);
  const allowed = await api.request("http://127.0.0.1:9100/api/v1/processes", {
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  assert.equal(allowed.status, 200);
  await allowed.body?.cancel();
});

Deno.test("without the console (--no-console) /console/ and / are the API's 404", async () => {
  const runtime = new AgentRuntime({ logger: memoryLogger().logger });
  const api = createControlApi(runtime, { authToken: TOKEN });
  for (const path of ["/console/", "/"]) {
    const answer = await api.request(`http://127.0.0.1:9100${path}`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    assert.equal(answer.status, 404, path);
    assert.equal((await answer.json()).error.code, "NOT_FOUND");
  }
});
