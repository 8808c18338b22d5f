import assert from "node:assert/strict";
import { join } from "node:path";
import { parseProcessConfig, type ProcessConfig, type TriggerConfig } from "../config/mod.ts";
import type { DeployPolicy } from "./deploy_policy.ts";
import { checkPath, checkPaths, checkTriggerPaths, configPaths } from "./path_policy.ts";

interface TempDir extends AsyncDisposable {
  path: string;
}

async function tempDir(): Promise<TempDir> {
  const path = await Deno.realPath(await Deno.makeTempDir({ prefix: "agentry_policy_" }));
  return { path, [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }) };
}

function policy(cwd: string, dataDir = "data"): DeployPolicy {
  return { allowCommandDeploys: false, allowEnvReferences: false, allowedEnvVars: new Set(), dataDir, cwd };
}

function config(input: unknown): ProcessConfig {
  const result = parseProcessConfig(input);
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.config;
}

Deno.test("relative paths inside the data directory are allowed, as is the directory itself", async () => {
  await using tmp = await tempDir();
  await Deno.mkdir(join(tmp.path, "data"));
  assert.equal(await checkPath("data/journal", policy(tmp.path)), true);
  assert.equal(await checkPath("./data/deep/er/dir", policy(tmp.path)), true);
  assert.equal(await checkPath("data", policy(tmp.path)), true);
  assert.equal(await checkPath(join(tmp.path, "data", "mem"), policy(tmp.path)), true);
});

Deno.test("the runtime's own store, spool and lock file are refused, also through a symlink", async () => {
  await using tmp = await tempDir();
  await Deno.mkdir(join(tmp.path, "data", "processes"), { recursive: true });
  await Deno.mkdir(join(tmp.path, "data", "queues"), { recursive: true });
  for (const path of ["data/processes", "data/processes/x", "data/queues/p", "data/runtime.lock"]) {
    assert.equal(await checkPath(path, policy(tmp.path)), false, path);
  }
  assert.equal(await checkPath("data/processes2", policy(tmp.path)), true);
  await Deno.symlink(join(tmp.path, "data", "processes"), join(tmp.path, "data", "link"));
  assert.equal(await checkPath("data/link", policy(tmp.path)), false);
  const violation = await checkPaths(
    config({ journal: { level: "full", backend: "file", path: "data/processes" } }),
    policy(tmp.path),
  );
  assert.equal(violation?.code, "PATH_NOT_ALLOWED");
  assert.deepEqual(violation?.where, ["journal.path"]);
});

Deno.test("paths outside the data directory are refused", async () => {
  await using tmp = await tempDir();
  await Deno.mkdir(join(tmp.path, "data"));
  assert.equal(await checkPath("/etc/agentry", policy(tmp.path)), false);
  assert.equal(await checkPath("other/journal", policy(tmp.path)), false);
  assert.equal(await checkPath("data2/journal", policy(tmp.path)), false);
  assert.equal(await checkPath("", policy(tmp.path)), false);
});

Deno.test("paths with .., ~ or ${VAR} are refused even when they would land inside", async () => {
  await using tmp = await tempDir();
  await Deno.mkdir(join(tmp.path, "data"));
  assert.equal(await checkPath("data/x/../journal", policy(tmp.path)), false);
  assert.equal(await checkPath("~/data", policy(tmp.path)), false);
  assert.equal(await checkPath("~", policy(tmp.path)), false);
  assert.equal(await checkPath("data/${SUBDIR}", policy(tmp.path)), false);
});

Deno.test("a symlink inside the data directory that leads out is refused", async () => {
  await using tmp = await tempDir();
  await Deno.mkdir(join(tmp.path, "data"));
  await Deno.mkdir(join(tmp.path, "outside"));
  await Deno.symlink(join(tmp.path, "outside"), join(tmp.path, "data", "escape"));
  await Deno.symlink(join(tmp.path, "nowhere"), join(tmp.path, "data", "dangling"));
  assert.equal(await checkPath("data/escape", policy(tmp.path)), false);
  assert.equal(await checkPath("data/escape/journal", policy(tmp.path)), false);
  assert.equal(await checkPath("data/dangling/journal", policy(tmp.path)), false);
});

