/**
 * Hand-built operations, specs and plan documents for the plan tests.
 *
 * @module
 */

import assert from "node:assert/strict";
import { validatePlan } from "./schema.ts";
import type { HttpMethod, Operation, ParamSpec, ParsedSpec } from "../types.ts";

/** A value planted in plans; no validation message may contain it. */
export const SECRET = "s3cr3t-tok3n-7731";

/** An operation with defaults: no params, no security, base https://api.example.com. */
export function operation(
  operationId: string,
  method: HttpMethod,
  path: string,
  init: Partial<Operation> = {},
): Operation {
  return {
    operationId,
    method,
    path,
    tags: [],
    deprecated: false,
    scopes: [],
    params: [],
    bodyEncoding: "json",
    baseUrl: "https://api.example.com",
    docBaseUrl: "https://api.example.com",
    ...init,
  };
}

/** A parameter; path parameters are required unless said otherwise. */
export function param(
  name: string,
  location: ParamSpec["location"],
  init: Partial<ParamSpec> = {},
): ParamSpec {
  return {
    name,
    wireName: name,
    location,
    required: location === "path",
    schema: { type: "string" },
    ...init,
  };
}

/** A parsed spec holding `operations`. */
export function parsedSpec(operations: Operation[]): ParsedSpec {
  return {
    info: {
      title: "Pet Store",
      apiName: "petstore",
      summary: "Pet Store",
      baseUrl: "https://api.example.com",
      sourceLabel: "https://specs.example.com/petstore.json",
    },
    operations,
    securitySchemes: {},
  };
}

/** A plain object document (the input form of a plan). */
export type Doc = Record<string, unknown>;

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
    ],
    dropped: [{ operation_id: "legacyPets", reason: "deprecated in spec" }],
  };
}

/** `doc.tools[i]` as a mutable record. */
export function toolOf(doc: Doc, index: number): Doc {
  return (doc.tools as Doc[])[index];
}

/** `doc.tools[i].routes[r]` as a mutable record. */
export function routeOf(doc: Doc, index: number, route = 0): Doc {
  return (toolOf(doc, index).routes as Doc[])[route];
}

/** The validation lines of `doc`, asserting it is invalid. */
export function problemsOf(doc: Doc): string[] {
  const result = validatePlan(doc);
  assert.equal(result.ok, false, "the plan should have been refused");
  return result.ok ? [] : result.issues;
}

/**
 * Asserts that `doc` is refused with a line at `loc` containing every `fragment`, and that no line
 * contains {@linkcode SECRET} or any of `unsaid`.
 */
export function assertRefused(doc: Doc, loc: string, fragments: string[], unsaid: string[] = []): string {
  const problems = problemsOf(doc);
  const line = problems.find((problem) => problem.startsWith(`${loc}: `));
  assert.ok(line !== undefined, `no problem at ${loc}; got:\n${problems.join("\n")}`);
  for (const fragment of fragments) assert.ok(line.includes(fragment), `"${line}" lacks "${fragment}"`);
  for (const value of [SECRET, ...unsaid]) {
    assert.ok(problems.every((problem) => !problem.includes(value)), `a problem echoes "${value}"`);
  }
  return line;
}
