/**
 * Test helpers for `agentry mcpcast --model`: a scripted local model server that answers the
 * curation prompt (each attempt in turn), the evaluation's task prompt and the agent's turns, and a
 * local upstream for the evaluation's live reads.
 *
 * @module
 */

import { type RecordedRequest, type ScriptedReply, startModelServer } from "../../models/testing/mod.ts";

/** A tool call the scripted agent makes. */
export interface ScriptedCall {
  /** Tool name. */
  name: string;
  /** Its arguments. */
  arguments: Record<string, unknown>;
}

/** What the scripted model answers. */
export interface CastScript {
  /** The curation proposals, one per attempt (the last repeats); objects are sent as JSON. */
  curation?: Array<string | Record<string, unknown>>;
  /** The tasks the evaluation's task prompt gets. */
  tasks?: Array<Record<string, unknown>>;
  /** Per task prompt, the calls the agent makes (one a turn) before it answers "Done.". */
  agent?: Record<string, ScriptedCall[]>;
  /** Answers curation only after this promise settles (to interrupt a run mid-curation). */
  hold?: Promise<unknown>;
  /** Answers the task prompt only after this promise settles (to interrupt a run mid-evaluation). */
  holdTasks?: Promise<unknown>;
}

/** The user prompt of a recorded model request. */
export function userPrompt(request: RecordedRequest): string {
  return request.messages.find((message) => message.role === "user")?.content ?? "";
}

/** A scripted model server, its env and what it received. */
export interface ScriptedCastModel extends AsyncDisposable {
  /** `OPENAI_COMPATIBLE_BASE_URL` pointing at the server. */
  env: Record<string, string>;
  /** The model string. */
  model: string;
  /** Requests received. */
  requests: RecordedRequest[];
  /** Curation prompts received (user prompts). */
  curationPrompts: () => string[];
}

/** Starts the scripted model. */
export function scriptedCastModel(script: CastScript): ScriptedCastModel {
  let attempt = 0;
  const server = startModelServer({
    respond: async (request): Promise<ScriptedReply> => {
      const prompt = userPrompt(request);
      if (request.tools.length > 0) {
        const calls = script.agent?.[prompt] ?? [];
        const done = request.messages.filter((message) => message.role === "tool").length;
        return done < calls.length ? { toolCalls: [calls[done]] } : { text: "Done." };
      }
      if (/^Write \d+ tasks/.test(prompt)) {
        if (script.holdTasks !== undefined) await script.holdTasks;
        return { text: JSON.stringify({ tasks: script.tasks ?? [] }) };
      }
      if (script.hold !== undefined) await script.hold;
      const replies = script.curation ?? ["{}"];
      const reply = replies[Math.min(attempt++, replies.length - 1)];
      return { text: typeof reply === "string" ? reply : JSON.stringify(reply) };
    },
  });
  return {
    env: { OPENAI_COMPATIBLE_BASE_URL: server.url },
    model: "openai-compatible:x",
    requests: server.requests,
    curationPrompts: () =>
      server.requests.filter((r) => r.tools.length === 0).map(userPrompt).filter((p) =>
        !/^Write \d+ tasks/.test(p)
      ),
    [Symbol.asyncDispose]: () => server.close(),
  };
}

/** A local upstream answering every request with a pet (JSON), counting the requests. */
export function petUpstream(): AsyncDisposable & { url: string; paths: string[] } {
  const paths: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (request) => {
    paths.push(`${request.method} ${new URL(request.url).pathname}`);
    return Response.json({ id: 7, name: "Rex", status: "available", photoUrls: [] });
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}/v2`,
    paths,
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}

/** A curation proposal for the Swagger 2 petstore under read-only: three tools, one merged, one renamed. */
export function petstoreProposal(): Record<string, unknown> {
  return {
    tools: [
      {
        name: "find_pets",
        description: "Find pets: one by its id, or all pets with a status. Use get_order for orders.",
        risk: "read",
        operations: ["getPetById", "findPetsByStatus"],
        params: {},
        tags: ["pet"],
      },
      {
        name: "get_order",
        description: "Get one purchase order by its id (1 to 10).",
        risk: "read",
        operations: ["getOrderById"],
        params: {},
      },
      {
        name: "get_inventory",
        description: "Count pets by status in the store's inventory.",
        risk: "read",
        operations: ["getInventory"],
        params: {},
      },
    ],
    dropped: [
      { operation_id: "loginUser", reason: "session handling is not for agents" },
      { operation_id: "logoutUser", reason: "session handling is not for agents" },
      { operation_id: "findPetsByTags", reason: "deprecated" },
    ],
  };
}
