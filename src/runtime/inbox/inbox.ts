/**
 * {@linkcode Inbox}: the messages and questions operators leave for one process (spec 000, InboxConfig,
 * "Inbox message", "Messages and inbox" rules 1-10).
 *
 * - `send` queues a message; `ask` queues a question and waits for its answer (long poll). Both refuse a
 *   stopped or failed process (PROCESS_NOT_RUNNING), check the fields (INVALID_TYPE, INVALID_FIELD), the
 *   sender's rate over the last hour (RATE_LIMITED; refused messages do not count), the guardrail scan
 *   (MESSAGE_REJECTED, see `inbox_scanner.ts`) and room (rule 5 eviction, else INBOX_FULL), in that order.
 * - Content longer than `max_message_length` is truncated. A message lives its `ttl`, or `default_ttl`
 *   when the ttl is 0 or missing; `max_ttl` caps both (and caps "no expiry": a message lives forever only
 *   when the lifetime asked for is 0 and `max_ttl` is 0). A question lives its wait + 60 s, capped by `max_ttl`.
 * - Expired items are purged whenever the inbox is read; an `ask` whose question expires first ends with
 *   `timeout` then.
 * - `forRun` snapshots what a run sees (the operator block); its `settle` delivers the answers of the
 *   final reply and removes what the run saw (rule 10).
 *
 * @module
 */

import type { Logger } from "../../log.ts";
import { describeError } from "../../_util/errors.ts";
import { epochSeconds, randomHex } from "../../_util/ids.ts";
import type { TextScanner } from "../../guardrails/mod.ts";
import type { ProcessConfig } from "../config/mod.ts";
import { RuntimeError } from "../errors.ts";
import type { ProcessState } from "../lifecycle.ts";
import { type CheckedInput, checkMessage, checkQuestion } from "./_validate.ts";
import { Waiters } from "./_waiters.ts";
import { parseAnswers } from "./answers.ts";
import { type InboxScanMode, inboxScanMode, inboxScanner } from "./inbox_scanner.ts";
import type {
  AskAnswer,
  InboxItem,
  InboxStatus,
  MessageInput,
  Priority,
  QuestionInput,
  QueuedMessage,
} from "./inbox_types.ts";
import { lifetime, lowestOldest, questionLifetime, truncate } from "./_rules.ts";
import { operatorBlock, orderItems } from "./operator_block.ts";
import type { ProcessSpool, SpoolLog } from "../spool.ts";
import { openInboxLog, type StoredMessage } from "./inbox_log.ts";

/** Options for {@linkcode Inbox}. */
export interface InboxOptions {
  /** Process name (in errors and log lines). */
  process: string;
  /** The process config (as deployed): `inbox`, `guardrails` and `trigger_delivery.scan_payloads`. */
  config: () => ProcessConfig;
  /** The process state: stopped and failed processes take no messages. @default always running */
  state?: () => ProcessState;
  /** Where the one "not scanned" warning goes. */
  logger: Logger;
  /** Called after a message or question is queued (the process's `inbox.wake`). */
  onArrival?: (item: InboxItem) => void;
}

/** What a run saw: the operator block, and how to settle the inbox after the run. */
export interface InboxRun {
  /** The operator messages block ("" when nothing is pending). */
  readonly block: string;
  /** Ids of the questions numbered Q1, Q2, ... in the block. */
  readonly questionIds: readonly string[];
  /**
   * After a successful run: delivers each `ANSWER Q<n>:` of `reply` (passed through `redact`) to question n,
   * then removes the messages the run saw (directives, context, corrections) and every answered question.
   * Unanswered questions stay. Returns how many questions were answered.
   */
  settle(reply: string, options: { invocationId: string; redact?: (text: string) => string }): number;
}

type RemoveReason = "evicted" | "cleared" | "rejected" | "expired" | "done";

interface Held {
  item: InboxItem;
  expiresMs: number | null;
  waiters: Waiters;
  answer?: AskAnswer;
}

const HOUR_MS = 3_600_000;

/** The inbox of one process. */
export class Inbox {
  #options: InboxOptions;
  #items = new Map<string, Held>();
  #sent = new Map<string, number[]>();
  #mode: InboxScanMode;
  #scanner: TextScanner | undefined;
  #warned = false;
  #log: SpoolLog<StoredMessage> | undefined;
  #written: Promise<void> = Promise.resolve();

