import assert from "node:assert/strict";
import { gitInit, makeProject, runCli } from "../_helpers.ts";

/** Run slop with a deadline of its own: a git that never finishes would hold the test. */
function slop(args: string[], cwd: string, env: Record<string, string>) {
  return runCli(args, cwd, env, { signal: AbortSignal.timeout(40_000) });
}

Deno.test("a .gitignore that git matches for minutes: git is stopped at its deadline and slop lists the untracked files", async () => {
  const root = await makeProject({ "tracked.ts": "export const t = 1;\n" });
  await gitInit(root);
  // git's own matcher takes time growing as depth^k for k `**` in a row: minutes here.
  const deep = Array.from({ length: 200 }, (_, i) => `d${i % 10}`).join("/");
  await makeProject({
    ".gitignore": "**/".repeat(8) + "*.tmp\n",
    [`${deep}/leaf.ts`]: "export const leaf = 1;\n",
    [`${deep}/x.tmp`]: "ignored\n",
  }, root);
  const env = { SLOP_GIT_DEADLINE_MS: "1500" };
  const run = await slop(["build", "--stdout", "--json"], root, env);
  assert.equal(run.code, 0, run.stderr);
  const { manifest } = JSON.parse(run.stdout);
  assert.deepEqual(manifest.files.map((f: { path: string }) => f.path), [
    ".gitignore",
    `${deep}/leaf.ts`,
    "tracked.ts",
  ]);
  assert.ok(
    manifest.warnings.some((w: string) => w.startsWith("git ls-files ran past its deadline")),
    manifest.warnings.join("\n"),
  );
  const since = await slop(["build", "--stdout", "--since", "HEAD"], root, env);
  assert.equal(since.code, 2, since.stderr);
  assert.match(
    since.stderr,
    /Cannot list the untracked files for --since "HEAD": git ls-files ran past its deadline of 1500 ms/,
  );
});

Deno.test("a SLOP_GIT_DEADLINE_MS no timer takes (negative, past 2^31 - 1 ms, not a number) is one line naming it", async () => {
  // A timer fires at once for such a value: git was stopped as it started, with Node's
  // TimeoutOverflowWarning on stderr; a word was taken as no setting.
  const root = await makeProject({ "a.ts": "export const a = 1;\n" });
  await gitInit(root);
  const run = await slop(["build", "--stdout"], root, { SLOP_GIT_DEADLINE_MS: "1e12" });
  assert.deepEqual([run.code, run.stderr], [
    1,
    "slop: SLOP_GIT_DEADLINE_MS must be a whole number of milliseconds from 1 to 2147483647, " +
    'got "1e12"\n',
  ]);
});
