import assert from "node:assert/strict";
import { renderCode } from "../../plugins/view_modes/_code.ts";

// tree-sitter-scala 0.24 takes no modifier before a Scala 3 `enum` (softwaremill/ox's
// `private enum RaceBranchResult[+T]:`, `private[ox] enum ErrorModeSupervisorResult:`, 6 files):
// the modifier was an error, cut from the skeleton, and the enum listed as public in an outline.
// Written for this test.
Deno.test("a Scala 3 enum's modifiers stay in its skeleton and a private enum is not public", async () => {
  const text = [
    "package ox",
    "",
    "private[ox] enum Result:",
    "  case Success",
    "",
    "object Race:",
    "  private final enum Branch[+T]:",
    "    case Value(value: T)",
    "  protected enum Mode:",
    "    case Fast",
    "",
    "enum Color:",
    "  case Red",
    "",
  ].join("\n");
  const view = (await renderCode("race.scala", text))!;
  assert.equal(view.hasErrors, false);
  assert.equal(view.text, text);
  assert.deepEqual(
    view.symbols.filter((s) => s.kind === "enum").map((
      s,
    ) => [s.qualifiedName, s.public, s.signature]),
    [
      ["Result", false, "private[ox] enum Result"],
      ["Race.Branch", false, "private final enum Branch[+T]"],
      ["Race.Mode", true, "protected enum Mode"],
      ["Color", true, "enum Color"],
    ],
  );
});
