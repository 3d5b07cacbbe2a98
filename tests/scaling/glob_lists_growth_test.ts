import assert from "node:assert/strict";
import { loadConfig } from "../../pipeline/config.ts";
import { resolveTargets } from "../../pipeline/resolve.ts";
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
  const work: Record<string, number[]> = { exclude: [], files: [], folders: [], literal: [] };
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
    };
    for (const [name, inline] of Object.entries(configs)) {
      const config = await loadConfig({ cwd: root, inline });
      let kept = 0;
      work[name].push(
        await globWork(async () => {
          kept = (await resolveTargets(config)).targets.filter((t) => !t.skip).length;
        }),
      );
      assert.equal(kept, n, name);
    }
  }
  for (const [name, counts] of Object.entries(work)) assertLinear(name, counts, SIZES);
});
