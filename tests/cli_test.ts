import assert from "node:assert/strict";
import { startModelServer } from "../src/models/testing/mod.ts";
import { join } from "node:path";
import { freePort } from "./_ports.ts";
import { runCli, RunningCli, tempDir } from "./_cli_harness.ts";

const exact = (dir: string, extra: string[] = []) => [
  "--allow-net",
  `--allow-read=${dir}`,
  `--allow-write=${dir}`,
  "--allow-env=AGENTRY_API_TOKEN,AGENTRY_RELAUNCHED,ANTHROPIC_API_KEY,ANTHROPIC_BASE_URL,OLLAMA_HOST,OPENAI_API_KEY,OPENAI_BASE_URL,OPENAI_COMPATIBLE_API_KEY,OPENAI_COMPATIBLE_BASE_URL",
  "--ignore-env=LOG_STREAM,LOG_TOKENS",
  ...extra,
];

async function api(url: string, token: string | null, path: string, init: RequestInit = {}) {
  const headers = new Headers(init.headers);
  if (token) headers.set("authorization", `Bearer ${token}`);
  const response = await fetch(`${url}/api/v1${path}`, { ...init, headers });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

Deno.test("--help and --version print on stdout and exit 0", async () => {
  const help = await runCli(["--help"]);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /Usage: agentry <command>/);
  assert.match(help.stdout, /runtime start/);
  const version = await runCli(["--version"]);
  assert.equal(version.code, 0);
  assert.match(version.stdout.trim(), /^agentry \d+\.\d+\.\d+$/);
  const startHelp = await runCli(["runtime", "start", "--help"]);
  assert.equal(startHelp.code, 0);
  assert.match(startHelp.stdout, /--allow-command-deploys/);
});

Deno.test("unknown flags, commands and bad values exit 2 with a one-line error", async () => {
  for (
    const args of [
      ["--bogus"],
      ["launch"],
      ["runtime"],
      ["runtime", "start", "--bogus"],
      ["runtime", "start", "--port", "99999"],
      ["runtime", "start", "--port", "abc"],
      ["runtime", "start", "--log-level", "loud"],
      ["runtime", "start", "--host", "0.0.0.0", "--no-token"],
      ["runtime", "start", "--allow-env-var", "BAD-NAME"],
    ]
  ) {
    const result = await runCli(args);
    assert.equal(result.code, 2, args.join(" "));
    const lines = result.stderr.trim().split("\n");
    assert.equal(lines.length, 1, `${args.join(" ")}: ${result.stderr}`);
    assert.match(lines[0], /^agentry: /);
  }
  assert.equal((await runCli([])).code, 2);
});

Deno.test("runtime start serves the API, prints where first, requires the token, and exits 0 on SIGTERM", async () => {
  await using dir = await tempDir();
  await using cli = new RunningCli(["runtime", "start", "--port", "0", "--data-dir", dir.path], {
    flags: exact(dir.path),
  });
  const first = await cli.waitFor("stderr", /./);
  assert.match(first, /^agentry \S+: control API listening on http:\/\/127\.0\.0\.1:\d+$/);
  const url = first.split(" ").at(-1)!;
  const tokenLine = await cli.waitFor("stderr", /API token \(generated; also in .*api_token, owner-only\)/);
  const token = tokenLine.split(": ").at(-1)!;
  assert.match(token, /^[0-9a-f]{48}$/);
  const tokenFile = join(dir.path, "api_token");
  assert.equal(
    await Deno.readTextFile(tokenFile),
    `${token}\n`,
    "the generated token is kept for other terminals",
  );
  assert.equal((await Deno.stat(tokenFile)).mode! & 0o777, 0o600);
  assert.equal((await api(url, null, "/health")).status, 200);
  assert.equal((await api(url, null, "/processes")).status, 401);
  assert.equal((await api(url, "wrong", "/processes")).status, 401);
  assert.deepEqual((await api(url, token, "/processes")).body, { processes: [], total: 0 });
  assert.equal(await cli.stop("SIGTERM"), 0);
  assert.equal(cli.stderr.filter((l) => l.includes(token)).length, 1, "the token is printed once");
  assert.equal(cli.stderr.at(-1), "agentry: stopped");
});

