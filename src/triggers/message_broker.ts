/**
 * An in-process topic broker with wildcard subscriptions. Publishers and {@linkcode MessageTrigger}s must
 * share one instance.
 *
 * Topic rules:
 * - a topic is a list of dot-separated, non-empty segments (`reports.daily.pdf`);
 * - in a subscription pattern, `*` matches exactly one segment: `reports.*` matches `reports.daily`
 *   but neither `reports` nor `reports.daily.pdf`;
 * - `#` matches zero or more segments, anywhere: `reports.#` matches `reports`, `reports.daily` and
 *   `reports.daily.pdf`; `a.#.z` matches `a.z` and `a.b.c.z`;
 * - every other segment (`daily`, also `da*ly`) matches literally;
 * - a published topic may not contain a segment that is exactly `*` or `#`.
 *
 * @example
 * ```ts
 * import { MessageBroker } from "./message_broker.ts";
 * const broker = new MessageBroker();
 * const unsubscribe = broker.subscribe("reports.*", (message) => console.log(message.topic));
 * broker.publish("reports.daily", { rows: 3 }, { sender: "etl" });
 * unsubscribe();
 * ```
 *
 * @module
 */

import { uuid } from "../_util/ids.ts";
import { callHandler } from "./_call_handler.ts";
import type { Logger } from "../log.ts";

/** One published message as subscribers receive it (frozen at the top level). */
export interface BrokerMessage {
  /** The concrete topic it was published on. */
  readonly topic: string;
  /** Unique id of the message (UUID). */
  readonly message_id: string;
  /** Who published it, or null. */
  readonly sender: string | null;
  /** What was published (not copied). */
  readonly content: unknown;
  /** ISO 8601 UTC time of publication. */
  readonly timestamp: string;
}

/** Receives messages; it runs synchronously inside {@linkcode MessageBroker.publish}. */
export type MessageHandler = (message: BrokerMessage) => void;

/** Options of {@linkcode MessageBroker.publish}. */
export interface PublishOptions {
  /** Who publishes. */
  sender?: string;
}

/** Options of {@linkcode MessageBroker}. */
export interface MessageBrokerOptions {
  /** Where failing handlers are logged. When absent, failures are swallowed. */
  logger?: Logger;
}

/** True when `pattern` is a valid subscription pattern: non-empty dot-separated segments. */
export function isValidTopicPattern(pattern: string): boolean {
  return typeof pattern === "string" && pattern.split(".").every((segment) => segment !== "");
}

/** True when `topic` is a valid topic to publish on: a valid pattern without `*` or `#` segments. */
export function isValidTopic(topic: string): boolean {
  return isValidTopicPattern(topic) && topic.split(".").every((s) => s !== "*" && s !== "#");
}

/**
 * Whether the subscription `pattern` matches the published `topic` (see the module doc for the rules).
 * False when either is invalid.
 */
export function topicMatches(pattern: string, topic: string): boolean {
  if (!isValidTopicPattern(pattern) || !isValidTopic(topic)) return false;
  const p = pattern.split(".");
  const t = topic.split(".");
  // rest[j] is true when p[i..] matches t[j..]; computed from the last pattern segment backwards.
  let rest = t.map(() => false).concat(true);
  for (let i = p.length - 1; i >= 0; i--) {
    const next = new Array<boolean>(t.length + 1).fill(false);
    for (let j = t.length; j >= 0; j--) {
      if (p[i] === "#") next[j] = rest[j] || (j < t.length && next[j + 1]);
      else next[j] = j < t.length && (p[i] === "*" || p[i] === t[j]) && rest[j + 1];
    }
    rest = next;
  }
  return rest[0];
}

/** A synchronous, in-process topic broker; a failing handler never affects the publisher or others. */
export class MessageBroker {
  #subscriptions = new Set<{ pattern: string; handler: MessageHandler }>();
  #logger: Logger | undefined;

  /** A broker with no subscriptions. */
  constructor(options: MessageBrokerOptions = {}) {
    this.#logger = options.logger;
  }

  /**
   * Delivers `content` on `topic` to every subscription whose pattern matches, synchronously, in
   * subscription order. Returns the new message id. Throws a RangeError for an invalid topic.
   */
  publish(topic: string, content: unknown, options: PublishOptions = {}): string {
    if (!isValidTopic(topic)) {
      throw new RangeError(`invalid topic ${JSON.stringify(topic)}: use non-empty dot-separated segments`);
    }
    const message: BrokerMessage = Object.freeze({
      topic,
      message_id: uuid(),
      sender: options.sender ?? null,
      content,
      timestamp: new Date().toISOString(),
    });
    for (const { pattern, handler } of [...this.#subscriptions]) {
      if (topicMatches(pattern, topic)) this.#deliver(handler, message);
    }
    return message.message_id;
  }

  /**
   * Calls `handler` for every message whose topic matches `pattern`. Returns a function that removes
   * this subscription. Throws a RangeError for an invalid pattern.
   */
  subscribe(pattern: string, handler: MessageHandler): () => void {
    if (!isValidTopicPattern(pattern)) {
      throw new RangeError(`invalid topic pattern ${JSON.stringify(pattern)}: empty segment`);
    }
    const entry = { pattern, handler };
    this.#subscriptions.add(entry);
    return () => {
      this.#subscriptions.delete(entry);
    };
  }

  /** Subscriptions with exactly this `pattern`, or all subscriptions when absent. */
  subscriberCount(pattern?: string): number {
    if (pattern === undefined) return this.#subscriptions.size;
    let count = 0;
    for (const entry of this.#subscriptions) if (entry.pattern === pattern) count++;
    return count;
  }

  #deliver(handler: MessageHandler, message: BrokerMessage): void {
    callHandler(handler, message, {
      logger: this.#logger,
      message: "message handler failed",
      fields: { topic: message.topic, message_id: message.message_id },
    });
  }
}
