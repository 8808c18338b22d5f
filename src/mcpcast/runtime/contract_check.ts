/**
 * Contract checks for generated projects' tests: a request a tool sent, checked against the operation
 * of the spec it came from (not against the plan): method and path, each parameter's name, location,
 * presence and schema, the body's content type and schema. The contract (`tests/contract.json`) is cut
 * from the spec when the project is generated; its schemas keep their `$ref`s into its `components`
 * (OpenAPI 3) or `definitions` (Swagger 2).
 *
 * @module
 */

import { Ajv2020 } from "ajv/dist/2020.js";

/** One parameter of a spec operation, as the spec declares it. */
export interface ParameterContract {
  /** Name on the wire. */
  name: string;
  /** Where it travels. */
  in: "path" | "query" | "header" | "cookie";
  /** Whether the operation requires it. */
  required: boolean;
  /** Its schema (Swagger 2 type fields gathered into one). */
  schema?: Record<string, unknown>;
  /** Serialization style (`form`, `simple`, `deepObject`, …), when the spec sets one. */
  style?: string;
  /** Whether arrays and objects are exploded, when the spec says. */
  explode?: boolean;
}

/** The request body of a spec operation. */
export interface BodyContract {
  /** Whether a body is required. */
  required: boolean;
  /** Media type (or range) to its schema. */
  content: Record<string, { schema?: Record<string, unknown> }>;
}

/** One spec operation, as far as a request goes. */
export interface OperationContract {
  /** HTTP method, upper case. */
  method: string;
  /** Path template (`/pets/{petId}`). */
  path: string;
  /** Its parameters (path-level ones merged in). */
  parameters: ParameterContract[];
  /** Its request body, when it takes one. */
  body?: BodyContract;
}

/** The contract file: operations by the spec's operation id, and the schemas their `$ref`s reach. */
export interface ContractDocument {
  /** Operations by operation id (the plan's `operation_id`). */
  operations: Record<string, OperationContract>;
  /** OpenAPI 3 `components` the schemas refer to. */
  components?: Record<string, unknown>;
  /** Swagger 2 `definitions` the schemas refer to. */
  definitions?: Record<string, unknown>;
}

/** A request as an upstream received it. */
export interface SentRequest {
  /** HTTP method. */
  method: string;
  /** Full URL. */
  url: URL;
  /** Its headers. */
  headers: Headers;
  /** Its body text ("" for none). */
  body: string;
}

/** Options for {@linkcode checkRequest}. */
export interface CheckRequestOptions {
  /** Query parameters and headers to ignore (the upstream credential's slot). */
  ignore?: readonly string[];
}

const ROOT_ID = "urn:mcpcast:contract";
const validators = new WeakMap<ContractDocument, Ajv2020>();

function ajvFor(contract: ContractDocument): Ajv2020 {
  let ajv = validators.get(contract);
  if (ajv === undefined) {
    ajv = new Ajv2020({
      strict: false,
      coerceTypes: "array",
      validateFormats: false,
      logger: false,
      allErrors: true,
    });
    ajv.addSchema({ $id: ROOT_ID, ...contract } as Record<string, unknown>);
    validators.set(contract, ajv);
  }
  return ajv;
}

/**
 * Schema problems of `value` at JSON pointer `pointer` in the contract; none when it cannot be compiled.
 * With `text`, the value came as text (a parameter): a `oneOf` that more than one alternative fits once
 * coerced (`oneOf: [integer, string]` and "42") is the spec's ambiguity (it means `anyOf`), not a problem.
 */
function schemaProblems(
  contract: ContractDocument,
  pointer: string,
  value: unknown,
  what: string,
  text = false,
): string[] {
  let validate;
  try {
    validate = ajvFor(contract).getSchema(`${ROOT_ID}#${pointer}`);
  } catch {
    return [];
  }
  if (validate === undefined || validate(structuredClone(value))) return [];
  const ambiguous = (error: { keyword: string; params: Record<string, unknown> }) =>
    text && error.keyword === "oneOf" && Array.isArray(error.params.passingSchemas);
  const errors = (validate.errors ?? []).filter((error) => !ambiguous(error));
  if (
    errors.length < (validate.errors ?? []).length &&
    errors.every((error) => error.schemaPath.includes("oneOf"))
  ) {
    return [];
  }
  return errors.slice(0, 3).map((error) => `${what}${error.instancePath} ${error.message ?? "is invalid"}`);
}

function isArraySchema(schema: Record<string, unknown> | undefined): boolean {
  return schema?.type === "array" || (Array.isArray(schema?.type) && schema.type.includes("array"));
}

function pathValues(template: string, pathname: string): Record<string, string> | undefined {
  const names: string[] = [];
  const pattern = template.split(/\{([^}]+)\}/).map((part, index) => {
    if (index % 2 === 1) {
      names.push(part);
      return "([^/]+)";
    }
    return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  }).join("");
  const match = new RegExp(`^(?:.*?)${pattern}$`).exec(pathname);
  if (match === null) return undefined;
  return Object.fromEntries(names.map((name, index) => [name, decodeURIComponent(match[index + 1])]));
}

