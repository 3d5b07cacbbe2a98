import assert from "node:assert/strict";
import { parserFor } from "../../grammars/tree_sitter.ts";
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
  ruby: "sample.rb",
  php: "sample.php",
  csharp: "sample.cs",
  bash: "sample.sh",
  scala: "sample.scala",
  kotlin: "sample.kt",
  lua: "sample.lua",
  zig: "sample.zig",
  elixir: "sample.ex",
  powershell: "sample.ps1",
  haskell: "sample.hs",
};

/** What the code engine reads of a node without making it, and what the node says. */
interface Facts {
  id: number;
  /** Named, by the cursor and by the node's type id. */
  named: [boolean, boolean];
  /** Has a child, by moving the cursor down (and back) and by the node's `childCount`. */
  parent: [boolean, boolean];
}

/**
 * The facts of every node a cursor visits in `text`. The code engine reads whether a child is
 * named from its type id, asked once per type, and whether it has children by moving the cursor.
 */
async function facts(grammar: string, text: string): Promise<Facts[]> {
  const parser = await parserFor(grammar);
  const tree = parser.parse(text)!;
  const cursor = tree.walk();
  const out: Facts[] = [];
  try {
    let done = false;
    while (!done) {
      const id = cursor.nodeTypeId;
      const childCount = cursor.currentNode.childCount;
      const down = cursor.gotoFirstChild();
      if (down) cursor.gotoParent();
      out.push({
        id,
        named: [cursor.nodeIsNamed, tree.language.nodeTypeIsNamed(id)],
        parent: [down, childCount > 0],
      });
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

/** The fixture, then the same text cut short and with a stray token: error and missing nodes. */
async function texts(id: string): Promise<{ sample: string; broken: string }> {
  const sample = await Deno.readTextFile(new URL(SAMPLES[id], FIXTURES));
  return {
    sample,
    broken: `${sample.slice(0, Math.floor(sample.length * 0.6))} ) = ( }\n${sample}`,
  };
}

for (const spec of LANGUAGES) {
  Deno.test(`a ${spec.id} node is named exactly when its type is, errors and aliases included`, async () => {
    const { sample, broken } = await texts(spec.id);
    for (const text of [sample, broken]) {
      const nodes = await facts(spec.grammar, text);
      assert.ok(nodes.length > 50, `${spec.id}: ${nodes.length} nodes`);
      for (const { id, named: [byCursor, byType] } of nodes) {
        assert.equal(byType, byCursor, `${spec.id}: type id ${id}`);
      }
      if (text === broken) assert.ok(nodes.some(({ id }) => id === ERROR_TYPE_ID), spec.id);
    }
  });

  Deno.test(`a ${spec.id} node has a child for the cursor exactly when its childCount says so`, async () => {
    const { sample, broken } = await texts(spec.id);
    for (const text of [sample, broken]) {
      const nodes = await facts(spec.grammar, text);
      assert.ok(nodes.some(({ parent: [down] }) => !down), `${spec.id}: no leaf`);
      for (const { id, parent: [byCursor, byCount] } of nodes) {
        assert.equal(byCursor, byCount, `${spec.id}: type id ${id}`);
      }
    }
  });
}
