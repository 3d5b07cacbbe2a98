import assert from "node:assert/strict";
import {
  buildContext,
  maskedViewMode,
  outlineViewMode,
  skeletonViewMode,
  type SlopConfig,
  type ViewModePlugin,
} from "../../mod.ts";
import { makeProject, tempDir } from "../_helpers.ts";

/** The logged view's project, and when it was written: made as the module loads. */
const logged = makeProject({
  "a.py": "def f():\n    return 1\n",
  "b.py": "x = 2\n",
  "notes.md": "# Notes\n",
}).then((root) => ({ root, at: Date.now() }));

/** A view mode that logs its `prepare` call, its renders and the release, in order. */
function loggingView(log: string[]): ViewModePlugin {
  return {
    kind: "view-mode",
    name: "logged",
    version: "1",
    prepare(files) {
      log.push(`prepare ${files.map((f) => `${f.path}:${f.chars}`).join(" ")}`);
      return () => log.push("release");
    },
    render(file) {
      log.push(`render ${file.path}`);
      return { text: file.text.toUpperCase() };
    },
  };
}

Deno.test("the built-in code views render a cold build the same with and without their prepare hook", async () => {
  // Large enough for the pool to start its worker; one file holds a secret.
  const body = (n: number) =>
    Array.from({ length: n }, (_, i) => `def f${i}(x):\n    return x + ${i}\n\n`).join("");
  const root = await makeProject({
    "big.py": body(12000),
    "keys.py": `TOKEN = "sk-or-v1-${
      "0123456789abcdef".repeat(3)
    }"\n\n\ndef use():\n    return TOKEN\n`,
    "small.py": "class A:\n    def m(self):\n        pass\n",
  });
  const views = { skeleton: skeletonViewMode, outline: outlineViewMode, masked: maskedViewMode };
  for (const [view, factory] of Object.entries(views)) {
    const inline: SlopConfig = { files: ["*.py"], defaultView: view };
    const ready = await buildContext({ cwd: root, stateDir: await tempDir(), inline }, {
      write: false,
    });
    // The same view without its prepare hook: nothing starts before the transform.
    const { prepare, ...unprepared } = factory();
    assert.ok(prepare, `${view} gets ready`);
    const plain = await buildContext({
      cwd: root,
      stateDir: await tempDir(),
      inline: { ...inline, plugins: [unprepared] },
    }, { write: false });
    assert.equal(ready.document, plain.document, view);
    assert.ok(
      !ready.document.includes("0123456789abcdef"),
      "the secret is redacted before the view",
    );
    if (view === "skeleton") assert.ok(ready.document.includes("[REDACTED:openrouter-key]"));
  }
});

Deno.test("a view's prepare hook gets the files it will render before the scan, and its release after the transform", async () => {
  const { root, at } = await logged;
  const log: string[] = [];
  const inline: SlopConfig = {
    files: [{ path: "*.py", view: "logged" }, "notes.md"],
    plugins: [loggingView(log)],
  };
  const stateDir = await tempDir();
  // Past the racy window (see the stat index), so that the next build trusts the fingerprints;
  // the project was written as the module loaded, and the test before this one ran meanwhile.
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, at + 2100 - Date.now())));
  const first = await buildContext({ cwd: root, stateDir, inline }, { write: false });
  assert.deepEqual(
    log[0],
    "prepare a.py:22 b.py:6",
    "only the files of this view, with their lengths",
  );
  assert.deepEqual(log.slice(1, 3).sort(), ["render a.py", "render b.py"]);
  assert.deepEqual(log.slice(3), ["release"]);
  assert.ok(first.document.includes("DEF F():"));

  // Unchanged files are not read again: nothing to get ready for, and the cache renders nothing.
  log.length = 0;
  const again = await buildContext({ cwd: root, stateDir, inline }, { write: false });
  assert.deepEqual(log, []);
  assert.equal(again.document, first.document);
});
