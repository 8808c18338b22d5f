/**
 * The signal a call raises on a 2026-07-28 request when it needs input from the client (an
 * elicitation, a sampling completion or the client's roots). That revision has no server-to-client
 * requests on stateless HTTP: the server answers with an `input_required` result instead, the client
 * fulfils the requests and sends the same call again with `inputResponses` (and the signed
 * `requestState`), and the call runs again from the start, this time finding its answers.
 *
 * The signal passes through the pipeline untouched (it is not a tool error, a failure or a
 * cancellation); the protocol binding turns it into the `input_required` result.
 *
 * @module
 */

/** One request the client must fulfil before the call can go on. */
export interface PendingInput {
  /** `elicitation/create`, `sampling/createMessage` or `roots/list`. */
  method: "elicitation/create" | "sampling/createMessage" | "roots/list";
  /** The request's params, as the client would have received them on a 2025-11-25 session. */
  params?: Record<string, unknown>;
}

/**
 * Raised by a {@linkcode CallSession}'s `elicit`, `sample` or `listRoots` on a 2026-07-28 request
 * whose answer the client has not sent yet.
 */
export class InputRequiredSignal extends Error {
  /** The requests to send, by the key the answers come back under. */
  readonly requests: Readonly<Record<string, PendingInput>>;
  /** The answers received in earlier rounds, by key (carried in the signed `requestState`). */
  readonly answers: Readonly<Record<string, unknown>>;

  /** A signal for `requests`, carrying the `answers` of earlier rounds. */
  constructor(requests: Record<string, PendingInput>, answers: Record<string, unknown> = {}) {
    super("the call needs input from the client");
    this.name = "InputRequiredSignal";
    this.requests = requests;
    this.answers = answers;
  }
}

/** Whether `error` is an {@linkcode InputRequiredSignal}. */
export function isInputRequired(error: unknown): error is InputRequiredSignal {
  return error instanceof InputRequiredSignal;
}
