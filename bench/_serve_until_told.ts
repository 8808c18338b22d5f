/**
 * The common tail of the benchmark servers: announce the URL, then shut down on SIGTERM / SIGINT or when
 * stdin reaches its end (the parent benchmark went away).
 *
 * @module
 */

/** Prints `{"url", "pid"}` on stdout, waits for a stop request, runs `shutdown`, and exits. */
export async function serveUntilTold(url: string, shutdown: () => Promise<void>): Promise<never> {
  const told = Promise.withResolvers<void>();
  for (const signal of ["SIGTERM", "SIGINT"] as const) Deno.addSignalListener(signal, () => told.resolve());
  (async () => {
    for await (const _ of Deno.stdin.readable) { /* wait for the end */ }
  })().finally(() => told.resolve());
  console.log(JSON.stringify({ url, pid: Deno.pid }));
  await told.promise;
  await shutdown().catch(() => undefined);
  Deno.exit(0);
}

/** The value after `--<name>` in `Deno.args`, if any. */
export function flag(name: string): string | undefined {
  const at = Deno.args.indexOf(`--${name}`);
  return at >= 0 ? Deno.args[at + 1] : undefined;
}
