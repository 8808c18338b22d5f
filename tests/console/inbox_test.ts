/**
 * The inbox, context and secrets tabs: a message sent, a question asked and its answer arriving (the model
 * server answers it on the run the question wakes), a writable context key edited, secret metadata listed.
 *
 * @module
 */

import assert from "node:assert/strict";
import { freePort } from "../_ports.ts";
import { agentConfig, agentModel, consoleTest, processRow } from "./_harness.ts";
import { until } from "../_agent_harness.ts";

consoleTest("send a message, ask a question and see the answer, edit a context key, list secrets", async (
  { page, client, login, screenshot, modelRequests },
) => {
  const config = agentConfig(freePort());
  await client.deploy("desk", {
    ...config,
    context: { writable_keys: ["last_order", "note"], initial_state: { region: "eu", note: "none" } },
  }, { start: true });
  await login();
  await processRow(page, "desk").getByTestId("process-link").click();
  await page.getByTestId("tab-inbox").click();

  await page.getByTestId("inbox-content").fill("Prefer express shipping this week.");
  await page.getByTestId("inbox-send").click();
  await until(
    "the message reaches the model",
    () =>
      modelRequests.some((request) =>
        request.messages.some((m) => m.role === "system" && m.content.includes("Prefer express shipping"))
      ),
  );

  await page.getByTestId("ask-content").fill("What is the answer?");
  await page.getByTestId("ask-submit").click();
  const answer = page.getByTestId("ask-answer");
  await answer.filter({ hasText: /the answer is \d+/ }).waitFor({ timeout: 30_000 });
  await screenshot("process-inbox");

  await page.getByTestId("tab-context").click();
  const note = page.locator("[data-testid=context-key][data-key=note]");
  await note.waitFor();
  await page.locator("[data-testid=context-key][data-key=region]").waitFor();
  await screenshot("process-context");
  await note.getByTestId("context-edit").click();
  await page.getByTestId("context-value").fill('"fragile"');
  await page.getByTestId("context-save").click();
  await until("the context write", async () => (await client.getContext("desk")).state.note === "fragile");
  await note.filter({ hasText: "fragile" }).waitFor();

  await page.getByTestId("tab-secrets").click();
  const secret = page.getByTestId("secret-row").filter({ hasText: "SHOP_KEY" });
  await secret.waitFor();
  assert.ok(!(await page.content()).includes("shop-key-1"), "no secret value on the page");
  await screenshot("process-secrets");
}, { respond: agentModel });
