import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { tempDir } from "../_util/temp_dir.ts";
import { FileJournal } from "./file_journal.ts";
import { MemoryJournal } from "./memory_journal.ts";
import { JournalPool, openJournal } from "./open_journal.ts";
import { SqliteJournal } from "./sqlite_journal.ts";
import type { JournalBackend } from "./types.ts";

Deno.test("openJournal opens the requested backend", async () => {
  await using dir = await tempDir();
  const journals = [
    openJournal({ backend: "memory" }),
    openJournal({ backend: "file", path: join(dir.path, "file") }),
    openJournal({ backend: "sqlite", path: join(dir.path, "sqlite") }),
  ];
  try {
    assert.ok(journals[0] instanceof MemoryJournal);
    assert.ok(journals[1] instanceof FileJournal);
    assert.ok(journals[2] instanceof SqliteJournal);
    assert.deepEqual(journals.map((j) => j.backend), ["memory", "file", "sqlite"]);
  } finally {
    await Promise.all(journals.map((j) => j.close()));
  }
});

Deno.test("openJournal requires a path for the file and sqlite backends", () => {
  assert.throws(() => openJournal({ backend: "file" }), /"file" requires a path/);
  assert.throws(() => openJournal({ backend: "sqlite", path: "" }), /"sqlite" requires a path/);
  assert.throws(() => openJournal({ backend: "tape" as JournalBackend }), /unknown journal backend "tape"/);
});

Deno.test("journal pool shares one instance per backend and resolved path", async () => {
  await using dir = await tempDir();
  const pool = new JournalPool();
  try {
    assert.equal(pool.open({ backend: "memory" }), pool.open({ backend: "memory" }));
    for (const backend of ["file", "sqlite"] as const) {
      const absolute = join(dir.path, backend);
      const a = pool.open({ backend, path: absolute });
      assert.equal(pool.open({ backend, path: relative(Deno.cwd(), absolute) }), a, `${backend} relative`);
      assert.equal(pool.open({ backend, path: `${absolute}/` }), a, `${backend} trailing slash`);
      assert.notEqual(pool.open({ backend, path: join(dir.path, `${backend}-other`) }), a);
    }
    assert.notEqual(
      pool.open({ backend: "file", path: dir.path }),
      pool.open({ backend: "sqlite", path: dir.path }),
    );
    assert.notEqual(new JournalPool().open({ backend: "memory" }), pool.open({ backend: "memory" }));
  } finally {
    await pool.closeAll();
  }
});

Deno.test("journal pool closeAll closes every journal and later opens make new ones", async () => {
  await using dir = await tempDir();
  const pool = new JournalPool();
  const journals = [
    pool.open({ backend: "memory" }),
    pool.open({ backend: "file", path: join(dir.path, "file") }),
    pool.open({ backend: "sqlite", path: join(dir.path, "sqlite") }),
  ];
  await pool.closeAll();
  for (const journal of journals) {
    await assert.rejects(journal.append("writer", "step", {}), /closed/, journal.backend);
  }
  const reopened = pool.open({ backend: "sqlite", path: join(dir.path, "sqlite") });
  try {
    assert.notEqual(reopened, journals[2]);
    assert.ok((await reopened.append("writer", "step", {})).entry_id);
  } finally {
    await pool.closeAll();
  }
});
