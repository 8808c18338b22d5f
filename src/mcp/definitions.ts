/**
 * What can be registered on a tool server: tools, resources, resource templates and prompts, with
 * their options (as users write them) and definitions (resolved, as the server keeps them).
 *
 * @module
 */

// @ts-types="@modelcontextprotocol/sdk/types"
import type {
  GetPromptResult,
  PromptMessage,
  ReadResourceResult,
  ToolAnnotations,
} from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import type { RequestContext } from "./request_context.ts";
import type { CompiledInput, JsonSchemaObject } from "./input_schema.ts";
import type { Guard, Middleware } from "./types.ts";

/** Access and protection options shared by tools, resources and prompts. */
export interface AccessOptions {
  /** Labels for listing and filtering. @default [] */
  tags?: string[];
  /** Require authentication (an auth middleware must be installed). @default false */
  auth?: boolean;
  /** Shorthand for a `HasRole(...roles)` guard; implies `auth: true`. */
  roles?: string[];
  /** Guards run, in order, just before the handler. */
  guards?: Guard[];
  /** Declared rate limit such as `"100/min"` (units s, sec, second, m, min, minute, h, hr, hour). */
  rateLimit?: string;
  /** Seconds the guards plus handler may take, enforced even without a timeout middleware. */
  timeout?: number;
}

/** A tool's argument schema: a zod object, or a JSON Schema object (validated with Ajv, draft 2020-12). */
export type ToolInput = z.ZodObject | JsonSchemaObject;

/** Options for `server.tool(name, options, handler)`. */
export interface ToolOptions<I extends ToolInput = ToolInput> extends AccessOptions {
  /** What the tool does, for the model. @default the title, else the name */
  description?: string;
  /** Argument schema. @default no arguments */
  input?: I;
  /** Human display name (annotation `title`). */
  title?: string;
  /** The tool does not modify its environment. */
  readOnlyHint?: boolean;
  /** The tool may perform destructive updates. */
  destructiveHint?: boolean;
  /** Repeating a call with the same arguments has no further effect. */
  idempotentHint?: boolean;
  /** The tool reaches an open world of external entities. */
  openWorldHint?: boolean;
  /** At most this many concurrent calls of this tool; further calls are refused at once. */
  maxConcurrent?: number;
  /** A human must approve every call (needs an approval middleware). @default false */
  requiresApproval?: boolean;
  /** Let the cache middleware cache this tool's results. @default true */
  cache?: boolean;
  /**
   * Tasks extension (`io.modelcontextprotocol/tasks`, 2026-07-28 requests): `"optional"` or
   * `"required"` lets the tool hand its long-running part to a task by returning
   * `continueAsTask(work)`; the client then polls `tasks/get`. A `"required"` tool refuses clients
   * that did not declare the extension (`-32021`). Nothing is listed for it: on 2026-07-28 the
   * server decides when a call becomes a task, and 2025-era sessions run such calls in the request.
   * @default undefined (no task support: the call always answers in the request)
   */
  task?: TaskSupport;
}

/** How a tool takes part in the Tasks extension. */
export type TaskSupport = "optional" | "required";

/** Arguments a tool handler receives: the parsed zod output, or a plain record for JSON Schema inputs. */
export type ToolArgs<I extends ToolInput> = I extends z.ZodObject ? z.output<I> : Record<string, unknown>;

/**
 * A tool handler. Return a string, a number, a JSON value, MCP content blocks, a full
 * `CallToolResult`, `undefined` (answers "OK"), or a {@linkcode ToolResponse}.
 */
export type ToolHandler<I extends ToolInput = ToolInput> = (
  args: ToolArgs<I>,
  ctx: RequestContext,
) => unknown;

/** Options for `server.resource(uri, options, handler)`. */
export interface ResourceOptions extends AccessOptions {
  /** Display name. @default the URI */
  name?: string;
  /** What the resource holds. */
  description?: string;
  /** MIME type. @default "text/plain" */
  mimeType?: string;
  /** Human display title. */
  title?: string;
}

/**
 * A resource handler: return text, bytes (sent as base64 `blob`), any other value (sent as JSON
 * text), or a full `ReadResourceResult`.
 */
export type ResourceHandler = (ctx: RequestContext) => unknown;

