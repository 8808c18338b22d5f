/**
 * Checks registration options (unknown keys and bad values are refused with a TypeError naming the
 * item) and resolves them into definitions.
 *
 * @module
 */

import { z } from "zod";
import type {
  AccessOptions,
  BaseDefinition,
  PromptDefinition,
  PromptHandler,
  PromptOptions,
  ResourceDefinition,
  ResourceHandler,
  ResourceOptions,
  ResourceTemplateDefinition,
  ResourceTemplateHandler,
  ResourceTemplateOptions,
  ToolDefinition,
  ToolHandler,
  ToolOptions,
} from "./definitions.ts";
import { HasRole } from "./guards.ts";
import { compileInput } from "./input_schema.ts";
import { parseRateLimit } from "./middleware/rate_limit.ts";
import { compileUriTemplate } from "./uri_template.ts";
import type { Guard, Middleware } from "./types.ts";

/** What enclosing routers contribute to a definition. */
export interface Scope {
  /** Name prefix parts, outermost first. */
  prefixes: string[];
  /** Tags merged into every item. */
  tags: string[];
  /** Forces auth on every item. */
  auth: boolean;
  /** Guards run before the item's own. */
  guards: Guard[];
  /** Middleware run after server middleware. */
  middleware: Middleware[];
}

/** The scope of items registered directly on a server. */
export const ROOT_SCOPE: Scope = { prefixes: [], tags: [], auth: false, guards: [], middleware: [] };

/** Tool names: letters, digits, `_`, `-`, `.` and `@`, 1 to 128 characters. */
export const TOOL_NAME: RegExp = /^[A-Za-z0-9_.@-]{1,128}$/;

const guard = z.custom<Guard>(
  (value) => typeof value === "object" && value !== null && typeof (value as Guard).check === "function",
  "must be a guard (an object with a check(ctx) method)",
);

const access = {
  tags: z.array(z.string()).optional(),
  auth: z.boolean().optional(),
  roles: z.array(z.string().min(1)).optional(),
  guards: z.array(guard).optional(),
  rateLimit: z.string().optional(),
  timeout: z.number().positive().optional(),
};

const TOOL_OPTIONS = z.strictObject({
  ...access,
  description: z.string().optional(),
  input: z.custom<ToolOptions["input"]>((value) => typeof value === "object" && value !== null).optional(),
  title: z.string().optional(),
  readOnlyHint: z.boolean().optional(),
  destructiveHint: z.boolean().optional(),
  idempotentHint: z.boolean().optional(),
  openWorldHint: z.boolean().optional(),
  maxConcurrent: z.number().int().positive().optional(),
  requiresApproval: z.boolean().optional(),
  cache: z.boolean().optional(),
  task: z.enum(["optional", "required"]).optional(),
});

const completer = z.custom<(value: string) => string[]>(
  (value) => typeof value === "function",
  "must be a function",
);

const RESOURCE_OPTIONS = z.strictObject({
  ...access,
  name: z.string().optional(),
  description: z.string().optional(),
  mimeType: z.string().optional(),
  title: z.string().optional(),
});

const TEMPLATE_OPTIONS = RESOURCE_OPTIONS.extend({ complete: z.record(z.string(), completer).optional() });

const PROMPT_OPTIONS = z.strictObject({
  ...access,
  description: z.string().optional(),
  title: z.string().optional(),
  arguments: z.custom<z.ZodObject>((value) => value instanceof z.ZodObject, "must be a zod object")
    .optional(),
  complete: z.record(z.string(), completer).optional(),
});

function check<T>(schema: z.ZodType<T>, options: unknown, what: string): T {
  const result = schema.safeParse(options ?? {});
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) =>
    issue.code === "unrecognized_keys"
      ? `unknown option${issue.keys.length > 1 ? "s" : ""} ${issue.keys.map((k) => `'${k}'`).join(", ")}`
      : `${issue.path.join(".") || "options"}: ${issue.message}`
  );
  throw new TypeError(`${what}: ${problems.join("; ")}`);
}

