/**
 * The "Connect an AI" and "Authentication" sections of a generated README, per auth mode.
 *
 * @module
 */

import type { McpcastPlan } from "../plan/mod.ts";
import { markdownCode } from "./code_text.ts";

const RUN_ARGS = [
  "run",
  "--allow-net",
  "--allow-read=/path/to/project",
  "--allow-env",
  "/path/to/project/main.ts",
];

function stdioSnippets(plan: McpcastPlan): string[] {
  const name = plan.api.name;
  const env: Record<string, string> = plan.api.auth === "env-token"
    ? { MCPCAST_UPSTREAM_TOKEN: "<your upstream credential>" }
    : {};
  const config = { mcpServers: { [name]: { command: "deno", args: RUN_ARGS, env } } };
  const envFlag = plan.api.auth === "env-token"
    ? ' --env MCPCAST_UPSTREAM_TOKEN="<your upstream credential>"'
    : "";
  return [
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
    ...(plan.api.auth === "env-token"
      ? ["    env:", '      MCPCAST_UPSTREAM_TOKEN: "${MCPCAST_UPSTREAM_TOKEN}"']
      : []),
    "```",
  ];
}

function httpSnippets(plan: McpcastPlan): string[] {
  const name = plan.api.name;
  const apiKey = plan.api.auth === "api-key";
  const header = apiKey ? "x-api-key: <your client key>" : "Authorization: Bearer <your upstream token>";
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

/** The "Connect an AI" section. */
export function connectSection(plan: McpcastPlan): string[] {
  const stdio = plan.api.auth === "env-token" || plan.api.auth === "none";
  return ["## Connect an AI", "", ...(stdio ? stdioSnippets(plan) : httpSnippets(plan)), ""];
}

/** The "Authentication" section. */
export function authSection(plan: McpcastPlan): string[] {
  const { api } = plan;
  const slot = api.credential_location === "header"
    ? `the ${markdownCode(api.credential_name)} header`
    : `the ${markdownCode(api.credential_name)} query parameter`;
  const lines = ["## Authentication", ""];
  if (api.auth === "passthrough") {
    lines.push(
      "Mode `passthrough`: each call forwards the caller's `Authorization: Bearer …` header to the upstream",
      "API. **This server authenticates nobody itself**: whoever reaches it uses the upstream with their own",
      "token, so serve it behind a gateway that authenticates callers. Over stdio there are no headers: for a",
      "local server regenerate with `--auth env-token`.",
    );
  } else if (api.auth === "env-token") {
    lines.push(
      `Mode \`env-token\`: every call sends \`MCPCAST_UPSTREAM_TOKEN\` (read on each call) in ${slot}. The`,
      "server lends that one credential to whoever reaches it, so it refuses to listen on an address that is",
      "not loopback unless given `--public` (`MCPCAST_PUBLIC=1`), for use behind an authenticating gateway.",
    );
  } else if (api.auth === "api-key") {
    lines.push(
      "Mode `api-key`: clients send a key in the `x-api-key` header. `MCPCAST_CLIENT_KEYS` maps each key to",
      "a client and its tenant, and `MCPCAST_UPSTREAM_TOKENS` maps each tenant to its own upstream credential,",
      `sent in ${slot}:`,
      "",
      "```sh",
      `MCPCAST_CLIENT_KEYS='{"sk-acme": {"client_id": "alice", "tenant_id": "acme"}, ` +
        `"sk-reviewer": {"client_id": "bob", "tenant_id": "acme", "roles": ["approver"]}}'`,
      `MCPCAST_UPSTREAM_TOKENS='{"acme": "<acme's upstream credential>"}'`,
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
