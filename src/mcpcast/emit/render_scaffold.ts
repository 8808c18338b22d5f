/**
 * Scaffold files of a generated project, written only when absent and then the user's: the container
 * image (`Dockerfile`), the settings template (`.env.example`) and `.gitignore`.
 *
 * @module
 */

import type { McpcastPlan } from "../plan/mod.ts";
import { credentialVariables, RUNTIME_VARIABLES } from "../runtime/internal.ts";

/** Scaffold paths: written once, never overwritten. */
export const SCAFFOLD_FILES: readonly string[] = ["Dockerfile", ".env.example", ".gitignore"];

/** Deno image the Dockerfile starts from: the version generating the project. */
const DENO_IMAGE = `denoland/deno:${Deno.version.deno}`;

const ONCE = "# Written once by mcpcast; yours to edit (mcpcast never overwrites it).";

/** The Dockerfile: non-root, no environment baked in; HTTP on 8080 for the HTTP modes, stdio otherwise. */
export function renderDockerfile(plan: McpcastPlan): string {
  const http = plan.api.auth === "passthrough" || plan.api.auth === "api-key";
  const run = ["deno", "run", "--allow-net", "--allow-read=.", "--allow-env", "main.ts"];
  const cmd = http ? [...run, "--transport", "http", "--host", "0.0.0.0", "--port", "8080"] : run;
  return [
    ONCE,
    `FROM ${DENO_IMAGE}`,
    "WORKDIR /app",
    "COPY --chown=deno:deno . .",
    "USER deno",
    "RUN deno cache main.ts",
    ...(http
      ? ["# Behind a proxy, add --allowed-host <the name clients use> to the command.", "EXPOSE 8080"]
      : [
        "# stdio by default: the client starts the container (docker run -i --rm ...). To serve HTTP behind a",
        "# gateway that authenticates callers, add: --transport http --host 0.0.0.0 --port 8080 --public",
      ]),
    `CMD [${cmd.map((arg) => JSON.stringify(arg)).join(", ")}]`,
    "",
  ].join("\n");
}

/** `.env.example`: the variables of this auth mode, tunables commented out at their defaults. */
export function renderEnvExample(plan: McpcastPlan): string {
  const { auth } = plan.api;
  const lines = [
    ONCE,
    "# Copy to .env (never commit .env). Variables already set in the environment win.",
    "",
  ];
  if (auth === "env-token") {
    for (const variable of credentialVariables(plan.api)) {
      const schemes = variable.schemes.length > 0 ? ` (security scheme ${variable.schemes.join(", ")})` : "";
      lines.push(`# Upstream credential${schemes}: ${variable.hint.replaceAll("`", "'")}.`);
      lines.push(`${variable.name}=${variable.example}`, "");
    }
  } else if (auth === "api-key") {
    lines.push(
      "# Client keys (x-api-key) → client, tenant and roles; then each tenant's upstream credential.",
      `MCPCAST_CLIENT_KEYS='{"<client key>": {"client_id": "<client>", "tenant_id": "<tenant>", "roles": ["approver"]}}'`,
      `MCPCAST_UPSTREAM_TOKENS='{"<tenant>": "<upstream credential>"}'`,
      "",
    );
  } else if (auth === "passthrough") {
    lines.push(
      "# Callers send their own 'Authorization: Bearer <token>'; no upstream credential is stored.",
      "",
    );
  }
  for (const variable of RUNTIME_VARIABLES) {
    if (variable.default === "(none)") continue;
    if (variable.modes !== undefined && !variable.modes.includes(auth)) continue;
    const value = /^\d+$/.test(variable.default)
      ? variable.default
      : variable.name === "MCPCAST_BASE_URL"
      ? plan.api.base_url
      : "1";
    lines.push(`# ${variable.meaning}`, `# ${variable.name}=${value}`);
  }
  return `${lines.join("\n")}\n`;
}

/** `.gitignore`. */
export function renderGitignore(): string {
  return [ONCE, ".env", "node_modules/", "dist/", ""].join("\n");
}
