import { buildContext } from "../../mod.ts";
import { makeProject, snapshotPath, tempDir } from "../_helpers.ts";

/** Python of `n` functions and classes: its skeleton, outline and summary each smaller. */
function python(i: number, n: number): string {
  return Array.from(
    { length: n },
    (_, j) =>
      `def f_${i}_${j}(a, b):\n    """Doc ${j}."""\n    x = a + b * ${j}\n    return x\n\n\n` +
      `class C${i}_${j}:\n    def m(self):\n        return ${j}\n\n\n`,
  ).join("");
}

/** Markdown of `n` parts: its summary keeps the headings. */
function markdown(i: number, n: number): string {
  const parts = Array.from(
    { length: n },
    (_, j) => `## Part ${j}\n\nWords of part ${j} in note ${i}, said at some length here.\n`,
  );
  return `# Title ${i}\n\n${parts.join("\n")}`;
}

/** 45 files of many sizes: Python, markdown and plain text, a third each. */
function tree(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < 45; i++) {
    const size = 1 + ((i * 7 + 3) % 13);
    if (i % 3 === 0) files[`src/p${i}.py`] = python(i, size);
    else if (i % 3 === 1) files[`docs/d${i}.md`] = markdown(i, size * 2);
    else files[`notes/t${i}.txt`] = "line\n".repeat(size * 20);
  }
  return files;
}

// The steps of budgets from under the tree to far under it, where the listed files are decided
// from the last file back (its headings alone are never over): the snapshot is the steps the
// ladder took file by file (every file stepped through every view, then the listing), recorded
// before the listing was tried from the tail. The try must list the same files, from the same
// views, with the same notes.
Deno.test("a budget far under the tree lists the files the ladder lists, with the same steps", async (t) => {
  const root = await makeProject(tree());
  const full = await buildContext({
    cwd: root,
    stateDir: await tempDir(),
    inline: { cache: { enabled: false } },
  }, { write: false });
  for (const share of [0.45, 0.3, 0.15, 0.04, 0.01]) {
    const tokens = Math.floor(full.manifest.total.tokens * share);
    const result = await buildContext({
      cwd: root,
      stateDir: await tempDir(),
      inline: { cache: { enabled: false }, budget: { tokens } },
    }, { write: false });
    const views = result.files.map((f) => [f.path, f.view, ...(f.notes ?? [])].join(" "));
    const { budget, total } = result.manifest;
    const shown = { budget, total: total.tokens, views, warnings: result.warnings };
    await t.step(`${share} of the tree`, async (s) => {
      await s.assertSnapshot(JSON.stringify(shown, null, 1), {
        path: snapshotPath(import.meta.url),
      });
    });
  }
});
