/**
 * The pet-store plans the mcpcast tests share: `planDoc()`, a plan document as a user writes it (the
 * plan stage's tests), and `petPlan()`, a validated plan with more tools (the runtime's tests).
 *
 * @module
 */

import { type McpcastPlan, parsePlan } from "./plan/mod.ts";

/** A value planted in plans; no validation message may contain it. */
export const SECRET = "s3cr3t-tok3n-7731";

/** A credential planted in the runtime tests; no error message may contain it. */
export const TOKEN: string = "tok-9f8e7d6c5b4a";

/** A plain object document (the input form of a plan). */
export type Doc = Record<string, unknown>;

/** The gated `delete_pet` tool (DELETE /pets/{petId}) both pet plans have. */
function deletePet(): Doc {
  return {
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
  };
}

/**
 * A valid plan document under profile `full`: `get_pet` (read, GET /pets/{petId}, example with the
 * secret) and `delete_pet` (destructive, gated), one dropped operation.
 */
export function planDoc(): Doc {
  return {
    version: 1,
    api: { name: "petstore", base_url: "https://api.example.com/v1" },
    profile: "full",
    tools: [
      {
        name: "get_pet",
        description: "Fetch one pet by id.",
        risk: "read",
        routes: [{
          operation_id: "getPet",
          method: "GET",
          path: "/pets/{petId}",
          params: { petId: { location: "path", required: true }, verbose: { location: "query" } },
        }],
        params: {
          petId: { description: `The pet id, e.g. ${SECRET}`, required: true },
          verbose: { json_schema: { type: "boolean" }, default: SECRET },
        },
        example: { petId: SECRET },
      },
      deletePet(),
    ],
    dropped: [{ operation_id: "legacyPets", reason: "deprecated in spec" }],
  };
}

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
      deletePet(),
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
          params: {
            amount: { location: "body", required: true },
            // slice C: Stripe declares `encoding: {metadata: {style: deepObject, explode: true}}`.
            metadata: { location: "body", style: "deepObject", explode: true },
          },
        }],
        params: {
          amount: { required: true, json_schema: { type: "integer" } },
          metadata: { json_schema: { type: "object" } },
        },
      },
    ],
  });
}
