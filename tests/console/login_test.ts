/**
 * The console's entry: `/` redirects to `/console/`, the token is pasted once (kept in `sessionStorage`
 * only), the event stream connects, everything is reachable by keyboard, and the page fits a phone.
 *
 * @module
 */

import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { consoleTest, PHONE, processRow, TOKEN } from "./_harness.ts";

/** Presses Tab until the focused element has `data-testid=<id>` (at most `limit` presses). */
async function tabTo(page: Page, id: string, limit = 40): Promise<void> {
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press("Tab");
    const focused = await page.evaluate<string | null>(
      "document.activeElement?.getAttribute('data-testid') ?? null",
    );
    if (focused === id) return;
  }
  throw new Error(`${limit} presses of Tab did not reach [data-testid=${id}]`);
}

consoleTest(
  "/ redirects to the console; the token form connects by keyboard only; the token stays in sessionStorage",
  async (
    { page, url, consoleUrl, screenshot },
  ) => {
    const root = await fetch(`${url}/`, { redirect: "manual" });
    await root.body?.cancel();
    assert.equal(root.status, 302);
    assert.equal(new URL(root.headers.get("location")!, url).pathname, "/console/");
    const served = await fetch(consoleUrl);
    await served.body?.cancel();
    assert.equal(served.status, 200);
    assert.match(served.headers.get("content-security-policy") ?? "", /default-src 'self'/);

    // One page load stays under 200 KB; the page logs no error (a CSP refusal would show here).
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    let bytes = 0;
    const loads: Promise<void>[] = [];
    page.on("response", (response) => {
      if (!new URL(response.url()).pathname.startsWith("/console/")) return;
      loads.push(response.body().then((body) => void (bytes += body.length), () => undefined));
    });
    await page.goto(consoleUrl, { waitUntil: "networkidle" });
    await Promise.all(loads);
    assert.ok(bytes > 0 && bytes < 200_000, `the console's assets weigh ${bytes} bytes`);
    await screenshot("token");
    await tabTo(page, "token-input");
    await page.keyboard.type(TOKEN);
    await tabTo(page, "token-save", 5);
    await page.keyboard.press("Enter");
    await page.getByTestId("connection").filter({ hasText: "connected" }).waitFor();
    assert.deepEqual(errors.filter((e) => !/401|Unauthorized/i.test(e)), [], "no error on the page");
    assert.ok(!page.url().includes(TOKEN), "the token is not in the URL");
    assert.deepEqual(await page.context().cookies(), [], "no cookie");
    const stored = await page.evaluate(() =>
      Object.keys(sessionStorage).map((key) => sessionStorage.getItem(key))
    );
    assert.ok(stored.some((value) => value?.includes(TOKEN)), "the token is in sessionStorage");
    const local = await page.evaluate(() =>
      Object.keys(localStorage).map((key) => localStorage.getItem(key))
    );
    assert.ok(!local.some((value) => value?.includes(TOKEN)), "the token is not in localStorage");

    await tabTo(page, "deploy-open");
    await page.keyboard.press("Enter");
    await page.getByTestId("deploy-name").waitFor();
    await screenshot("deploy-form");

    // A reload in the same tab keeps the session (sessionStorage), no second paste.
    await page.reload();
    await page.getByTestId("connection").filter({ hasText: "connected" }).waitFor();
  },
);

consoleTest("the processes view at phone width (390x844) fits the screen", async (
  { page, client, login, screenshot },
) => {
  await client.deploy("phone", { model: "openai:gpt-test", journal: { level: "full" } }, { start: true });
  await login();
  await page.setViewportSize(PHONE);
  await processRow(page, "phone").getByTestId("process-state").filter({ hasText: "running" }).waitFor();
  await screenshot("phone-processes");
  const overflow = await page.evaluate<number>("document.documentElement.scrollWidth - innerWidth");
  assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow}px at 390px`);
  await processRow(page, "phone").getByTestId("process-link").click();
  await page.getByTestId("tab-runs").waitFor();
  await screenshot("phone-process");
});

consoleTest("process actions: suspend, resume, stop, start, and remove after a confirmation", async (
  { page, client, login, screenshot },
) => {
  await client.deploy("steer", { model: "openai:gpt-test", journal: { level: "full" } }, { start: true });
  await login();
  const row = processRow(page, "steer");
  const state = (text: string) => row.getByTestId("process-state").filter({ hasText: text }).waitFor();
  await state("running");
  for (const [action, expected] of [["suspend", "suspended"], ["resume", "running"], ["stop", "stopped"]]) {
    await row.getByTestId(`action-${action}`).click();
    await state(expected);
    assert.equal((await client.getProcess("steer")).state, expected);
  }
  await row.getByTestId("action-start").click();
  await state("running");
  // A live refresh of the list (the start's state events) redraws the row and drops an open confirmation:
  // reload so that none is in flight when the confirmation opens.
  await page.reload();
  await page.getByTestId("connection").filter({ hasText: "connected" }).waitFor();
  await state("running");
  await row.getByTestId("action-remove").click();
  await screenshot("processes-confirm-remove");
  await page.getByTestId("confirm-no").click();
  assert.equal((await client.getProcess("steer")).state, "running", "no means no");
  await row.getByTestId("action-remove").click();
  await page.getByTestId("confirm-yes").click();
  await row.waitFor({ state: "detached" });
  assert.equal((await client.listProcesses()).total, 0);
});

consoleTest(
  "with --no-token the console connects without asking for one",
  async ({ page, client, consoleUrl }) => {
    await client.deploy("open", { model: "openai:gpt-test" }, { start: true });
    await page.goto(consoleUrl);
    await page.getByTestId("connection").filter({ hasText: "connected" }).waitFor();
    await processRow(page, "open").getByTestId("process-state").filter({ hasText: "running" }).waitFor();
  },
  { noToken: true },
);
