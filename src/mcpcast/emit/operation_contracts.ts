/**
 * The contract a generated project's tests check requests against (`tests/contract.json`): for each
 * route of the plan, the spec operation it came from (found by method and path in the spec document,
 * never from the plan's own parameters), with its parameters, request body and the schemas their
 * `$ref`s reach. Swagger 2 fields are expressed in OpenAPI 3 terms (type fields as a schema,
 * `collectionFormat` as style/explode, body and formData parameters as a request body).
 *
 * @module
 */

import type { McpcastPlan } from "../plan/mod.ts";
import type {
  BodyContract,
  ContractDocument,
  OperationContract,
  ParameterContract,
} from "../runtime/internal.ts";

type Mapping = Record<string, unknown>;

function isMapping(value: unknown): value is Mapping {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The value at a local `$ref` (`#/a/b`), or undefined. */
function pointerValue(document: Mapping, ref: string): unknown {
  if (!ref.startsWith("#/")) return undefined;
  let node: unknown = document;
  for (const raw of ref.slice(2).split("/")) {
    const key = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
    if (!isMapping(node) && !Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** Follows `$ref`s of a parameter / request body object (not of schemas, which keep theirs). */
function deref(document: Mapping, value: unknown): Mapping | undefined {
  for (let depth = 0; depth < 16 && isMapping(value) && typeof value.$ref === "string"; depth++) {
    value = pointerValue(document, value.$ref);
  }
  return isMapping(value) ? value : undefined;
}

const SWAGGER_SCHEMA_KEYS = [
  "type",
  "format",
  "items",
  "enum",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "minLength",
  "maxLength",
  "pattern",
  "minItems",
  "maxItems",
  "uniqueItems",
  "multipleOf",
];

function swaggerSchema(param: Mapping): Mapping {
  const schema: Mapping = {};
  for (const key of SWAGGER_SCHEMA_KEYS) if (key in param) schema[key] = param[key];
  if (schema.type === "file") return {};
  return schema;
}

function swaggerParam(param: Mapping): ParameterContract {
  const out: ParameterContract = {
    name: String(param.name),
    in: param.in as ParameterContract["in"],
    required: param.in === "path" || param.required === true,
    schema: swaggerSchema(param),
  };
  if (param.type === "array") {
    const format = typeof param.collectionFormat === "string" ? param.collectionFormat : "csv";
    out.explode = format === "multi";
  }
  return out;
}

function oasParam(param: Mapping): ParameterContract {
  const out: ParameterContract = {
    name: String(param.name),
    in: param.in as ParameterContract["in"],
    required: param.in === "path" || param.required === true,
  };
  if (isMapping(param.schema)) out.schema = param.schema;
  if (typeof param.style === "string") out.style = param.style;
  if (typeof param.explode === "boolean") out.explode = param.explode;
  return out;
}

function swaggerBody(document: Mapping, operation: Mapping, params: Mapping[]): BodyContract | undefined {
  const consumes = (Array.isArray(operation.consumes) ? operation.consumes : document.consumes) as unknown;
  const types = Array.isArray(consumes) && consumes.length > 0 ? consumes.map(String) : ["application/json"];
  const body = params.find((param) => param.in === "body");
  if (body !== undefined) {
    const schema = isMapping(body.schema) ? body.schema : undefined;
    return {
      required: body.required === true,
      content: Object.fromEntries(types.map((type) => [type, { schema }])),
    };
  }
  const fields = params.filter((param) => param.in === "formData");
  if (fields.length === 0) return undefined;
  const schema = {
    type: "object",
    properties: Object.fromEntries(fields.map((field) => [String(field.name), swaggerSchema(field)])),
    required: fields.filter((field) => field.required === true).map((field) => String(field.name)),
  };
  const formTypes = types.filter((type) => /form/.test(type));
  return {
    required: fields.some((field) => field.required === true),
    content: Object.fromEntries(
      (formTypes.length > 0 ? formTypes : ["application/x-www-form-urlencoded"]).map((
        type,
      ) => [type, { schema }]),
    ),
  };
}

function oasBody(document: Mapping, operation: Mapping): BodyContract | undefined {
  const body = deref(document, operation.requestBody);
  if (body === undefined || !isMapping(body.content)) return undefined;
  const content: BodyContract["content"] = {};
  for (const [type, media] of Object.entries(body.content)) {
    content[type] = isMapping(media) && isMapping(media.schema) ? { schema: media.schema } : {};
  }
  return { required: body.required === true, content };
}

/** The contract of one spec operation, or undefined when the document has no such operation. */
function operationContract(document: Mapping, method: string, path: string): OperationContract | undefined {
  const item = deref(document, (document.paths as Mapping | undefined)?.[path]);
  const operation = item && deref(document, item[method.toLowerCase()]);
  if (item === undefined || operation === undefined) return undefined;
  const swagger = typeof document.swagger === "string";
  const merged = new Map<string, Mapping>();
  for (const list of [item.parameters, operation.parameters]) {
    if (!Array.isArray(list)) continue;
    for (const entry of list) {
      const param = deref(document, entry);
      if (param !== undefined) merged.set(`${param.in} ${param.name}`, param);
    }
  }
  const params = [...merged.values()];
  const wire = params.filter((param) => ["path", "query", "header", "cookie"].includes(String(param.in)));
  const contract: OperationContract = {
    method: method.toUpperCase(),
    path,
    parameters: wire.map((param) => swagger ? swaggerParam(param) : oasParam(param)),
  };
  const body = swagger ? swaggerBody(document, operation, params) : oasBody(document, operation);
  if (body !== undefined) contract.body = body;
  return contract;
}

/** Copies into `out` every local `$ref` target reachable from `value`, at the same pointer. */
function copyReachable(document: Mapping, value: unknown, out: Mapping, seen: Set<string>): void {
  const stack = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) stack.push(...node);
    else if (isMapping(node)) {
      const ref = node.$ref;
      if (typeof ref === "string" && ref.startsWith("#/") && !seen.has(ref)) {
        seen.add(ref);
        const target = pointerValue(document, ref);
        if (target !== undefined) {
          const keys = ref.slice(2).split("/").map((raw) =>
            decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~")
          );
          let slot = out;
          for (const key of keys.slice(0, -1)) slot = (slot[key] ??= {}) as Mapping;
          slot[keys[keys.length - 1]] = target;
          stack.push(target);
        }
      }
      stack.push(...Object.values(node));
    }
  }
}

/**
 * The contract of every route of `plan`, cut from the spec `document` it was planned from. A route
 * whose method and path the document does not have is left out.
 */
export function operationContracts(document: Readonly<Mapping>, plan: McpcastPlan): ContractDocument {
  const operations: Record<string, OperationContract> = {};
  for (const tool of plan.tools) {
    for (const route of tool.routes) {
      const contract = operationContract(document as Mapping, route.method, route.path);
      if (contract !== undefined) operations[route.operation_id] = contract;
    }
  }
  const reachable: Mapping = {};
  copyReachable(document as Mapping, operations, reachable, new Set());
  return { operations, ...reachable } as ContractDocument;
}
