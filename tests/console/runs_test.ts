/**
 * Deploying through the console's form, firing the webhook from the test, and watching the run appear live
 * with its steps; the journal with its filter, and a rewind whose plan is shown before anything applies.
 *
 * @module
 */

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { freePort } from "../_ports.ts";
import {
  agentConfig,
  agentModel,
  consoleTest,
  deployThroughForm,
  processRow,
  type Respond,
} from "./_harness.ts";
import { fireWebhook, until } from "../_agent_harness.ts";

/**
 * Opens the process page of `name` from the list, on its runs tab (the default one), and waits until the tab's
 * live stream (`/runs/events`) answered: a run started before that is missed by the tab until it ends (the tab
 * lists the runs, then subscribes; clicking `tab-runs` again would start over).
 */
async function openRuns(page: Page, name: string): Promise<void> {
  const streaming = page.waitForResponse((response) => response.url().includes("/runs/events"));
  await processRow(page, name).getByTestId("process-link").click();
  await page.waitForURL(new RegExp(`#/p/${name}`));
  await streaming;
  assert.equal(await page.getByTestId("tab-runs").getAttribute("aria-selected"), "true");
}

/** The README's screenshot, refreshed by `UPDATE_README_SCREENSHOT=1` runs of this test. */
const README_SHOT = fileURLToPath(new URL("../../docs/console.png", import.meta.url));

consoleTest(
  "deploy through the form, fire the webhook, see the run arrive live with its steps, rewind plan",
  async (
    { page, client, consoleUrl, login, screenshot },
  ) => {
    const port = freePort();
    await login();
    await deployThroughForm(page, "orders", port);
    assert.equal((await client.getProcess("orders")).state, "running");
    await processRow(page, "orders").getByTestId("process-state").filter({ hasText: "running" }).waitFor();
    await screenshot("deploy-submitted");

    await openRuns(page, "orders");
    assert.equal(await page.getByTestId("run-row").count(), 0, "no run yet");
    assert.equal(await page.getByTestId("runs-empty").isVisible(), true, "the empty note shows");

    // The run appears without a reload: the page learns it from the event stream.
    await fireWebhook(port, "/orders", { order_id: 42 });
    const row = page.locator("[data-testid=run-row][data-status=succeeded]");
    await row.waitFor();
    const [run] = (await client.listRuns("orders")).runs;
    assert.equal(await row.getAttribute("data-run-id"), run.run_id);
    assert.equal(
      await page.getByTestId("runs-empty").isVisible(),
      false,
      "the empty note goes with the first run",
    );
    await row.click(); // the whole row opens the run (its button does too, for the keyboard)
    await page.getByTestId("run-steps").waitFor();
    await until("the run's steps", async () => await page.getByTestId("run-step").count() >= 3);
    const steps = await page.getByTestId("run-steps").innerText();
    assert.match(steps, /set_context/, "the tool call is shown");
    assert.match(steps, /Order handled\./, "the final model turn is shown");
    await screenshot("process-runs");

    await page.getByTestId("tab-journal").click();
    await page.getByTestId("journal-entry").first().waitFor();
    const entries = await page.getByTestId("journal-entry").count();
    assert.ok(entries >= 3, `${entries} journal entries`);
    await screenshot("process-journal");
    await page.getByTestId("journal-filter").fill("tool_call");
    await until("the journal filter", async () => {
      const shown = await page.locator("[data-testid=journal-entry]:visible").count();
      return shown >= 1 && shown < entries;
    });
    await page.getByTestId("journal-filter").fill("");
    await until(
      "the whole journal again",
      async () => await page.locator("[data-testid=journal-entry]:visible").count() >= entries,
    );

    const before = (await client.getJournal("orders", { limit: 500 })).entries.length;
    await page.getByTestId("journal-entry").getByTestId("rewind-button").first().click();
    const plan = page.getByTestId("rewind-plan");
    await plan.waitFor();
    assert.ok((await plan.innerText()).trim().length > 0, "the plan says something");
    await screenshot("process-rewind-plan");
    await page.getByTestId("rewind-cancel").click();
    await plan.waitFor({ state: "hidden" });
    const after = (await client.getJournal("orders", { limit: 500 })).entries;
    assert.equal(after.length, before, "showing the plan changed nothing");
    assert.ok(!after.some((entry) => entry.entry_type === "rewind"));

    // The processes view with the deployed process and its run: the README's picture.
    await page.goto(`${consoleUrl}#/`);
    await processRow(page, "orders").filter({ hasText: "openai:gpt-test" }).waitFor();
    const shot = await screenshot("processes");
    assert.ok((await Deno.stat(shot)).size > 0);
    await page.emulateMedia({ colorScheme: "dark" });
    await screenshot("processes-dark");
    if (Deno.env.get("UPDATE_README_SCREENSHOT") === "1") {
      await page.screenshot({ path: README_SHOT, clip: { x: 0, y: 0, width: 1280, height: 270 } });
    }
  },
  { respond: agentModel },
);

/** Held until the live-steps test lets the run's second model turn answer. */
const gate = Promise.withResolvers<void>();
const heldModel: Respond = async (request) => {
  if (request.messages.at(-1)?.role === "tool") await gate.promise;
  return agentModel(request);
};

consoleTest(
  "an open run's steps stream in live while it runs",
  async ({ page, client, login, screenshot }) => {
    try {
      const port = freePort();
      await client.deploy("live", agentConfig(port), { start: true });
      await login();
      await openRuns(page, "live");
      await fireWebhook(port, "/orders", { order_id: 7 });
      const row = page.locator("[data-testid=run-row][data-status=running]");
      await row.click();
      await page.getByTestId("run-steps").waitFor();
      // The first model turn, its tool call and result are in; the second turn waits for the gate.
      await until("the steps so far", async () => await page.getByTestId("run-step").count() >= 3);
      const before = await page.getByTestId("run-step").count();
      await screenshot("process-run-live");
      gate.resolve();
      await until(
        "the last model turn, live",
        async () => await page.getByTestId("run-step").count() > before,
      );
      await page.locator("[data-testid=run-row][data-status=succeeded]").waitFor();
      await page.getByTestId("run-steps").filter({ hasText: "Order handled." }).waitFor();
    } finally {
      gate.resolve();
    }
  },
  { respond: heldModel },
);