/** The value a parameter has in `request` (deserialized per its style), or undefined when absent. */
function paramValue(param: ParameterContract, request: SentRequest, path: Record<string, string>): unknown {
  const array = isArraySchema(param.schema);
  const split = (text: string) => array ? text.split(",") : text;
  if (param.in === "path") return path[param.name] === undefined ? undefined : split(path[param.name]);
  if (param.in === "header") {
    const text = request.headers.get(param.name);
    return text === null ? undefined : split(text);
  }
  if (param.in === "cookie") {
    const pair = (request.headers.get("cookie") ?? "").split(/;\s*/).find((item) =>
      item.startsWith(`${param.name}=`)
    );
    return pair === undefined ? undefined : split(decodeURIComponent(pair.slice(param.name.length + 1)));
  }
  const search = request.url.searchParams;
  if (param.style === "deepObject") {
    const entries = [...search].filter(([key]) => key.startsWith(`${param.name}[`));
    if (entries.length === 0) return undefined;
    return Object.fromEntries(entries.map(([key, value]) => [key.slice(param.name.length + 1, -1), value]));
  }
  const values = search.getAll(param.name);
  if (values.length === 0) return undefined;
  if (!array) return values.length === 1 ? values[0] : values;
  return param.explode === false ? values.flatMap((value) => value.split(",")) : values;
}

function mediaType(value: string): string {
  return value.split(";")[0].trim().toLowerCase();
}

function contentKey(content: BodyContract["content"], type: string): string | undefined {
  const keys = Object.keys(content);
  const exact = keys.find((key) => mediaType(key) === type);
  if (exact !== undefined) return exact;
  const [major] = type.split("/");
  return keys.find((key) => {
    const range = mediaType(key);
    return range === "*/*" || range === `${major}/*`;
  });
}

function bodyProblems(
  contract: ContractDocument,
  id: string,
  body: BodyContract | undefined,
  request: SentRequest,
): string[] {
  if (request.body === "") return body?.required ? ["the request body is required but none was sent"] : [];
  if (body === undefined) return ["a body was sent but the operation takes none"];
  const type = mediaType(request.headers.get("content-type") ?? "");
  const key = contentKey(body.content, type);
  if (key === undefined) {
    return [
      `content type '${type}' is not one the operation accepts (${Object.keys(body.content).join(", ")})`,
    ];
  }
  if (body.content[key].schema === undefined) return [];
  let value: unknown;
  if (type === "application/json" || type.endsWith("+json")) {
    try {
      value = JSON.parse(request.body);
    } catch {
      return ["the body is not JSON"];
    }
  } else if (type === "application/x-www-form-urlencoded") {
    const form: Record<string, string | string[]> = {};
    for (const [name, text] of new URLSearchParams(request.body)) {
      const prior = form[name];
      form[name] = prior === undefined ? text : [prior, text].flat();
    }
    value = form;
  } else {
    return [];
  }
  const pointer = `/operations/${id}/body/content/${key.replaceAll("~", "~0").replaceAll("/", "~1")}/schema`;
  return schemaProblems(contract, pointer, value, "body");
}

/**
 * What in `request` breaks the spec operation `operationId` of `contract`: an empty list when the
 * request is one the spec allows. Values are deserialized per the parameter's style and coerced to
 * the schema's types, as a server reading the spec would.
 *
 * @throws {Error} when `operationId` is not in the contract.
 *
 * @example
 * ```ts ignore
 * import contract from "./contract.json" with { type: "json" };
 * assert.deepEqual(checkRequest(contract, "getPetById", request), []);
 * ```
 */
export function checkRequest(
  contract: ContractDocument,
  operationId: string,
  request: SentRequest,
  options: CheckRequestOptions = {},
): string[] {
  const operation = contract.operations[operationId];
  if (operation === undefined) throw new Error(`operation '${operationId}' is not in the contract`);
  const problems: string[] = [];
  if (request.method !== operation.method) {
    problems.push(`method ${request.method}, the spec says ${operation.method}`);
  }
  const path = pathValues(operation.path, request.url.pathname);
  if (path === undefined) problems.push(`path ${request.url.pathname} does not fit ${operation.path}`);
  const ignore = new Set((options.ignore ?? []).map((name) => name.toLowerCase()));
  operation.parameters.forEach((param, index) => {
    if (ignore.has(param.name.toLowerCase())) return;
    const value = paramValue(param, request, path ?? {});
    const what = `${param.in} parameter '${param.name}'`;
    if (value === undefined) {
      if (param.required) problems.push(`${what} is required but was not sent`);
      return;
    }
    if (param.schema === undefined) return;
    const pointer = `/operations/${operationId}/parameters/${index}/schema`;
    problems.push(...schemaProblems(contract, pointer, value, what, true));
  });
  const declared = new Set(
    operation.parameters.filter((param) => param.in === "query").map((param) => param.name),
  );
  for (const name of new Set(request.url.searchParams.keys())) {
    const base = name.replace(/\[.*$/, "");
    if (!declared.has(name) && !declared.has(base) && !ignore.has(name.toLowerCase())) {
      problems.push(`query parameter '${name}' is not in the spec`);
    }
  }
  problems.push(...bodyProblems(contract, operationId, operation.body, request));
  return problems;
}
