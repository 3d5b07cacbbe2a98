import assert from "node:assert/strict";
import { join } from "node:path";
import { buildContext } from "../../mod.ts";
import { gitInit, makeProject, runCliShared } from "../_helpers.ts";
import { treeState } from "./_bad_input.ts";

/**
 * A build that fails before it writes anything leaves the project as it was: no `.slop/` with a
 * `.gitignore` in it, no empty cache folder. The state dir was marked before the files were
 * selected, so a build that matched nothing made one.
 */
const PROJECT = { "a.py": "x = 1\n", "b.md": "# B\n" };

/** Each early failure, in process: what it is, and the build. */
const FAILURES: Array<[string, (root: string) => Promise<unknown>]> = [
  ["a path that matches no file", (root) => buildContext({ cwd: root, paths: ["nope.py"] })],
  [
    "an unknown view",
    (root) => buildContext({ cwd: root, inline: { files: [{ path: "a.py", view: "nope" }] } }),
  ],
  [
    "a bad provider.ttl",
    (root) => buildContext({ cwd: root, inline: { provider: { ttl: "forever" } } }),
  ],
  [
    "a state dir named below a missing folder",
    (root) => buildContext({ cwd: root, stateDir: "deep/er/state", paths: ["nope.py"] }),
  ],
];

for (const [what, run] of FAILURES) {
  Deno.test(`a build that fails on ${what} leaves the project tree as it was`, async () => {
    const root = await makeProject(PROJECT);
    await gitInit(root);
    const before = await treeState(root);
    await assert.rejects(() => run(root));
    assert.deepEqual(await treeState(root), before);
  });
}

Deno.test("a state dir that was there already keeps its .gitignore when a build fails", async () => {
  const root = await makeProject(PROJECT);
  await buildContext({ cwd: root });
  const before = await treeState(root);
  await assert.rejects(() => buildContext({ cwd: root, paths: ["nope.py"] }));
  assert.deepEqual(await treeState(root), before);
  assert.ok(before.some((line) => line.startsWith(".slop/.gitignore ")), before.join("\n"));
});

Deno.test("slop build with a bad flag, a bad config or no match leaves the project tree as it was", async () => {
  const root = await makeProject({
    ...PROJECT,
    "bad/slop.config.ts": 'export default { provider: { apiKeyEnv: "A=B" } };\n',
  });
  const before = await treeState(root);
  for (
    const args of [
      ["build", "--budget", "abc"],
      ["build", "nope.py", "--no-server"],
      ["build", "--config", "bad/slop.config.ts", "--no-server"],
    ]
  ) {
    const run = await runCliShared(args, root);
    assert.notEqual(run.code, 0, args.join(" "));
    assert.deepEqual(await treeState(root), before, args.join(" "));
  }
  // The bad config's error names its key path.
  const bad = await runCliShared(["build", "--config", join("bad", "slop.config.ts")], root);
  assert.match(bad.stderr, /"provider\.apiKeyEnv" must be the name of an environment variable/);
});
