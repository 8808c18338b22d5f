/**
 * End to end: corpus specs converted to Deno projects that import this checkout, then type-checked,
 * tested with their own generated tests, and served over stdio and HTTP to the MCP SDK's client,
 * whose tool calls reach a fake upstream on 127.0.0.1.
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
import { type AuthMode, mcpcast, type McpcastPlan, writeProject } from "../src/mcpcast/mod.ts";
import { runDeno, tempDir } from "./_cli_harness.ts";
import { freePort } from "./_ports.ts";

const ROOT = new URL("../", import.meta.url);
const TOKEN = "Bearer e2e-token-5c1d";
/** env-token credentials: the plan's own slot, and Petstore's api_key scheme (slice D, issue 15). */
const ENV_TOKENS = { MCPCAST_UPSTREAM_TOKEN: TOKEN, MCPCAST_UPSTREAM_TOKEN_API_KEY: TOKEN };
const RUN = ["run", "--quiet", "--allow-net", "--allow-read=.", "--allow-env", "main.ts"];

interface Seen {
  method: string;
  target: string;
  credential: string | null;
}

/** A fake upstream on 127.0.0.1: records requests, answers `{"ok": true, "target": <path+query>}`. */
function fakeUpstream(credentialHeader: string): { url: string; seen: Seen[] } & AsyncDisposable {
  const seen: Seen[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (request) => {
    const url = new URL(request.url);
    const target = `${url.pathname}${url.search}`;
    // Slice D (issue 15): Petstore's get_pet_by_id takes its credential in the api_key header.
    const credential = request.headers.get(credentialHeader) ?? request.headers.get("api_key");
    seen.push({ method: request.method, target, credential });
    return Response.json({ ok: true, target });
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}/api`,
    seen,
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}

/** Runs deno with `args` in `cwd`, bounded; fails with its output when it exits non-zero. */
async function deno(args: string[], cwd: string): Promise<string> {
  const { code, text } = await runDeno(args, { cwd });
  assert.equal(code, 0, `deno ${args.join(" ")} failed:\n${text.slice(-4000)}`);
  return text;
}

interface Case {
  spec: string;
  auth: AuthMode;
  /** A read tool, its arguments and the request it must send (under `/api`). */
  call: { tool: string; args: Record<string, unknown>; method: string; target: string };
}

const BERLIN = "efdbb9d1-02c2-4bc3-afb7-6788d8782b1e";
const PARIS = "b2e783e1-c824-4d63-b37a-d8d698862f1d";

const CASES: Case[] = [
  {
    spec: "tests/fixtures/specs/petstore_swagger2.yaml",
    auth: "env-token",
    // Slice D (issue 15): store orders declare no security (nothing is sent); pets take the api_key header.
    call: { tool: "get_pet_by_id", args: { petId: 5 }, method: "GET", target: "/api/pet/5" },
  },
  {
    spec: "tests/fixtures/specs/train_travel_oas31.yaml",
    auth: "passthrough",
    call: {
      tool: "get_trips",
      // Slice B (issue 15, item 8): origin and destination are `format: uuid`, now checked before the call.
      args: { origin: BERLIN, destination: PARIS, date: "2024-02-01T09:00:00Z", dogs: true },
      method: "GET",
      target: `/api/trips?origin=${BERLIN}&destination=${PARIS}&date=2024-02-01T09%3A00%3A00Z&dogs=true`,
    },
  },
];

/** Lists tools and calls the case's read tool; resolves the call's JSON answer or its error code. */
async function exercise(transport: Transport, plan: McpcastPlan, call: Case["call"]): Promise<unknown> {
  const client = new Client({ name: "mcpcast-e2e", version: "1.0.0" });
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((tool) => tool.name).sort(), plan.tools.map((tool) => tool.name).sort());
    const result = await client.callTool({ name: call.tool, arguments: call.args });
    const [block] = result.content as Array<{ type: string; text: string }>;
    const value = JSON.parse(block.text);
    return result.isError ? value.error.code : value;
  } finally {
    await client.close();
  }
}

for (const { spec, auth, call } of CASES) {
  Deno.test(`${spec.split("/").pop()}: the generated project checks, passes its tests, and serves stdio and HTTP`, async (t) => {
    await using dir = await tempDir();
    await using upstream = fakeUpstream("authorization");
    const plan = await mcpcast(spec, { profile: "standard", auth, baseUrl: upstream.url });
    const out = join(dir.path, plan.api.name);
    await writeProject(plan, out, { frameworkImport: ROOT.href });

    await t.step("deno check", async () => {
      await deno(["check", "--quiet", "main.ts", "src/", "tests/"], out);
    });

    await t.step("its own tests pass with no network", async () => {
      const text = await deno(["test", "--allow-all"], out);
      assert.match(text, /ok \| \d+ passed/);
    });

    await t.step("an MCP client over stdio lists and calls a read tool", async () => {
      const transport = new StdioClientTransport({
        command: Deno.execPath(),
        args: RUN,
        cwd: out,
        env: { NO_COLOR: "1", ...(auth === "env-token" ? ENV_TOKENS : {}) },
        stderr: "pipe",
      });
      const timer = setTimeout(() => void transport.close(), 60_000);
      try {
        const answer = await exercise(transport, plan, call);
        if (auth === "passthrough") {
          assert.equal(
            answer,
            "UPSTREAM_AUTH_MISSING",
            "stdio carries no Authorization header to pass through",
          );
          assert.equal(upstream.seen.length, 0);
        } else {
          assert.deepEqual(answer, { ok: true, target: call.target });
          assert.deepEqual(upstream.seen.at(-1), {
            method: call.method,
            target: call.target,
            credential: TOKEN,
          });
        }
      } finally {
        clearTimeout(timer);
        await transport.close();
      }
    });

    if (auth === "env-token") {
      await t.step("an env-token server refuses a non-loopback bind unless --public", async () => {
        await using server = new Launcher(out, [...RUN, "--transport", "http", "--host", "0.0.0.0"], {});
        assert.equal(await server.exited(), 2);
        assert.ok(
          server.stderr.some((line) => /refusing to listen on 0\.0\.0\.0/.test(line)),
          server.stderr.join("\n"),
        );
      });
    }

    await t.step("an MCP client over streamable HTTP lists and calls a read tool", async () => {
      const port = freePort();
      const env: Record<string, string> = auth === "env-token" ? ENV_TOKENS : {};
      await using server = new Launcher(out, [...RUN, "--transport", "http", "--port", String(port)], env);
      await server.waitFor(/listening on http:\/\/127\.0\.0\.1:\d+\/mcp/, 60_000);
      const headers: Record<string, string> = auth === "passthrough" ? { authorization: TOKEN } : {};
      const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), {
        requestInit: { headers },
      });
      const answer = await exercise(transport, plan, call);
      assert.deepEqual(answer, { ok: true, target: call.target });
      assert.deepEqual(upstream.seen.at(-1), { method: call.method, target: call.target, credential: TOKEN });
      assert.equal(await server.stop("SIGTERM"), 0);
    });
  });
}

/** The generated launcher as a subprocess in the project directory; stderr collected line by line. */
class Launcher implements AsyncDisposable {
  readonly child: Deno.ChildProcess;
  readonly stderr: string[] = [];
  #drained: Promise<void>;

  constructor(cwd: string, args: string[], env: Record<string, string>) {
    this.child = new Deno.Command(Deno.execPath(), {
      args,
      cwd,
      env: { NO_COLOR: "1", ...env },
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).spawn();
    const stderr = this.child.stderr;
    this.#drained = (async () => {
      let buffer = "";
      for await (const chunk of stderr.pipeThrough(new TextDecoderStream())) {
        buffer += chunk;
        const lines = buffer.split("\n");
        buffer = lines.pop() ?? "";
        this.stderr.push(...lines);
      }
      if (buffer) this.stderr.push(buffer);
    })();
  }

  /** The first stderr line matching `pattern`, waiting at most `timeoutMs`. */
  async waitFor(pattern: RegExp, timeoutMs: number): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const line = this.stderr.find((candidate) => pattern.test(candidate));
      if (line !== undefined) return line;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`no stderr line matched ${pattern}:\n${this.stderr.join("\n")}`);
  }

  /** Resolves the exit code once the process ended on its own (killed after 60 s). */
  async exited(): Promise<number> {
    const timer = setTimeout(() => this.child.kill("SIGKILL"), 60_000);
    const status = await this.child.status;
    clearTimeout(timer);
    await this.#drained;
    return status.code;
  }

  /** Sends `signal` and resolves the exit code. */
  async stop(signal: Deno.Signal = "SIGTERM"): Promise<number> {
    try {
      this.child.kill(signal);
    } catch {
      // already exited
    }
    const status = await this.child.status;
    await this.#drained;
    return status.code;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    const timer = setTimeout(() => {
      try {
        this.child.kill("SIGKILL");
      } catch {
        // already exited
      }
    }, 5_000);
    await this.stop("SIGTERM");
    clearTimeout(timer);
  }
}

Deno.test("GitHub REST, profile full: the generated project checks, and its own tests call every tool", async () => {
  await using dir = await tempDir();
  const plan = await mcpcast("tests/fixtures/specs/api.github.com.json", {
    profile: "full",
    auth: "env-token",
  });
  const out = join(dir.path, plan.api.name);
  await writeProject(plan, out, { frameworkImport: ROOT.href });
  await deno(["check", "--quiet", "main.ts", "src/", "tests/"], out);
  const text = await deno(["test", "--allow-all"], out);
  // Under profile full every tool is a read or gated, and each is called with its example: none is left
  // out for an example that breaks its schema (patterns, lengths, item counts).
  const steps = Number(/ok \| \d+ passed \((\d+) steps\)/.exec(text)?.[1]);
  assert.equal(steps, plan.tools.length);
  assert.ok(plan.tools.length > 1000);
});
