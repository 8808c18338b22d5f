/**
 * The model's proposal, read strictly: unknown keys and wrong types are refused, each with the field
 * it concerns, so the model can be told exactly what to fix.
 *
 * @module
 */

import { z } from "zod";
import { zodIssues } from "../plan/internal.ts";

const ParamAdjustment = z.strictObject({
  description: z.string().optional(),
  hidden: z.boolean().optional(),
  default: z.unknown().optional(),
});

const ProposedTool = z.strictObject({
  name: z.string(),
  description: z.string(),
  risk: z.enum(["read", "write", "destructive", "financial"]),
  operations: z.array(z.string()).min(1, "a tool needs at least one operation"),
  params: z.record(z.string(), ParamAdjustment).optional(),
  example: z.record(z.string(), z.unknown()).nullable().optional(),
  tags: z.array(z.string()).optional(),
});

const ProposedDrop = z.strictObject({
  operation_id: z.string(),
  reason: z.string(),
});

const ProposalSchema = z.strictObject({
  tools: z.array(ProposedTool),
  dropped: z.array(ProposedDrop).optional(),
});

/** A parameter change the model asks for. */
export type ParamAdjustment = z.infer<typeof ParamAdjustment>;
/** One tool the model proposes. */
export type ProposedTool = z.infer<typeof ProposedTool>;
/** The model's whole proposal. */
export type Proposal = z.infer<typeof ProposalSchema>;

/** `value` as a proposal, or one violation per field that does not fit the shape. */
export function readProposal(value: unknown): { proposal: Proposal } | { violations: string[] } {
  const parsed = ProposalSchema.safeParse(value);
  if (parsed.success) return { proposal: parsed.data };
  return { violations: zodIssues(parsed.error).map((line) => `the reply does not fit the shape: ${line}`) };
}
