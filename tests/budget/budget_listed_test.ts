import assert from "node:assert/strict";
import { buildContext } from "../../mod.ts";
import { tallyWork } from "../../pipeline/helpers.ts";
import { FIRST_BATCH } from "../../pipeline/_budget_ahead.ts";
import { renderCode } from "../../plugins/view_modes/_code.ts";
import { makeProject, tempDir } from "../_helpers.ts";

/** Python whose skeleton, outline and summary are each smaller than the view before. */
function python(i: number): string {
  return Array.from(
    { length: 4 },
    (_, j) =>
      `def _helper_${j}(a, b):\n    total = 0\n    for x in range(a):\n        total += x * b\n    return total\n\n\n` +
      `def public_${i}_${j}(value: int, scale: float = 1.0) -> float:\n    """Entry ${j}."""\n    return _helper_${j}(value, ${j}) * scale\n\n\n`,
  ).join("");
}

/** A cold build of `root` within `tokens`, and the code views' work it did (parser steps and nodes). */
async function fit(root: string, tokens: number) {
  let result: Awaited<ReturnType<typeof buildContext>> | undefined;
  const work = await tallyWork(async () => {
    result = await buildContext({
      cwd: root,
      stateDir: await tempDir(),
      inline: { cache: { enabled: false }, budget: { tokens } },
    }, { write: false });
  });
  return { result: result!, code: work.get("code") ?? 0 };
}

Deno.test("a document far over its budget renders only the files that stay, not those it lists", async () => {
  const n = 150;
  const files: Record<string, string> = {};
  for (let i = 0; i < n; i++) files[`src/m${String(i).padStart(3, "0")}.py`] = python(i);
  const root = await makeProject(files);
  // The files' headings alone are far over 300 tokens: most files must be listed.
  const { result, code } = await fit(root, 300);
  const budget = result.manifest.budget!;
  assert.ok(budget.met && result.manifest.total.tokens <= 300, JSON.stringify(budget));
  const listed = result.files.filter((f) => f.view === "listed");
  const stayed = result.files.filter((f) => f.view !== "listed");
  assert.ok(listed.length >= n / 2 && stayed.length >= 1, `${listed.length} listed`);
  // A file listed is listed from full in one step: it was never rendered in another view.
  for (const file of listed.slice(0, -1)) {
    const steps = budget.steppedDown.filter((s) => s.path === file.path);
    assert.deepEqual(steps, [{ path: file.path, from: "full", to: "listed" }]);
  }
  // The code views parsed the files that stay and the last one listed, once each (skeleton and
  // outline from one run of the engine), those listed stepped in the same batch (batches from the
  // last file back, doubling from FIRST_BATCH) and those the take-back tried (at most 16 that did
  // not fit, two runs each once the steps are over): not every file of the tree twice, as when
  // each was rendered as skeleton, then as outline, then listed.
  const one = await tallyWork(() => renderCode("src/m000.py", python(0)));
  const perFile = one.get("code")!;
  assert.ok(perFile > 0);
  const most = (3 * (stayed.length + 1) + FIRST_BATCH + 2 * 16) * perFile;
  assert.ok(most < n * perFile / 2);
  assert.ok(code <= most, `code work ${code}, at most ${most} (${stayed.length} files stay)`);
});
