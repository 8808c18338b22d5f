/**
 * Test helpers for the runtime: validated plans from short documents, and a fake upstream that
 * records requests and answers as told.
 *
 * @module
 */

import { parsePlan } from "../plan/schema.ts";
import type { McpcastPlan, ToolPlan } from "../plan/types.ts";

/** A credential planted in tests; no error message may contain it. */
export const TOKEN: string = "tok-9f8e7d6c5b4a";

/** A plan from a document, defaults filled and invariants checked. */
export function plan(doc: Record<string, unknown>): McpcastPlan {
  return parsePlan({ version: 1, profile: "full", dropped: [], ...doc });
}

/** The pet API used across runtime tests: reads, a multi-route search, a gated delete, a form post. */
export function petPlan(api: Record<string, unknown> = {}): McpcastPlan {
  return plan({
    api: { name: "pets", base_url: "https://api.example.com/v1", ...api },
    tools: [
      {
        name: "get_pet",
        description: "Fetch one pet.",
        risk: "read",
        routes: [{
          operation_id: "getPet",
          method: "GET",
          path: "/pets/{petId}",
          params: {
            petId: { location: "path", required: true },
            tags: { location: "query" },
            filter: { location: "query" },
            flag: { location: "query" },
            api_version: { location: "query" },
          },
        }],
        params: {
          petId: { required: true },
          tags: { json_schema: { type: "array", items: { type: "string" } } },
          filter: { json_schema: { type: "object" } },
          flag: { json_schema: { type: "boolean" } },
          api_version: { hidden: true, default: "2024-01" },
        },
        example: { petId: "7" },
      },
      {
        name: "find_pets",
        description: "Find pets by owner, or by name and species.",
        risk: "read",
        routes: [
          {
            operation_id: "petsByOwner",
            method: "GET",
            path: "/owners/{owner}/pets",
            params: { owner: { location: "path", required: true } },
          },
          {
            operation_id: "searchPets",
            method: "GET",
            path: "/pets",
            params: {
              name: { location: "query", required: true },
              species: { location: "query", required: true },
            },
          },
        ],
        params: { owner: {}, name: {}, species: {} },
      },
      {
        name: "create_pet",
        description: "Create a pet.",
        risk: "write",
        requires_approval: true,
        routes: [{
          operation_id: "createPet",
          method: "POST",
          path: "/owners/{owner}/pets",
          params: {
            owner: { location: "path", required: true },
            body_owner: { location: "body", wire_name: "owner" },
            name: { location: "body", required: true },
            note: { location: "body" },
          },
        }],
        params: {
          owner: { required: true },
          body_owner: {},
          name: { required: true },
          note: { json_schema: { type: ["string", "null"] } },
        },
      },
      {
        name: "delete_pet",
        description: "Delete a pet.",
        risk: "destructive",
        requires_approval: true,
        routes: [{
          operation_id: "deletePet",
          method: "DELETE",
          path: "/pets/{petId}",
          params: { petId: { location: "path", required: true } },
        }],
        params: { petId: { required: true } },
      },
      {
        name: "charge",
        description: "Charge a card.",
        risk: "financial",
        requires_approval: true,
        routes: [{
          operation_id: "createCharge",
          method: "POST",
          path: "/charges",
          body_encoding: "form",
          params: { amount: { location: "body", required: true }, metadata: { location: "body" } },
        }],
        params: {
          amount: { required: true, json_schema: { type: "integer" } },
          metadata: { json_schema: { type: "object" } },
        },
      },
    ],
  });
}

/** The tool called `name` in `plan`. */
export function toolOf(source: McpcastPlan, name: string): ToolPlan {
  const tool = source.tools.find((candidate) => candidate.name === name);
  if (tool === undefined) throw new Error(`no tool ${name}`);
  return tool;
}

/** A request the fake upstream received. */
export interface Seen {
  method: string;
  url: URL;
  headers: Headers;
  body: string;
}

/** A fake upstream: records requests, answers with `answer` (default 200 `{"ok": true}`). */
export function fakeUpstream(
  answer: (request: Request) => Response | Promise<Response> = () => Response.json({ ok: true }),
): { fetch: (request: Request) => Promise<Response>; seen: Seen[] } {
  const seen: Seen[] = [];
  return {
    seen,
    fetch: async (request) => {
      seen.push({
        method: request.method,
        url: new URL(request.url),
        headers: request.headers,
        body: await request.text(),
      });
      return await answer(request);
    },
  };
}

/** An env lookup over `values`. */
export function envOf(values: Record<string, string> = {}): (name: string) => string | undefined {
  return (name) => Object.hasOwn(values, name) ? values[name] : undefined;
}
