/**
 * The one error mcpcast raises for invalid specs, plans and options. Its message never carries a
 * secret or a value from the input beyond names and locations.
 *
 * @module
 */

/** An invalid spec, plan or option. */
export class McpcastError extends Error {
  /** An error with a user-facing `message`. */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "McpcastError";
  }
}
