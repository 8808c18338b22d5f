/**
 * The tool of the 2026-07-28 `http-custom-header-server-validation` scenario (SEP-2243): parameters
 * annotated with `x-mcp-header` are mirrored by clients into `Mcp-Param-<Name>` HTTP headers (Base64 as
 * `=?base64?...?=` when the value needs it), and the framework checks each header against the body before
 * the tool runs (HTTP 400, JSON-RPC -32020 on a mismatch or a missing header).
 *
 * @module
 */

import { createRouter, type JsonSchemaObject, type ToolRouter } from "../../src/mcp/mod.ts";

/** The input of `test_custom_headers`: two mirrored parameters and one that is not. */
export const CUSTOM_HEADERS_INPUT: JsonSchemaObject = {
  type: "object",
  properties: {
    region: {
      type: "string",
      description: "Plain string, sent as Mcp-Param-Region",
      "x-mcp-header": "Region",
    },
    priority: {
      type: "integer",
      description: "Integer, sent as Mcp-Param-Priority",
      "x-mcp-header": "Priority",
    },
    query: { type: "string", description: "Not mirrored into a header" },
  },
  required: ["region"],
};

/** A router with the custom-header tool. */
export function headerTools(): ToolRouter {
  const router = createRouter();

  router.tool(
    "test_custom_headers",
    {
      description: "A tool whose x-mcp-header parameters travel as Mcp-Param headers",
      input: CUSTOM_HEADERS_INPUT,
    },
    (args) => `Custom headers tool called with: ${JSON.stringify(args)}`,
  );

  return router;
}
