import assert from "node:assert/strict";
import { leadSentences, restatesName, wordsOf } from "./compact_text.ts";

Deno.test("leadSentences keeps whole sentences of the first paragraph within the bound", () => {
  const text = "Lists pets. Paged by `cursor`; see [the docs](https://x.example).\n\nMore.";
  assert.equal(leadSentences(text, 20), "Lists pets.");
  assert.equal(leadSentences(text, 200), "Lists pets. Paged by cursor; see the docs.");
  assert.equal(leadSentences(text, 200, 1), "Lists pets.");
  assert.equal(
    leadSentences("Uses <b>bold</b> and **strong** text for owner_email.", 200),
    "Uses bold and strong text for owner_email.",
  );
  assert.equal(
    leadSentences("A very long first sentence without any end in sight", 20),
    "A very long first…",
  );
  assert.equal(leadSentences("   ", 20), "");
});

Deno.test("a description that only restates the parameter's name is recognised", () => {
  assert.deepEqual(wordsOf("petId"), ["pet", "id"]);
  assert.equal(restatesName("The pet ID.", "petId"), true);
  assert.equal(restatesName("The ids of the pets", "pet_ids"), true);
  assert.equal(restatesName("Pet name", "name"), false);
  assert.equal(restatesName("The id of the owner of the pet.", "petId"), false);
});
