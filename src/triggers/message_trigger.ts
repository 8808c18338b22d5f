/**
 * A trigger fired by messages published on a {@linkcode MessageBroker} whose topic matches a pattern.
 *
 * @module
 */

import type { Logger } from "../log.ts";
import { type BrokerMessage, isValidTopicPattern, type MessageBroker } from "./message_broker.ts";
import { SubscriptionTrigger } from "./subscription_trigger.ts";

/** Queue capacity of a message trigger unless set. */
export const MESSAGE_TRIGGER_CAPACITY = 100;

/** Options of {@linkcode MessageTrigger}. */
export interface MessageTriggerOptions {
  /** The broker the publishers use (the same instance). */
  broker: MessageBroker;
  /** Topic pattern to react to; `*` matches one segment, `#` zero or more (`reports.*`). */
  topic: string;
  /** Trigger id. @default `message-<topic>` */
  triggerId?: string;
  /** Capacity of the trigger's queue; when full, messages are dropped with a warning. @default 100 */
  capacity?: number;
  /** Where drops are logged. */
  logger?: Logger;
}

/** Payload of a message trigger's events. */
export interface MessageTriggerPayload {
  /** The concrete topic the message was published on. */
  topic: string;
  /** Id of the message. */
  message_id: string;
  /** Who published it, or null. */
  sender: string | null;
  /** What was published. */
  content: unknown;
}

/** Subscribes to a {@linkcode MessageBroker} on start and unsubscribes on stop. */
export class MessageTrigger extends SubscriptionTrigger {
  /** Topic pattern reacted to. */
  readonly topic: string;
  #broker: MessageBroker;

  /** A trigger for `options.topic`; throws a RangeError for an invalid pattern. */
  constructor(options: MessageTriggerOptions) {
    if (!isValidTopicPattern(options.topic)) {
      throw new RangeError(`invalid topic pattern ${JSON.stringify(options.topic)}: empty segment`);
    }
    super({
      triggerId: options.triggerId ?? `message-${options.topic}`,
      type: "message",
      capacity: options.capacity ?? MESSAGE_TRIGGER_CAPACITY,
      logger: options.logger,
    });
    this.#broker = options.broker;
    this.topic = options.topic;
  }

  /** Subscribes to the broker. */
  protected subscribe(): () => void {
    return this.#broker.subscribe(this.topic, (message) => this.#onMessage(message));
  }

  #onMessage(message: BrokerMessage): void {
    const payload: MessageTriggerPayload = {
      topic: message.topic,
      message_id: message.message_id,
      sender: message.sender,
      content: message.content,
    };
    this.emit(this.makeEvent(payload));
  }
}
