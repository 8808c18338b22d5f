/**
 * {@linkcode OpenModeRefusal}: a self-change an open-mode agent asked for and may not make.
 *
 * @module
 */

/** A change the agent asked for and may not make; the message is shown to the model. */
export class OpenModeRefusal extends Error {
  /** A refusal with a message for the model. */
  constructor(message: string) {
    super(message);
    this.name = "OpenModeRefusal";
  }
}
