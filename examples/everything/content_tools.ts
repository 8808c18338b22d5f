/**
 * Tools that answer with each kind of MCP content (text, image, audio, embedded resource, a mix),
 * a tool error, a raw JSON Schema input, and the SSE reconnection target.
 *
 * @module
 */

import {
  audioContent,
  createRouter,
  imageContent,
  type JsonSchemaObject,
  ToolError,
  type ToolRouter,
} from "../../src/mcp/mod.ts";
import { PNG_BYTES, WAV_BYTES } from "./media.ts";

/**
 * The JSON Schema 2020-12 input of `json_schema_2020_12_tool`, advertised verbatim: `$schema`, `$defs`
 * and `additionalProperties` (SEP-1613), plus `$anchor`, `allOf`/`anyOf` and `if`/`then`/`else` (SEP-2106).
 */
export const JSON_SCHEMA_2020_12_INPUT: JsonSchemaObject = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  $defs: {
    address: {
      $anchor: "addressDef",
      type: "object",
      properties: { street: { type: "string" }, city: { type: "string" } },
    },
  },
  properties: {
    name: { type: "string" },
    address: { $ref: "#/$defs/address" },
    contactMethod: { type: "string", enum: ["phone", "email"] },
    phone: { type: "string" },
    email: { type: "string" },
  },
  allOf: [{ anyOf: [{ required: ["phone"] }, { required: ["email"] }] }],
  if: { properties: { contactMethod: { const: "phone" } }, required: ["contactMethod"] },
  then: { required: ["phone"] },
  else: { required: ["email"] },
  additionalProperties: false,
};

/** A router with the content tools. */
export function contentTools(): ToolRouter {
  const router = createRouter();

  // tools-call-simple-text: a string becomes one text block.
  router.tool(
    "test_simple_text",
    { description: "Tests simple text content response" },
    () => "This is a simple text response for testing.",
  );

  // tools-call-image: a content block passes through as the only block.
  router.tool(
    "test_image_content",
    { description: "Tests image content response" },
    () => imageContent(PNG_BYTES, "image/png"),
  );

  // tools-call-audio: the suite wants the mime type exactly "audio/wav".
  router.tool(
    "test_audio_content",
    { description: "Tests audio content response" },
    () => audioContent(WAV_BYTES, "audio/wav"),
  );

  // tools-call-embedded-resource: an embedded resource block.
  router.tool(
    "test_embedded_resource",
    { description: "Tests embedded resource content response" },
    () => ({
      type: "resource",
      resource: {
        uri: "test://embedded-resource",
        mimeType: "text/plain",
        text: "This is an embedded resource content.",
      },
    }),
  );

  // tools-call-mixed-content: a list holding content blocks is sent as mixed content (strings as text).
  router.tool(
    "test_multiple_content_types",
    { description: "Tests response with multiple content types (text, image, resource)" },
    () => [
      "Multiple content types test:",
      imageContent(PNG_BYTES, "image/png"),
      {
        type: "resource",
        resource: {
          uri: "test://mixed-content-resource",
          mimeType: "application/json",
          text: JSON.stringify({ test: "data", value: 123 }),
        },
      },
    ],
  );

  // tools-call-error: a thrown ToolError becomes an `isError` result (not a JSON-RPC error).
  router.tool(
    "test_error_handling",
    { description: "Tests error response handling" },
    () => {
      throw new ToolError("INTENTIONAL_ERROR", "This tool intentionally returns an error for testing");
    },
  );

  // json-schema-2020-12 (pending in the suite): a raw JSON Schema input, validated with Ajv.
  router.tool(
    "json_schema_2020_12_tool",
    { description: "Tool with JSON Schema 2020-12 features", input: JSON_SCHEMA_2020_12_INPUT },
    (args) => `JSON Schema 2020-12 tool called with: ${JSON.stringify(args)}`,
  );

  // server-sse-polling (pending in the suite): the HTTP transport handles the stream; the tool just answers.
  router.tool(
    "test_reconnection",
    { description: "Tests SSE stream reconnection: the client may reconnect to receive this result" },
    () => "Reconnection test completed successfully",
  );

  return router;
}
