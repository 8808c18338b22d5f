/**
 * The console's remaining actions through the browser: rotate and revoke a secret, add a context key, apply a
 * rewind from its plan, redeliver a dead letter, and a signed webhook (the runtime started with
 * `--allow-env-var`) next to an unsigned POST that is refused.
 *
 * @module
 */

import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import type { Page } from "playwright-core";
import { freePort } from "../_ports.ts";
import { agentConfig, agentModel, consoleTest, processRow, type Respond } from "./_harness.ts";
import { fireWebhook, until } from "../_agent_harness.ts";

/** Opens the process page of `name` on `tab`. */
async function openTab(page: Page, name: string, tab: string): Promise<void> {
  await processRow(page, name).getByTestId("process-link").click();
  await page.waitForURL(new RegExp(`#/p/${name}`));
  await page.getByTestId(`tab-${tab}`).click();
}

consoleTest("secrets: rotate one from its row (new metadata), then revoke all", async (
  { page, client, login, screenshot },
) => {
  await client.deploy("vault", agentConfig(freePort()), { start: true });
  await login();
  await openTab(page, "vault", "secrets");
  const row = page.locator("[data-testid=secret-row][data-name=SHOP_KEY]");
  await row.waitFor();
  const before = (await client.listSecrets("vault")).secrets.find((s) => s.name === "SHOP_KEY");
  assert.ok(before?.active, "the secret is active before");
  assert.equal(before.rotated_at ?? null, null, "never rotated yet");

  await row.getByTestId("secret-value").fill("shop-key-2");
  await row.getByTestId("secret-rotate").click();
  await until("the rotation", async () => {
    const after = (await client.listSecrets("vault")).secrets.find((s) => s.name === "SHOP_KEY");
    return typeof after?.rotated_at === "number";
  });
  // The row is drawn again from the API: its "Rotated" cell now has a time.
  await until("the row's new metadata", async () => {
    const cell = await row.locator("[data-label=Rotated]").innerText();
    return cell.trim() !== "" && cell.trim() !== "—";
  });
  await screenshot("process-secrets-rotated");

  await page.getByTestId("secret-revoke").click();
  await page.getByTestId("confirm-yes").click();
  await until("the revocation", async () => (await client.listSecrets("vault")).active_count === 0);
  await until(
    "the tab shows it",
    async () =>
      await page.locator("[data-testid=secret-row]").filter({ hasText: /inactive/ }).count() > 0 ||
      await page.getByTestId("secret-row").count() === 0,
  );
  await screenshot("process-secrets-revoked");
}, { respond: agentModel });

consoleTest("context: add a key from the tab", async ({ page, client, login, screenshot }) => {
  await client.deploy("ctx", agentConfig(freePort()), { start: true });
  await login();
  await openTab(page, "ctx", "context");
  await page.locator("[data-testid=context-key][data-key=region]").waitFor();
  await page.getByTestId("context-add").click();
  await page.getByTestId("context-key-input").fill("note");
  await page.getByTestId("context-value").fill('"hello from the console"');
  await page.getByTestId("context-save").click();
  await page.locator("[data-testid=context-key][data-key=note]").waitFor();
  assert.equal((await client.getContext("ctx")).state.note, "hello from the console");
  await screenshot("process-context-added");
}, { respond: agentModel });

consoleTest("rewind: apply the plan from a journal entry; the context goes back as planned", async (
  { page, client, login, screenshot },
) => {
  const port = freePort();
  await client.deploy("back", agentConfig(port), { start: true });
  await fireWebhook(port, "/orders", { order_id: 9 });
  await until("the run", async () => (await client.listRuns("back")).runs[0]?.status === "succeeded");
  assert.equal((await client.getContext("back")).state.last_order, 9);
  const journal = (await client.getJournal("back", { limit: 500 })).entries;
  const call = journal.find((e) => e.entry_type === "tool_call");
  assert.ok(call, "a tool call was journaled");
  const plan = await client.rewindPlan("back", call.entry_id);

  await login();
  await openTab(page, "back", "journal");
  const entry = page.locator(`[data-testid=journal-entry][data-entry-id="${call.entry_id}"]`);
  await entry.getByTestId("rewind-button").click();
  const shown = page.getByTestId("rewind-plan");
  await shown.getByTestId("rewind-summary").filter({ hasText: plan.summary }).waitFor();
  await page.getByTestId("rewind-apply").click();
  await shown.getByTestId("form-ok").waitFor();
  await screenshot("process-rewind-applied");

  const after = (await client.getJournal("back", { limit: 500 })).entries;
  assert.ok(after.some((e) => e.entry_type === "rewind"), "the rewind is journaled");
  assert.equal((await client.getContext("back")).state.last_order, undefined, "the tool's write is undone");
  assert.equal((await client.getContext("back")).state.region, "eu");
}, { respond: agentModel });

