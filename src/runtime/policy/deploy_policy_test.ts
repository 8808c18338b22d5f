import assert from "node:assert/strict";
import { parseProcessConfig, type ProcessConfig } from "../config/mod.ts";
import {
  checkCommands,
  checkEnvReferences,
  commandSources,
  type DeployPolicy,
  prefixPath,
} from "./deploy_policy.ts";

function policy(overrides: Partial<DeployPolicy> = {}): DeployPolicy {
  return {
    allowCommandDeploys: false,
    allowEnvReferences: false,
    allowedEnvVars: new Set(),
    dataDir: "/srv/agentry",
    cwd: "/srv",
    ...overrides,
  };
}

function config(input: unknown): ProcessConfig {
  const result = parseProcessConfig(input);
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.config;
}

Deno.test("a body without references passes the env check", () => {
  assert.equal(checkEnvReferences({ name: "a", config: { model: "openai:gpt-5" } }, policy()), undefined);
});

Deno.test("references anywhere in a deploy body are refused, naming where", () => {
  const body = {
    name: "a",
    config: {
      servers: { gh: { url: "https://x", headers: { "${H}": "Bearer ${TOKEN}" } } },
      triggers: [{ topic: "${T}" }],
    },
  };
  const violation = checkEnvReferences(body, policy());
  assert.equal(violation?.code, "ENV_REFERENCES_NOT_ALLOWED");
  assert.deepEqual(violation?.where, ['config.servers.gh.headers["${H}"]', "config.triggers[0].topic"]);
  assert.match(violation?.message ?? "", /--allow-env-var NAME/);
  assert.match(violation?.message ?? "", /--allow-env-references/);
  assert.match(violation?.message ?? "", /config\.triggers\[0\]\.topic/);
});

Deno.test("instructions text is never checked", () => {
  assert.equal(checkEnvReferences({ config: { instructions: "Say ${HELLO}" } }, policy()), undefined);
  assert.equal(checkEnvReferences({ instructions: "Say ${HELLO}" }, policy()), undefined);
});

Deno.test("allowed variables pass and others are still refused", () => {
  const body = { config: { secrets: { secrets: { A: "${GH_TOKEN}", B: "${AWS_KEY}" } } } };
  const violation = checkEnvReferences(body, policy({ allowedEnvVars: new Set(["GH_TOKEN"]) }));
  assert.deepEqual(violation?.where, ["config.secrets.secrets.B"]);
  assert.equal(
    checkEnvReferences(body, policy({ allowedEnvVars: new Set(["GH_TOKEN", "AWS_KEY"]) })),
    undefined,
  );
  assert.equal(checkEnvReferences(body, policy({ allowEnvReferences: true })), undefined);
});

Deno.test("a prefix and extra skips shape the reported paths", () => {
  const violation = checkEnvReferences({ escalation: { webhook_url: "${HOOK}" }, note: "${X}" }, policy(), {
    prefix: "budget",
    skip: (path) => path === "note",
  });
  assert.deepEqual(violation?.where, ["budget.escalation.webhook_url"]);
  assert.equal(prefixPath("triggers", "[0].topic"), "triggers[0].topic");
  assert.equal(prefixPath("", "a"), "a");
});

Deno.test("plain HTTP configs pass the command check", () => {
  assert.equal(checkCommands(config({ servers: { docs: { url: "https://x" } } }), policy()), undefined);
});

Deno.test("command servers, stdio transports and command hooks are refused", () => {
  const violation = checkCommands(
    config({
      servers: {
        fs: { command: "mcp-fs" },
        docs: { url: "https://x" },
        py: { command: "py", transport: "stdio" },
      },
      hooks: [{ event: "run_start", callback: () => 1 }, { event: "run_end", command: "notify" }],
    }),
    policy(),
  );
  assert.equal(violation?.code, "COMMANDS_NOT_ALLOWED");
  assert.deepEqual(violation?.where, ["servers.fs", "servers.py", "hooks[1]"]);
  assert.match(violation?.message ?? "", /--allow-command-deploys/);
});

Deno.test("open mode is refused while tool creation is on and passes with it off", () => {
  assert.deepEqual(checkCommands(config({ execution_mode: "open" }), policy())?.where, [
    "open_mode.allow_tool_creation",
  ]);
  assert.equal(
    checkCommands(config({ execution_mode: "open", open_mode: { allow_tool_creation: false } }), policy()),
    undefined,
  );
  assert.deepEqual(commandSources(config({ open_mode: { allow_tool_creation: true } })), []);
});

Deno.test("allowCommandDeploys lets program-starting configs through", () => {
  const risky = config({ execution_mode: "open", servers: { fs: { command: "mcp-fs" } } });
  assert.equal(checkCommands(risky, policy({ allowCommandDeploys: true })), undefined);
});
