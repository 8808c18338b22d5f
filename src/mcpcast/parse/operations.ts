/**
 * Operation extraction: one {@link Operation} per method of every path, in document order, with its
 * parameters, body, security, base URL and success schema. A defect inside one operation marks that
 * operation unsupported (`unsupportedBody`) and the rest survive.
 *
 * @module
 */

import { McpcastError } from "../errors.ts";
import { OperationDefect } from "./operation_defect.ts";
import { arrangeParams, collectParameters } from "./parameters.ts";
import type { ExternalDocuments } from "./ref_documents.ts";
import { refProblemMessage, RefResolver } from "./refs.ts";
import { requestBodyParams } from "./request_body.ts";
import { operationSecurity, securitySchemesOf } from "./security.ts";
import { resolveBaseUrl, serverUrl } from "./info.ts";
import { isMapping, kindOf, type SpecMapping, trimmedString } from "../_spec_values.ts";
import { successSchema } from "./success_schema.ts";
import type { HttpMethod, Operation, ParamSpec, SecurityScheme } from "../types.ts";

/** HTTP methods in the order they are read from a path item. */
export const METHOD_ORDER: readonly string[] = [
  "get",
  "head",
  "post",
  "put",
  "patch",
  "delete",
  "options",
  "trace",
];

/** Options of {@link extractOperations}. */
export interface ExtractOperationsOptions {
  /** Base URL forced by the caller: wins over the document's and over per-path/per-operation servers. */
  baseUrl?: string;
  /** Public URL the spec was fetched from (relative server URLs resolve against it). */
  specUrl?: string;
  /** External documents references may point into (see `external_refs.ts`); none by default. */
  external?: ExternalDocuments;
  /** Resolve each operation's success response schema (`successSchema`). @default true */
  responseSchemas?: boolean;
}

interface Context {
  resolver: RefResolver;
  schemes: Record<string, SecurityScheme>;
  documentSecurity: unknown;
  docBaseUrl: string;
  forced: boolean;
  specUrl?: string;
  responseSchemas: boolean;
  /** Swagger 2 document-level `consumes` (slice C: multipart formData). */
  consumes: unknown;
}

/**
 * The operations of a checked spec document, in document order of paths and
 * {@link METHOD_ORDER} within a path. Throws {@link McpcastError} when there are no paths (with a
 * specific message when there are only webhooks), when a path item's `$ref` does not resolve, or
 * for a server variable without a default.
 */
export function extractOperations(
  document: SpecMapping,
  options: ExtractOperationsOptions = {},
): Operation[] {
  const paths = document.paths;
  if (!isMapping(paths) || Object.keys(paths).length === 0) {
    if (isMapping(document.webhooks) && Object.keys(document.webhooks).length > 0) {
      throw new McpcastError(
        "spec has only webhooks and no paths: mcpcast turns the requests an API answers into tools, " +
          "and webhooks are requests it sends",
      );
    }
    throw new McpcastError("spec has no paths: there are no operations to turn into tools");
  }
  const resolver = new RefResolver(document, options.external);
  const context: Context = {
    resolver,
    schemes: securitySchemesOf(document, resolver),
    documentSecurity: document.security,
    docBaseUrl: resolveBaseUrl(document, options),
    forced: options.baseUrl !== undefined && options.baseUrl.trim() !== "",
    specUrl: options.specUrl,
    responseSchemas: options.responseSchemas ?? true,
    consumes: document.consumes,
  };
  const usedIds = new Set<string>();
  const operations: Operation[] = [];
  for (const path of Object.keys(paths)) {
    const followed = resolver.follow(paths[path]);
    if (followed.problem) {
      throw new McpcastError(`path '${path}': ${refProblemMessage(followed.problem)}`);
    }
    const item = followed.value;
    if (!isMapping(item)) continue;
    const pathServer = context.forced
      ? undefined
      : serverUrl(item.servers, { specUrl: context.specUrl, where: `path '${path}' servers` });
    for (const method of METHOD_ORDER) {
      const raw = item[method];
      if (raw === undefined || raw === null) continue;
      const rawId = isMapping(raw) ? raw.operationId : undefined;
      const operationId = uniqueId(sanitizeOperationId(rawId, method, path), usedIds);
      operations.push(buildOperation(raw, item, { method, path, operationId, pathServer }, context));
    }
  }
  return operations;
}

