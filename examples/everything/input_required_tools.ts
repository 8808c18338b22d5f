/**
 * Tools (and a prompt) that ask their client for input while they run: elicitation, sampling and
 * roots, through the call's session (`ctx.session.elicit`, `sample`, `listRoots`). On a 2026-07-28
 * request each question rides on an `input_required` result and the call runs again with the
 * answers (the `input-required-result-*` conformance scenarios); on a 2025-era session the same code
 * sends real server-to-client requests. The `key` option names the question in `inputRequests`.
 *
 * @module
 */

// @ts-types="@modelcontextprotocol/sdk/types"
import type {
  CreateMessageResult,
  ElicitRequestFormParams,
  ElicitResult,
  ListRootsResult,
} from "@modelcontextprotocol/sdk/types.js";
import { type CallSession, createRouter, type ToolRouter } from "../../src/mcp/mod.ts";

/** A one-field form asking for `field` of `type`. */
function form(message: string, field: string, type: "string" | "boolean"): ElicitRequestFormParams {
  const property = type === "string" ? { type: "string" as const } : { type: "boolean" as const };
  return {
    message,
    requestedSchema: { type: "object", properties: { [field]: property }, required: [field] },
  };
}

/** The question of `test_input_required_result_elicitation`. */
export const NAME_FORM: ElicitRequestFormParams = form("What is your name?", "name", "string");

/** The question of `test_input_required_result_request_state` and `..._tampered_state`. */
export const CONFIRM_FORM: ElicitRequestFormParams = form("Please confirm", "ok", "boolean");

function field(result: ElicitResult, name: string): string {
  if (result.action !== "accept") return `(${result.action})`;
  return String(result.content?.[name] ?? "");
}

function sampled(result: CreateMessageResult): string {
  return result.content.type === "text" ? result.content.text : `[${result.content.type}]`;
}

function rootList(result: ListRootsResult): string {
  return result.roots.map((root) => root.uri).join(", ") || "(none)";
}

function ask(
  session: CallSession,
  text: string,
  maxTokens: number,
  key: string,
): Promise<CreateMessageResult> {
  return session.sample({ messages: [{ role: "user", content: { type: "text", text } }], maxTokens }, {
    key,
  });
}

/** A router with the input-required tools and prompt. */
export function inputRequiredTools(): ToolRouter {
  const router = createRouter();

  // input-required-result-basic-elicitation, -missing-input-response, -result-type,
  // -ignore-extra-params, -validate-input: one question under the key `user_name`.
  router.tool(
    "test_input_required_result_elicitation",
    { description: "Asks the user's name (elicitation), then greets them" },
    async (_args, ctx) =>
      `Hello, ${field(await ctx.session.elicit(NAME_FORM, { key: "user_name" }), "name")}!`,
  );

  // input-required-result-basic-sampling: one sampling request.
  router.tool(
    "test_input_required_result_sampling",
    { description: "Asks the client's model a question (sampling) and reports its answer" },
    async (_args, ctx) => {
      const reply = await ask(ctx.session, "What is the capital of France?", 100, "capital_question");
      return `The model answered: ${sampled(reply)}`;
    },
  );

  // input-required-result-basic-list-roots: the client's roots.
  router.tool(
    "test_input_required_result_list_roots",
    { description: "Asks the client for its roots and lists them" },
    async (_args, ctx) => `Client roots: ${rootList(await ctx.session.listRoots({ key: "client_roots" }))}`,
  );

  // input-required-result-request-state: a confirmation; the retried round carries the signed state
  // the framework verifies before the tool runs again.
  router.tool(
    "test_input_required_result_request_state",
    { description: "Asks for a confirmation; the retry must echo the signed requestState" },
    async (_args, ctx) =>
      `state-ok: confirmed=${field(await ctx.session.elicit(CONFIRM_FORM, { key: "confirm" }), "ok")}`,
  );

  // input-required-result-tampered-state: the same question; a retry with an altered state is refused
  // (-32602) before the tool runs.
  router.tool(
    "test_input_required_result_tampered_state",
    { description: "Asks for a confirmation; a tampered requestState is refused" },
    async (_args, ctx) =>
      `confirmed=${field(await ctx.session.elicit(CONFIRM_FORM, { key: "confirm" }), "ok")}`,
  );

  // input-required-result-multiple-input-requests: three questions asked together go out in one round.
  router.tool(
    "test_input_required_result_multiple_inputs",
    { description: "Asks for a name, a greeting and the roots at once" },
    async (_args, ctx) => {
      const [name, greeting, roots] = await Promise.all([
        ctx.session.elicit(NAME_FORM, { key: "user_name" }),
        ask(ctx.session, "Generate a greeting", 50, "greeting"),
        ctx.session.listRoots({ key: "client_roots" }),
      ]);
      return `${sampled(greeting)} ${field(name, "name")} (roots: ${rootList(roots)})`;
    },
  );

  // input-required-result-multi-round: the second question is asked only once the first is answered.
  router.tool(
    "test_input_required_result_multi_round",
    { description: "Asks a name, then a favourite colour, one round each" },
    async (_args, ctx) => {
      const name = field(
        await ctx.session.elicit(form("Step 1: What is your name?", "name", "string")),
        "name",
      );
      const question = form("Step 2: What is your favorite color?", "color", "string");
      const color = field(await ctx.session.elicit(question), "color");
      return `${name} likes ${color}`;
    },
  );

  // input-required-result-capability-check: asks only what the request's capabilities declare.
  router.tool(
    "test_input_required_result_capabilities",
    { description: "Asks only for the kinds of input the client declared" },
    async (_args, ctx) => {
      const { session } = ctx;
      const parts = await Promise.all([
        session.supports("elicitation/create")
          ? session.elicit(NAME_FORM).then((result) => `name=${field(result, "name")}`)
          : "no elicitation",
        session.supports("sampling/createMessage")
          ? ask(session, "Say hello", 20, "s1").then((result) => `model=${sampled(result)}`)
          : "no sampling",
        session.supports("roots/list")
          ? session.listRoots().then((result) => `roots=${rootList(result)}`)
          : "no roots",
      ]);
      return parts.join("; ");
    },
  );

  // input-required-result-non-tool-request: a prompt asks too.
  router.prompt(
    "test_input_required_result_prompt",
    { description: "A prompt built from context the user gives (elicitation)" },
    async (_args, ctx) => {
      const question = form("What context should the prompt use?", "context", "string");
      const context = field(await ctx.session.elicit(question, { key: "user_context" }), "context");
      return `Using the context '${context}', answer the user's question.`;
    },
  );

  return router;
}
