/**
 * End to end, auth (issue 15, slice D): generated projects call a real HTTP upstream on 127.0.0.1
 * (Deno.serve), and the test checks the exact credential headers each auth mode and security scheme
 * sends: a bare token gets `Bearer `, `user:password` becomes `Basic <base64>`, an API key goes as it
 * is in its own header, an operation with alternatives uses the first one configured, one with two
 * schemes sends both, and one without a requirement sends nothing. A spec without any security
 * requirement defaults to auth `none` and works over stdio with no credential at all.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/shared/transport"
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { type AuthMode, mcpcast, writeProject } from "../src/mcpcast/mod.ts";
import { tempDir } from "./_cli_harness.ts";
import { freePort } from "./_ports.ts";

const ROOT = new URL("../", import.meta.url);
const RUN = ["run", "--quiet", "--allow-net", "--allow-read=.", "--allow-env", "main.ts"];
const TOKEN = "e2e-bare-token-7a1c";
const KEY = "e2e-api-key-42f0";
const GH = "e2e-gh-token-9d3b";

/** What the upstream saw: path, Authorization and X-API-Key. */
interface Seen {
  path: string;
  authorization: string | null;
  key: string | null;
}

/** A real upstream on 127.0.0.1 that records the credential headers of every request. */
function upstream(): { url: string; seen: Seen[] } & AsyncDisposable {
  const seen: Seen[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (request) => {
    const path = new URL(request.url).pathname;
    seen.push({
      path,
      authorization: request.headers.get("authorization"),
      key: request.headers.get("x-api-key"),
    });
    return Response.json({ ok: true });
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}/api`,
    seen,
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}

function op(id: string, security?: Record<string, string[]>[]) {
  return {
    get: {
      operationId: id,
      summary: `Read ${id}`,
      responses: { "200": { description: "OK" } },
      ...(security !== undefined ? { security } : {}),
    },
  };
}

/** An OpenAPI 3 spec with four schemes and operations that use them alone, as alternatives, together, or not. */
function securedSpec(): Record<string, unknown> {
  return {
    openapi: "3.0.3",
    info: { title: "Auth Probe", version: "1.0.0" },
    servers: [{ url: "https://probe.example.com" }],
    components: {
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer" },
        basic: { type: "http", scheme: "basic" },
        key: { type: "apiKey", in: "header", name: "X-API-Key" },
        gh: { type: "http", scheme: "token" },
      },
    },
    paths: {
      "/bearer": op("readBearer", [{ bearer: [] }]),
      "/basic": op("readBasic", [{ basic: [] }]),
      "/key": op("readKey", [{ key: [] }]),
      "/gh": op("readGh", [{ gh: [] }]),
      "/either": op("readEither", [{ key: [] }, { bearer: [] }]),
      "/both": op("readBoth", [{ key: [], bearer: [] }]),
      "/open": op("readOpen"),
    },
  };
}

/** The same operations without any security requirement. */
function openSpec(): Record<string, unknown> {
  return {
    openapi: "3.0.3",
    info: { title: "Open Probe", version: "1.0.0" },
    servers: [{ url: "https://probe.example.com" }],
    paths: { "/open": op("readOpen"), "/bearer": op("readBearer") },
  };
}

/** Writes `spec` and the project generated from it under `dir`; returns the project directory. */
async function project(dir: string, spec: Record<string, unknown>, baseUrl: string, auth?: AuthMode) {
  const file = join(dir, `${auth ?? "default"}.json`);
  await Deno.writeTextFile(file, JSON.stringify(spec));
  const plan = await mcpcast(file, { baseUrl, ...(auth !== undefined ? { auth } : {}) });
  const out = join(dir, `${auth ?? "default"}-project`);
  await writeProject(plan, out, { frameworkImport: ROOT.href });
  return { plan, out };
}

/** Calls each tool in turn; each answer is `ok` or the error code. */
async function callAll(transport: Transport, tools: readonly string[]): Promise<Record<string, string>> {
  const client = new Client({ name: "mcpcast-auth-e2e", version: "1.0.0" });
  await client.connect(transport);
  try {
    const out: Record<string, string> = {};
    for (const tool of tools) {
      const result = await client.callTool({ name: tool, arguments: {} });
      const [block] = result.content as Array<{ type: string; text: string }>;
      out[tool] = result.isError ? JSON.parse(block.text).error.code : "ok";
    }
    return out;
  } finally {
    await client.close();
  }
}

function stdio(cwd: string, env: Record<string, string>): StdioClientTransport {
  return new StdioClientTransport({
    command: Deno.execPath(),
    args: RUN,
    cwd,
    env: { NO_COLOR: "1", ...env },
    stderr: "pipe",
  });
}

/** The last request the upstream saw for `path`. */
function last(seen: readonly Seen[], path: string): Omit<Seen, "path"> | undefined {
  const found = seen.findLast((entry) => entry.path === `/api${path}`);
  return found === undefined ? undefined : { authorization: found.authorization, key: found.key };
}

const TOOLS = ["read_bearer", "read_basic", "read_key", "read_gh", "read_either", "read_both", "read_open"];

Deno.test("env-token over stdio: each scheme's credential is shaped and sent as the spec says", async () => {
  await using dir = await tempDir();
  await using api = upstream();
  const { plan, out } = await project(dir.path, securedSpec(), api.url, "env-token");
  assert.deepEqual(plan.tools.map((tool) => tool.name).sort(), [...TOOLS].sort());
  const transport = stdio(out, {
    MCPCAST_UPSTREAM_TOKEN: TOKEN,
    MCPCAST_UPSTREAM_TOKEN_BASIC: "ann:pa55word",
    MCPCAST_UPSTREAM_TOKEN_KEY: KEY,
    MCPCAST_UPSTREAM_TOKEN_GH: GH,
  });
  const timer = setTimeout(() => void transport.close(), 90_000);
  try {
    const answers = await callAll(transport, TOOLS);
    assert.deepEqual(Object.values(answers), TOOLS.map(() => "ok"), JSON.stringify(answers));
  } finally {
    clearTimeout(timer);
    await transport.close();
  }
  assert.deepEqual(last(api.seen, "/bearer"), { authorization: `Bearer ${TOKEN}`, key: null });
  assert.deepEqual(last(api.seen, "/basic"), { authorization: `Basic ${btoa("ann:pa55word")}`, key: null });
  assert.deepEqual(last(api.seen, "/key"), { authorization: null, key: KEY });
  assert.deepEqual(last(api.seen, "/gh"), { authorization: `token ${GH}`, key: null });
  assert.deepEqual(last(api.seen, "/either"), { authorization: null, key: KEY }, "the first alternative");
  assert.deepEqual(last(api.seen, "/both"), { authorization: `Bearer ${TOKEN}`, key: KEY }, "both schemes");
  assert.deepEqual(
    last(api.seen, "/open"),
    { authorization: null, key: null },
    "no requirement, nothing sent",
  );
});

Deno.test("passthrough over HTTP forwards a Basic header and an API key header where the scheme matches", async () => {
  await using dir = await tempDir();
  await using api = upstream();
  const { out } = await project(dir.path, securedSpec(), api.url, "passthrough");
  const port = freePort();
  const child = new Deno.Command(Deno.execPath(), {
    args: [...RUN, "--transport", "http", "--port", String(port)],
    cwd: out,
    env: { NO_COLOR: "1" },
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const stderr = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  try {
    let text = "";
    const deadline = Date.now() + 90_000;
    while (!/listening on http:\/\/127\.0\.0\.1:\d+\/mcp/.test(text)) {
      assert.ok(Date.now() < deadline, `the server did not start:\n${text}`);
      const { value, done } = await stderr.read();
      assert.ok(!done, `the server exited:\n${text}`);
      text += value;
    }
    const basic = `Basic ${btoa("ann:pa55word")}`;
    const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), {
      requestInit: { headers: { authorization: basic, "x-api-key": KEY } },
    });
    const answers = await callAll(transport, TOOLS);
    assert.deepEqual(answers, {
      read_bearer: "UPSTREAM_AUTH_MISSING",
      read_basic: "ok",
      read_key: "ok",
      read_gh: "UPSTREAM_AUTH_MISSING",
      read_either: "ok",
      read_both: "UPSTREAM_AUTH_MISSING",
      read_open: "ok",
    });
    assert.deepEqual(last(api.seen, "/basic"), { authorization: basic, key: null });
    assert.deepEqual(last(api.seen, "/key"), { authorization: null, key: KEY });
    assert.deepEqual(last(api.seen, "/either"), { authorization: null, key: KEY });
    assert.deepEqual(last(api.seen, "/open"), { authorization: null, key: null });
    assert.equal(last(api.seen, "/bearer"), undefined, "a refused call sends nothing");
  } finally {
    child.kill("SIGTERM");
    await child.status;
    await stderr.cancel();
  }
});

Deno.test("a spec without security defaults to auth none and serves stdio with no credential", async () => {
  await using dir = await tempDir();
  await using api = upstream();
  const { plan, out } = await project(dir.path, openSpec(), api.url);
  assert.equal(plan.api.auth, "none");
  const transport = stdio(out, {});
  const timer = setTimeout(() => void transport.close(), 90_000);
  try {
    assert.deepEqual(await callAll(transport, ["read_open", "read_bearer"]), {
      read_open: "ok",
      read_bearer: "ok",
    });
  } finally {
    clearTimeout(timer);
    await transport.close();
  }
  assert.deepEqual(last(api.seen, "/open"), { authorization: null, key: null });
  assert.deepEqual(last(api.seen, "/bearer"), { authorization: null, key: null });
});