Deno.test("--json prints one line with url and token; AGENTRY_API_TOKEN and ${VAR} tokens are used, not printed", async () => {
  await using dir = await tempDir();
  await Deno.writeTextFile(join(dir.path, "api_token"), "stale\n");
  {
    await using cli = new RunningCli(["runtime", "start", "--port", "0", "--json", "--data-dir", dir.path], {
      flags: exact(dir.path),
      env: { AGENTRY_API_TOKEN: "from-the-environment" },
    });
    const { url, token } = await cli.listening();
    assert.equal(token, "from-the-environment");
    await assert.rejects(
      Deno.stat(join(dir.path, "api_token")),
      Deno.errors.NotFound,
      "a stale token file goes",
    );
    assert.equal((await api(url, token, "/processes")).status, 200);
    assert.equal(cli.stderr.some((l) => l.includes("from-the-environment")), false);
    assert.equal(await cli.stop("SIGINT"), 0);
  }
  {
    await using cli = new RunningCli(
      ["runtime", "start", "--port", "0", "--json", "--data-dir", dir.path, "--token", "${MY_TOKEN}"],
      {
        flags: exact(dir.path).map((f) => f.startsWith("--allow-env") ? `${f},MY_TOKEN` : f),
        env: { MY_TOKEN: "tok-42" },
      },
    );
    const { url, token } = await cli.listening();
    assert.equal(token, "tok-42");
    assert.equal((await api(url, "tok-42", "/processes")).status, 200);
  }
});

Deno.test("--no-token serves loopback without a token", async () => {
  await using dir = await tempDir();
  await using cli = new RunningCli([
    "runtime",
    "start",
    "--port",
    "0",
    "--json",
    "--no-token",
    "--data-dir",
    dir.path,
  ], {
    flags: exact(dir.path),
  });
  const { url, token } = await cli.listening();
  assert.equal(token, null);
  assert.equal((await api(url, null, "/processes")).status, 200);
});

Deno.test("missing Deno permissions exit 1 and name the flags to run with", async () => {
  await using dir = await tempDir();
  const result = await runCli(
    ["runtime", "start", "--port", "0", "--data-dir", join(dir.path, "elsewhere")],
    {
      flags: exact(dir.path).map((f) => f.replace(dir.path, join(dir.path, "other"))),
    },
  );
  assert.equal(result.code, 1);
  assert.match(result.stderr, /missing Deno permissions: read access to .*elsewhere/);
  assert.match(result.stderr, /Run: deno run --allow-net --allow-read=.*elsewhere/);
});

Deno.test("run with every permission, it relaunches itself holding only what its switches need", async () => {
  await using dir = await tempDir();
  await using cli = new RunningCli(["runtime", "start", "--port", "0", "--json", "--data-dir", dir.path], {
    flags: ["-A"],
  });
  const { url, token } = await cli.listening();
  const plan = await cli.waitFor("stderr", /permissions plan=/);
  assert.match(
    plan,
    new RegExp(
      `read=${dir.path} write=${dir.path} env=AGENTRY_API_TOKEN,AGENTRY_RELAUNCHED,ANTHROPIC_API_KEY,ANTHROPIC_BASE_URL,OLLAMA_HOST,OPENAI_API_KEY,OPENAI_BASE_URL,OPENAI_COMPATIBLE_API_KEY,OPENAI_COMPATIBLE_BASE_URL run=none`,
    ),
  );
  const commandDeploy = await api(url, token, "/processes", {
    method: "POST",
    body: JSON.stringify({ name: "tool", config: { servers: { fs: { command: "npx", args: ["x"] } } } }),
  });
  assert.equal(commandDeploy.status, 403);
  assert.equal(commandDeploy.body.error.code, "COMMANDS_NOT_ALLOWED");
  assert.equal(await cli.stop("SIGTERM"), 0);
});

