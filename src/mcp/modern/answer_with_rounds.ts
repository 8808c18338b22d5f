/**
 * Runs one round of a 2026-07-28 `tools/call`, `prompts/get` or `resources/read`: opens the request's
 * `requestState` (refused with `-32602` when tampered, expired or minted for another call), gives the
 * call its {@linkcode InputRounds}, and answers either the call's own result or, when the call needs
 * input it does not have yet, an `input_required` result: the pending requests and a new signed state
 * carrying every answer so far. The client answers and sends the same request again; the call runs
 * again from the start and finds its answers. A call that asked for input the request's capabilities do
 * not declare is answered with JSON-RPC `-32021` (MissingRequiredClientCapability), however it ended.
 *
 * @module
 */

import {
  type InputRequiredResult,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
} from "@modelcontextprotocol/server";
import { isInputRequired, type PendingInput } from "../input_required.ts";
import { InputRounds } from "./input_rounds.ts";
import type { RequestStateBinding, RequestStates } from "./request_state.ts";

/** The rounds of input one request may end with before it is refused. */
export const MAX_INPUT_ROUNDS = 16;

/** One round of a request: what its state is bound to and the input it carries. */
export interface RoundRequest extends RequestStateBinding {
  /** `params.inputResponses`, as received. */
  inputResponses?: unknown;
  /** `params.requestState`, as received (absent on the first round). */
  requestState?: unknown;
  /** The client capabilities declared in the request's `_meta`. */
  capabilities?: Readonly<Record<string, unknown>>;
}

/**
 * `run`'s result, or the `input_required` result when the call is waiting for input (it threw an
 * `InputRequiredSignal`, or made a request that got no answer and went on without it).
 */
export async function answerWithRounds<R>(
  states: RequestStates,
  request: RoundRequest,
  run: (rounds: InputRounds) => Promise<R>,
): Promise<R | InputRequiredResult> {
  // Read only when a state is opened or sealed: `subject` may be a getter that costs (see withInputRounds).
  let bound: RequestStateBinding | undefined;
  const binding = () =>
    bound ??= { method: request.method, name: request.name, args: request.args, subject: request.subject };
  const earlier = request.requestState === undefined || request.requestState === null
    ? { answers: {}, round: 0 }
    : await states.open(request.requestState, binding());
  const rounds = new InputRounds({
    inputResponses: request.inputResponses,
    answers: earlier.answers,
    capabilities: request.capabilities,
  });
  let outcome: { result: R } | { error: unknown };
  try {
    outcome = { result: await run(rounds) };
  } catch (error) {
    outcome = { error };
  }
  const refused = rounds.refused;
  if (refused) {
    const names = Object.keys(refused).join(", ");
    throw new MissingRequiredClientCapabilityError(
      { requiredCapabilities: refused },
      `${request.method} '${request.name}' needs client capabilities the request did not declare: ${names}`,
    );
  }
  let requests: Record<string, PendingInput> = { ...rounds.pending };
  let answers: Record<string, unknown> = { ...rounds.answers };
  if ("result" in outcome) {
    if (!rounds.waiting) return outcome.result;
  } else {
    const { error } = outcome;
    if (!isInputRequired(error)) throw error;
    requests = { ...error.requests, ...requests };
    answers = { ...error.answers, ...answers };
  }
  const round = earlier.round + 1;
  if (round > MAX_INPUT_ROUNDS) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidRequest,
      `The ${request.method} request still needs input after ${MAX_INPUT_ROUNDS} rounds`,
      { reason: "too_many_input_rounds" },
    );
  }
  return {
    resultType: "input_required",
    inputRequests: requests as InputRequiredResult["inputRequests"],
    requestState: await states.seal(binding(), { answers, round }),
  };
}
