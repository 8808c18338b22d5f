/**
 * Helpers for the curation tests: a small pet-store spec, a scripted completer that records its
 * prompts, and a proposal that keeps every rule.
 *
 * @module
 */

import { openapi } from "../_test_parse.ts";
import type { Completer } from "../model/mod.ts";
import { parseSpec } from "../parse/mod.ts";
import type { ParsedSpec } from "../types.ts";

const petId = { name: "petId", in: "path", required: true, schema: { type: "integer" } };
const ok = { "200": { description: "ok" } };

/**
 * A pet store: `listPets` (GET /pets, optional `limit`, `tag`), `getPet` (GET /pets/{petId}),
 * `createPet` (POST /pets, body `name` required: write), `deletePet` (destructive), `getHealth`
 * (GET /health), `oldListPets` (deprecated GET), `uploadPhoto` (unmappable: its body cannot be sent).
 */
export async function petSpec(): Promise<ParsedSpec> {
  const spec = await parseSpec(openapi({
    "/pets": {
      get: {
        operationId: "listPets",
        summary: "List pets",
        tags: ["pets"],
        parameters: [
          { name: "limit", in: "query", schema: { type: "integer", maximum: 100 }, description: "Page size" },
          { name: "tag", in: "query", schema: { type: "string" } },
        ],
        responses: ok,
      },
      post: {
        operationId: "createPet",
        summary: "Create a pet",
        tags: ["pets"],
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: { type: "object", required: ["name"], properties: { name: { type: "string" } } },
            },
          },
        },
        responses: ok,
      },
    },
    "/pets/{petId}": {
      get: {
        operationId: "getPet",
        summary: "Get a pet",
        tags: ["pets", "detail"],
        parameters: [petId],
        responses: ok,
      },
      delete: { operationId: "deletePet", summary: "Delete a pet", parameters: [petId], responses: ok },
    },
    "/health": { get: { operationId: "getHealth", summary: "Health check", responses: ok } },
    "/old/pets": { get: { operationId: "oldListPets", deprecated: true, responses: ok } },
    "/pets/{petId}/photo": { post: { operationId: "uploadPhoto", parameters: [petId], responses: ok } },
  }, { servers: [{ url: "https://api.example.com/v1" }] }));
  const upload = spec.operations.find((op) => op.operationId === "uploadPhoto")!;
  upload.unsupportedBody = "request body of type image/png";
  return spec;
}

/** A completer answering `replies` in turn (objects as JSON), recording each user prompt. */
export function scripted(...replies: (string | Record<string, unknown>)[]): {
  complete: Completer;
  systems: string[];
  users: string[];
} {
  const systems: string[] = [];
  const users: string[] = [];
  let next = 0;
  const complete: Completer = (system, user) => {
    systems.push(system);
    users.push(user);
    const reply = replies[Math.min(next++, replies.length - 1)];
    return Promise.resolve(typeof reply === "string" ? reply : JSON.stringify(reply));
  };
  return { complete, systems, users };
}

/** A proposal for {@linkcode petSpec} that keeps every rule under `read-only`. */
export function goodProposal(): Record<string, unknown> {
  return {
    tools: [{
      name: "find_pets",
      description: "Find pets: one by id, or a page of them. Use it before changing a pet.",
      risk: "read",
      operations: ["getPet", "listPets"],
      params: { limit: { description: "How many pets to return", hidden: true, default: 20 } },
      example: { petId: 7 },
      tags: ["pets"],
    }],
    dropped: [
      { operation_id: "getHealth", reason: "health check" },
      { operation_id: "oldListPets", reason: "deprecated" },
    ],
  };
}

/** `proposal.tools[i]` as a mutable record. */
export function toolAt(proposal: Record<string, unknown>, index = 0): Record<string, unknown> {
  return (proposal.tools as Record<string, unknown>[])[index];
}

/** Appends a tool serving `operations` to `proposal` (a one-sentence description from its name). */
export function addTool(
  proposal: Record<string, unknown>,
  name: string,
  risk: string,
  operations: string[],
): void {
  (proposal.tools as unknown[]).push({ name, description: `The ${name} tool.`, risk, operations });
}
