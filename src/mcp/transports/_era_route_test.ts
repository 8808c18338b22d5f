import assert from "node:assert/strict";
import { isLegacyRequest } from "@modelcontextprotocol/server";
import { modernPost } from "../modern/_test_modern.ts";
import { INITIALIZE, mcpPost } from "./_test_serve.ts";
import { surelyLegacy, surelyModern } from "./_era_route.ts";

const CALL = { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "echo", arguments: {} } };

Deno.test("the fast era checks never disagree with the SDK's isLegacyRequest", async () => {
  const modern = modernPost("tools/call", { name: "echo", arguments: {} });
  const modernBody = await modern.clone().json();
  const cases: [string, Request, unknown][] = [
    ["initialize", mcpPost(INITIALIZE), INITIALIZE],
    ["session call", mcpPost(CALL, { "mcp-session-id": "s", "mcp-protocol-version": "2025-11-25" }), CALL],
    ["batch", mcpPost([CALL, CALL]), [CALL, CALL]],
    ["modern", modern, modernBody],
    ["modern in a batch", mcpPost([CALL, modernBody]), [CALL, modernBody]],
    ["modern header, no envelope", mcpPost(CALL, { "mcp-protocol-version": "2026-07-28" }), CALL],
    ["unknown header version", mcpPost(CALL, { "mcp-protocol-version": "2030-01-01" }), CALL],
    ["claim of an unserved revision", mcpPost(CALL), {
      ...CALL,
      params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2030-01-01" } },
    }],
    ["GET", new Request("http://127.0.0.1/mcp", { headers: { "mcp-session-id": "s" } }), undefined],
  ];
  for (const [label, request, body] of cases) {
    const sdk = await isLegacyRequest(request, body);
    if (surelyLegacy(request, body)) {
      assert.equal(sdk, true, `${label}: fast path says legacy, the SDK does not`);
    }
  }
  assert.equal(surelyLegacy(mcpPost(INITIALIZE), INITIALIZE), true, "initialize takes the fast path");
  assert.equal(surelyLegacy(modern, modernBody), false);
  assert.equal(surelyModern(modernBody), true, "an enveloped request takes the fast path");
  assert.equal(surelyModern(CALL), false);
});
