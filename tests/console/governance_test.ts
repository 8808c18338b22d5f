/**
 * Governance forms with the API's validation errors shown by field, the triggers tab (list, add, remove)
 * and the dead letters view (a failed run's event listed, then cleared).
 *
 * @module
 */

import assert from "node:assert/strict";
import { freePort } from "../_ports.ts";
import { agentConfig, agentModel, consoleTest, processRow } from "./_harness.ts";
import { fireWebhook, until } from "../_agent_harness.ts";

consoleTest("patch the budget with an invalid value and see the field error, then a valid one", async (
  { page, client, login, screenshot },
) => {
  await client.deploy("gov", agentConfig(freePort()), { start: true });
  await login();
  await processRow(page, "gov").getByTestId("process-link").click();
  await page.getByTestId("tab-governance").click();
  const budget = page.getByTestId("budget-form");
  const day = budget.locator("[name=max_tool_calls_per_day]");
  await day.fill("-5");
  await page.getByTestId("budget-submit").click();
  const error = budget.locator("[data-testid=field-error][data-field*=max_tool_calls_per_day]");
  await error.waitFor();
  assert.ok((await error.innerText()).trim().length > 0, "the field error says what is expected");
  await screenshot("process-governance-error");
  assert.equal((await client.getProcess("gov")).budget?.enabled, true);

  await day.fill("50");
  await page.getByTestId("budget-submit").click();
  await budget.getByTestId("form-ok").waitFor();
  await error.waitFor({ state: "hidden" });
  await until("the live patch", async () => {
    const { budget } = await client.getProcess("gov");
    return budget?.enabled === true && budget.remaining?.tool_calls_day === 50;
  });
  await page.getByTestId("health-form").waitFor();
  await page.getByTestId("mission-form").waitFor();
  await screenshot("process-governance");
}, { respond: agentModel });

consoleTest("triggers: list, add, remove; dead letters: a failed run's event listed, then cleared", async (
  { page, client, login, screenshot },
) => {
  const port = freePort();
  await client.deploy("hooks", agentConfig(port), { start: true });
  await login();
  await processRow(page, "hooks").getByTestId("process-link").click();
  await page.getByTestId("tab-triggers").click();
  await until("one trigger", async () => await page.getByTestId("trigger-row").count() === 1);
  const second = freePort();
  await page.getByTestId("trigger-add-config").fill(
    JSON.stringify({ type: "webhook", webhook_path: "/more", webhook_port: second }),
  );
  await page.getByTestId("trigger-add-submit").click();
  await until("two triggers", async () => await page.getByTestId("trigger-row").count() === 2);
  await screenshot("process-triggers");
  const added = (await client.listTriggers("hooks")).triggers.find((t) => t.config?.webhook_port === second);
  assert.ok(added, "the trigger was added through the API");
  await page.locator(`[data-testid=trigger-row][data-trigger-id="${added.id}"]`).getByTestId("trigger-remove")
    .click();
  await until("one trigger again", async () => await page.getByTestId("trigger-row").count() === 1);
  assert.equal((await client.listTriggers("hooks")).triggers.length, 1);

  await fireWebhook(port, "/orders", { fail: true });
  await until("the dead letter", async () => (await client.listDeadLetters("hooks")).count === 1);
  await page.goto(`${new URL(page.url()).origin}/console/#/dead-letters`);
  const letter = page.getByTestId("dead-letter-row");
  await letter.waitFor();
  await screenshot("dead-letters");
  await page.getByTestId("dead-letters-clear").click();
  const confirm = page.getByTestId("confirm-yes");
  if (await confirm.isVisible()) await confirm.click();
  await letter.waitFor({ state: "detached" });
  assert.equal((await client.listDeadLetters("hooks")).count, 0);
}, { respond: agentModel });
