/**
 * The "Connect an AI" and "Authentication" sections of a generated README, per auth mode.
 *
 * @module
 */

import type { McpcastPlan } from "../plan/mod.ts";
import { type CredentialVariable, credentialVariables } from "../runtime/internal.ts";
import { markdownCode } from "./code_text.ts";

const RUN_ARGS = [
  "run",
  "--allow-net",
  "--allow-read=/path/to/project",
  "--allow-env",
  "/path/to/project/main.ts",
];

/** The env-token variables of `plan`, with their placeholders (none in other modes). */
function envVariables(plan: McpcastPlan): CredentialVariable[] {
  return plan.api.auth === "env-token" ? credentialVariables(plan.api) : [];
}

/** One bullet per variable: its name, the schemes it serves, and exactly what to put in it. */
function variableBullets(variables: readonly CredentialVariable[]): string[] {
  return variables.map((variable) => {
    const schemes = variable.schemes.length === 0
      ? ""
      : ` (security scheme${variable.schemes.length > 1 ? "s" : ""} ${
        variable.schemes.map((id) => markdownCode(id)).join(", ")
      })`;
    return `- ${markdownCode(variable.name)}${schemes}: ${variable.hint}.`;
  });
}

function stdioSnippets(plan: McpcastPlan): string[] {
  const name = plan.api.name;
  const variables = envVariables(plan);
  const env: Record<string, string> = Object.fromEntries(variables.map((v) => [v.name, v.example]));
  const config = { mcpServers: { [name]: { command: "deno", args: RUN_ARGS, env } } };
  const envFlag = variables.map((v) => ` --env ${v.name}="${v.example}"`).join("");
  const intro = variables.length === 0 ? [] : [
    "Put in the environment (replace each placeholder, `<` and `>` included):",
    "",
    ...variableBullets(variables),
    "",
  ];
  return [
    ...intro,
    "The server speaks stdio by default: the AI client starts it. Replace `/path/to/project` with this",
    "directory. Claude Desktop (`claude_desktop_config.json`) or Cursor (`.cursor/mcp.json`):",
    "",
    "```json",
    JSON.stringify(config, null, 2),
    "```",
    "",
    "Claude Code:",
    "",
    "```sh",
    `claude mcp add ${name}${envFlag} -- deno ${RUN_ARGS.join(" ")}`,
    "```",
    "",
    "An Agentry manifest:",
    "",
    "```yaml",
    "servers:",
    `  ${name}:`,
    "    command: deno",
    `    args: [${RUN_ARGS.map((arg) => JSON.stringify(arg)).join(", ")}]`,
    ...(variables.length > 0
      ? ["    env:", ...variables.map((v) => `      ${v.name}: "\${${v.name}}"`)]
      : []),
    "```",
  ];
}

/** Both protocol revisions are served, on stdio and HTTP alike (the framework's runtime). */
const REVISIONS = [
  "The server speaks both MCP protocol revisions, on stdio and HTTP: 2025-era clients (an `initialize`",
  "session) and 2026-07-28 clients (stateless requests; a tool's approval question to the client's user",
  "rides on an `input_required` round).",
];

function httpSnippets(plan: McpcastPlan): string[] {
  const name = plan.api.name;
  const apiKey = plan.api.auth === "api-key";
  const header = apiKey ? "x-api-key: <your client key>" : passthroughHeaders(plan)[0];
  return [
    "Start the server with `deno task start:http` (streamable HTTP at `http://127.0.0.1:8080/mcp`); every",
    `request must carry the header ${markdownCode(header)}. Claude Code:`,
    "",
    "```sh",
    `claude mcp add --transport http ${name} http://127.0.0.1:8080/mcp --header "${header}"`,
    "```",
    "",
    "An Agentry manifest:",
    "",
    "```yaml",
    "servers:",
    `  ${name}:`,
    "    url: http://127.0.0.1:8080/mcp",
    apiKey ? '    api_key: "${CLIENT_KEY}"' : '    bearer_token: "${UPSTREAM_TOKEN}"',
    "```",
    "",
    "Claude Desktop cannot send headers to a remote server: use a client that can, or a gateway.",
  ];
}

/** The headers a passthrough caller sends, the plan's own slot first (`Authorization: Bearer <token>`). */
function passthroughHeaders(plan: McpcastPlan): string[] {
  const headers = credentialVariables(plan.api).map((variable) => {
    const scheme = variable.schemes.length > 0 ? plan.api.security_schemes?.[variable.schemes[0]] : undefined;
    if (scheme?.type === "api_key") return `${scheme.name}: <api key>`;
    if (scheme?.type === "basic") return "Authorization: Basic <base64 of user:password>";
    if (scheme?.type === "http") return `Authorization: ${scheme.http_scheme} <credential>`;
    return "Authorization: Bearer <your upstream token>";
  });
  return headers.length > 0 ? headers : ["Authorization: Bearer <your upstream token>"];
}

