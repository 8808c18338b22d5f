/**
 * Argument schemas: a zod object or a JSON Schema object, compiled once at registration into the
 * advertised `inputSchema` and a validator.
 *
 * Validation messages name the field and the rule, never the value that was sent. `format` keywords are
 * advertised to clients but not enforced (Ajv runs without format validators).
 *
 * @module
 */

import { Ajv2020 } from "ajv/dist/2020.js";
import { z } from "zod";

/** A JSON Schema describing an object (`type: "object"`). */
export interface JsonSchemaObject {
  /** Must be `"object"`. */
  type: "object";
  /** Property schemas. */
  properties?: Record<string, unknown>;
  /** Required property names. */
  required?: string[];
  /** Any other JSON Schema keyword. */
  [keyword: string]: unknown;
}

/** The outcome of validating arguments. */
export type InputCheck =
  | { ok: true; value: Record<string, unknown> }
  | { ok: false; fieldErrors: Record<string, string[]> };

/** A compiled argument schema. */
export interface CompiledInput {
  /** The schema advertised in `tools/list`. */
  readonly jsonSchema: JsonSchemaObject;
  /** Validates (and for zod, parses) raw arguments. */
  validate(args: unknown): InputCheck;
  /** The zod schema, when the input was given as one. */
  readonly zod?: z.ZodObject;
}

const EMPTY: CompiledInput = {
  jsonSchema: { type: "object", properties: {} },
  validate: (args) =>
    args === undefined || (typeof args === "object" && args !== null && !Array.isArray(args))
      ? { ok: true, value: (args ?? {}) as Record<string, unknown> }
      : { ok: false, fieldErrors: { "": ["arguments must be an object"] } },
};

let ajv: Ajv2020 | undefined;

/** Compiles a tool's `input` option; a missing input accepts an empty (or absent) argument object. */
export function compileInput(input: z.ZodObject | JsonSchemaObject | undefined): CompiledInput {
  if (input === undefined) return EMPTY;
  if (input instanceof z.ZodType) return compileZod(input);
  if (typeof input !== "object" || input === null || input.type !== "object") {
    throw new TypeError('input must be a zod object or a JSON Schema with type "object"');
  }
  return compileJsonSchema(input);
}

function compileZod(schema: z.ZodObject): CompiledInput {
  const { $schema: _dialect, ...jsonSchema } = z.toJSONSchema(schema, {
    io: "input",
    unrepresentable: "any",
  });
  return {
    zod: schema,
    jsonSchema: jsonSchema as JsonSchemaObject,
    validate(args) {
      const result = schema.safeParse(args ?? {});
      if (result.success) return { ok: true, value: result.data as Record<string, unknown> };
      const fieldErrors: Record<string, string[]> = {};
      for (const issue of result.error.issues) {
        const field = issue.path.map(String).join(".");
        (fieldErrors[field] ??= []).push(issue.message);
      }
      return { ok: false, fieldErrors };
    },
  };
}

function compileJsonSchema(schema: JsonSchemaObject): CompiledInput {
  ajv ??= new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  const check = ajv.compile(schema);
  return {
    jsonSchema: structuredClone(schema),
    validate(args) {
      const value = args ?? {};
      if (check(value)) return { ok: true, value: value as Record<string, unknown> };
      const fieldErrors: Record<string, string[]> = {};
      for (const error of check.errors ?? []) {
        const field = error.instancePath.slice(1).replaceAll("/", ".") ||
          String(error.params?.missingProperty ?? "");
        (fieldErrors[field] ??= []).push(error.message ?? "is invalid");
      }
      return { ok: false, fieldErrors };
    },
  };
}
