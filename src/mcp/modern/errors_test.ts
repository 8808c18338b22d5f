import assert from "node:assert/strict";
import { ProtocolError } from "@modelcontextprotocol/server";
// @ts-types="@modelcontextprotocol/sdk/types"
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { toProtocolError } from "./errors.ts";

Deno.test("a v1 McpError becomes a ProtocolError with the same code, message and data", () => {
  const mapped = toProtocolError(new McpError(-32002, "Resource not found", { uri: "x:/1" }));
  assert.ok(mapped instanceof ProtocolError);
  assert.equal(mapped.code, -32002);
  assert.equal(mapped.message, "Resource not found");
  assert.deepEqual(mapped.data, { uri: "x:/1" });
});

Deno.test("errors without a JSON-RPC code pass unchanged", () => {
  const plain = new Error("boom");
  assert.equal(toProtocolError(plain), plain);
  assert.equal(toProtocolError("text"), "text");
});
