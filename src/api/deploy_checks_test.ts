import assert from "node:assert/strict";
import { join } from "node:path";
import { type Answer, deploy, testApi } from "../../tests/_api_harness.ts";

const COMMAND_CONFIGS: Record<string, Record<string, unknown>> = {
  "a command server": { servers: { fs: { command: "npx", args: ["-y", "some-mcp-server"] } } },
  "a stdio transport server": { servers: { fs: { transport: "stdio", command: "mcp-fs" } } },
  "a stdio type server": { servers: { fs: { type: "stdio", command: "mcp-fs" } } },
  "a command hook": { hooks: [{ event: "run_start", command: "/usr/bin/touch", args: ["/tmp/x"] }] },
  "open mode with tool creation": { execution_mode: "open" },
  "open mode with tool creation said explicitly": {
    execution_mode: "open",
    open_mode: { allow_tool_creation: true },
  },
};

const fields = (answer: Answer): string[] =>
  (answer.body.error.details ?? []).map((d: { field: string }) => d.field);

function assertRefused(answer: Answer, code: string, what: string): void {
  assert.equal(answer.status, 403, `${what}: ${answer.text}`);
  assert.equal(answer.body.error.code, code, what);
  assert.equal(typeof answer.body.error.message, "string");
}

Deno.test("program-running configs are 403 COMMANDS_NOT_ALLOWED and logged as warnings", async () => {
  await using api = await testApi();
  for (const [what, config] of Object.entries(COMMAND_CONFIGS)) {
    const answer = await deploy(api, "a", config);
    assertRefused(answer, "COMMANDS_NOT_ALLOWED", what);
    assert.ok(fields(answer).length > 0, `${what}: details name where`);
  }
  assert.equal(api.runtime.size, 0);
  const warnings = api.records.filter((r) =>
    r.level === "warning" && r.fields.code === "COMMANDS_NOT_ALLOWED"
  );
  assert.equal(warnings.length, Object.keys(COMMAND_CONFIGS).length);
});

Deno.test("open mode without tool creation and URL servers deploy without the command switch", async () => {
  await using api = await testApi();
  const open = await deploy(api, "open", {
    execution_mode: "open",
    open_mode: { allow_tool_creation: false },
  });
  assert.equal(open.status, 201, open.text);
  const url = await deploy(api, "web", {
    servers: { docs: { url: "https://mcp.example/mcp", transport: "http" } },
  });
  assert.equal(url.status, 201, url.text);
});

Deno.test("allowCommandDeploys lets every program-running config deploy", async () => {
  await using api = await testApi({ allowCommandDeploys: true });
  let index = 0;
  for (const [what, config] of Object.entries(COMMAND_CONFIGS)) {
    const answer = await deploy(api, `p${index++}`, config);
    assert.equal(answer.status, 201, `${what}: ${answer.text}`);
  }
  assert.equal(api.runtime.size, Object.keys(COMMAND_CONFIGS).length);
});

Deno.test("a ${VAR} reference is 403 ENV_REFERENCES_NOT_ALLOWED naming its JSON path", async () => {
  await using api = await testApi({ env: () => "a-value-that-exists" });
  const header = await deploy(api, "a", {
    servers: { api: { url: "https://api.example/mcp", headers: { Authorization: "Bearer ${API_TOKEN}" } } },
  });
  assertRefused(header, "ENV_REFERENCES_NOT_ALLOWED", "header");
  assert.deepEqual(fields(header), ["config.servers.api.headers.Authorization"]);
  assert.match(header.body.error.message, /config\.servers\.api\.headers\.Authorization/);
  const trigger = await deploy(api, "a", { triggers: [{ type: "event", event_type: "${EVENT_NAME}" }] });
  assertRefused(trigger, "ENV_REFERENCES_NOT_ALLOWED", "trigger");
  assert.deepEqual(fields(trigger), ["config.triggers[0].event_type"]);
  const key = await deploy(api, "a", { context: { initial_state: { "${HOME}": 1 } } });
  assertRefused(key, "ENV_REFERENCES_NOT_ALLOWED", "object key");
  assert.equal(api.runtime.size, 0);
});

Deno.test("the refusal does not depend on whether the variable exists", async () => {
  await using set = await testApi({ env: () => "exists" });
  await using unset = await testApi({ env: () => undefined });
  const config = { mission: { enabled: true, objective: "${OBJECTIVE}" } };
  const a = await deploy(set, "a", config);
  const b = await deploy(unset, "a", config);
  assertRefused(a, "ENV_REFERENCES_NOT_ALLOWED", "set");
  assert.deepEqual(a.body, b.body);
});