/** Completion source for one template variable or prompt argument: candidates for a partial value. */
export type Completer = (value: string, context: Record<string, string>) => string[] | Promise<string[]>;

/** Options for `server.resourceTemplate(uriTemplate, options, handler)`. */
export interface ResourceTemplateOptions extends ResourceOptions {
  /** Completion per template variable, for `completion/complete`. */
  complete?: Record<string, Completer>;
}

/** A resource template handler; `params` holds the matched template variables. */
export type ResourceTemplateHandler = (params: Record<string, string>, ctx: RequestContext) => unknown;

/** Options for `server.prompt(name, options, handler)`. */
export interface PromptOptions<A extends z.ZodObject = z.ZodObject> extends AccessOptions {
  /** What the prompt is for. */
  description?: string;
  /** Human display title. */
  title?: string;
  /** Arguments; they arrive as strings and are coerced to the schema's types before validation. */
  arguments?: A;
  /** Completion per argument, for `completion/complete`. */
  complete?: Record<string, Completer>;
}

/**
 * A prompt handler: return a string (one user message), a message, a list of messages or
 * `{role, content}` maps, or a full `GetPromptResult`.
 */
export type PromptHandler<A extends z.ZodObject = z.ZodObject> = (
  args: z.output<A>,
  ctx: RequestContext,
) => string | PromptMessage | PromptMessage[] | GetPromptResult | Promise<unknown> | unknown;

/** Fields every resolved definition has. */
export interface BaseDefinition {
  /** Tool or prompt name; resource display name. */
  readonly name: string;
  /** Description sent to clients. */
  readonly description?: string;
  /** Display title. */
  readonly title?: string;
  /** Tags. */
  readonly tags: readonly string[];
  /** Whether authentication is required. */
  readonly auth: boolean;
  /** Roles from the `roles` shorthand. */
  readonly roles: readonly string[];
  /** Guards, including the role guard from `roles` and router guards. */
  readonly guards: readonly Guard[];
  /** Declared rate limit. */
  readonly rateLimit?: string;
  /** Timeout in seconds. */
  readonly timeout?: number;
  /** Middleware from enclosing routers (after server middleware). */
  readonly middleware: readonly Middleware[];
}

/** A registered tool. */
export interface ToolDefinition extends BaseDefinition {
  /** Discriminator. */
  readonly kind: "tool";
  /** The compiled argument schema. */
  readonly input: CompiledInput;
  /** MCP annotations, present only when a title or hint was given. */
  readonly annotations?: ToolAnnotations;
  /** Per-tool concurrency cap. */
  readonly maxConcurrent?: number;
  /** Whether a human must approve every call. */
  readonly requiresApproval: boolean;
  /** Whether results may be cached. */
  readonly cache: boolean;
  /** Tasks extension support, when the tool opted in. */
  readonly task?: TaskSupport;
  /** The handler. */
  readonly handler: ToolHandler;
}

/** A registered static resource. */
export interface ResourceDefinition extends BaseDefinition {
  /** Discriminator. */
  readonly kind: "resource";
  /** The resource URI. */
  readonly uri: string;
  /** MIME type. */
  readonly mimeType: string;
  /** The handler. */
  readonly handler: ResourceHandler;
}

/** A registered resource template. */
export interface ResourceTemplateDefinition extends BaseDefinition {
  /** Discriminator. */
  readonly kind: "resource_template";
  /** The RFC 6570 subset template (`{x}`, `{x*}`, `{+x}`). */
  readonly uriTemplate: string;
  /** MIME type. */
  readonly mimeType: string;
  /** Completion per variable. */
  readonly complete: Readonly<Record<string, Completer>>;
  /** The handler. */
  readonly handler: ResourceTemplateHandler;
}

/** A registered prompt. */
export interface PromptDefinition extends BaseDefinition {
  /** Discriminator. */
  readonly kind: "prompt";
  /** Argument schema, if any. */
  readonly arguments?: z.ZodObject;
  /** Completion per argument. */
  readonly complete: Readonly<Record<string, Completer>>;
  /** The handler. */
  readonly handler: PromptHandler;
}

/** Anything a request can target. */
export type ItemDefinition =
  | ToolDefinition
  | ResourceDefinition
  | ResourceTemplateDefinition
  | PromptDefinition;

/** A result as handlers may shape it for a resource read. */
export type ResourceReadResult = ReadResourceResult;