Deno.test("a symlink that stays inside the data directory is allowed", async () => {
  await using tmp = await tempDir();
  await Deno.mkdir(join(tmp.path, "data", "real"), { recursive: true });
  await Deno.symlink(join(tmp.path, "data", "real"), join(tmp.path, "data", "alias"));
  assert.equal(await checkPath("data/alias/journal", policy(tmp.path)), true);
});

Deno.test("a data directory that is itself a symlink is compared by its real path", async () => {
  await using tmp = await tempDir();
  await Deno.mkdir(join(tmp.path, "real-data"));
  await Deno.symlink(join(tmp.path, "real-data"), join(tmp.path, "data"));
  assert.equal(await checkPath("data/journal", policy(tmp.path)), true);
  assert.equal(await checkPath("real-data/journal", policy(tmp.path)), false);
});

Deno.test("without a data directory yet the check is lexical", async () => {
  await using tmp = await tempDir();
  assert.equal(await checkPath("data/journal", policy(tmp.path)), true);
  assert.equal(await checkPath("elsewhere", policy(tmp.path)), false);
});

Deno.test("a path lexically outside never touches the file system", async () => {
  const calls: string[] = [];
  const { realPath, lstat } = Deno;
  Deno.realPath = (path) => {
    calls.push(`realPath ${path}`);
    return realPath(path);
  };
  Deno.lstat = (path) => {
    calls.push(`lstat ${path}`);
    return lstat(path);
  };
  try {
    assert.equal(await checkPath("/root/secret/journal", policy("/srv", "/srv/data")), false);
    assert.equal(await checkPath("../x", policy("/srv", "/srv/data")), false);
  } finally {
    Deno.realPath = realPath;
    Deno.lstat = lstat;
  }
  assert.deepEqual(calls, []);
});

Deno.test("configPaths lists journal, memory and file-watch paths", () => {
  const paths = configPaths(config({
    journal: { backend: "sqlite", path: "data/journal" },
    context: { memory_provider: "file", memory_persist_directory: "data/memory" },
    triggers: [{ type: "webhook" }, { type: "file_watch", watch_path: "data/in" }],
  }));
  assert.deepEqual(paths, [
    { path: "data/journal", where: "journal.path", write: true },
    { path: "data/memory", where: "context.memory_persist_directory", write: true },
    { path: "data/in", where: "triggers[1].watch_path", write: false },
  ]);
});

Deno.test("a journal path is not a path when the journal is off or in memory", () => {
  assert.deepEqual(configPaths(config({ journal: { level: "none", path: "/etc" } })), []);
  assert.deepEqual(configPaths(config({ journal: { backend: "memory", path: "/etc" } })), []);
  assert.deepEqual(configPaths(config({})), []);
});

Deno.test("checkPaths names every refused path", async () => {
  await using tmp = await tempDir();
  await Deno.mkdir(join(tmp.path, "data"));
  const violation = await checkPaths(
    config({
      journal: { path: "/var/log/agentry" },
      context: { memory_provider: "file", memory_persist_directory: "data/memory" },
      triggers: [{ type: "file_watch", watch_path: "../.." }],
    }),
    policy(tmp.path),
  );
  assert.equal(violation?.code, "PATH_NOT_ALLOWED");
  assert.deepEqual(violation?.where, ["journal.path", "triggers[0].watch_path"]);
  assert.match(violation?.message ?? "", /data directory/);
  assert.equal(await checkPaths(config({ journal: { path: "data/j" } }), policy(tmp.path)), undefined);
});

Deno.test("checkTriggerPaths checks one file-watch trigger and ignores other types", async () => {
  await using tmp = await tempDir();
  const outside: TriggerConfig = {
    type: "file_watch",
    watch_path: "/etc",
    watch_patterns: ["*"],
    watch_events: ["created"],
    custom_config: {},
  };
  assert.deepEqual((await checkTriggerPaths(outside, policy(tmp.path)))?.where, ["watch_path"]);
  assert.deepEqual((await checkTriggerPaths(outside, policy(tmp.path), { prefix: "trigger" }))?.where, [
    "trigger.watch_path",
  ]);
  const webhook: TriggerConfig = {
    type: "webhook",
    webhook_path: "/x",
    webhook_port: 9090,
    webhook_host: "127.0.0.1",
    custom_config: {},
  };
  assert.equal(await checkTriggerPaths(webhook, policy(tmp.path)), undefined);
});