Deno.test("--allow-command-deploys and --allow-env-var widen exactly what they name", async () => {
  await using dir = await tempDir();
  await using cli = new RunningCli(
    [
      "runtime",
      "start",
      "--port=0",
      "--json",
      `--data-dir=${dir.path}`,
      "--allow-command-deploys",
      "--allow-env-var",
      "SERVICE_KEY",
    ],
    { flags: ["-A"], env: { SERVICE_KEY: "k" } },
  );
  const { url, token } = await cli.listening();
  assert.match(
    await cli.waitFor("stderr", /permissions plan=/),
    /env=AGENTRY_API_TOKEN,AGENTRY_RELAUNCHED,ANTHROPIC_API_KEY,ANTHROPIC_BASE_URL,OLLAMA_HOST,OPENAI_API_KEY,OPENAI_BASE_URL,OPENAI_COMPATIBLE_API_KEY,OPENAI_COMPATIBLE_BASE_URL,SERVICE_KEY,HOME,LOGNAME,NODE_V8_COVERAGE,OSTYPE,PATH,SHELL,TERM,USER run=all/,
  );
  const deploy = await api(url, token, "/processes", {
    method: "POST",
    body: JSON.stringify({
      name: "tool",
      config: { servers: { fs: { command: "npx", args: ["x"], env: { KEY: "${SERVICE_KEY}" } } } },
    }),
  });
  assert.equal(deploy.status, 201, JSON.stringify(deploy.body));
  const other = await api(url, token, "/processes", {
    method: "POST",
    body: JSON.stringify({
      name: "other",
      config: { secrets: { enabled: true, secrets: { K: "${HOME}" } } },
    }),
  });
  assert.equal(other.status, 403);
  assert.equal(other.body.error.code, "ENV_REFERENCES_NOT_ALLOWED");
});

Deno.test("manifests are deployed at start and those marked start run", async () => {
  await using dir = await tempDir();
  const manifests = join(dir.path, "agents");
  await Deno.mkdir(manifests);
  await Deno.writeTextFile(
    join(manifests, "a.agent.yaml"),
    "name: alpha\nstart: true\ninstructions: Watch.\n",
  );
  await Deno.writeTextFile(
    join(manifests, "b.agent.json"),
    JSON.stringify({ name: "beta", instructions: "Wait." }),
  );
  await Deno.writeTextFile(join(manifests, "notes.yaml"), "not: a manifest\n");
  await using cli = new RunningCli(
    ["runtime", "start", "--port", "0", "--json", "--data-dir", dir.path, "--manifests", manifests],
    { flags: exact(dir.path), env: { OPENAI_API_KEY: "sk-test" } },
  );
  const { url, token } = await cli.listening();
  const { body } = await api(url, token, "/processes");
  assert.deepEqual(body.processes.map((p: { name: string; state: string }) => `${p.name}:${p.state}`), [
    "alpha:running",
    "beta:created",
  ]);
  assert.equal((await api(url, token, "/processes/alpha")).body.source, "manifest");
});

Deno.test("an invalid manifest stops the start with exit 1 naming the file and field", async () => {
  await using dir = await tempDir();
  await Deno.writeTextFile(
    join(dir.path, "bad.agent.yaml"),
    "name: x\nbudget:\n  max_tool_calls_per_day: lots\n",
  );
  const result = await runCli([
    "runtime",
    "start",
    "--port",
    "0",
    "--data-dir",
    dir.path,
    "--manifests",
    dir.path,
  ], {
    flags: exact(dir.path),
  });
  assert.equal(result.code, 1);
  assert.match(result.stderr, /bad\.agent\.yaml/);
  assert.match(result.stderr, /max_tool_calls_per_day/);
});