/** The "Connect an AI" section. */
export function connectSection(plan: McpcastPlan): string[] {
  const stdio = plan.api.auth === "env-token" || plan.api.auth === "none";
  return [
    "## Connect an AI",
    "",
    ...(stdio ? stdioSnippets(plan) : httpSnippets(plan)),
    "",
    ...REVISIONS,
    "",
  ];
}

/** A tenant's entry in `MCPCAST_UPSTREAM_TOKENS`: a string, or an object by scheme id. */
function tenantExample(variables: readonly CredentialVariable[]): string {
  if (variables.length <= 1) return JSON.stringify(variables[0]?.example ?? "<upstream credential>");
  const entries = variables.flatMap((variable) => variable.schemes.map((id) => [id, variable.example]));
  return JSON.stringify(Object.fromEntries(entries));
}

/** The "Authentication" section. */
export function authSection(plan: McpcastPlan): string[] {
  const { api } = plan;
  const slot = api.credential_location === "header"
    ? `the ${markdownCode(api.credential_name)} header`
    : `the ${markdownCode(api.credential_name)} query parameter`;
  const lines = ["## Authentication", ""];
  const variables = credentialVariables(api);
  const several = variables.length > 1;
  if (api.auth === "passthrough") {
    lines.push(
      "Mode `passthrough`: each call forwards the caller's credential header to the upstream API, when its",
      "scheme is the one the operation takes. **This server authenticates nobody itself**: whoever reaches it",
      "uses the upstream with their own token, so serve it behind a gateway that authenticates callers. Over",
      "stdio there are no headers: for a local server regenerate with `--auth env-token`. Callers send:",
      "",
      ...passthroughHeaders(plan).map((header) => `- ${markdownCode(header)}`),
    );
  } else if (api.auth === "env-token") {
    lines.push(
      `Mode \`env-token\`: calls send the credential of the operation's security scheme (variables read on each`,
      `call; the plan's own slot is ${slot}):`,
      "",
      ...variableBullets(variables),
      "",
      ...(several
        ? ["An operation that accepts several schemes uses the first one whose variable is set.", ""]
        : []),
      "The server lends these credentials to whoever reaches it, so it refuses to listen on an address that is",
      "not loopback unless given `--public` (`MCPCAST_PUBLIC=1`), for use behind an authenticating gateway.",
    );
  } else if (api.auth === "api-key") {
    lines.push(
      "Mode `api-key`: clients send a key in the `x-api-key` header. `MCPCAST_CLIENT_KEYS` maps each key to",
      "a client and its tenant, and `MCPCAST_UPSTREAM_TOKENS` maps each tenant to its own upstream credential,",
      several
        ? "an object by security scheme id:"
        : `sent in ${slot}: ${variables[0]?.hint ?? "the credential"}.`,
      "",
      ...(several
        ? [...variables.flatMap((v) => v.schemes.map((id) => `- ${markdownCode(id)}: ${v.hint}.`)), ""]
        : []),
      "```sh",
      `MCPCAST_CLIENT_KEYS='{"sk-acme": {"client_id": "alice", "tenant_id": "acme"}, ` +
        `"sk-reviewer": {"client_id": "bob", "tenant_id": "acme", "roles": ["approver"]}}'`,
      `MCPCAST_UPSTREAM_TOKENS='{"acme": ${tenantExample(variables)}}'`,
      "```",
      "",
      "The example keys `sk-acme` and `sk-reviewer` are refused at start-up: choose real, secret ones.",
    );
  } else {
    lines.push(
      "Mode `none`: no credential is sent upstream and nobody is authenticated. For local development only:",
      "the server refuses to listen on an address that is not loopback unless given `--public`.",
    );
  }
  const hosts = [
    api.base_url,
    ...plan.tools.flatMap((tool) => tool.routes.map((route) => route.base_url ?? "")),
  ];
  if (api.auth !== "none" && hosts.some((host) => host.startsWith("http:"))) {
    lines.push(
      "",
      "> **Plain http:** the upstream is reached over `http://`. The server refuses to send a credential over",
      "> plain http to a host that is not loopback; set `MCPCAST_BASE_URL` to an https URL, or",
      "> `MCPCAST_ALLOW_INSECURE_HTTP=1` on a network you trust.",
    );
  }
  return [...lines, ""];
}
