/**
 * The prompts: plain, with arguments (and completion), with an embedded resource, with an image.
 *
 * @module
 */

import { z } from "zod";
import { createRouter, imageContent, type ToolRouter } from "../../src/mcp/mod.ts";
import { PNG_BYTES } from "./media.ts";

/** Suggestions `completion/complete` offers for `arg1` of `test_prompt_with_arguments`. */
export const ARG1_SUGGESTIONS: readonly string[] = ["test", "testing", "testValue1", "paris", "party"];

/** A router with the prompts. */
export function prompts(): ToolRouter {
  const router = createRouter();

  // prompts-list, prompts-get-simple: a string is one user message.
  router.prompt(
    "test_simple_prompt",
    { description: "A simple prompt without arguments" },
    () => "This is a simple prompt for testing.",
  );

  // prompts-get-with-args, completion-complete: required string arguments, `arg1` completes by prefix.
  router.prompt(
    "test_prompt_with_arguments",
    {
      description: "A prompt with required arguments",
      arguments: z.object({
        arg1: z.string().describe("First test argument"),
        arg2: z.string().describe("Second test argument"),
      }),
      complete: { arg1: (value) => ARG1_SUGGESTIONS.filter((s) => s.startsWith(value)) },
    },
    ({ arg1, arg2 }) => `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`,
  );

  // prompts-get-embedded-resource: a message may carry an embedded resource.
  router.prompt(
    "test_prompt_with_embedded_resource",
    {
      description: "A prompt that includes an embedded resource",
      arguments: z.object({ resourceUri: z.string().describe("URI of the resource to embed") }),
    },
    ({ resourceUri }) => [
      {
        role: "user",
        content: {
          type: "resource",
          resource: {
            uri: resourceUri,
            mimeType: "text/plain",
            text: "Embedded resource content for testing.",
          },
        },
      },
      "Please process the embedded resource above.",
    ],
  );

  // prompts-get-with-image: an image message, then a text one.
  router.prompt(
    "test_prompt_with_image",
    { description: "A prompt that includes image content" },
    () => [
      { role: "user", content: imageContent(PNG_BYTES, "image/png") },
      "Please analyze the image above.",
    ],
  );

  return router;
}
