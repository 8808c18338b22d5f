/**
 * Prompt assembly (spec 000, rule 9 of "Messages and inbox"). The messages of one run, in this order:
 *
 * 1. system: the instructions (when not empty);
 * 2. system: `[Context State]` and the state as JSON (when the state is not empty);
 * 3. system: `[Relevant Memories]`, one line per memory found for this trigger (when long-term memory is on
 *    and something scored at least `memory_min_score`; at most `memory_max`);
 * 4. system: `[Budget Remaining]` and, as JSON, what is left of each limit (limit − used; null: unlimited;
 *    when a budget is on and `budget.inject_remaining`);
 * 5. system: `[Mission]` with the objective and success criteria (when a mission is on);
 * 6. system: the operator messages block (the inbox fills it; absent when it is empty);
 * 7. the conversation history (user and assistant messages of earlier runs, at most
 *    `context.conversation_max_messages`; none when `context.conversation_history` is false);
 * 8. user: the trigger message (see `trigger_message.ts`).
 *
 * @module
 */

import type { ChatMessage } from "../models/mod.ts";
import type { BudgetRemaining, ConversationMessage, ProcessConfig } from "../runtime/mod.ts";

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
  if (config.mission.enabled) {
    const lines = [`[Mission] Objective: ${config.mission.objective}`];
    if (config.mission.success_criteria) lines.push(`Success criteria: ${config.mission.success_criteria}`);
    system(lines.join("\n"));
  }
  if (parts.operatorMessages) system(parts.operatorMessages);
  if (config.context.conversation_history) {
    const max = config.context.conversation_max_messages;
    const history = max > 0 ? parts.conversation.slice(-max) : parts.conversation;
    for (const message of history) messages.push({ role: message.role, content: message.content });
  }
  messages.push({ role: "user", content: parts.trigger });
  return messages;
}
