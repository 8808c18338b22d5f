/**
 * A free TCP port on 127.0.0.1 for tests that must name a port in a config (webhook triggers).
 *
 * @module
 */

/** A port that was free a moment ago (bound to 127.0.0.1 and released). */
export function freePort(): number {
  using listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  return (listener.addr as Deno.NetAddr).port;
}
