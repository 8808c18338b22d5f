/**
 * Test helpers for the emit stage: a small plan whose text fields carry hostile content, and temp dirs.
 *
 * @module
 */

import { parsePlan } from "../plan/schema.ts";
import type { McpcastPlan } from "../plan/types.ts";

/** Text that would break generated code, comments or Markdown if spliced in unescaped. */
export const HOSTILE: string =
  "Ends */ here; `${evil()}` \"q\" 'q' </script> | # [x](y)\n// second\u2028line";

/** A plan with two groups (pets, orders), a gated tool, a hidden param and hostile text everywhere. */
export function emitPlan(api: Record<string, unknown> = {}): McpcastPlan {
  return parsePlan({
    version: 1,
    profile: "standard",
    api: { name: "pets", base_url: "https://api.example.com/v1", description: HOSTILE, ...api },
    tools: [
      {
        name: "get_pet",
        description: `Fetch a pet. ${HOSTILE}`,
        risk: "read",
        tags: ["pets"],
        routes: [{
          operation_id: "getPet",
          method: "GET",
          path: "/pets/{petId}",
          params: { petId: { location: "path", required: true }, v: { location: "query" } },
        }],
        params: { petId: { required: true, description: HOSTILE }, v: { hidden: true, default: HOSTILE } },
        example: { petId: "7" },
      },
      {
        name: "list_orders",
        description: "List orders.",
        risk: "read",
        routes: [{ operation_id: "listOrders", method: "GET", path: "/orders" }],
      },
      {
        name: "create_order",
        description: "Create an order.",
        risk: "write",
        requires_approval: true,
        routes: [{
          operation_id: "createOrder",
          method: "POST",
          path: "/orders",
          params: { item: { location: "body", required: true } },
        }],
        params: { item: { required: true } },
        example: { item: "bone" },
      },
    ],
    dropped: [{ operation_id: "legacy", reason: HOSTILE }],
  });
}

/** A temporary directory removed on dispose. */
export async function tempDir(): Promise<AsyncDisposable & { path: string }> {
  const path = await Deno.makeTempDir({ prefix: "mcpcast-emit-" });
  return { path, [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }) };
}
