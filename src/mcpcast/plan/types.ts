/**
 * Types of the plan, `mcpcast.plan.yaml` (schema version 1): the editable source of truth from which
 * the MCP server project is generated. Field names are the file's own (snake_case); every type here
 * is the validated form, with defaults filled. The schemas that produce them are in `schema.ts`.
 *
 * @module
 */

import type {
  ApprovalMode,
  AuthMode,
  BodyEncoding,
  HttpMethod,
  JsonSchema,
  ParamStyle,
  RiskClass,
  SafetyProfile,
} from "../types.ts";

/** Where a tool parameter travels on one route. */
export type RouteParamLocation = "path" | "query" | "header" | "cookie" | "body" | "raw_body";

/** How one tool parameter is sent by one route. */
export interface RouteParam {
  /** Where it travels. */
  location: RouteParamLocation;
  /** Whether this route needs it (routes are selected by their required parameters). @default false */
  required: boolean;
  /** Name on the wire when it differs from the tool parameter name (`body_name` sent as `name`). */
  wire_name?: string;
  // -- slice C (serialization); absent = the OpenAPI default for the location.
  /** Serialization style (default: path and header `simple`; query, cookie and form body `form`). */
  style?: ParamStyle;
  /** Whether arrays and objects are exploded (default: true for `form`, else false). */
  explode?: boolean;
  /** Query and form body: RFC 3986 reserved characters are sent unencoded. */
  allow_reserved?: boolean;
  /** Form or multipart body property: its content type (multipart default: text/plain for scalars, application/json else). */
  content_type?: string;
}

/** One upstream HTTP operation a tool can call. */
export interface RoutePlan {
  /** The spec's operation id. */
  operation_id: string;
  /** HTTP method. */
  method: HttpMethod;
  /** Path template, starting with "/" (`/pets/{petId}`). */
  path: string;
  /** Tool parameter name to how this route sends it. @default {} */
  params: Record<string, RouteParam>;
  /** How body parameters are encoded. @default "json" */
  body_encoding: BodyEncoding;
  /** The operation's own server, when it differs from the API's base URL. */
  base_url?: string;
  /**
   * The operation's security requirements, each a list of `api.security_schemes` ids (all of one
   * requirement are sent; the first requirement whose credentials are configured is used); `[]` sends
   * no credential. Absent: the API's one credential, in `credential_location`/`credential_name`.
   */
  security?: string[][];
}

/** How one security scheme's credential is presented upstream. */
export interface SchemePlan {
  /**
   * `bearer` (http bearer, OAuth 2, OpenID Connect: `Authorization: Bearer <token>`), `basic`
   * (`Authorization: Basic <base64 user:password>`), `http` (another Authorization scheme, named by
   * `http_scheme`) or `api_key` (the value as is, in the header, query parameter or cookie `name`).
   */
  type: "bearer" | "basic" | "http" | "api_key";
  /** Where the credential travels. */
  in: "header" | "query" | "cookie";
  /** Header, query parameter or cookie name. */
  name: string;
  /** `http`: the Authorization scheme word (`token`, `digest`, ...). */
  http_scheme?: string;
}

/** The agent-facing shape of one tool parameter. */
export interface ParamPlan {
  /** What the agent reads about it. @default "" */
  description: string;
  /** Its JSON Schema. @default {type: "string"} */
  json_schema: JsonSchema;
  /** Whether the tool requires it. @default false */
  required: boolean;
  /** Value sent when the agent gives none (absent: no default). */
  default?: unknown;
  /** Hidden from the agent; `default` is sent on every call instead. @default false */
  hidden: boolean;
}

/** One generated MCP tool. */
export interface ToolPlan {
  /** Tool name (`^[a-z][a-z0-9_]{0,63}$`, not reserved). */
  name: string;
  /** What the agent reads (trimmed, never blank). */
  description: string;
  /** Its risk class, never below the floor of any of its routes. */
  risk: RiskClass;
  /** Routes in dispatch order: the first whose required parameters were all given is called. */
  routes: RoutePlan[];
  /** Parameters by tool-facing name. @default {} */
  params: Record<string, ParamPlan>;
  /** One worked example: visible parameter name to value. @default null */
  example: Record<string, unknown> | null;
  /** Whether every call waits for a human decision. @default false */
  requires_approval: boolean;
  /** Tags. @default [] */
  tags: string[];
}

/** An operation deliberately left out, with why. */
export interface DroppedOp {
  /** The spec's operation id. */
  operation_id: string;
  /** Why it is not a tool. */
  reason: string;
}

/** The upstream API and how the generated server talks to it. */
export interface ApiPlan {
  /** API name (`^[a-z0-9][a-z0-9_-]{0,62}$`). */
  name: string;
  /** Absolute http(s) base URL without userinfo, query, fragment or trailing "/". */
  base_url: string;
  /** How the generated server authenticates upstream. @default "passthrough" */
  auth: AuthMode;
  /** Who approves gated calls; null means the default for `auth` (see `effectiveApproval`). @default null */
  approval: ApprovalMode | null;
  /** One-line description of the API. @default "" */
  description: string;
  /** Where the spec came from (a URL in public form). @default null */
  spec_source: string | null;
  /** Where the upstream credential travels. @default "header" */
  credential_location: "header" | "query";
  /** Header or query parameter carrying the upstream credential. @default "Authorization" */
  credential_name: string;
  /** The security schemes routes name in `security`, by the spec's scheme id (absent: none). */
  security_schemes?: Record<string, SchemePlan>;
  /**
   * How the tools are served (see {@linkcode ToolMode}); absent means `direct`, and the validated
   * form leaves `direct` out.
   */
  tool_mode?: ToolMode;
}

/**
 * How a generated server presents its tools: `direct` lists every plan tool; `meta` lists three
 * tools (`search_tools`, `describe_tool`, `invoke_tool`) and reaches every plan tool through
 * `invoke_tool`, for tool lists too large for a model's context.
 */
export type ToolMode = "direct" | "meta";

/** A whole plan. */
export interface McpcastPlan {
  /** Schema version of the plan file. */
  version: 1;
  /** The upstream API. */
  api: ApiPlan;
  /** Which risk classes are generated, and which are gated. @default "read-only" */
  profile: SafetyProfile;
  /** The tools, in plan order. @default [] */
  tools: ToolPlan[];
  /** Operations left out, with reasons. @default [] */
  dropped: DroppedOp[];
}
