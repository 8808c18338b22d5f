/**
 * The records the mcpcast stages pass to each other: what parsing extracts from a spec (operations,
 * parameters, security), and the risk classes classification assigns.
 *
 * @module
 */

/** Reads an environment variable by name. */
export type EnvLookup = (name: string) => string | undefined;

/** A JSON Schema object (as found in the spec, `$ref`s resolved). */
export type JsonSchema = Record<string, unknown>;

/** HTTP methods, upper case. */
export type HttpMethod = "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS" | "TRACE";

/** Where a parameter travels. `body` is one property of a JSON or form body; `raw_body` is the whole body. */
export type ParamLocation = "path" | "query" | "header" | "cookie" | "body" | "raw_body";

/** One parameter of an operation. */
export interface ParamSpec {
  /** Name exposed to the agent (a colliding body property becomes `body_<name>`). */
  name: string;
  /** Name on the wire (in the path template, query string, header or body). */
  wireName: string;
  /** Where it travels. */
  location: ParamLocation;
  /** Whether the operation requires it (path parameters always do). */
  required: boolean;
  /** Its schema. */
  schema: JsonSchema;
  /** Its description, when the spec gives one. */
  description?: string;
  // -- slice C (serialization): how the value is written on the wire; absent = the location's default.
  /** Serialization style (Swagger 2 `collectionFormat` mapped: csv, ssv, tsv, pipes, multi). */
  style?: ParamStyle;
  /** Whether arrays and objects are exploded. */
  explode?: boolean;
  /** Query: reserved characters are sent unencoded. */
  allowReserved?: boolean;
  /** Body property of a form or multipart body: its `encoding.contentType`. */
  contentType?: string;
}

/** Every serialization style (OpenAPI 3 names; `tabDelimited` stands for Swagger 2 `collectionFormat: tsv`). */
export const PARAM_STYLES = [
  "matrix",
  "label",
  "simple",
  "form",
  "spaceDelimited",
  "pipeDelimited",
  "tabDelimited",
  "deepObject",
] as const;

/** A serialization style (see {@linkcode PARAM_STYLES}). */
export type ParamStyle = typeof PARAM_STYLES[number];

/** How body parameters are encoded: JSON, `application/x-www-form-urlencoded` or `multipart/form-data`. */
export type BodyEncoding = "json" | "form" | "multipart";

/** Kinds of security scheme, normalised. */
export type SecuritySchemeType = "apiKey" | "http" | "oauth2" | "openIdConnect" | "mutualTLS" | "basic";

/** A security scheme from `components.securitySchemes` or Swagger 2 `securityDefinitions`. */
export interface SecurityScheme {
  /** Its key in the spec. */
  id: string;
  /** Its type. */
  type: SecuritySchemeType;
  /** apiKey: where the key goes. */
  in?: "header" | "query" | "cookie";
  /** apiKey: the header, query or cookie name. */
  paramName?: string;
  /** http: the scheme (`bearer`, `basic`, ...), lower case. */
  scheme?: string;
}

/** Where the generated server presents its upstream credential. */
export interface CredentialSlot {
  /** Header or query parameter. */
  location: "header" | "query";
  /** Header or query parameter name. */
  name: string;
}

/** One HTTP operation of the spec. */
export interface Operation {
  /** `operationId`, or `<method>_<path>`, sanitised to `[A-Za-z0-9_]` and made unique. */
  operationId: string;
  /** HTTP method. */
  method: HttpMethod;
  /** Path template, e.g. `/pets/{petId}`. */
  path: string;
  /** Summary, stripped. */
  summary?: string;
  /** Description, stripped. */
  description?: string;
  /** Tags (scalar items only). */
  tags: string[];
  /** `deprecated: true`. */
  deprecated: boolean;
  /** Sorted union of required scopes (a scheme without scopes contributes its own id). */
  scopes: string[];
  /** The effective security scheme, if any. */
  securityScheme?: SecurityScheme;
  /** The credential slot that scheme needs, when the generated server can present it. */
  credentialSlot?: CredentialSlot;
  /**
   * The requirement list in force (the operation's `security`, else the document's), each requirement
   * its scheme ids (AND within one, OR between them); absent when neither declares one.
   */
  security?: string[][];
  /** Parameters, in path, query, body order after collision renames. */
  params: ParamSpec[];
  /** How body parameters are encoded. */
  bodyEncoding: BodyEncoding;
  /** Schema of the first success response, when resolvable. */
  successSchema?: JsonSchema;
  /** Why the operation cannot be mapped to a tool, when it cannot. */
  unsupportedBody?: string;
  /** Effective base URL (an operation- or path-level server, unless the caller forced one). */
  baseUrl: string;
  /** The document's base URL. */
  docBaseUrl: string;
}

/** What parsing learned about the API as a whole. */
export interface SpecInfo {
  /** `info.title`. */
  title?: string;
  /** `info.description`. */
  description?: string;
  /** `info.version`. */
  version?: string;
  /** Slug for the API name (`^[a-z0-9][a-z0-9_-]{0,62}$`), e.g. "petstore". */
  apiName: string;
  /** One-line summary for the plan, at most 300 characters. */
  summary: string;
  /** Base URL, or "" when none could be found. */
  baseUrl: string;
  /** Public form of where the spec came from; undefined for an object source, "<inline>" for text. */
  sourceLabel?: string;
}

/** A parsed spec. */
export interface ParsedSpec {
  /** API-level facts. */
  info: SpecInfo;
  /** Operations in document order. */
  operations: Operation[];
  /** Security schemes by id. */
  securitySchemes: Record<string, SecurityScheme>;
}

/** Risk classes, by severity: read 0, write 1, destructive 2, financial 2. */
export type RiskClass = "read" | "write" | "destructive" | "financial";

/** Severity of each risk class. */
export const RISK_SEVERITY: Readonly<Record<RiskClass, number>> = {
  read: 0,
  write: 1,
  destructive: 2,
  financial: 2,
};

/** Safety profiles. */
export type SafetyProfile = "read-only" | "standard" | "full";

/** Upstream auth modes of the generated server. */
export type AuthMode = "api-key" | "env-token" | "none" | "passthrough";

/** Approval modes of the generated server. */
export type ApprovalMode = "elicitation" | "pending";
