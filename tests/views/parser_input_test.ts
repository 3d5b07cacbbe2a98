import assert from "node:assert/strict";
import { parserFor } from "../../grammars/tree_sitter.ts";
import type { SyntaxNode } from "../../grammars/parser.ts";

/**
 * A Python module of about 60K characters: runs of ASCII lines and lines with accented letters,
 * CJK and astral characters (two UTF-16 units), so that the parser's 5119-character pieces start
 * and end in both kinds of text and between the two halves of a surrogate pair.
 */
function mixedModule(): { text: string; names: string[] } {
  const lines: string[] = [];
  const names: string[] = [];
  for (let i = 0; i < 1500; i++) {
    const name = i % 7 < 4 ? `plain_${i}` : i % 7 === 4 ? `café_${i}` : `名前_${i}`;
    names.push(name);
    const value = i % 5 === 0 ? `"😀 ${"é".repeat(i % 13)}"` : `${i}`;
    lines.push(`${name} = ${value}  # ${"x".repeat(i % 17)}`);
  }
  return { text: `${lines.join("\n")}\n`, names };
}

/** The module's statements (its comments are named children too). */
function statements(root: SyntaxNode): SyntaxNode[] {
  return root.namedChildren.filter((c): c is SyntaxNode => c?.type === "expression_statement");
}

function leaves(node: SyntaxNode, out: SyntaxNode[] = []): SyntaxNode[] {
  if (!node.childCount) out.push(node);
  for (const child of node.children) if (child) leaves(child, out);
  return out;
}

Deno.test("the parser reads mixed ASCII and non-ASCII text whole, at the right offsets", async () => {
  const { text, names } = mixedModule();
  const parser = await parserFor("python");
  const tree = parser.parse(text)!;
  try {
    const root = tree.rootNode;
    assert.equal(root.hasError, false);
    assert.equal(root.endIndex, text.length);
    const assigned = statements(root).map((statement) =>
      statement.firstNamedChild!.childForFieldName("left")!
    );
    assert.deepEqual(
      assigned.map((left) => text.slice(left.startIndex, left.endIndex)),
      names,
    );
    // Every token sits where its characters are: comments start with "#", strings with a quote.
    for (const leaf of leaves(root)) {
      const piece = text.slice(leaf.startIndex, leaf.endIndex);
      if (leaf.type === "comment") assert.match(piece, /^# x*$/);
      if (leaf.type === "integer") assert.match(piece, /^\d+$/);
      if (leaf.type === "string_start") assert.equal(piece, '"');
      if (leaf.type === "string_content") assert.match(piece, /^😀 é*$/u);
    }
  } finally {
    tree.delete();
  }
});

Deno.test("the parser reads a text given as pieces by a callback", async () => {
  const { text, names } = mixedModule();
  const parser = await parserFor("python");
  // Pieces of 1000 characters: the parser asks again where each ends.
  const tree = parser.parse((index: number) => text.slice(index, index + 1000))!;
  try {
    const root = tree.rootNode;
    assert.equal(root.hasError, false);
    const found = statements(root);
    assert.equal(found.length, names.length);
    const last = found.at(-1)!.firstNamedChild!.childForFieldName("left")!;
    assert.equal(text.slice(last.startIndex, last.endIndex), names.at(-1));
  } finally {
    tree.delete();
  }
});
