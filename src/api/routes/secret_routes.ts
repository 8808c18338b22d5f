/**
 * Secret routes: `GET|DELETE /processes/{name}/secrets`, `PATCH /processes/{name}/secrets/{secret_name}`.
 *
 * No answer, error or log line holds a secret value. Every route answers 400 SECRETS_DISABLED for a
 * process without secret scoping. PATCH takes `{value, ttl?}` and checks, in order: unknown fields 422
 * UNKNOWN_FIELD; `value` missing 422 MISSING_FIELD, not a string (or `ttl` not a number) 422
 * INVALID_FIELD; an unknown secret 404 SECRET_NOT_FOUND; a rotation that cannot apply (empty value, ttl
 * not > 0, secrets not resolved because the process is not started or they were revoked) 400
 * ROTATION_FAILED with a fixed message and an error id.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import { isRuntimeError } from "../../runtime/mod.ts";
import { fromRuntime } from "../failures.ts";
import {
  errorResponses,
  jsonContent,
  NameParamSchema,
  SecretRotatedSchema,
  SecretsListSchema,
  SecretsRevokedSchema,
} from "../schemas.ts";
import { invalidField, missingField, refuseUnknownFields } from "./_body_fields.ts";
import { findProcess, type RouteContext } from "./route_context.ts";

const SecretParamsSchema = NameParamSchema.extend({
  secret_name: z.string().openapi({ param: { name: "secret_name", in: "path" }, example: "API_KEY" }),
});

const RotateBodySchema = z.object({
  value: z.string().min(1).openapi({ description: "The new value (never answered or logged)." }),
  ttl: z.number().gt(0).optional().openapi({ description: "Seconds from now; default: the configured ttl." }),
}).openapi("SecretRotation");

/** Adds the secret routes. */
export function registerSecretRoutes(ctx: RouteContext): void {
  const { route, runtime, logger } = ctx;
  route({
    method: "get",
    path: "/api/v1/processes/{name}/secrets",
    summary: "List the process's secrets: metadata only, never values",
    operationId: "listSecrets",
    request: { params: NameParamSchema },
    responses: { 200: jsonContent(SecretsListSchema, "Secrets"), ...errorResponses(400, 401, 404) },
  }, (c) => {
    const process = findProcess(runtime, c.req.param("name") ?? "");
    return c.json(process.secrets.metadata());
  });

  route({
    method: "patch",
    path: "/api/v1/processes/{name}/secrets/{secret_name}",
    summary: "Rotate a secret",
    operationId: "rotateSecret",
    takesBody: true,
    request: {
      params: SecretParamsSchema,
      body: { content: { "application/json": { schema: RotateBodySchema } }, required: true },
    },
    responses: { 200: jsonContent(SecretRotatedSchema, "Rotated"), ...errorResponses(400, 401, 404, 422) },
  }, async (c) => {
    const process = findProcess(runtime, c.req.param("name") ?? "");
    const secretName = c.req.param("secret_name") ?? "";
    process.secrets.assertEnabled(); // 400 SECRETS_DISABLED first
    const body = c.get("body") ?? {};
    refuseUnknownFields(body, ["value", "ttl"]);
    const { value, ttl } = body;
    if (value === undefined) throw missingField("value", "the new value, a non-empty string");
    if (typeof value !== "string") throw invalidField("value", "a non-empty string");
    if (ttl !== undefined && typeof ttl !== "number") throw invalidField("ttl", "a number of seconds > 0");
    try {
      const { expires_at } = await process.secrets.rotate(secretName, value, ttl);
      return c.json({ name: process.name, secret_name: secretName, rotated: true as const, expires_at });
    } catch (error) {
      if (!isRuntimeError(error, "ROTATION_FAILED")) throw error;
      throw fromRuntime(error, { logger, fields: { process: process.name, secret: secretName } });
    }
  });

  route({
    method: "delete",
    path: "/api/v1/processes/{name}/secrets",
    summary: "Revoke every secret of the process (values zero-filled); the next start resolves them again",
    operationId: "revokeSecrets",
    request: { params: NameParamSchema },
    responses: { 200: jsonContent(SecretsRevokedSchema, "Revoked"), ...errorResponses(400, 401, 404) },
  }, async (c) => {
    const process = findProcess(runtime, c.req.param("name") ?? "");
    process.secrets.assertEnabled(); // 400 SECRETS_DISABLED
    await process.secrets.revoke();
    return c.json({ name: process.name, secrets_revoked: true as const });
  });
}
