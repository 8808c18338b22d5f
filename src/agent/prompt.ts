/**
 * Prompt assembly (spec 000, rule 9 of "Messages and inbox"). The messages of one run, in this order:
 *
 * 1. system: the instructions (when not empty);
 * 2. system: `[Context State]` and the state as JSON (when the state is not empty);
 * 3. system: `[Relevant Memories]`, one line per memory found for this trigger (when long-term memory is on
 *    and something scored at least `memory_min_score`; at most `memory_max`);
 * 4. system: `[Budget Remaining]` and, as JSON, what is left of each limit (limit − used; null: unlimited;
 *    when a budget is on and `budget.inject_remaining`);
 * 5. system: `[Mission]` with the state, objective, success criteria, then the evaluation count, the last
 *    confidence and the last progress summary (when a mission is on);
 * 6. system: the operator messages block (the inbox fills it; absent when it is empty);
 * 7. the conversation history (user and assistant messages of earlier runs, at most
 *    `context.conversation_max_messages`; none when `context.conversation_history` is false);
 * 8. user: the trigger message (see `trigger_message.ts`).
 *
 * @module
 */

import type { ChatMessage } from "../models/mod.ts";
import type { BudgetRemaining, ConversationMessage, MissionView, ProcessConfig } from "../runtime/mod.ts";

/** A memory found for the run. */
export interface PromptMemory {
  /** Memory id (the agent forgets by id). */
  id: string;
  /** The remembered text. */
  text: string;
  /** Relevance from 0 to 1. */
  score: number;
}

/** What one run's prompt is made of. */
export interface PromptParts {
  /** The resolved config of the run (instructions, budget, mission, context settings). */
  config: ProcessConfig;
  /** Context state. */
  state: Record<string, unknown>;
  /** Memories relevant to the trigger. */
  memories?: readonly PromptMemory[];
  /** What is left of the budget (shown when given: the runner gives it with `budget.inject_remaining`). */
  budgetRemaining?: BudgetRemaining;
  /** Mission (issue 13): the mission's state and evaluations (the block is shown when given). */
  mission?: MissionView;
  /** The operator messages block, already formatted (the inbox's slot). */
  operatorMessages?: string;
  /** Earlier exchanges. */
  conversation: readonly ConversationMessage[];
  /** The trigger message. */
  trigger: string;
}

/** The messages of one run, in the order above. */
export function buildPrompt(parts: PromptParts): ChatMessage[] {
  const { config } = parts;
  const messages: ChatMessage[] = [];
  const system = (content: string) => messages.push({ role: "system", content });
  if (config.instructions.trim() !== "") system(config.instructions);
  if (Object.keys(parts.state).length > 0) system(`[Context State] ${JSON.stringify(parts.state)}`);
  if (parts.memories && parts.memories.length > 0) {
    const lines = parts.memories.map((m) => `- (${m.id}, relevance ${m.score.toFixed(2)}) ${m.text}`);
    system(`[Relevant Memories]\n${lines.join("\n")}`);
  }
  if (parts.budgetRemaining) system(`[Budget Remaining] ${JSON.stringify(parts.budgetRemaining)}`);
  if (parts.mission) system(missionBlock(parts.mission));
  if (parts.operatorMessages) system(parts.operatorMessages);
  if (config.context.conversation_history) {
    const max = config.context.conversation_max_messages;
    const history = max > 0 ? parts.conversation.slice(-max) : parts.conversation;
    for (const message of history) messages.push({ role: message.role, content: message.content });
  }
  messages.push({ role: "user", content: parts.trigger });
  return messages;
}

/** Mission (issue 13): the `[Mission]` block. */
function missionBlock(mission: MissionView): string {
  const last = mission.evaluations.at(-1);
  const lines = [`[Mission] State: ${mission.state} | Objective: ${mission.objective}`];
  if (mission.success_criteria) lines.push(`Success criteria: ${mission.success_criteria}`);
  const confidence = last ? String(last.confidence) : "none";
  const summary = last ? last.progress_summary : "none";
  lines.push(
    `Evaluations: ${mission.evaluations.length} | Last confidence: ${confidence} | Last summary: ${summary}`,
  );
  return lines.join("\n");
}
