import assert from "node:assert/strict";
import { join } from "node:path";
import type { CliContext } from "./cli_context.ts";
import { loadServer, serve } from "./serve.ts";
import { CliFailure, EXIT, UsageError } from "./exit.ts";

const MCP = new URL("../mcp/mod.ts", import.meta.url).href;

async function moduleDir(files: Record<string, string>): Promise<AsyncDisposable & { path: string }> {
  const path = await Deno.makeTempDir({ prefix: "agentry-serve-" });
  for (const [name, text] of Object.entries(files)) await Deno.writeTextFile(join(path, name), text);
  return { path, [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }) };
}

function context(args: string[], env: Record<string, string> = {}) {
  const stop = new AbortController();
  const stderr: string[] = [];
  const ctx: CliContext = {
    args,
    env: (name) => env[name],
    signal: stop.signal,
    stdout: () => undefined,
    stderr: (line) => stderr.push(line),
  };
  return { ctx, stop, stderr };
}

const BUILD = `import { createToolServer } from "${MCP}";
export default function buildServer() {
  return createToolServer({ name: "sync" }).tool("hi", { description: "hi" }, () => "hello");
}`;

Deno.test("serve loads a ToolServer, a function returning one, or an async function returning one", async () => {
  await using dir = await moduleDir({
    "instance.ts":
      `import { createToolServer } from "${MCP}";\nexport default createToolServer({ name: "instance" });`,
    "sync.ts": BUILD,
    "async.ts":
      `import { createToolServer } from "${MCP}";\nexport default async () => createToolServer({ name: "async" });`,
  });
  for (const name of ["instance", "sync", "async"]) {
    const server = await loadServer(join(dir.path, `${name}.ts`));
    assert.equal(server.name, name);
  }
});

Deno.test("serve explains a missing, wrong or failing default export and an unimportable module", async () => {
  await using dir = await moduleDir({
    "none.ts": "export const server = 1;",
    "number.ts": "export default 42;",
    "object.ts": "export default { tools: [] };",
    "throws.ts": "export default () => { throw new Error('no database'); };",
    "broken.ts": "export default (;",
  });
  const cases: Array<[string, RegExp]> = [
    ["none.ts", /default export of .*none\.ts is missing: export a ToolServer/],
    ["number.ts", /gives a number/],
    ["object.ts", /gives an object \(Object\)/],
    ["throws.ts", /failed to build the server: Error: no database/],
    ["broken.ts", /cannot import .*broken\.ts/],
  ];
  for (const [name, message] of cases) {
    await assert.rejects(loadServer(join(dir.path, name)), (error) => {
      assert.ok(error instanceof CliFailure, name);
      assert.match(error.message, message);
      return true;
    });
  }
});

Deno.test("serve refuses bad AGENTRY_* settings before importing anything", async () => {
  const cases: Record<string, string>[] = [{ AGENTRY_LOG_LEVEL: "loud" }, { AGENTRY_TIMEOUT_DEFAULT: "-3" }];
  for (const env of cases) {
    const { ctx } = context([], env);
    await assert.rejects(serve(["/nonexistent/server.ts"], ctx), (error) => {
      assert.ok(error instanceof UsageError);
      assert.match(error.message, new RegExp(Object.keys(env)[0]));
      return true;
    });
  }
});

Deno.test("serve reports a missing FILE as a failure", async () => {
  const { ctx } = context([]);
  await assert.rejects(serve(["/nonexistent/server.ts"], ctx), /no such file/);
});

Deno.test("serve over http prints one listening line, then stops with exit 0 when the signal aborts", async () => {
  await using dir = await moduleDir({ "server.ts": BUILD });
  const { ctx, stop, stderr } = context([]);
  const done = serve([join(dir.path, "server.ts"), "--transport", "http", "--port", "0"], ctx);
  const deadline = Date.now() + 10_000;
  while (!stderr.some((line) => line.startsWith("agentry serve: listening")) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const line = stderr.find((l) => l.startsWith("agentry serve: listening"));
  assert.match(line ?? "", /^agentry serve: listening on http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  const url = line!.slice("agentry serve: listening on ".length);
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    }),
  });
  assert.equal(response.status, 200);
  assert.match(await response.text(), /"name":"sync"/);
  stop.abort("SIGTERM");
  assert.equal(await done, EXIT.ok);
});