Deno.test("${VAR} in instructions is never refused nor resolved; the process starts", async () => {
  await using api = await testApi();
  const answer = await deploy(api, "a", { instructions: "Use ${NOT_A_REAL_VARIABLE} as a placeholder." }, {
    start: true,
  });
  assert.equal(answer.status, 201, answer.text);
  assert.equal(answer.body.state, "running");
  assert.equal(api.runtime.get("a")?.config.instructions, "Use ${NOT_A_REAL_VARIABLE} as a placeholder.");
});

Deno.test("an allowed variable passes, and allowEnvReferences lets any variable pass", async () => {
  const config = { servers: { api: { url: "https://api.example/mcp", bearer_token: "${API_TOKEN}" } } };
  const env = (name: string) => name === "API_TOKEN" ? "a-token-value" : undefined;
  await using allowed = await testApi({ allowedEnvVars: ["API_TOKEN"], env });
  assert.equal((await deploy(allowed, "a", config)).status, 201);
  const other = await deploy(allowed, "b", {
    servers: { api: { url: "https://x.example", api_key: "${OTHER}" } },
  });
  assertRefused(other, "ENV_REFERENCES_NOT_ALLOWED", "a variable outside the allowed set");
  await using open = await testApi({ allowEnvReferences: true, env });
  assert.equal((await deploy(open, "a", config)).status, 201);
});

Deno.test("paths outside the data dir, with .. or ~, or relative to elsewhere are 403 PATH_NOT_ALLOWED", async () => {
  await using api = await testApi();
  const dataDir = api.dataDir;
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ["absolute outside", { journal: { backend: "file", path: "/var/tmp/agentry-journal" } }, "journal.path"],
    ["dot-dot out", { journal: { backend: "file", path: join(dataDir, "..", "journal") } }, "journal.path"],
    ["dot-dot in", { journal: { backend: "file", path: `${dataDir}/a/../journal` } }, "journal.path"],
    ["home", { journal: { backend: "sqlite", path: "~/agentry/journal" } }, "journal.path"],
    ["relative to the working directory", { journal: { backend: "file", path: "journal" } }, "journal.path"],
    ["watch path", { triggers: [{ type: "file_watch", watch_path: "/etc" }] }, "triggers[0].watch_path"],
    [
      "memory dir",
      { context: { memory_provider: "file", memory_persist_directory: "/var/tmp/agentry-memory" } },
      "context.memory_persist_directory",
    ],
  ];
  for (const [what, config, where] of cases) {
    const answer = await deploy(api, "a", config);
    assertRefused(answer, "PATH_NOT_ALLOWED", what);
    assert.ok(
      fields(answer).some((field) => field.endsWith(where)),
      `${what}: ${JSON.stringify(fields(answer))}`,
    );
  }
  assert.equal(api.runtime.size, 0);
});

Deno.test("a symlink inside the data dir that leads out is 403 PATH_NOT_ALLOWED", async () => {
  await using api = await testApi();
  const outside = await Deno.makeTempDir({ prefix: "agentry_outside_" });
  try {
    await Deno.symlink(outside, join(api.dataDir, "escape"));
    const journal = await deploy(api, "a", {
      journal: { backend: "file", path: join(api.dataDir, "escape", "j") },
    });
    assertRefused(journal, "PATH_NOT_ALLOWED", "journal through a symlink");
    const watch = await deploy(api, "a", {
      triggers: [{ type: "file_watch", watch_path: join(api.dataDir, "escape") }],
    });
    assertRefused(watch, "PATH_NOT_ALLOWED", "watch path through a symlink");
    assert.deepEqual([...Deno.readDirSync(outside)], [], "nothing was written outside");
  } finally {
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("paths inside the data dir pass", async () => {
  await using api = await testApi();
  const answer = await deploy(api, "a", {
    journal: { backend: "file", path: join(api.dataDir, "journals") },
    context: { memory_provider: "file", memory_persist_directory: join(api.dataDir, "memory") },
    triggers: [{ type: "file_watch", watch_path: join(api.dataDir, "inbox") }],
  });
  assert.equal(answer.status, 201, answer.text);
  const memoryJournal = await deploy(api, "b", { journal: { backend: "memory", path: "/not/checked" } });
  assert.equal(memoryJournal.status, 201, "a memory journal has no path to check");
});
