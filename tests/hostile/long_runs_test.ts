import assert from "node:assert/strict";
import { countTokens } from "../../pipeline/tokens.ts";

// A run of millions of one character class (a letter, punctuation, a CJK character) in a text that
// is not all Latin-1: the tokenizer's split expression ran out of stack on it, and a build threw
// `Maximum call stack size exceeded` for the whole project (for any such file under the 10 MB
// limit). The count, not a build, is tested: counting is the stage that threw, and cheap alone.
Deno.test("a run of millions of letters in a text that is not all Latin-1 is counted", async () => {
  const run = "a".repeat(4_500_000);
  // Counted in parts of a million characters: 8 letters a token, in every thread the same.
  assert.equal(await countTokens(`\u65e5\n${run}`), 1 + 1 + 4_500_000 / 8);
  assert.equal(await countTokens(run), 4_500_000 / 8);
});
