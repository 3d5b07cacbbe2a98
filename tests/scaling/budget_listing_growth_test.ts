import assert from "node:assert/strict";
import { buildContext, type ViewModePlugin } from "../../mod.ts";
import { makeProject, tempDir } from "../_helpers.ts";

/**
 * A tree of `n` notes, each about 400 tokens in full. Their summaries keep a few lines, so ten or
 * so of them fill a budget of 1,500 tokens: far under the tree, though the files' headings alone
 * are not over it (at 120 notes, about 1,000 tokens).
 */
function notes(n: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < n; i++) {
    const lines = Array.from({ length: 40 }, (_, j) => `Note ${i} line ${j}: plain words here.`);
    files[`notes/n${String(i).padStart(3, "0")}.txt`] = lines.join("\n") + "\n";
  }
  return files;
}

/** A `skeleton` of its own (found before the built-in) that keeps half the file and counts its renders. */
function countingSkeleton() {
  const seen = { renders: 0 };
  const plugin: ViewModePlugin = {
    kind: "view-mode",
    name: "skeleton",
    version: "1",
    render(file) {
      seen.renders++;
      return { text: file.text.slice(0, file.text.length / 2) };
    },
  };
  return { plugin, seen };
}

/** A cold build of `n` notes within `tokens`: the skeletons rendered and the files listed. */
async function fit(n: number, tokens: number) {
  const root = await makeProject(notes(n));
  const { plugin, seen } = countingSkeleton();
  const result = await buildContext({
    cwd: root,
    stateDir: await tempDir(),
    inline: { plugins: [plugin], cache: { enabled: false }, budget: { tokens } },
  }, { write: false });
  const listed = result.files.filter((f) => f.view === "listed").length;
  return { renders: seen.renders, listed, budget: result.manifest.budget! };
}

Deno.test("a budget far under the tree renders the files that stay, not every file in every view", async () => {
  const sizes = [30, 120];
  const renders: number[] = [];
  for (const n of sizes) {
    const { renders: r, listed, budget } = await fit(n, 1500);
    // Far over, most files listed, yet the headings of all fit: the ladder's case, not the listing's.
    assert.ok(budget.met && budget.before > 4 * budget.tokens, JSON.stringify(budget));
    assert.ok(listed >= n / 2, `${n} notes: ${listed} listed`);
    renders.push(r);
  }
  // The files that stay are those of the last ~1,500 tokens whatever the tree: their renders stay
  // about the same (stepping every note through the ladder first grew 4x with the tree).
  assert.ok(
    renders[1] <= renders[0] * 1.5,
    `skeletons rendered: ${renders.join(", ")} for ${sizes.join(", ")} notes`,
  );
});
