/**
 * Tools that talk back through the call's session while they run: log messages, progress,
 * sampling and elicitation (`ctx.session`).
 *
 * @module
 */

// @ts-types="@modelcontextprotocol/sdk/types"
import type { ElicitRequestFormParams, ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { createRouter, ToolError, type ToolRouter } from "../../src/mcp/mod.ts";

/** Milliseconds between the steps of the logging and progress tools. */
const STEP_MS = 50;

/** Waits `ms`; a cancelled call stops waiting at once. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  const cancelled = () => new ToolError("CANCELLED", "The request was cancelled.");
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(cancelled());
    const onAbort = () => {
      clearTimeout(timer);
      reject(cancelled());
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

function describe(result: ElicitResult): string {
  return `action=${result.action}, content=${JSON.stringify(result.content ?? {})}`;
}

/** The form of `test_elicitation_sep1034_defaults`: every primitive type with a default (SEP-1034). */
export const SEP1034_FORM: ElicitRequestFormParams = {
  mode: "form",
  message: "Please review and update the form fields with defaults",
  requestedSchema: {
    type: "object",
    properties: {
      name: { type: "string", description: "User name", default: "John Doe" },
      age: { type: "integer", description: "User age", default: 30 },
      score: { type: "number", description: "User score", default: 95.5 },
      status: {
        type: "string",
        description: "User status",
        enum: ["active", "inactive", "pending"],
        default: "active",
      },
      verified: { type: "boolean", description: "Verification status", default: true },
    },
    required: [],
  },
};

/** The form of `test_elicitation_sep1330_enums`: the five enum shapes of SEP-1330. */
export const SEP1330_FORM: ElicitRequestFormParams = {
  message: "Please select options from the enum fields",
  requestedSchema: {
    type: "object",
    properties: {
      untitledSingle: {
        type: "string",
        description: "Select one option",
        enum: ["option1", "option2", "option3"],
      },
      titledSingle: {
        type: "string",
        description: "Select one option with titles",
        oneOf: [
          { const: "value1", title: "First Option" },
          { const: "value2", title: "Second Option" },
          { const: "value3", title: "Third Option" },
        ],
      },
      legacyEnum: {
        type: "string",
        description: "Select one option (legacy)",
        enum: ["opt1", "opt2", "opt3"],
        enumNames: ["Option One", "Option Two", "Option Three"],
      },
      untitledMulti: {
        type: "array",
        description: "Select multiple options",
        minItems: 1,
        maxItems: 3,
        items: { type: "string", enum: ["option1", "option2", "option3"] },
      },
      titledMulti: {
        type: "array",
        description: "Select multiple options with titles",
        minItems: 1,
        maxItems: 3,
        items: {
          anyOf: [
            { const: "value1", title: "First Choice" },
            { const: "value2", title: "Second Choice" },
            { const: "value3", title: "Third Choice" },
          ],
        },
      },
    },
    required: [],
  },
};

/** A router with the session tools. */
export function sessionTools(): ToolRouter {
  const router = createRouter();

  // tools-call-with-logging: three `notifications/message` on the call's stream, before the result.
  router.tool(
    "test_tool_with_logging",
    { description: "Tests tool that emits log messages during execution" },
    async (_args, ctx) => {
      await ctx.session.log("info", "Tool execution started", "conformance-test-server");
      await pause(STEP_MS, ctx.signal);
      await ctx.session.log("info", "Tool processing data", "conformance-test-server");
      await pause(STEP_MS, ctx.signal);
      await ctx.session.log("info", "Tool execution completed", "conformance-test-server");
      return "Tool with logging executed successfully";
    },
  );

  // tools-call-with-progress: progress 0, 50, 100 of 100 against the token the request carried.
  router.tool(
    "test_tool_with_progress",
    { description: "Tests tool that reports progress notifications" },
    async (_args, ctx) => {
      await ctx.session.progress(0, 100);
      await pause(STEP_MS, ctx.signal);
      await ctx.session.progress(50, 100);
      await pause(STEP_MS, ctx.signal);
      await ctx.session.progress(100, 100);
      return "Tool with progress executed successfully";
    },
  );

  // tools-call-sampling: asks the client's model (`sampling/createMessage`).
  router.tool(
    "test_sampling",
    {
      description: "Tests server-initiated sampling (LLM completion request)",
      input: z.object({ prompt: z.string().describe("The prompt to send to the LLM") }),
    },
    async ({ prompt }, ctx) => {
      const reply = await ctx.session.sample({
        messages: [{ role: "user", content: { type: "text", text: prompt } }],
        maxTokens: 100,
      });
      const text = reply.content.type === "text" ? reply.content.text : `[${reply.content.type}]`;
      return `LLM response: ${text}`;
    },
  );

  // tools-call-elicitation: asks the user for a form (`elicitation/create`).
  router.tool(
    "test_elicitation",
    {
      description: "Tests server-initiated elicitation (user input request)",
      input: z.object({ message: z.string().describe("The message to show the user") }),
    },
    async ({ message }, ctx) => {
      const result = await ctx.session.elicit({
        message,
        requestedSchema: {
          type: "object",
          properties: {
            username: { type: "string", description: "User's response" },
            email: { type: "string", description: "User's email address" },
          },
          required: ["username", "email"],
        },
      });
      return `User response: ${describe(result)}`;
    },
  );

  // elicitation-sep1034-defaults: a form whose fields carry defaults.
  router.tool(
    "test_elicitation_sep1034_defaults",
    { description: "Tests elicitation with default values per SEP-1034" },
    async (_args, ctx) => `Elicitation completed: ${describe(await ctx.session.elicit(SEP1034_FORM))}`,
  );

  // elicitation-sep1330-enums: a form with every enum shape.
  router.tool(
    "test_elicitation_sep1330_enums",
    { description: "Tests elicitation with enum schema improvements per SEP-1330" },
    async (_args, ctx) => `Elicitation completed: ${describe(await ctx.session.elicit(SEP1330_FORM))}`,
  );

  return router;
}
