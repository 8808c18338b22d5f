/**
 * The diagnostic tools of the 2026-07-28 `server-stateless` scenario (SEP-2575): a tool that needs a client
 * capability, a tool that asks the user while its response streams, and a tool that logs. What the scenario
 * checks is the framework's answer around them: a `-32021` error (HTTP 400) when the client did not declare
 * the capability, an `input_required` result (never a server-to-client request) on the response stream,
 * and no `notifications/message` when the request's `_meta` sets no log level.
 *
 * @module
 */

import { createRouter, type ToolRouter } from "../../src/mcp/mod.ts";

/** The logger name of `test_logging_tool`'s messages. */
export const LOGGING_TOOL_LOGGER = "conformance-test-server";

/** A router with the server-stateless tools. */
export function statelessTools(): ToolRouter {
  const router = createRouter();

  // sep-2575-server-rejects-undeclared-capability: processing needs the client's model (sampling); a
  // client that did not declare `sampling` gets MissingRequiredClientCapabilityError from the framework.
  router.tool(
    "test_missing_capability",
    { description: "Needs the client's sampling capability: asks the client's model for a one-word answer" },
    async (_args, ctx) => {
      const reply = await ctx.session.sample({
        messages: [{ role: "user", content: { type: "text", text: "Answer with one word: ready?" } }],
        maxTokens: 10,
      });
      const text = reply.content.type === "text" ? reply.content.text : `[${reply.content.type}]`;
      return `Sampling answered: ${text}`;
    },
  );

  // sep-2575-http-server-no-independent-requests-on-stream: the question reaches the client as an
  // input_required result on the call's own response, never as an `elicitation/create` request.
  router.tool(
    "test_streaming_elicitation",
    { description: "Asks the user to confirm while the call's response streams" },
    async (_args, ctx) => {
      await ctx.session.log("info", "Asking for confirmation", LOGGING_TOOL_LOGGER);
      const answer = await ctx.session.elicit({
        message: "Continue the streaming test?",
        requestedSchema: {
          type: "object",
          properties: { confirm: { type: "boolean", description: "Continue" } },
          required: ["confirm"],
        },
      });
      return `Streaming elicitation: action=${answer.action}, content=${
        JSON.stringify(answer.content ?? {})
      }`;
    },
  );

  // sep-2575-server-no-log-without-loglevel: three info messages, sent only when the request asked for a
  // log level (2026-07-28: `_meta` "io.modelcontextprotocol/logLevel"; 2025: `logging/setLevel`).
  router.tool(
    "test_logging_tool",
    { description: "Logs three info messages, then answers" },
    async (_args, ctx) => {
      for (const step of ["started", "working", "done"]) {
        await ctx.session.log("info", `Logging tool ${step}`, LOGGING_TOOL_LOGGER);
      }
      return "Logging tool finished";
    },
  );

  return router;
}