Deno.test("API deployments survive a restart of the runtime in the state the operator left them", async () => {
  await using dir = await tempDir();
  const args = ["runtime", "start", "--port", "0", "--json", "--data-dir", dir.path];
  const env = { AGENTRY_API_TOKEN: "restart-token", OPENAI_API_KEY: "sk-test" };
  let processId: string;
  {
    await using cli = new RunningCli(args, { flags: exact(dir.path), env });
    const { url, token } = await cli.listening();
    const one = await api(url, token, "/processes", {
      method: "POST",
      body: JSON.stringify({ name: "keeper", config: { journal: {} }, start: true }),
    });
    processId = one.body.process_id;
    await api(url, token, "/processes", {
      method: "POST",
      body: JSON.stringify({ name: "idle", config: {} }),
    });
    assert.equal(await cli.stop(), 0);
  }
  {
    await using cli = new RunningCli(args, { flags: exact(dir.path), env });
    const { url, token } = await cli.listening();
    const keeper = await api(url, token, "/processes/keeper");
    assert.equal(keeper.body.state, "running");
    assert.equal(keeper.body.process_id, processId);
    assert.equal((await api(url, token, "/processes/idle")).body.state, "created");
    const journal = await api(url, token, "/processes/keeper/journal?type=state_transition&limit=500");
    assert.ok(journal.body.entries.length >= 6, "journal entries from both runs are kept");
  }
});

Deno.test("POST /runtime/shutdown ends the process with exit 0", async () => {
  await using dir = await tempDir();
  await using cli = new RunningCli(["runtime", "start", "--port", "0", "--json", "--data-dir", dir.path], {
    flags: exact(dir.path),
  });
  const { url, token } = await cli.listening();
  const answer = await api(url, token, "/runtime/shutdown", { method: "POST" });
  assert.equal(answer.status, 202);
  assert.deepEqual(answer.body, { status: "shutting_down" });
  assert.equal(await cli.exited(), 0);
});

Deno.test("a port in use exits 1 with a one-line reason", async () => {
  await using dir = await tempDir();
  using listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  const result = await runCli(["runtime", "start", "--port", String(port), "--data-dir", dir.path], {
    flags: exact(dir.path),
  });
  assert.equal(result.code, 1);
  assert.match(
    result.stderr,
    new RegExp(`cannot listen on 127\\.0\\.0\\.1:${port}: the address is already in use`),
  );
});

Deno.test("a manifest's webhook trigger listens once its process starts and its events run the agent", async () => {
  await using dir = await tempDir();
  await using model = startModelServer({ respond: () => ({ text: "handled" }) });
  const port = freePort();
  await Deno.writeTextFile(
    join(dir.path, "hook.agent.yaml"),
    `name: hook\nstart: true\nmodel: openai-compatible:m\ntriggers:\n  - type: webhook\n    webhook_port: ${port}\n`,
  );
  await using cli = new RunningCli(
    ["runtime", "start", "--port", "0", "--json", "--data-dir", dir.path, "--manifests", dir.path],
    { flags: exact(dir.path), env: { OPENAI_COMPATIBLE_BASE_URL: model.url } },
  );
  const { url, token } = await cli.listening();
  const posted = await fetch(`http://127.0.0.1:${port}/webhook`, { method: "POST", body: '{"n":1}' });
  assert.equal(posted.status, 202);
  await posted.body?.cancel();
  let runs = (await api(url, token, "/processes/hook")).body.runs;
  for (let i = 0; i < 100 && runs.runs_succeeded !== 1; i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    runs = (await api(url, token, "/processes/hook")).body.runs;
  }
  assert.equal(runs.runs_succeeded, 1);
  assert.equal(model.requests.length, 1);
  assert.match(model.requests[0].messages.at(-1)!.content, /"n": 1/);
  const triggers = (await api(url, token, "/processes/hook/triggers")).body.triggers;
  assert.deepEqual(triggers.map((t: { type: string; live: boolean }) => `${t.type}:${t.live}`), [
    "webhook:true",
  ]);
});
