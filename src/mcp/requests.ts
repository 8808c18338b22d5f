/**
 * Answers to MCP requests (list, call, read, get, complete) in terms of a {@linkcode ToolServer},
 * independent of the transport and of the SDK's server object.
 *
 * Resource and prompt failures answer with JSON-RPC errors: unknown resource -32002, unknown
 * prompt or invalid arguments -32602, refusals (auth, guards, limits) -32600 with the tool-error
 * envelope as `data`, anything unexpected -32603 with a generic message.
 *
 * @module
 */

// @ts-types="@modelcontextprotocol/sdk/types"
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import type {
  CallToolResult,
  CompleteRequestParams,
  CompleteResult,
  GetPromptResult,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ListToolsResult,
  ReadResourceResult,
  Tool,
} from "@modelcontextprotocol/sdk/types.js";
import type { ToolDefinition } from "./definitions.ts";
import { errorResult, ToolError } from "./errors.ts";
import type { CallInfo } from "./pipeline.ts";
import { coercePromptArguments, promptArguments, toPromptResult } from "./prompt_values.ts";
import type { RequestContext } from "./request_context.ts";
import { toResourceResult } from "./results.ts";
import { internalsOf, type ToolServer } from "./tool_server.ts";
import { visibleItems } from "./visibility.ts";

const RESOURCE_NOT_FOUND = -32002;
const toolJson = new WeakMap<ToolDefinition, Tool>();
const fullLists = new WeakMap<ToolServer, { revision: number; result: ListToolsResult }>();

function describeTool(definition: ToolDefinition): Tool {
  let tool = toolJson.get(definition);
  if (!tool) {
    tool = {
      name: definition.name,
      description: definition.description,
      inputSchema: definition.input.jsonSchema,
    } as Tool;
    if (definition.title) tool.title = definition.title;
    if (definition.annotations) tool.annotations = definition.annotations;
    toolJson.set(definition, tool);
  }
  return tool;
}

/** `tools/list`. */
export async function listTools(server: ToolServer, info: CallInfo): Promise<ListToolsResult> {
  const { registry } = internalsOf(server);
  if (!server.hideUnauthorizedTools) {
    const cached = fullLists.get(server);
    if (cached?.revision === registry.revision) return cached.result;
    const result = { tools: [...registry.tools.values()].map(describeTool) };
    fullLists.set(server, { revision: registry.revision, result });
    return result;
  }
  return { tools: (await visibleItems(server, registry.tools.values(), info)).map(describeTool) };
}

/** `tools/call`: always answers with a result; failures are `isError` results with the envelope. */
export function callTool(
  server: ToolServer,
  name: string,
  args: unknown,
  info: CallInfo,
): Promise<CallToolResult> {
  const { registry, pipeline } = internalsOf(server);
  const definition = registry.tools.get(name);
  if (!definition) {
    return Promise.resolve(errorResult(
      new ToolError("TOOL_NOT_FOUND", `Unknown tool: ${name}`, {
        suggestion: "Call tools/list to see the tools",
      }),
    ));
  }
  return pipeline.callTool(definition, args, info);
}

/** `resources/list`. */
export async function listResources(server: ToolServer, info: CallInfo): Promise<ListResourcesResult> {
  const visible = await visibleItems(server, internalsOf(server).registry.resources.values(), info);
  return {
    resources: visible.map((d) => ({
      uri: d.uri,
      name: d.name,
      mimeType: d.mimeType,
      ...(d.title ? { title: d.title } : {}),
      ...(d.description ? { description: d.description } : {}),
    })),
  };
}

/** `resources/templates/list`. */
export async function listResourceTemplates(
  server: ToolServer,
  info: CallInfo,
): Promise<ListResourceTemplatesResult> {
  const all = [...internalsOf(server).registry.templates.values()].map((entry) => entry.definition);
  const visible = await visibleItems(server, all, info);
  return {
    resourceTemplates: visible.map((d) => ({
      uriTemplate: d.uriTemplate,
      name: d.name,
      mimeType: d.mimeType,
      ...(d.title ? { title: d.title } : {}),
      ...(d.description ? { description: d.description } : {}),
    })),
  };
}

