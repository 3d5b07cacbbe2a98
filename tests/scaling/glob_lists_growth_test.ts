import assert from "node:assert/strict";
import { loadConfig } from "../../pipeline/config.ts";
import { resolveTargets } from "../../pipeline/resolve.ts";
import { focusMatcher } from "../../pipeline/transform.ts";
import { unmatchedFocus } from "../../pipeline/personas.ts";
import { pinBlocks } from "../../plugins/ordering/pinned.ts";
import { makeProject } from "../_helpers.ts";
import { assertLinear } from "./_growth.ts";

// A config of thousands of globs (a generated list of excludes, of files) over thousands of files:
// each glob was tried on every path (one expression of them all for `exclude`, interpreted past a
// size: 20,000 excludes over 20,000 files did not finish in five minutes). Work is the expressions'
// sources each path was tried against and the prefix comparisons made, counted, not timed.

/** Run `work`, counting the characters of the expressions run and the `startsWith` calls. */
async function globWork(work: () => Promise<unknown>): Promise<number> {
  let count = 0;
  const exec = RegExp.prototype.exec;
  const startsWith = String.prototype.startsWith;
  RegExp.prototype.exec = function (this: RegExp, s: string) {
    count += this.source.length;
    return exec.call(this, s);
  };
  String.prototype.startsWith = function (this: string, search: string, at?: number) {
    count++;
    return startsWith.call(this, search, at);
  };
  try {
    await work();
  } finally {
    RegExp.prototype.exec = exec;
    String.prototype.startsWith = startsWith;
  }
  return count;
}

const SIZES = [64, 1024];

Deno.test("resolving a config of n globs over n files does work linear in n", async () => {
  const work: Record<string, number[]> = {};
  for (const n of SIZES) {
    const tree = Object.fromEntries(
      Array.from({ length: n }, (_, i) => [`src/d${i}/f${i}.ts`, ""]),
    );
    const root = await makeProject(tree);
    const configs = {
      exclude: { files: ["src/**"], exclude: Array.from({ length: n }, (_, i) => `src/d${i}/g*`) },
      files: { files: Array.from({ length: n }, (_, i) => `src/d${i}/f*.ts`) },
      folders: { files: Array.from({ length: n }, (_, i) => `src/d${i}/`) },
      literal: { files: ["src/**"], exclude: Array.from({ length: n }, (_, i) => `src/x${i}`) },
      // Entries that match nothing, each with a hint: a file or folder in another case.
      missing: { files: Array.from({ length: n }, (_, i) => `SRC/d${i}/`) },
      missingGlob: { files: Array.from({ length: n }, (_, i) => `SRC/d${i}/F*.ts`) },
    };
    for (const [name, inline] of Object.entries(configs)) {
      const config = await loadConfig({ cwd: root, inline });
      let kept = 0;
      let hints: string[] = [];
      (work[name] ??= []).push(
        await globWork(async () => {
          const resolution = await resolveTargets(config);
          kept = resolution.targets.filter((t) => !t.skip).length;
          hints = resolution.warnings.filter((w) => w.includes("did you mean"));
        }),
      );
      const missing = name.startsWith("missing");
      assert.equal(kept, missing ? 0 : n, name);
      if (missing) {
        assert.equal(hints.length, n, name);
        const hint = `did you mean "src/d${n - 1}/f${n - 1}.ts"`;
        assert.ok(hints[n - 1].includes(hint), hints[n - 1]);
      }
    }
  }
  for (const [name, counts] of Object.entries(work)) assertLinear(name, counts, SIZES);
});

// `ordering.pinned` and `focus` lists were each tried whole on every file (a pattern a pass over
// the files): n of them over n files grew as n squared.
Deno.test("pinning and focusing by n patterns over n files does work linear in n", async () => {
  const work: Record<string, number[]> = {};
  for (const n of SIZES) {
    const paths = Array.from({ length: n }, (_, i) => `src/d${i}/f${i}.ts`);
    const blocks = paths.map((p) => ({
      id: `files:${p}`,
      section: "files",
      stability: "stable" as const,
      text: "",
      source: p,
    }));
    const lists = {
      globs: paths.map((_, i) => `src/d${i}/f*.ts`).reverse(),
      folders: paths.map((_, i) => `src/d${i}/`).reverse(),
      names: paths.map((_, i) => `f${i}.ts`).reverse(),
    };
    for (const [name, patterns] of Object.entries(lists)) {
      let pinned: string[] = [];
      (work[`pinned ${name}`] ??= []).push(
        await globWork(() => {
          pinned = pinBlocks(blocks, patterns).map((b) => b.source!);
          return Promise.resolve();
        }),
      );
      // Names are no pin patterns (a pin is a path or a glob).
      assert.deepEqual(pinned, name === "names" ? paths : [...paths].reverse(), name);
      let focused = 0;
      let unmatched: string[] = [];
      (work[`focus ${name}`] ??= []).push(
        await globWork(() => {
          const focus = focusMatcher(patterns, paths);
          focused = paths.filter(focus).length;
          unmatched = unmatchedFocus(patterns, paths);
          return Promise.resolve();
        }),
      );
      assert.equal(focused, n, name);
      assert.deepEqual(unmatched, [], name);
    }
  }
  for (const [name, counts] of Object.entries(work)) assertLinear(name, counts, SIZES);
});

Deno.test("a build without focus entries does not go through its paths to find the entries' hits", () => {
  // Paths that cannot be gone through: a look at any of them fails the test.
  const paths = new Proxy(["a.py", "b/c.py"], {
    get(target, key, receiver) {
      if (key === Symbol.iterator || key === "length" || /^\d+$/.test(String(key))) {
        throw new Error(`paths looked at (${String(key)})`);
      }
      return Reflect.get(target, key, receiver);
    },
  });
  // Before: every path and each of its folders made into a set (a big tree's, at each build).
  assert.deepEqual(unmatchedFocus([], paths), []);
});
