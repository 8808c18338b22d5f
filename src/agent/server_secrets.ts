/**
 * Secrets in MCP server credentials: `headers`, `bearer_token` and `api_key` of an HTTP server may hold
 * `${secret:NAME}`, replaced at start by the value of the process's secret `NAME` (the environment's
 * `${VAR}` references are resolved before, under the deploy policy). The config never holds the value, and a
 * rotated secret is used from the next start.
 *
 * @module
 */

import type { ConfigIssue, ProcessConfig, ServerConfig } from "../runtime/mod.ts";

const SECRET_REFERENCE = /\$\{secret:([A-Za-z_][A-Za-z0-9_]{0,63})\}/g;

/** The credential fields of an HTTP server entry, by JSON path below the server. */
function credentials(server: ServerConfig): Array<[string, string]> {
  if (server.url === undefined) return [];
  const fields: Array<[string, string]> = [];
  for (const [name, value] of Object.entries(server.headers ?? {})) fields.push([`headers.${name}`, value]);
  if (server.bearer_token !== undefined) fields.push(["bearer_token", server.bearer_token]);
  if (server.api_key !== undefined) fields.push(["api_key", server.api_key]);
  return fields;
}

/** Issues for `${secret:NAME}` references to secrets the config does not declare (or with secrets off). */
export function secretReferenceIssues(config: ProcessConfig): ConfigIssue[] {
  const declared = config.secrets.enabled ? new Set(Object.keys(config.secrets.secrets)) : new Set<string>();
  const issues: ConfigIssue[] = [];
  for (const [serverName, server] of Object.entries(config.servers)) {
    for (const [field, value] of credentials(server)) {
      for (const [, name] of value.matchAll(SECRET_REFERENCE)) {
        if (declared.has(name)) continue;
        issues.push({
          field: `servers.${serverName}.${field}`,
          expected: `\${secret:${name}} to name a secret declared in secrets.secrets (with secrets.enabled)`,
        });
      }
    }
  }
  return issues;
}

/**
 * `servers` with every `${secret:NAME}` replaced by the secret's current value. Throws (naming the server and
 * the secret, never a value) when a secret has no active value.
 */
export function withServerSecrets(
  servers: Record<string, ServerConfig>,
  secret: (name: string) => string | undefined,
): Record<string, ServerConfig> {
  const out: Record<string, ServerConfig> = {};
  for (const [serverName, server] of Object.entries(servers)) {
    if (server.url === undefined) {
      out[serverName] = server;
      continue;
    }
    const replace = (text: string) =>
      text.replace(SECRET_REFERENCE, (_, name: string) => {
        const value = secret(name);
        if (value === undefined) {
          throw new Error(`server ${serverName} uses the secret ${name}, which has no active value`);
        }
        return value;
      });
    out[serverName] = {
      ...server,
      headers: server.headers &&
        Object.fromEntries(Object.entries(server.headers).map(([name, value]) => [name, replace(value)])),
      bearer_token: server.bearer_token === undefined ? undefined : replace(server.bearer_token),
      api_key: server.api_key === undefined ? undefined : replace(server.api_key),
    };
  }
  return out;
}
