/**
 * Parts of the agent black-box tests: a real MCP server over streamable HTTP that counts its open
 * connections, and `agentry runtime start` as a subprocess pointed at a local model server.
 *
 * @module
 */

import { z } from "zod";
import { createToolServer, toFetchHandler } from "../src/mcp/mod.ts";
import assert from "node:assert/strict";
import { join } from "node:path";
import { RuntimeApiError, RuntimeClient } from "../src/api/client.ts";
import { RunningCli } from "./_cli_harness.ts";

/** An MCP server with `lookup_order` and `fail_always`, counting requests still open (SSE streams too). */
export interface OrdersMcp extends AsyncDisposable {
  /** The MCP endpoint. */
  url: string;
  /** Requests whose answer has not completed (an open GET stream counts). */
  open(): number;
  /** Tool calls received, as `name:arguments`. */
  calls: string[];
  /** Authorization headers received. */
  authorizations: Set<string>;
}

/** Starts the orders MCP server on 127.0.0.1. */
export async function startOrdersMcp(): Promise<OrdersMcp> {
  const calls: string[] = [];
  const server = createToolServer({ name: "orders" });
  server.tool("lookup_order", {
    description: "Look up an order by id",
    input: z.object({ id: z.number().int() }),
  }, ({ id }) => {
    calls.push(`lookup_order:${id}`);
    return `order ${id}: shipped on 2026-11-20`;
  });
  server.tool("fail_always", { description: "Always fails", input: z.object({}) }, () => {
    calls.push("fail_always");
    throw new Error("the warehouse is closed");
  });
  await server.startup();
  const handler = toFetchHandler(server);
  let open = 0;
  const authorizations = new Set<string>();
  const http = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (request, info) => {
    open++;
    info.completed.finally(() => open--);
    const authorization = request.headers.get("authorization");
    if (authorization) authorizations.add(authorization);
    return handler(request, info);
  });
  return {
    url: `http://127.0.0.1:${http.addr.port}/mcp`,
    open: () => open,
    calls,
    authorizations,
    async [Symbol.asyncDispose]() {
      await http.shutdown();
      await server.shutdown();
    },
  };
}

/** A started `agentry runtime start` and a client for it. */
export interface Runtime extends AsyncDisposable {
  /** The subprocess (stderr holds the log). */
  cli: RunningCli;
  /** A client whose every answer body is kept in `bodies`. */
  client: RuntimeClient;
  /** Every response body the client read. */
  bodies: string[];
}

/** Starts the runtime CLI with `args` and `env`, and a client that records every answer. */
export async function startRuntime(args: string[], env: Record<string, string>): Promise<Runtime> {
  const cli = new RunningCli(["runtime", "start", "--port", "0", "--json", ...args], { env });
  const { url, token } = await cli.listening();
  const bodies: string[] = [];
  const recording: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    if (response.headers.get("content-type")?.includes("event-stream")) return response;
    const text = await response.text();
    bodies.push(text);
    const empty = response.status === 204 || response.status === 205 || response.status === 304;
    return new Response(empty ? null : text, { status: response.status, headers: response.headers });
  };
  const client = new RuntimeClient({ baseUrl: url, token: token ?? undefined, fetch: recording });
  return {
    cli,
    client,
    bodies,
    async [Symbol.asyncDispose]() {
      await client.close();
      await cli[Symbol.asyncDispose]();
    },
  };
}

/**
 * The runtime CLI on `<dir>/state`, its `openai` provider pointed at a local model server (`modelUrl`) with a
 * test key; `args` and `env` add to that.
 */
export function startRuntimeWithModel(
  dir: string,
  modelUrl: string,
  options: { args?: string[]; env?: Record<string, string> } = {},
): Promise<Runtime> {
  return startRuntime(["--data-dir", join(dir, "state"), ...(options.args ?? [])], {
    OPENAI_BASE_URL: modelUrl,
    OPENAI_API_KEY: "test-key",
    ...options.env,
  });
}

/** Polls `check` every 20 ms until it answers true, failing after `ms`. */
export async function until(
  what: string,
  check: () => boolean | Promise<boolean>,
  ms = 15_000,
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** POSTs `payload` as JSON to a webhook trigger on 127.0.0.1 and asserts it was accepted (202). */
export async function fireWebhook(port: number, path: string, payload: unknown): Promise<void> {
  const answer = await fetch(`http://127.0.0.1:${port}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(payload),
  });
  assert.equal(answer.status, 202, await answer.text());
}

/** The API error `promise` rejects with; throws when it resolves or rejects with something else. */
export async function apiRejection(promise: Promise<unknown>): Promise<RuntimeApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof RuntimeApiError) return error;
    throw error;
  }
  throw new Error("the call succeeded");
}
