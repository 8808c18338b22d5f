/**
 * A temporary directory for tests, removed on `await using` disposal.
 *
 * @module
 */

/** A temporary directory that removes itself when disposed. */
export interface TempDir extends AsyncDisposable {
  /** Absolute path of the directory. */
  readonly path: string;
}

/** Creates a fresh temporary directory. */
export async function tempDir(): Promise<TempDir> {
  const path = await Deno.makeTempDir({ prefix: "agentry_test_" });
  return {
    path,
    async [Symbol.asyncDispose]() {
      await Deno.remove(path, { recursive: true });
    },
  };
}
