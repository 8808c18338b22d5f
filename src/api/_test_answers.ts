/**
 * Test helpers that check every answer against the OpenAPI registry: the body must parse with the
 * schema its route declares for that status, and hold no field the schema does not declare. Answers of
 * paths no route takes (404, 405) must be the error envelope.
 *
 * @module
 */

import { AssertionError } from "node:assert/strict";
import { isDeepStrictEqual } from "node:util";
import type { RouteConfig } from "@hono/zod-openapi";
import type { z } from "@hono/zod-openapi";
import type { ControlApi, ControlApiApp } from "./context.ts";
import { ErrorBodySchema } from "./schemas.ts";

/** One answer with its parsed body. */
export interface CheckedAnswer {
  /** HTTP status. */
  status: number;
  /** Response headers. */
  headers: Headers;
  /** Parsed JSON body (undefined when empty), typed as `Response.json()` types it. */
  body: Awaited<ReturnType<Response["json"]>>;
}

/** Sends a request to `api`, checks the answer with {@linkcode checkAnswer} and returns it. */
export async function answer(
  api: ControlApi,
  method: string,
  path: string,
  init?: RequestInit,
): Promise<CheckedAnswer> {
  const response = await api.request(path, { ...init, method });
  const text = await response.text();
  const body = text === "" ? undefined : JSON.parse(text);
  checkAnswer(api, { method, path }, { status: response.status, body });
  return { status: response.status, headers: response.headers, body };
}

/**
 * Throws an `AssertionError` unless `body` is what the route serving `method path` declares for
 * `status` (HEAD answers have no body and are not checked).
 */
export function checkAnswer(
  api: ControlApi,
  request: { method: string; path: string },
  answer: { status: number; body: unknown },
): void {
  const method = request.method.toLowerCase();
  if (method === "head") return;
  const pathname = new URL(request.path, "http://api").pathname;
  const route = routesOf(api).find((r) => r.method === method && pattern(r.path).test(pathname));
  const what = `${request.method} ${pathname} -> ${answer.status}`;
  if (!route) {
    if (answer.body !== undefined) check(ErrorBodySchema, answer.body, what);
    return;
  }
  const declared = route.responses[answer.status];
  if (!declared) fail(`${what}: the route declares no ${answer.status} answer`);
  const content = "content" in declared ? declared.content?.["application/json"] : undefined;
  if (!content) {
    if (answer.body !== undefined) fail(`${what}: the route declares an empty answer`);
    return;
  }
  const schema = "schema" in content ? content.schema : undefined;
  if (isZodSchema(schema)) check(schema, answer.body, what);
}

function routesOf(api: ControlApi): RouteConfig[] {
  const registry = (api as Partial<ControlApiApp>).openAPIRegistry;
  if (!registry) fail("the API has no OpenAPI registry");
  return registry.definitions.flatMap((d) => (d.type === "route" ? [d.route] : []));
}

function pattern(path: string): RegExp {
  const source = path.split("/").map((
    s,
  ) => (/^\{\w+\}$/.test(s) ? "[^/]+" : s.replace(/[.*+?^$()|[\]\\]/g, "\\$&")));
  return new RegExp(`^${source.join("/")}$`);
}

function isZodSchema(value: unknown): value is z.ZodType {
  return typeof value === "object" && value !== null && "safeParse" in value;
}

function check(schema: z.ZodType, body: unknown, what: string): void {
  const parsed = schema.safeParse(body);
  if (!parsed.success) fail(`${what}: the body does not match its declared schema: ${parsed.error.message}`);
  // Plain zod objects drop undeclared keys: a difference is a field the document does not declare.
  if (!isDeepStrictEqual(parsed.data, body)) {
    fail(`${what}: the body holds fields its declared schema does not: ${JSON.stringify(body)}`);
  }
}

function fail(message: string): never {
  throw new AssertionError({ message });
}
