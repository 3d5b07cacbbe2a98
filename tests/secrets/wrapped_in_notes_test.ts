// A token wrapped over two lines in a note, a log or prose with no hint of its own (the fifth and
// sixth outside sweeps left it: only a text with a token's hint had its line ends read): each
// prefixed shape cut 3 and 8 characters in and at its middle. The tokens are made here from each
// rule's own pattern: no real token is written in this repository.
import assert from "node:assert/strict";
import { splitTokenLeaks, type TokenJoin } from "./_token_sample.ts";
import { prng } from "../_helpers.ts";
import { kept } from "./_redacts.ts";

const random = prng(333);

const NOTES: Array<[string, (a: string, b: string) => string]> = [
  ["notes.txt", (a, b) => `The deploy notes say it is ${a}\n${b}\nand nothing else.\n`],
  ["run.log", (a, b) => `2026-12-02 18:00:01 INFO using ${a}\n    ${b}\n`],
  ["HANDOVER.md", (a, b) => `- the one we rotated: ${a}\n  ${b}\n- the old one is gone\n`],
];

Deno.test("a token wrapped over lines in a note, a log or prose with no hint is redacted", async () => {
  const joins = NOTES.map(([path, note]): TokenJoin => [path, path, note]);
  const { leaks, tried } = await splitTokenLeaks(joins, random, [3, 8]);
  assert.ok(tried >= 900, `${tried} tried`);
  assert.deepEqual(leaks, []);
});

Deno.test("a note's wrapped words, paths and numbers are kept", async () => {
  for (
    const [path, text] of [
      [
        "notes.txt",
        `See src/pipeline/secret_rules.ts\nand tests/secrets/wrapped_in_notes_test.ts\n`,
      ],
      ["run.log", `2026-12-02 18:00:01 INFO build 8f3a2c1d\n    finished in 1234 ms\n`],
      ["README.md", `Run deno task test:update\nfor_each_snapshot_that_changed\n`],
      ["notes.txt", `commit 9b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c\nAuthor: someone\n`],
    ]
  ) await kept(text, path);
});
