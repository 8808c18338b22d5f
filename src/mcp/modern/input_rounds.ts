/**
 * The input a 2026-07-28 request has for its call: what the modern `CallSession` asks when a call
 * elicits, samples or lists roots. Each request gets a key by its position in the call (`e1`, `e2`
 * for elicitations, `s1` for sampling, `r1` for roots, or the key the call names); the answer comes
 * from the answers of earlier rounds (carried in the verified `requestState`) or from this round's
 * `inputResponses`. A missing answer rejects with an {@linkcode InputRequiredSignal} listing every
 * request still pending (requests made together, e.g. under `Promise.all`, travel in one round).
 *
 * A method the request's `_meta` client capabilities do not declare is refused at once with the tool
 * error `MISSING_CLIENT_CAPABILITY` (such a client would never answer) and noted in
 * {@linkcode InputRounds.refused}: the binding then answers the request with JSON-RPC `-32021`
 * (MissingRequiredClientCapability). A call that can do without checks `supports(method)` first.
 *
 * @module
 */

import { specTypeSchemas } from "@modelcontextprotocol/server";
// @ts-types="@modelcontextprotocol/sdk/types"
import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestFormParams,
  ElicitResult,
  ListRootsResult,
} from "@modelcontextprotocol/sdk/types.js";
import { InputRequiredSignal, type PendingInput } from "../input_required.ts";
import { CLIENT_CAPABILITY, missingCapability } from "../session_parts.ts";
import type { CallSession, ClientMethod, ClientRequestOptions } from "../types.ts";

/** What one round of a request brings. */
export interface InputRoundsInit {
  /** This round's `inputResponses`, as the request carried them (untrusted: each answer is validated). */
  inputResponses?: unknown;
  /** The answers of earlier rounds, from the verified `requestState`. */
  answers?: Readonly<Record<string, unknown>>;
  /** The client capabilities the request declared (`_meta` `io.modelcontextprotocol/clientCapabilities`). */
  capabilities?: Readonly<Record<string, unknown>>;
}

const PREFIX: Record<ClientMethod, string> = {
  "elicitation/create": "e",
  "sampling/createMessage": "s",
  "roots/list": "r",
};

/** The client capability each method needs. */
export const CAPABILITY_OF: Readonly<Record<ClientMethod, string>> = CLIENT_CAPABILITY;

const RESULT = {
  "elicitation/create": specTypeSchemas.ElicitResult,
  "sampling/createMessage": specTypeSchemas.CreateMessageResult,
  "roots/list": specTypeSchemas.ListRootsResult,
} as const;

/** `value` when it is a well-formed answer to `method`, else undefined. */
export function validAnswer(method: ClientMethod, value: unknown): unknown {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const outcome = RESULT[method]["~standard"].validate(value);
  if (outcome instanceof Promise || outcome.issues !== undefined) return undefined;
  return outcome.value;
}

/** One request's input: the answers it has and the requests its call made that are still unanswered. */
export class InputRounds {
  #responses: Readonly<Record<string, unknown>>;
  #earlier: Readonly<Record<string, unknown>>;
  #capabilities: Readonly<Record<string, unknown>>;
  #counts: Record<ClientMethod, number> = {
    "elicitation/create": 0,
    "sampling/createMessage": 0,
    "roots/list": 0,
  };
  #keys = new Set<string>();
  #pending: Record<string, PendingInput> = {};
  #answers: Record<string, unknown>;
  #refused: Record<string, Record<string, never>> = {};

  /** The input of one round. */
  constructor(init: InputRoundsInit = {}) {
    const responses = init.inputResponses;
    this.#responses = typeof responses === "object" && responses !== null && !Array.isArray(responses)
      ? responses as Record<string, unknown>
      : {};
    this.#earlier = init.answers ?? {};
    this.#capabilities = init.capabilities ?? {};
    this.#answers = { ...this.#earlier };
  }

  /** Whether the request declared the capability `method` needs. */
  supports(method: ClientMethod): boolean {
    const declared = this.#capabilities[CAPABILITY_OF[method]];
    return typeof declared === "object" && declared !== null;
  }

  /** The requests made in this round that have no answer yet, by key. */
  get pending(): Readonly<Record<string, PendingInput>> {
    return this.#pending;
  }

  /** Whether a request made in this round is still unanswered. */
  get waiting(): boolean {
    return Object.keys(this.#pending).length > 0;
  }

  /** What earlier rounds carried in the verified `requestState` (the session's `carried`). */
  get carried(): Readonly<Record<string, unknown>> {
    return this.#earlier;
  }

  /** The capabilities the call asked for and the request did not declare (`{ sampling: {} }`), if any. */
  get refused(): Readonly<Record<string, Record<string, never>>> | undefined {
    return Object.keys(this.#refused).length === 0 ? undefined : this.#refused;
  }

  /** The answers the next round must carry: earlier rounds' and those this round used. */
  get answers(): Readonly<Record<string, unknown>> {
    return this.#answers;
  }

  /** Asks the client's user to fill a form (`elicitation/create`). */
  elicit(params: ElicitRequestFormParams, options: ClientRequestOptions = {}): Promise<ElicitResult> {
    return this.#ask("elicitation/create", { ...params }, options.key) as Promise<ElicitResult>;
  }

  /** Asks the client's model for a completion (`sampling/createMessage`). */
  sample(
    params: CreateMessageRequestParams,
    options: ClientRequestOptions = {},
  ): Promise<CreateMessageResult> {
    return this.#ask("sampling/createMessage", { ...params }, options.key) as Promise<CreateMessageResult>;
  }

  /** Asks the client for its roots (`roots/list`). */
  listRoots(options: ClientRequestOptions = {}): Promise<ListRootsResult> {
    return this.#ask("roots/list", undefined, options.key) as Promise<ListRootsResult>;
  }

  #ask(method: ClientMethod, params: Record<string, unknown> | undefined, named?: string): Promise<unknown> {
    const position = ++this.#counts[method];
    if (!this.supports(method)) {
      this.#refused[CAPABILITY_OF[method]] = {};
      return Promise.reject(missingCapability(method, "envelope"));
    }
    const key = named ?? `${PREFIX[method]}${position}`;
    if (typeof key !== "string" || key === "") {
      return Promise.reject(new TypeError(`${method}: the input key must be a non-empty string`));
    }
    if (this.#keys.has(key)) {
      return Promise.reject(new TypeError(`${method}: the input key '${key}' is already used in this call`));
    }
    this.#keys.add(key);
    const answer = validAnswer(method, this.#earlier[key]) ?? validAnswer(method, this.#responses[key]);
    if (answer !== undefined) {
      this.#answers[key] = answer;
      return Promise.resolve(answer);
    }
    this.#pending[key] = params === undefined ? { method } : { method, params };
    return Promise.reject(new InputRequiredSignal(this.#pending, this.#answers));
  }
}

/** `session` with its questions (`elicit`, `sample`, `listRoots`) and `supports` answered by `rounds`. */
export function sessionWithRounds(session: CallSession, rounds: InputRounds): CallSession {
  return {
    id: session.id,
    era: session.era,
    live: session.live,
    supports: (method) => rounds.supports(method),
    progress: (progress, total, message) => session.progress(progress, total, message),
    log: (level, data, logger) => session.log(level, data, logger),
    elicit: (params, options) => rounds.elicit(params, options),
    sample: (params, options) => rounds.sample(params, options),
    listRoots: (options) => rounds.listRoots(options),
    carried: rounds.carried,
  };
}