  /** An empty inbox; with `guardrails` configured its scanner is ready at once. */
  constructor(options: InboxOptions) {
    this.#options = options;
    const config = options.config();
    this.#mode = inboxScanMode(config);
    if (this.#mode === "guardrails") this.#scanner = inboxScanner(config, "guardrails");
  }

  /**
   * At deploy: opens the spool's inbox log and brings back the messages it kept (expired ones go at the
   * next read). From then on a message is written there before `send` resolves.
   */
  async openSpool(spool: ProcessSpool): Promise<void> {
    const log = await openInboxLog(spool);
    this.#log = log;
    for (const stored of log.values()) {
      const { item, expires_ms } = stored;
      this.#items.set(item.message_id, { item, expiresMs: expires_ms, waiters: new Waiters() });
    }
  }

  /** Resolves once every change made so far (messages removed, cleared) is written to the spool. */
  written(): Promise<void> {
    return this.#written;
  }

  /**
   * At process start: loads the payload scanner when it is the inbox's (rule 8), scans the messages already
   * held and removes flagged ones (a caller waiting on a removed question gets MESSAGE_REJECTED).
   */
  async start(): Promise<void> {
    if (this.#mode !== "payload" || this.#scanner) return;
    const scanner = inboxScanner(this.#options.config(), "payload");
    this.#scanner = scanner;
    for (const held of [...this.#items.values()]) {
      const result = await scanner!.scan(held.item.content);
      if (result.flagged && this.#items.get(held.item.message_id) === held) {
        this.#remove(held, "rejected", this.#rejected(result.categories));
      }
    }
  }

  /** Throws PROCESS_NOT_RUNNING when the process is stopped or failed (spec 000 rule 1). */
  assertOpen(): void {
    this.#refuseState();
  }

  /** Queues a message. Rejects with a {@linkcode RuntimeError} (see the module doc for the codes). */
  async send(input: MessageInput): Promise<QueuedMessage> {
    this.#refuseState();
    const checked = checkMessage(input as unknown as Record<string, unknown>);
    const held = await this.#accept(checked, lifetime(checked.ttl, this.#settings()));
    return { message_id: held.item.message_id, status: "queued", expires_at: held.item.expires_at };
  }

  /**
   * Queues a question and waits up to `timeout` seconds (default 120, at most 3600) for a run to answer it.
   * Answers `status: timeout` with null fields when no answer came in time. Rejects with QUESTION_REMOVED
   * when the question is evicted or cleared, MESSAGE_REJECTED when a scan loaded later flags it, and the
   * abort reason when `signal` aborts (the question stays).
   */
  async ask(input: QuestionInput, options: { signal?: AbortSignal } = {}): Promise<AskAnswer> {
    this.#refuseState();
    const checked = checkQuestion(input as unknown as Record<string, unknown>);
    const held = await this.#accept(checked, questionLifetime(checked.timeout, this.#settings()));
    const id = held.item.message_id;
    const waitMs = Math.min(
      checked.timeout * 1000,
      held.expiresMs === null ? Infinity : held.expiresMs - Date.now(),
    );
    const timeout = (): AskAnswer => ({
      question_id: id,
      status: "timeout",
      response: null,
      answered_at: null,
      invocation_id: null,
    });
    return await held.waiters.wait(waitMs, timeout, options.signal);
  }

  /**
   * Answers a question outside a run (library use). The question stays, marked answered, until the next
   * run ends or eviction replaces it first. False when no unanswered question has this id.
   */
  answer(questionId: string, response: string, options: { invocationId: string }): boolean {
    this.#purge();
    const held = this.#items.get(questionId);
    if (!held || held.item.message_type !== "question" || held.answer) return false;
    held.item.status = "answered";
    held.answer = {
      question_id: questionId,
      status: "answered",
      response,
      answered_at: epochSeconds(),
      invocation_id: options.invocationId,
    };
    held.waiters.answer(held.answer);
    return true;
  }

  /** Pending messages and questions (answered ones included), in block order; expired ones purged. */
  list(): InboxItem[] {
    this.#purge();
    return orderItems([...this.#items.values()].map((held) => structuredClone(held.item)));
  }

  /** Counts for the status body. */
  status(): InboxStatus {
    const items = this.list();
    const questions = items.filter((i) => i.message_type === "question" && i.status === "queued").length;
    return { enabled: true, pending: items.length, questions };
  }

  /** Removes every message; callers waiting on a question get QUESTION_REMOVED. Returns how many went. */
  clear(): number {
    const count = this.#items.size;
    for (const held of [...this.#items.values()]) this.#remove(held, "cleared");
    return count;
  }

  /** Snapshots what a run sees: the operator block of the queued items at this moment. */
  forRun(): InboxRun {
    const items = this.list().filter((item) => item.status === "queued");
    const block = operatorBlock(items, epochSeconds());
    const seen = items.map((item) => item.message_id);
    const questionIds = items.filter((item) => item.message_type === "question").map((i) => i.message_id);
    return {
      block,
      questionIds,
      settle: (reply, { invocationId, redact = (text) => text }) => {
        let answered = 0;
        for (const [number, text] of parseAnswers(reply)) {
          const id = questionIds[number - 1];
          if (id !== undefined && this.answer(id, redact(text), { invocationId })) answered++;
        }
        for (const id of seen) {
          const held = this.#items.get(id);
          if (held && held.item.message_type !== "question") this.#remove(held, "done");
        }
        for (const held of [...this.#items.values()]) if (held.answer) this.#remove(held, "done");
        return answered;
      },
    };
  }

  #settings() {
    return this.#options.config().inbox;
  }

  #refuseState(): void {
    const state = this.#options.state?.() ?? "running";
    if (state !== "stopped" && state !== "failed") return;
    const process = this.#options.process;
    throw new RuntimeError("PROCESS_NOT_RUNNING", `process ${process} is ${state}: no messages`, {
      details: { process, state },
    });
  }

  async #accept(checked: CheckedInput, lifetime: number | null): Promise<Held> {
    const settings = this.#settings();
    const content = truncate(checked.content, settings.max_message_length);
    this.#refuseRate(checked.senderId);
    await this.#scan(content);
    this.#refuseState();
    this.#purge();
    this.#refuseRate(checked.senderId);
    this.#makeRoom(checked.priority, settings.max_messages);
    const now = Date.now();
    const expiresMs = lifetime === null ? null : now + lifetime * 1000;
    const item: InboxItem = {
      message_id: `msg_${randomHex(12)}`,
      message_type: checked.messageType,
      priority: checked.priority,
      content,
      sender_id: checked.senderId,
      metadata: checked.metadata,
      created_at: epochSeconds(now),
      expires_at: expiresMs === null ? null : epochSeconds(expiresMs),
      status: "queued",
    };
    const held: Held = { item, expiresMs, waiters: new Waiters() };
    this.#items.set(item.message_id, held);
    if (item.message_type !== "question") await this.#keep(held);
    if (checked.senderId !== null) this.#sent.get(checked.senderId)!.push(now);
    this.#options.onArrival?.(structuredClone(item));
    return held;
  }

  /** Writes a message to the spool before it is acknowledged; a failed write takes it back and rethrows. */
  async #keep(held: Held): Promise<void> {
    if (!this.#log) return;
    const id = held.item.message_id;
    try {
      await this.#track(this.#log.put(id, { item: structuredClone(held.item), expires_ms: held.expiresMs }));
    } catch (error) {
      this.#items.delete(id); // not acknowledged: the caller gets an error (500), the inbox is as before
      throw error;
    }
  }

  #track(write: Promise<void>): Promise<void> {
    this.#written = this.#written.then(() => write).catch(() => {});
    return write;
  }

  /** Throws RATE_LIMITED when the sender queued `rate_limit_per_sender` messages in the last hour. */
  #refuseRate(senderId: string | null): void {
    if (senderId === null) return;
    const since = Date.now() - HOUR_MS;
    const times = (this.#sent.get(senderId) ?? []).filter((t) => t > since);
    this.#sent.set(senderId, times);
    if (times.length < this.#settings().rate_limit_per_sender) return;
    const process = this.#options.process;
    throw new RuntimeError("RATE_LIMITED", `inbox of ${process}: sender over its hourly rate`, {
      details: { process, senderId },
    });
  }

  async #scan(content: string): Promise<void> {
    if (this.#scanner) {
      const result = await this.#scanner.scan(content);
      if (result.flagged) throw this.#rejected(result.categories);
      return;
    }
    if (this.#mode !== "none" || this.#warned) return;
    this.#warned = true;
    this.#options.logger.warning(
      "inbox messages are accepted unscanned: no guardrails and trigger_delivery.scan_payloads is off",
      { process: this.#options.process },
    );
  }

  #rejected(categories: string[]): RuntimeError<"MESSAGE_REJECTED"> {
    const process = this.#options.process;
    return new RuntimeError(
      "MESSAGE_REJECTED",
      `inbox of ${process}: message flagged by the guardrail scan`,
      {
        details: { process, categories },
      },
    );
  }

  /** Rule 5: evicts until there is room for a message of `priority`, or throws INBOX_FULL. */
  #makeRoom(priority: Priority, max: number): void {
    while (this.#items.size >= max) {
      const held = [...this.#items.values()];
      const victim = held.find((h) => h.answer) ?? lowestOldest(held, (h) => h.item.priority, priority);
      if (!victim) {
        const process = this.#options.process;
        throw new RuntimeError("INBOX_FULL", `inbox of ${process} is full`, { details: { process } });
      }
      this.#remove(victim, "evicted");
    }
  }

  #purge(): void {
    const now = Date.now();
    for (const held of [...this.#items.values()]) {
      if (held.expiresMs !== null && held.expiresMs <= now) this.#remove(held, "expired");
    }
  }

  #remove(held: Held, reason: RemoveReason, error?: unknown): void {
    const id = held.item.message_id;
    if (!this.#items.delete(id)) return;
    if (this.#log?.has(id)) {
      this.#track(this.#log.delete(id)).catch((error) => {
        this.#options.logger.warning("inbox: a removal was not written to the spool", {
          process: this.#options.process,
          message_id: id,
          error: describeError(error),
        });
      });
    }
    if (held.waiters.size === 0) return;
    const process = this.#options.process;
    if (reason === "evicted" || reason === "cleared") {
      held.waiters.fail(
        new RuntimeError("QUESTION_REMOVED", `question ${id} was ${reason}`, {
          details: { process, questionId: id, reason },
        }),
      );
    } else if (reason === "rejected") held.waiters.fail(error);
  }
}
