/**
 * The manifest example of docs/cli.md (a webhook whose `hmac_secret` is `${ORDERS_WEBHOOK_SECRET}`) with
 * the mistakes a first run makes: the variable not exported, a secret shorter than 16 characters, and (in
 * library code) a Deno process without the permission to read the variable. The answers name the field,
 * the variable, the rule or the flag, never the secret.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { CONFIG, runDeno, RunningCli, tempDir } from "./_cli_harness.ts";
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

async function startWith(
  env: Record<string, string>,
): Promise<{ failure: string; stderr: string; code: number }> {
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
  const code = await cli.exited();
  const stderr = cli.stderr.join("\n");
  return {
    failure: cli.stderr.find((line) => line.startsWith("agentry: cannot load manifests")) ?? stderr,
    stderr,
    code,
  };
}

Deno.test("runtime start --manifests stops naming the file, field and variable a manifest needs but is not set", async () => {
  const { failure, code } = await startWith({});
  assert.equal(code, 1);
  assert.match(failure, /^agentry: cannot load manifests: \S+reports\.agent\.yaml: /);
  assert.ok(
    failure.endsWith("triggers[1].hmac_secret: ${ORDERS_WEBHOOK_SECRET} is not set"),
    failure,
  );
});

Deno.test("runtime start --manifests names the rule a too short secret breaks, never the secret", async () => {
  const { failure, stderr, code } = await startWith({ ORDERS_WEBHOOK_SECRET: "short1234" });
  assert.equal(code, 1);
  assert.ok(failure.endsWith("triggers[1].hmac_secret: must be at least 16 characters (got 9)"), failure);
  assert.ok(!stderr.includes("short1234"));
});

Deno.test("library code without the env permission is told the variable may not be read and the flag", async () => {
  await using dir = await tempDir();
  const script = join(dir.path, "deploy.ts");
  await Deno.writeTextFile(
    script,
    `import { AgentRuntime } from "@agentry/agentry";
const runtime = new AgentRuntime({ dataDir: ${JSON.stringify(join(dir.path, "data"))} });
try {
  await runtime.deploy("orders", {
    triggers: [{ type: "webhook", hmac_secret: "\${ORDERS_WEBHOOK_SECRET}" }],
  });
} catch (error) {
  console.log(String(error));
}
`,
  );
  const { code, text } = await runDeno(
    ["run", "--quiet", "--no-prompt", `--config=${CONFIG}`, "--allow-read", script],
    { cwd: dir.path, timeoutMs: 60_000 },
  );
  assert.equal(code, 0, text);
  assert.equal(
    text.trim(),
    "RuntimeError: process orders: invalid config: triggers[0].hmac_secret: ${ORDERS_WEBHOOK_SECRET} may not " +
      "be read: run deno with --allow-env=ORDERS_WEBHOOK_SECRET",
  );
});