function asMcpError(server: ToolServer, error: unknown, ctx: RequestContext): McpError {
  const failure = internalsOf(server).pipeline.toToolError(error, ctx);
  const code = failure.code === "VALIDATION_ERROR"
    ? ErrorCode.InvalidParams
    : failure.code === "INTERNAL_ERROR"
    ? ErrorCode.InternalError
    : ErrorCode.InvalidRequest;
  return new McpError(code, `${failure.code}: ${failure.message}`, failure.toPayload().error);
}

/** `resources/read`. */
export async function readResource(
  server: ToolServer,
  uri: string,
  info: CallInfo,
): Promise<ReadResourceResult> {
  const { registry, pipeline } = internalsOf(server);
  const found = registry.findResource(uri);
  if (!found) throw new McpError(RESOURCE_NOT_FOUND, "Resource not found", { uri });
  const { definition, params } = found;
  const ctx = pipeline.context(definition, "resource", params, { ...info, resourceUri: uri });
  ctx.state.resource_uri = uri;
  try {
    const value = await pipeline.run(
      ctx,
      () => definition.kind === "resource" ? definition.handler(ctx) : definition.handler(params, ctx),
    );
    return toResourceResult(value, uri, definition.mimeType);
  } catch (error) {
    throw asMcpError(server, error, ctx);
  }
}

/** `prompts/list`. */
export async function listPrompts(server: ToolServer, info: CallInfo): Promise<ListPromptsResult> {
  const visible = await visibleItems(server, internalsOf(server).registry.prompts.values(), info);
  return {
    prompts: visible.map((d) => ({
      name: d.name,
      arguments: promptArguments(d.arguments),
      ...(d.title ? { title: d.title } : {}),
      ...(d.description ? { description: d.description } : {}),
    })),
  };
}

/** `prompts/get`. */
export async function getPrompt(
  server: ToolServer,
  name: string,
  raw: Record<string, string> | undefined,
  info: CallInfo,
): Promise<GetPromptResult> {
  const { registry, pipeline } = internalsOf(server);
  const definition = registry.prompts.get(name);
  if (!definition) throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${name}`);
  const coerced = coercePromptArguments(raw, definition.arguments);
  let args: Record<string, unknown> = coerced;
  if (definition.arguments) {
    const parsed = definition.arguments.safeParse(coerced);
    if (!parsed.success) {
      const fields = [...new Set(parsed.error.issues.map((issue) => issue.path.join(".") || "arguments"))];
      throw new McpError(
        ErrorCode.InvalidParams,
        `Invalid arguments for prompt '${name}': ${fields.join(", ")}`,
      );
    }
    args = parsed.data as Record<string, unknown>;
  }
  const ctx = pipeline.context(definition, "prompt", args, info);
  try {
    const value = await pipeline.run(ctx, () => definition.handler(args as never, ctx));
    return toPromptResult(value, definition.description);
  } catch (error) {
    throw asMcpError(server, error, ctx);
  }
}

/** `completion/complete` for prompt arguments and resource template variables. */
export async function complete(
  server: ToolServer,
  params: CompleteRequestParams,
  info: CallInfo,
): Promise<CompleteResult> {
  const { ref, argument } = params;
  const { registry } = internalsOf(server);
  const definition = ref.type === "ref/prompt"
    ? registry.prompts.get(ref.name)
    : registry.templates.get(ref.uri)?.definition;
  if (!definition) throw new McpError(ErrorCode.InvalidParams, "Unknown completion reference");
  if ((await visibleItems(server, [definition], info)).length === 0) {
    throw new McpError(ErrorCode.InvalidParams, "Unknown completion reference");
  }
  const completer = definition.complete[argument.name];
  const values = completer ? await completer(argument.value, params.context?.arguments ?? {}) : [];
  return { completion: { values: values.slice(0, 100), total: values.length, hasMore: values.length > 100 } };
}
