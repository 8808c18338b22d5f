/**
 * Hand-built operations and specs for the plan tests, and checks of refused plan documents (the plan
 * documents themselves are in `../_test_plans.ts`).
 *
 * @module
 */

import assert from "node:assert/strict";
import { type Doc, SECRET } from "../_test_plans.ts";
import { validatePlan } from "./schema.ts";
import type { HttpMethod, Operation, ParamSpec, ParsedSpec } from "../types.ts";

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
