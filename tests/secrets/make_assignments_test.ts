import assert from "node:assert/strict";
import { redactText } from "../../pipeline/_scan.ts";

// GNU make assigns with `=`, `:=`, `?=`, `+=`, `!=` and also `::=` (POSIX's simply expanded) and
// `:::=` (immediately expanded, escaped). The rules knew the first ones only: a password or key
// after `::=` or `:::=` in a Makefile was kept.
const VALUES = ["swordfish42", "hQ8xZ2vL9pR4tY7wK3mN6bV1cX5zA0sD", "Tr0ub4dor3x"];
const LINES = (op: string) => [
  `PASSWORD ${op} ${VALUES[0]}`,
  `API_KEY ${op} ${VALUES[1]}`,
  `DB_PASSWORD${op}"${VALUES[2]}"`,
];

Deno.test("a Makefile's ::= and :::= assignments are redacted as its := ones are", async () => {
  for (const path of ["Makefile", "src/GNUmakefile", "build/rules.mk", "makefile"]) {
    for (const op of [":=", "::=", ":::="]) {
      const text = LINES(op).join("\n") + "\n";
      const { text: out } = await redactText(text, path);
      for (const value of VALUES) {
        assert.ok(!out.includes(value), `${path}, ${op}: ${value} kept in ${JSON.stringify(out)}`);
      }
      // the rest of each line as written: the operator is the file's own
      assert.ok(out.includes(`PASSWORD ${op} `), `${path}, ${op}: ${JSON.stringify(out)}`);
    }
  }
});

Deno.test("::= outside make files is left to the rules as written (a grammar's rule stays)", async () => {
  const text = "<password> ::= <letter> | <password> <letter>\nkey ::= value_name\n";
  const { text: out } = await redactText(text, "docs/grammar.md");
  assert.equal(out, text);
});
