/**
 * The tool server of docs/mcp.md: API-key auth, a role guard, an audit chain, a circuit breaker,
 * a rate limit and a timeout around one tool.
 *
 * Serve it: `AGENTRY_AUDIT_SECRET=change-me deno run --allow-net --allow-read=. --allow-write=. --allow-env
 * main.ts serve examples/weather_server.ts --transport http`.
 *
 * @module
 */

import { z } from "zod";
import {
  ApiKeyAuth,
  auditMiddleware,
  authMiddleware,
  circuitBreaker,
  createToolServer,
  rateLimitMiddleware,
  timeoutMiddleware,
  type ToolServer,
} from "@agentry/agentry/mcp";

/** Builds the weather server; the audit key comes from `auditSecret`, else AGENTRY_AUDIT_SECRET. */
export default function buildServer(options: { auditLog?: string; auditSecret?: string } = {}): ToolServer {
  const server = createToolServer({ name: "weather", instructions: "Forecasts for European cities." });
  const audit = auditMiddleware({
    logPath: options.auditLog ?? "audit.jsonl",
    hmacSecret: options.auditSecret,
  });
  server.onShutdown(() => audit.close());
  server.use(
    audit,
    circuitBreaker(),
    authMiddleware(new ApiKeyAuth({ keys: { "dev-key": { client_id: "alice", roles: ["forecaster"] } } })),
    rateLimitMiddleware({ ratePerMinute: 120 }),
    timeoutMiddleware({ defaultTimeout: 10 }),
  );
  server.tool("forecast", {
    description: "Tomorrow's forecast for a city",
    input: z.object({ city: z.string().describe("City name, e.g. Lisbon") }),
    roles: ["forecaster"], // implies auth: true
    readOnlyHint: true,
    rateLimit: "30/min",
  }, async ({ city }, ctx) => {
    await ctx.session.progress(1, 2, "asking the upstream service");
    return { city, sky: "sunny" }; // JSON values become JSON text
  });
  return server;
}