function base(
  name: string,
  options: AccessOptions & { description?: string; title?: string },
  scope: Scope,
  what: string,
): BaseDefinition {
  if (options.rateLimit !== undefined) {
    try {
      parseRateLimit(options.rateLimit);
    } catch (error) {
      throw new TypeError(`${what}: ${(error as Error).message}`);
    }
  }
  const roles = options.roles ?? [];
  const guards = [
    ...scope.guards,
    ...(roles.length > 0 ? [new HasRole(...roles)] : []),
    ...(options.guards ?? []),
  ];
  return {
    name,
    description: options.description,
    title: options.title,
    tags: [...new Set([...scope.tags, ...(options.tags ?? [])])],
    auth: scope.auth || (options.auth ?? false) || roles.length > 0,
    roles,
    guards,
    rateLimit: options.rateLimit,
    timeout: options.timeout,
    middleware: scope.middleware,
  };
}

/** A tool definition from its options. */
export function defineTool(
  name: string,
  options: ToolOptions,
  handler: ToolHandler,
  scope: Scope,
): ToolDefinition {
  const full = [...scope.prefixes, name].join("_");
  const what = `tool '${full}'`;
  if (!TOOL_NAME.test(full)) {
    throw new TypeError(`${what}: names use letters, digits, '_', '-', '.' or '@' (1-128)`);
  }
  if (typeof handler !== "function") throw new TypeError(`${what}: handler must be a function`);
  const checked = check(TOOL_OPTIONS, options, what);
  let input;
  try {
    input = compileInput(checked.input);
  } catch (error) {
    throw new TypeError(`${what}: ${(error as Error).message}`);
  }
  const hints = {
    title: checked.title,
    readOnlyHint: checked.readOnlyHint,
    destructiveHint: checked.destructiveHint,
    idempotentHint: checked.idempotentHint,
    openWorldHint: checked.openWorldHint,
  };
  const given = Object.fromEntries(Object.entries(hints).filter(([, value]) => value !== undefined));
  return {
    ...base(full, { ...checked, description: checked.description ?? checked.title ?? full }, scope, what),
    kind: "tool",
    input,
    annotations: Object.keys(given).length > 0 ? given : undefined,
    maxConcurrent: checked.maxConcurrent,
    requiresApproval: checked.requiresApproval ?? false,
    cache: checked.cache ?? true,
    ...(checked.task ? { task: checked.task } : {}),
    handler,
  };
}

/** A static resource definition. */
export function defineResource(
  uri: string,
  options: ResourceOptions,
  handler: ResourceHandler,
  scope: Scope,
): ResourceDefinition {
  const what = `resource '${uri}'`;
  if (!URL.canParse(uri)) throw new TypeError(`${what}: not a valid URI`);
  const checked = check(RESOURCE_OPTIONS, options, what);
  return {
    ...base(checked.name ?? uri, checked, scope, what),
    kind: "resource",
    uri,
    mimeType: checked.mimeType ?? "text/plain",
    handler,
  };
}

/** A resource template definition. */
export function defineResourceTemplate(
  uriTemplate: string,
  options: ResourceTemplateOptions,
  handler: ResourceTemplateHandler,
  scope: Scope,
): ResourceTemplateDefinition {
  const what = `resource template '${uriTemplate}'`;
  const checked = check(TEMPLATE_OPTIONS, options, what);
  const compiled = compileUriTemplate(uriTemplate);
  for (const name of Object.keys(checked.complete ?? {})) {
    if (!compiled.variables.includes(name)) {
      throw new TypeError(`${what}: complete names unknown variable '${name}'`);
    }
  }
  return {
    ...base(checked.name ?? uriTemplate, checked, scope, what),
    kind: "resource_template",
    uriTemplate,
    mimeType: checked.mimeType ?? "text/plain",
    complete: (checked.complete ?? {}) as ResourceTemplateDefinition["complete"],
    handler,
  };
}

/** A prompt definition. */
export function definePrompt(
  name: string,
  options: PromptOptions,
  handler: PromptHandler,
  scope: Scope,
): PromptDefinition {
  const what = `prompt '${name}'`;
  const checked = check(PROMPT_OPTIONS, options, what);
  for (const arg of Object.keys(checked.complete ?? {})) {
    if (!checked.arguments?.shape[arg]) {
      throw new TypeError(`${what}: complete names unknown argument '${arg}'`);
    }
  }
  return {
    ...base(name, checked, scope, what),
    kind: "prompt",
    arguments: checked.arguments,
    complete: (checked.complete ?? {}) as PromptDefinition["complete"],
    handler,
  };
}
