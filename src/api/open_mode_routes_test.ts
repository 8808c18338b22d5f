import assert from "node:assert/strict";
import { deploy, testApi } from "../../tests/_api_harness.ts";

Deno.test("rollback of a strict process is 400 OPEN_MODE_DISABLED; of an unknown one 404", async () => {
  await using api = await testApi();
  assert.equal((await deploy(api, "fixed", { instructions: "x" })).status, 201);
  const refused = await api.call("POST", "/api/v1/processes/fixed/rollback");
  assert.equal(refused.status, 400);
  assert.equal(refused.body.error.code, "OPEN_MODE_DISABLED");
  const missing = await api.call("POST", "/api/v1/processes/nobody/rollback");
  assert.equal(missing.status, 404);
});

Deno.test("rollback of an open process not started answers that nothing was undone", async () => {
  await using api = await testApi();
  const config = { instructions: "x", execution_mode: "open", open_mode: { allow_tool_creation: false } };
  assert.equal((await deploy(api, "open", config)).status, 201);
  const answer = await api.call("POST", "/api/v1/processes/open/rollback");
  assert.equal(answer.status, 200);
  assert.deepEqual(answer.body, {
    name: "open",
    rolled_back: true,
    instructions_restored: false,
    triggers_removed: [],
    servers_disconnected: [],
    tools_dropped: [],
  });
});

Deno.test("an open-mode deploy with tool creation needs --allow-command-deploys; without creation it passes", async () => {
  await using api = await testApi();
  const refused = await deploy(api, "maker", { instructions: "x", execution_mode: "open" });
  assert.equal(refused.status, 403);
  assert.equal(refused.body.error.code, "COMMANDS_NOT_ALLOWED");
  const config = { instructions: "x", execution_mode: "open", open_mode: { allow_tool_creation: false } };
  assert.equal((await deploy(api, "maker", config)).status, 201);
  await using allowed = await testApi({ allowCommandDeploys: true });
  assert.equal((await deploy(allowed, "maker", { instructions: "x", execution_mode: "open" })).status, 201);
});
