import assert from "node:assert/strict";
import { LexicalIndex, termCounts } from "./lexical_index.ts";

Deno.test("terms are lowercased, split on punctuation, without stop words or one-letter terms", () => {
  assert.deepEqual(
    [...termCounts("The Deploy-window is on TUESDAY, a deploy day! x")],
    [["deploy", 2], ["window", 1], ["tuesday", 1], ["day", 1]],
  );
});

Deno.test("scores run from 0 to 1: the same text scores 1, a rarer shared term outweighs a common one", () => {
  const index = new LexicalIndex();
  index.add("same", "invoice overdue reminder");
  index.add("rare", "the invoice was sent");
  index.add("common", "reminder reminder about lunch");
  index.add("other", "reminder for standup");
  const scores = index.score("invoice overdue reminder");
  assert.ok(Math.abs((scores.get("same") ?? 0) - 1) < 1e-9);
  assert.ok((scores.get("rare") ?? 0) > (scores.get("other") ?? 0));
  for (const score of scores.values()) assert.ok(score > 0 && score <= 1);
  assert.equal(index.score("nothing shared here").size, 0);
  assert.equal(index.score("the a of").size, 0);
});

Deno.test("removing a text drops it from scores and from document frequencies", () => {
  const index = new LexicalIndex();
  index.add("a", "alpha beta");
  index.add("b", "alpha gamma");
  assert.equal(index.remove("a"), true);
  assert.equal(index.remove("a"), false);
  assert.deepEqual([...index.score("alpha beta").keys()], ["b"]);
  assert.equal(index.size, 1);
});