/**
 * An operation id: `operationId` (numbers and booleans stringified) or `<method>_<path>`, with runs of
 * characters outside `[A-Za-z0-9_]` → "_", repeated "_" collapsed and trimmed; empty → "operation".
 */
export function sanitizeOperationId(operationId: unknown, method: string, path: string): string {
  const scalar = typeof operationId === "string" || typeof operationId === "number" ||
    typeof operationId === "boolean";
  const raw = scalar && String(operationId).trim() !== "" ? String(operationId) : `${method}_${path}`;
  const clean = raw.replace(/[^A-Za-z0-9_]+/g, "_").replace(/_+/g, "_").replace(/^_+|_+$/g, "");
  return clean === "" ? "operation" : clean;
}

function uniqueId(id: string, used: Set<string>): string {
  let candidate = id;
  for (let n = 2; used.has(candidate); n++) candidate = `${id}_${n}`;
  used.add(candidate);
  return candidate;
}

interface Where {
  method: string;
  path: string;
  operationId: string;
  pathServer?: string;
}

function buildOperation(raw: unknown, item: SpecMapping, where: Where, context: Context): Operation {
  const base: Operation = {
    operationId: where.operationId,
    method: where.method.toUpperCase() as HttpMethod,
    path: where.path,
    tags: [],
    deprecated: false,
    scopes: [],
    params: [],
    bodyEncoding: "json",
    baseUrl: where.pathServer ?? context.docBaseUrl,
    docBaseUrl: context.docBaseUrl,
  };
  if (!isMapping(raw)) {
    return { ...base, unsupportedBody: `malformed operation: expected mapping, got ${kindOf(raw)}` };
  }
  const security = operationSecurity(
    "security" in raw ? raw.security : context.documentSecurity,
    context.schemes,
  );
  const operationServer = context.forced
    ? undefined
    : serverUrl(raw.servers, { specUrl: context.specUrl, where: `operation '${where.operationId}' servers` });
  const operation: Operation = {
    ...base,
    summary: trimmedString(raw, "summary"),
    description: trimmedString(raw, "description"),
    tags: scalarTags(raw.tags),
    deprecated: raw.deprecated === true,
    scopes: security.scopes,
    securityScheme: security.scheme,
    credentialSlot: security.credentialSlot,
    ...(security.requirements !== undefined ? { security: security.requirements } : {}),
    baseUrl: operationServer ?? base.baseUrl,
  };
  try {
    const collected = collectParameters(item.parameters, raw.parameters, context.resolver, {
      consumes: raw.consumes ?? context.consumes, // slice C: Swagger 2 multipart formData
    });
    const body = requestBodyParams(raw.requestBody, context.resolver);
    const params: ParamSpec[] = [...collected.params, ...body.params];
    operation.params = arrangeParams(params);
    operation.bodyEncoding = collected.encoding === "json" ? body.encoding : collected.encoding; // slice C
    // Slice B (issue 15, item 2): a flattened body's description is kept in the operation's.
    if (body.description !== undefined && !(operation.description ?? "").includes(body.description)) {
      const own = operation.description;
      operation.description = own === undefined
        ? `Request body: ${body.description}`
        : `${own}\n\nRequest body: ${body.description}`;
    }
    const unsupported = body.unsupported;
    if (unsupported !== undefined) operation.unsupportedBody = unsupported;
  } catch (error) {
    if (!(error instanceof OperationDefect)) throw error;
    operation.params = [];
    operation.unsupportedBody = error.message;
  }
  const success = context.responseSchemas ? successSchema(raw.responses, context.resolver) : undefined;
  if (success !== undefined) operation.successSchema = success;
  return dropUndefined(operation);
}

function scalarTags(tags: unknown): string[] {
  if (!Array.isArray(tags)) return [];
  return tags
    .filter((tag) => typeof tag === "string" || typeof tag === "number" || typeof tag === "boolean")
    .map((tag) => String(tag));
}

function dropUndefined(operation: Operation): Operation {
  const record = operation as unknown as Record<string, unknown>;
  for (const key of Object.keys(record)) if (record[key] === undefined) delete record[key];
  return operation;
}
