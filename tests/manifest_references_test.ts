/**
 * The manifest example of docs/cli.md (a webhook whose `hmac_secret` is `${ORDERS_WEBHOOK_SECRET}`) with
 * the two mistakes a first run makes: the variable not exported, and a secret shorter than 16 characters.
 * `runtime start --manifests` names the field, the variable or the rule, never the secret.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { RunningCli, tempDir } from "./_cli_harness.ts";
import { freePort } from "./_ports.ts";

const manifest = (port: number) =>
  `name: reports
start: true
model: ollama:llama3.2
instructions: Summarise yesterday's orders for the team.
triggers:
  - type: cron
    cron_expression: "0 8 * * 1-5"
    cron_timezone: Europe/Berlin
  - type: webhook
    webhook_path: /orders
    webhook_port: ${port}
    hmac_secret: \${ORDERS_WEBHOOK_SECRET}
`;

async function startWith(env: Record<string, string>): Promise<{ failure: string; stderr: string }> {
  await using dir = await tempDir();
  const agents = join(dir.path, "agents");
  await Deno.mkdir(agents);
  await Deno.writeTextFile(join(agents, "reports.agent.yaml"), manifest(freePort()));
  await using cli = new RunningCli(
    [
      "runtime",
      "start",
      "--port",
      "0",
      "--json",
      "--data-dir",
      join(dir.path, "data"),
      "--manifests",
      agents,
    ],
    { env },
  );
  await cli.listening();
  const failure = await cli.waitFor("stderr", /manifest process failed/);
  return { failure, stderr: cli.stderr.join("\n") };
}

Deno.test("runtime start --manifests names the field and the variable a manifest needs but is not set", async () => {
  const { failure } = await startWith({});
  assert.match(failure, /file=\S+reports\.agent\.yaml/);
  assert.ok(
    failure.includes("triggers[1].hmac_secret: ${ORDERS_WEBHOOK_SECRET} is not set"),
    failure,
  );
});

Deno.test("runtime start --manifests names the rule a too short secret breaks, never the secret", async () => {
  const { failure, stderr } = await startWith({ ORDERS_WEBHOOK_SECRET: "short1234" });
  assert.ok(failure.includes("triggers[1].hmac_secret: must be at least 16 characters (got 9)"), failure);
  assert.ok(!stderr.includes("short1234"));
});
