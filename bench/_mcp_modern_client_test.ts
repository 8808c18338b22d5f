import assert from "node:assert/strict";
import { runLoad } from "./_load.ts";
import { callBody, type McpClientOptions } from "./_mcp_client.ts";
import {
  checkedModernCall,
  discover,
  MODERN_VERSION,
  modernBody,
  modernCallTarget,
} from "./_mcp_modern_client.ts";
import { sdk2Handler } from "./_mcp_sdk2.ts";
import { chooseVariants, parseRevision } from "./_mcp_variants.ts";
import { API_KEY, MCP_PATH, oursHandler, sdkHandler, TOOL_NAME } from "./mcp_server.ts";

const CALL = { tool: TOOL_NAME, args: { text: "bench-echo" }, expected: "bench-echo" };

/** Serves `handler` on 127.0.0.1 (port 0) for `body`, then stops it. */
async function served(
  handler: (request: Request) => Response | Promise<Response>,
  body: (client: McpClientOptions) => Promise<void>,
): Promise<void> {
  const listening = Promise.withResolvers<number>();
  const server = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    onListen: ({ port }) => listening.resolve(port),
  }, handler);
  try {
    const port = await listening.promise;
    await body({ baseUrl: `http://127.0.0.1:${port}`, path: MCP_PATH, headers: { "x-api-key": API_KEY } });
  } finally {
    await server.shutdown();
  }
}

Deno.test("modernBody: the request with its id and the 2026-07-28 envelope", () => {
  const message = JSON.parse(modernBody("tools/call", { name: "echo", arguments: { text: "x" } })(42));
  assert.deepEqual(message, {
    jsonrpc: "2.0",
    id: 42,
    method: "tools/call",
    params: {
      name: "echo",
      arguments: { text: "x" },
      _meta: {
        "io.modelcontextprotocol/protocolVersion": MODERN_VERSION,
        "io.modelcontextprotocol/clientInfo": { name: "agentry-mcp-bench", version: "1.0.0" },
        "io.modelcontextprotocol/clientCapabilities": {},
      },
    },
  });
});

for (
  const [name, make] of [
    ["the bare SDK v2", () => sdk2Handler()],
    ["ours (the modern leg)", () => oursHandler([], undefined)],
    [
      "ours with audit, breaker, auth, rate, timeout",
      () => oursHandler(["breaker", "auth", "rate", "timeout"], undefined),
    ],
  ] as const
) {
  Deno.test(`modern load on ${name}: discover, a checked call, then 0.3 s of load without errors`, async () => {
    const handler = make();
    try {
      const fetchOf = "fetch" in handler ? handler.fetch : handler;
      await served(fetchOf, async (client) => {
        assert.ok((await discover(client)).includes(MODERN_VERSION));
        const sample = await checkedModernCall(client, CALL);
        assert.match(sample.contentType, /application\/json|text\/event-stream/);
        const load = await runLoad(modernCallTarget(client, CALL), {
          generator: "raw",
          connections: 2,
          durationMs: 300,
        });
        assert.ok(load.requests > 0);
        assert.equal(load.errors, 0, JSON.stringify(load.statuses));
      });
    } finally {
      await handler.close();
    }
  });
}

Deno.test("the modern checks fail on a server that does not speak 2026-07-28 (the bare SDK v1)", async () => {
  await served(sdkHandler(), async (client) => {
    await assert.rejects(discover(client), /server\/discover/);
    await assert.rejects(checkedModernCall(client, CALL), /did not echo/);
  });
});

Deno.test("the modern load counts an answer without the echo as an error", async () => {
  const handler = oursHandler([], undefined);
  try {
    await served(handler, async (client) => {
      const wrong = { ...modernCallTarget(client, CALL), bodyIncludes: '"text":"something else"' };
      const load = await runLoad(wrong, { generator: "raw", connections: 1, durationMs: 100 });
      assert.equal(load.requests, 0);
      assert.ok(load.errors > 0);
    });
  } finally {
    await handler.close();
  }
});

Deno.test("chooseVariants: revisions, --only with each side's bare SDK, --before", () => {
  const keys = (choice: Parameters<typeof chooseVariants>[0]) => chooseVariants(choice).map((v) => v.key);
  assert.deepEqual(keys({ revision: "both", diagnose: false }), ["a", "b", "c", "d", "a2", "b2", "c2"]);
  assert.deepEqual(keys({ revision: "2025", diagnose: false }), ["a", "b", "c", "d"]);
  assert.deepEqual(keys({ revision: "2026", diagnose: true }), ["a2", "b2", "c2"]);
  assert.deepEqual(keys({ revision: "both", diagnose: false, only: ["c", "b2"] }), ["a", "c", "a2", "b2"]);
  assert.deepEqual(keys({ revision: "both", diagnose: false, only: ["audit"] }), ["a", "audit"]);
  assert.deepEqual(keys({ revision: "both", diagnose: false, only: ["c"], before: "/x" }), ["a", "c", "c0"]);
  assert.throws(() => keys({ revision: "2026", diagnose: false, only: ["c"] }), /2025 server/);
  assert.throws(() => keys({ revision: "both", diagnose: false, only: ["zz"] }), /unknown server 'zz'/);
  assert.equal(parseRevision(undefined), "both");
  assert.throws(() => parseRevision("2024"), /--revision/);
});

Deno.test("the 2025 body stays as it was (no envelope)", () => {
  assert.equal(
    callBody(3, "echo", { text: "x" }),
    '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x"}}}',
  );
});