/** Fails the first model call of a `"fail": true` event (so it is dead-lettered), then answers. */
let failures = 0;
const failOnce: Respond = (request) => {
  const last = request.messages.at(-1);
  if (last?.role === "user" && /"fail": true/.test(last.content) && failures++ === 0) {
    return { status: 400, body: JSON.stringify({ error: { message: "scripted failure" } }) };
  }
  return { text: "Handled on redelivery.", usage: { input_tokens: 10, output_tokens: 5 } };
};

consoleTest("dead letters: redeliver one; it leaves the list and runs", async (
  { page, client, consoleUrl, login, screenshot },
) => {
  const port = freePort();
  await client.deploy("retry", agentConfig(port), { start: true });
  await fireWebhook(port, "/orders", { fail: true });
  await until("the dead letter", async () => (await client.listDeadLetters("retry")).count === 1);
  await login();
  await page.goto(`${consoleUrl}#/dead-letters`);
  const letter = page.getByTestId("dead-letter-row");
  await letter.waitFor();
  await letter.getByTestId("dead-letter-redeliver").click();
  await letter.waitFor({ state: "detached" });
  await until("the redelivered run", async () => {
    const { runs } = await client.listRuns("retry");
    return runs.some((r) => r.status === "succeeded");
  });
  assert.equal((await client.listDeadLetters("retry")).count, 0);
  await screenshot("dead-letters-redelivered");
}, { respond: failOnce });

const HOOK_SECRET = `console-hook-${crypto.randomUUID()}`;

consoleTest("a signed webhook runs the agent; an unsigned one is refused", async (
  { page, client, login, screenshot },
) => {
  const port = freePort();
  const config = agentConfig(port);
  config.triggers = [{
    type: "webhook",
    webhook_path: "/orders",
    webhook_port: port,
    hmac_secret: "${HOOK_SECRET}",
  }];
  await login();
  await page.getByTestId("deploy-open").click();
  await page.getByTestId("deploy-name").fill("signed");
  await page.getByTestId("deploy-config").fill(JSON.stringify(config, null, 2));
  const start = page.getByTestId("deploy-start");
  if (!(await start.isChecked())) await start.check();
  await page.getByTestId("deploy-submit").click();
  await processRow(page, "signed").getByTestId("process-state").filter({ hasText: "running" }).waitFor();

  const url = `http://127.0.0.1:${port}/orders`;
  const unsigned = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ order_id: 1 }),
  });
  await unsigned.body?.cancel();
  assert.ok([401, 403].includes(unsigned.status), `unsigned: ${unsigned.status}`);

  const body = JSON.stringify({ order_id: 5 });
  const mac = createHmac("sha256", HOOK_SECRET).update(body).digest("hex");
  const signed = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", "x-webhook-signature": `sha256=${mac}` },
    body,
  });
  assert.equal(signed.status, 202, await signed.text());

  await processRow(page, "signed").getByTestId("process-link").click();
  await page.locator("[data-testid=run-row][data-status=succeeded]").waitFor();
  const { runs } = await client.listRuns("signed");
  assert.equal(runs.length, 1, "only the signed POST ran");
  assert.equal((await client.getContext("signed")).state.last_order, 5);
  await screenshot("process-runs-signed");
}, {
  respond: agentModel,
  args: ["--allow-env-var", "HOOK_SECRET"],
  env: { HOOK_SECRET },
});

consoleTest(
  "mission: pause and resume from the governance tab",
  async ({ page, client, login, screenshot }) => {
    const port = freePort();
    await client.deploy("ops", {
      ...agentConfig(port),
      mission: {
        enabled: true,
        objective: "Handle the orders",
        success_criteria: "Every order is recorded",
        eval_every: 100,
      },
    }, { start: true });
    await fireWebhook(port, "/orders", { order_id: 3 });
    await until("an active mission", async () => (await client.getMission("ops")).state === "active");
    await login();
    await openTab(page, "ops", "governance");
    const view = page.getByTestId("mission-view");
    await view.filter({ hasText: "State active" }).waitFor();
    await view.getByTestId("mission-pause").click();
    await view.filter({ hasText: "State paused" }).waitFor();
    assert.equal((await client.getMission("ops")).state, "paused");
    await screenshot("process-mission-paused");
    await view.getByTestId("mission-resume").click();
    await view.filter({ hasText: "State active" }).waitFor();
    assert.equal((await client.getMission("ops")).state, "active");
  },
  { respond: agentModel },
);
