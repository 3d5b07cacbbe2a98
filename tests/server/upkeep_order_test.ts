// The build server's upkeep (a full collection: seconds on a big tree) waits for the build an edit
// is likely followed by: run between the prepare of that build and the build, it made the client
// wait 3.7 s on monorepo-x60 (bench/README.md, "The build server's warm answer"). Told by the
// order of the work the server ran (`slop server status --json`, `work`), not by time.
import assert from "node:assert/strict";
import { join } from "node:path";
import { ok, serverCase } from "../cli/_server.ts";

/** The upkeeps that ran after a prepare and before the next build, by their place in `work`. */
function upkeepsBeforeTheirBuild(work: string[]): number[] {
  const found: number[] = [];
  let prepared = false;
  work.forEach((kind, i) => {
    if (kind === "prepare") prepared = true;
    else if (kind === "build") prepared = false;
    else if (kind === "upkeep" && prepared) found.push(i);
  });
  return found;
}

Deno.test("a build server runs no upkeep between an edit's prepare and the build asked for next", async () => {
  const { root, slop, status, prepared, stopAll } = await serverCase({
    "src/a.py": "def a():\n    return 1\n",
    "src/b.ts": "export const b = 1;\n",
  });
  const work = async () => ((await status()) as unknown as { work: string[] }).work;
  try {
    ok(await slop(["build", "--server", "-q"]));
    for (let round = 2; round <= 4; round++) {
      // Made as soon as the last build answered: its upkeep is still to come.
      await Deno.writeTextFile(join(root, "src/a.py"), `def a():\n    return ${round}\n`);
      await prepared(round - 1);
      ok(await slop(["build", "--server", "-q"]));
    }
    const ran = await work();
    assert.equal(ran.filter((kind) => kind === "build").length, 4, ran.join(" "));
    assert.ok(ran.filter((kind) => kind === "prepare").length >= 3, ran.join(" "));
    assert.deepEqual(upkeepsBeforeTheirBuild(ran), [], ran.join(" "));
    // Quiet after the last build: the upkeep runs then.
    for (const end = Date.now() + 60_000; !(await work()).includes("upkeep");) {
      if (Date.now() > end) {
        assert.fail(`no upkeep after the last build: ${(await work()).join(" ")}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    await stopAll();
  }
});

Deno.test("upkeepsBeforeTheirBuild() finds an upkeep between a prepare and its build only", () => {
  assert.deepEqual(upkeepsBeforeTheirBuild(["build", "upkeep", "prepare", "build", "upkeep"]), []);
  assert.deepEqual(upkeepsBeforeTheirBuild(["build", "prepare", "upkeep", "build"]), [2]);
});
