/**
 * Black-box test of `agentry serve --reload`: a change to the served module restarts the server.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { RunningCli, tempDir } from "./_cli_harness.ts";
import { freePort } from "./_ports.ts";

const MCP = new URL("../src/mcp/mod.ts", import.meta.url).href;

function serverModule(answer: string): string {
  return `import { createToolServer } from "${MCP}";
export default function buildServer() {
  return createToolServer({ name: "reload-test" }).tool("answer", { description: "the answer" }, () => "${answer}");
}
`;
}

/** The text `answer` gives, or undefined while no server is listening. */
async function answer(url: URL): Promise<string | undefined> {
  const client = new Client({ name: "reload-test", version: "1.0.0" });
  try {
    await client.connect(new StreamableHTTPClientTransport(url));
  } catch {
    return undefined;
  }
  try {
    const result = await client.callTool({ name: "answer", arguments: {} });
    return (result.content as Array<{ text?: string }>)[0]?.text;
  } catch {
    return undefined; // the server went away mid-call (restarting)
  } finally {
    await client.close();
  }
}

Deno.test("serve --reload restarts the server when its module changes and leaves no child behind", async () => {
  await using dir = await tempDir();
  const file = join(dir.path, "server.ts");
  await Deno.writeTextFile(file, serverModule("one"));
  const port = freePort();
  await using cli = new RunningCli([
    "serve",
    file,
    "--transport",
    "http",
    "--port",
    String(port),
    "--reload",
  ]);
  const line = await cli.waitFor("stderr", /^agentry serve: listening on /);
  const url = new URL(line.replace("agentry serve: listening on ", ""));
  assert.equal(url.port, String(port));
  assert.equal(await answer(url), "one");

  // A different length too, so the change shows even where mtimes have a coarse resolution.
  await Deno.writeTextFile(file, serverModule("second answer"));
  await cli.waitFor("stderr", /^agentry serve: server\.ts changed; restarting$/, 10_000);
  const deadline = Date.now() + 20_000;
  let seen = await answer(url);
  while (seen !== "second answer" && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    seen = await answer(url);
  }
  assert.equal(seen, "second answer");
  assert.equal(cli.stderr.filter((l) => l.startsWith("agentry serve: listening on")).length, 2);
  assert.equal(await cli.stop("SIGTERM"), 0);
  using listener = Deno.listen({ hostname: "127.0.0.1", port });
  assert.equal((listener.addr as Deno.NetAddr).port, port, "the port is free: no server child is left");
});
