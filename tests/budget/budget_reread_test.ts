import assert from "node:assert/strict";
import { join } from "node:path";
import { buildContext, type SectionPlugin } from "../../mod.ts";
import { makeProject } from "../_helpers.ts";

/** Python with `n` functions whose signatures (kept by every code view) hold `value`. */
function python(n: number, value = "x"): string {
  return Array.from(
    { length: n },
    (_, i) =>
      `def public_${i}(count: int, key: str = "${value}") -> float:\n    """Entry ${i}."""\n` +
      `    total = count * ${i}\n    for step in range(count):\n        total += step\n    return total\n\n\n`,
  ).join("");
}

/** Not a real key: the shape of an AWS access key id, which the built-in rules redact. */
const KEY = "AKIAZ7Q3M5N2P4R6T8V0";

const block = (document: string, path: string) =>
  new RegExp(`### ${path.replace(".", "\\.")}\\n[^]*?\\n\`\`\`\\n\\n`).exec(document)?.[0];

Deno.test("a stepped file is read again and redacted as the build read it: the block its view gives", async () => {
  const root = await makeProject({ "big.py": python(40), "keys.py": python(30, KEY) });
  for (const cache of [false, true]) {
    const inline = { cache: { enabled: cache } };
    const full = await buildContext({ cwd: root, inline }, { write: false });
    // One token short: the least important file (the largest, no git) takes one step.
    const tokens = full.manifest.total.tokens - 1;
    const fitted = await buildContext({ cwd: root, inline: { ...inline, budget: { tokens } } }, {
      write: false,
    });
    assert.deepEqual(fitted.manifest.budget!.steppedDown, [
      { path: "big.py", from: "full", to: "skeleton" },
    ]);
    // Both steps down at once: keys.py's skeleton comes from a text read again and redacted.
    const both = await buildContext({
      cwd: root,
      inline: { ...inline, budget: { tokens: Math.floor(tokens * 0.6) } },
    }, { write: false });
    const views = both.files.map((f) => f.view);
    const asked = await buildContext({
      cwd: root,
      inline: { ...inline, files: both.files.map((f) => ({ path: f.path, view: f.view })) },
    }, { write: false });
    assert.ok(views.includes("skeleton") || views.includes("outline"), views.join());
    for (const path of ["big.py", "keys.py"]) {
      assert.equal(block(both.document, path), block(asked.document, path), `${path}, ${cache}`);
    }
    assert.doesNotMatch(both.document, new RegExp(KEY));
    assert.match(block(both.document, "keys.py")!, /key: str = "\[REDACTED/);
  }
});

Deno.test("a file changed after the build read it is not stepped down from its new text", async () => {
  const root = await makeProject({ "a.py": python(30), "b.py": python(10) });
  // A section runs after the transform and before the budget: the file changes in between.
  let edited = false;
  const edit: SectionPlugin = {
    kind: "section",
    name: "edit",
    async compose() {
      if (!edited) await Deno.writeTextFile(join(root, "a.py"), python(31));
      edited = true;
      return [];
    },
  };
  const result = await buildContext({
    cwd: root,
    inline: { plugins: [edit], cache: { enabled: false }, budget: { tokens: 900 } },
  }, { write: false });
  assert.doesNotMatch(result.document, /public_30/);
  const a = result.files.find((f) => f.path === "a.py")!;
  assert.deepEqual([a.view, a.status], ["listed", "skipped"]);
  assert.deepEqual(result.manifest.warnings.filter((w) => w.includes("a.py")), [
    '"a.py" cannot be read any more: changed since the build read it',
  ]);
});
