import assert from "node:assert/strict";
import { buildContext, type SectionPlugin } from "../../mod.ts";
import { makeProject, tempDir } from "../_helpers.ts";
import { assertLinear } from "./_growth.ts";

/** Markdown prose of `n` paragraphs: its summary is far smaller than itself. */
function prose(title: string, n: number): string {
  const paragraphs = Array.from(
    { length: n },
    (_, i) => `Paragraph ${i} of ${title} says something long enough to cost tokens in full.`,
  );
  return `# ${title}\n\n${paragraphs.join("\n\n")}\n`;
}

/** Python whose skeleton, outline and summary are each smaller than the view before. */
function python(n: number): string {
  return Array.from(
    { length: n },
    (_, i) =>
      `def _helper_${i}(a, b):\n    total = 0\n    for x in range(a):\n        total += x * b\n    return total\n\n\n` +
      `def public_${i}(value: int, scale: float = 1.0) -> float:\n    """Entry ${i}."""\n    return _helper_${i}(value, ${i}) * scale\n\n\n`,
  ).join("");
}

/** `n` files of many sizes, markdown (whose step saves more than estimated) and Python. */
function tree(n: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < n; i++) {
    const size = 4 + ((i * 7) % 23);
    if (i % 3 === 2) files[`src/m${i}.py`] = python(1 + (size % 6));
    else files[`docs/d${i}.md`] = prose(`D${i}`, size);
  }
  return files;
}

/**
 * A section that counts the documents composed (calls, and the files each saw). `toggle`: its
 * text says whether a file was stepped down, in words of one token each, so the budget's counts
 * (which assume steps change only file blocks) are wrong and it assembles after every step.
 */
function probe(toggle: boolean) {
  const seen = { calls: 0, files: 0 };
  const plugin: SectionPlugin = {
    kind: "section",
    name: "probe",
    compose(state) {
      seen.calls++;
      seen.files += state.files.length;
      const stepped = toggle && state.files.some((f) => f.notes?.some((n) => n.includes("budget")));
      return [{
        id: "probe",
        section: "probe",
        stability: "stable",
        text: `## Probe\n\nstepped ${stepped ? "yes" : "no"}\n\n`,
      }];
    },
  };
  return { plugin, seen };
}

/** A build with `tokens` as budget and the probe; `stateDir`: where its steps are remembered. */
async function fit(root: string, tokens: number | undefined, toggle: boolean, stateDir?: string) {
  const { plugin, seen } = probe(toggle);
  const result = await buildContext({
    cwd: root,
    stateDir: stateDir ?? await tempDir(),
    inline: { plugins: [plugin], cache: { enabled: false }, budget: { tokens } },
  }, { write: false });
  const views = result.files.map((f) => `${f.path}:${f.view}`);
  return { result, seen, views };
}

Deno.test("fitting a budget assembles the document a bounded number of times, whatever the files stepped", async () => {
  const sizes = [12, 24, 48];
  const work: number[] = [];
  for (const n of sizes) {
    const root = await makeProject(tree(n));
    const total = (await fit(root, undefined, false)).result.manifest.total.tokens;
    const counted = await fit(root, Math.floor(total * 0.4), false);
    const budget = counted.result.manifest.budget!;
    assert.ok(
      budget.met && budget.steppedDown.length >= n / 2,
      `${n}: ${budget.steppedDown.length}`,
    );
    // The first compose, then the document with every step, then the one with some taken back.
    assert.ok(counted.seen.calls <= 3, `${n} files: ${counted.seen.calls} documents composed`);
    work.push(counted.seen.files);
  }
  assertLinear("files composed while fitting", work, sizes);
});

Deno.test("steps counted block by block are the steps of assembling after each: same files, views, report", async () => {
  for (const [n, share] of [[30, 0.4], [30, 0.15], [45, 0.6], [20, 0.02]]) {
    const root = await makeProject(tree(n));
    const total = (await fit(root, undefined, false)).result.manifest.total.tokens;
    const tokens = Math.floor(total * share);
    const [countedState, assembledState] = [await tempDir(), await tempDir()];
    // Then a budget a little larger, with the first build's steps remembered (sticky).
    for (const [i, limit] of [tokens, Math.floor(tokens * 1.1)].entries()) {
      const counted = await fit(root, limit, false, countedState);
      const assembled = await fit(root, limit, true, assembledState);
      const what = `${n} files, ${share} of ${total} tokens, build ${i + 1}`;
      // The toggle makes the counts wrong: then every step assembles.
      assert.ok(assembled.seen.calls > counted.seen.calls, what);
      assert.deepEqual(counted.result.manifest.budget, assembled.result.manifest.budget, what);
      assert.deepEqual(counted.views, assembled.views, what);
      const fileBlocks = (r: typeof counted.result) =>
        r.blocks.filter((b) => b.section === "files").map((b) => b.sha256);
      assert.deepEqual(fileBlocks(counted.result), fileBlocks(assembled.result), what);
    }
  }
});
