/**
 * The static resources and the resource template. (The watched resource lives in
 * `everything_server.ts`, beside the lifecycle hooks that update it.)
 *
 * @module
 */

import { createRouter, type ToolRouter } from "../../src/mcp/mod.ts";
import { PNG_BYTES } from "./media.ts";

/** A router with the static resources and the template. */
export function resources(): ToolRouter {
  const router = createRouter();

  // resources-list, resources-read-text: a string is sent as `text`.
  router.resource(
    "test://static-text",
    { name: "static-text", description: "A static text resource for testing", mimeType: "text/plain" },
    () => "This is the content of the static text resource.",
  );

  // resources-read-binary: bytes are sent as a base64 `blob`.
  router.resource(
    "test://static-binary",
    {
      name: "static-binary",
      description: "A static binary resource (image) for testing",
      mimeType: "image/png",
    },
    () => PNG_BYTES,
  );

  // resources-templates-read: `{id}` matches one segment; other values are sent as JSON text.
  router.resourceTemplate(
    "test://template/{id}/data",
    {
      name: "template",
      description: "A resource template with parameter substitution",
      mimeType: "application/json",
    },
    ({ id }) => ({ id, templateTest: true, data: `Data for ID: ${id}` }),
  );

  return router;
}
