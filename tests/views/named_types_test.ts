import assert from "node:assert/strict";
import { parserFor } from "../../grammars/_tree_sitter.ts";
import { LANGUAGES } from "../../grammars/languages.ts";

/** The type id of an error node (the last 16-bit id). */
const ERROR_TYPE_ID = 0xffff;

const FIXTURES = new URL("../fixtures/views/", import.meta.url);

/** One fixture per grammar (`sample.<ext>`), and C++ for the `.h`-less C++ grammar. */
const SAMPLES: Record<string, string> = {
  python: "sample.py",
  javascript: "sample.js",
  typescript: "sample.ts",
  tsx: "sample.tsx",
  go: "sample.go",
  rust: "sample.rs",
  java: "sample.java",
  c: "sample.c",
  cpp: "sample.cpp",
};

/**
 * Every node a cursor visits in `text`, as [type id, named by the cursor, named by its type].
 * The code engine reads whether a child is named from its type id, asked once per type.
 */
async function namedness(
  grammar: string,
  text: string,
): Promise<Array<[number, boolean, boolean]>> {
  const parser = await parserFor(grammar);
  const tree = parser.parse(text)!;
  const cursor = tree.walk();
  const out: Array<[number, boolean, boolean]> = [];
  try {
    let done = false;
    while (!done) {
      const id = cursor.nodeTypeId;
      out.push([id, cursor.nodeIsNamed, tree.language.nodeTypeIsNamed(id)]);
      if (cursor.gotoFirstChild() || cursor.gotoNextSibling()) continue;
      for (;;) {
        if (!cursor.gotoParent()) {
          done = true;
          break;
        }
        if (cursor.gotoNextSibling()) break;
      }
    }
  } finally {
    cursor.delete();
    tree.delete();
  }
  return out;
}

for (const spec of LANGUAGES) {
  Deno.test(`a ${spec.id} node is named exactly when its type is, errors and aliases included`, async () => {
    const sample = await Deno.readTextFile(new URL(SAMPLES[spec.id], FIXTURES));
    // The fixture, then the same text cut short and with a stray token: error and missing nodes.
    const broken = `${sample.slice(0, Math.floor(sample.length * 0.6))} ) = ( }\n${sample}`;
    for (const text of [sample, broken]) {
      const nodes = await namedness(spec.grammar, text);
      assert.ok(nodes.length > 50, `${spec.id}: ${nodes.length} nodes`);
      for (const [id, byCursor, byType] of nodes) {
        assert.equal(byType, byCursor, `${spec.id}: type id ${id}`);
      }
      if (text === broken) assert.ok(nodes.some(([id]) => id === ERROR_TYPE_ID), spec.id);
    }
  });
}
