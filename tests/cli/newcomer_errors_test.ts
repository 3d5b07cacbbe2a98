import assert from "node:assert/strict";
import { join } from "node:path";
import { makeProject, runCliShared } from "../_helpers.ts";

// A newcomer's most likely mistakes on the command line and in slop.config.ts, each one line that
// names the key, flag, file or plugin at fault, in sentence case, with the value in quotes and no
// final period (checked in a scratch project as a user would make them, twenty-ninth session).

const SOURCES = { "src/a.ts": "export const a = 1;\n", "b.py": "print(1)\n" };

/** The first line of stderr, without `slop: `, after checking that nothing went to stdout. */
function firstLine(run: { code: number; stdout: string; stderr: string }, code: number): string {
  assert.equal(run.code, code, run.stderr);
  if (code === 2) assert.equal(run.stdout, "");
  const line = run.stderr.split("\n")[0].replace(/^slop: /, "");
  assert.match(line, /^[A-Z]/, "sentence case");
  assert.doesNotMatch(line, /\.$/, "no final period");
  return line;
}

Deno.test("a mistyped config key, view or default view is named with its key path and a suggestion", async () => {
  const cases: Array<[string, string]> = [
    [
      '{ fiels: ["src/**"] }',
      'Invalid config "slop.config.ts": Unknown key "fiels" (did you mean "files"?)',
    ],
    [
      '{ files: [{ path: "src/a.ts", view: "skeletn" }] }',
      'Invalid config "slop.config.ts": Unknown view mode "skeletn" at "files[0].view" (did you mean "skeleton"?)',
    ],
    [
      '{ defaultView: "outlines" }',
      'Invalid config "slop.config.ts": Unknown view mode "outlines" at "defaultView" (did you mean "outline"?)',
    ],
  ];
  for (const [config, expected] of cases) {
    const root = await makeProject({ ...SOURCES, "slop.config.ts": `export default ${config};\n` });
    assert.equal(firstLine(await runCliShared(["build"], root), 2), expected);
  }
});

Deno.test("a missing file given to --config or --task-file names the flag and the file", async () => {
  const root = await makeProject(SOURCES);
  assert.equal(
    firstLine(await runCliShared(["build", "--config", "nope.config.ts"], root), 2),
    `Invalid config "nope.config.ts": No such file in "${root}" (--config)`,
  );
  assert.equal(
    firstLine(await runCliShared(["check", "--config", "conf/slop.config.ts"], root), 2),
    `Invalid config "conf/slop.config.ts": No such file in "${root}" (--config)`,
  );
  assert.equal(
    firstLine(await runCliShared(["build", "--task-file", "issue.md"], root), 2),
    'Cannot read the task file "issue.md" (--task-file): file not found',
  );
});

Deno.test("an unknown flag, a bad flag value and a mistyped command name what was typed", async () => {
  const root = await makeProject(SOURCES);
  assert.equal(
    firstLine(await runCliShared(["build", "--budgte", "100"], root), 2),
    'Unknown option "--budgte" (did you mean "--budget"?)',
  );
  assert.equal(
    firstLine(await runCliShared(["build", "--budget", "10k"], root), 2),
    'Invalid --budget "10k": expected a positive whole number of tokens',
  );
  assert.equal(
    firstLine(await runCliShared(["biuld"], root), 2),
    'Unknown command "biuld" (did you mean "build"?), and no file or folder has that name',
  );
});

Deno.test("a config glob or a focus that matches nothing is a warning naming it; a path argument is an error", async () => {
  const root = await makeProject({
    ...SOURCES,
    "slop.config.ts": 'export default { files: ["src/**", "lib/**"] };\n',
  });
  const run = await runCliShared(["build", "--focus", "src/nope.ts"], root);
  assert.equal(run.code, 0, run.stderr);
  // Without --stdout the summary and its warnings are the command's output.
  assert.match(run.stdout, /^warning: No file matches "lib\/\*\*" \(files\[1\]\)$/m);
  assert.match(run.stdout, /^warning: Focus "src\/nope\.ts" matches no file of the build$/m);
  assert.match(
    firstLine(await runCliShared(["build", "lib/**"], root), 2),
    /^No file matches the path "lib\/\*\*": nothing to build \(check the spelling/,
  );
});

Deno.test("a view-mode plugin that throws is named with its hook and file once in the summary, and the build goes on", async () => {
  const root = await makeProject({
    ...SOURCES,
    "slop.config.ts":
      'export default { plugins: [{ kind: "view-mode", name: "boom", version: "1", ' +
      'render() { throw new Error("kaboom"); } }], files: [{ path: "src/a.ts", view: "boom" }, "b.py"] };\n',
  });
  const run = await runCliShared(["build"], root);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /^files: 1 rendered, 0 skipped, 1 error$/m);
  assert.match(
    run.stdout,
    /^ {2}error: src\/a\.ts \(\[plugin boom\] Hook "render" failed on "src\/a\.ts": kaboom\)$/m,
  );
  // Said once: the file's row, not again as a warning (the manifest keeps both).
  assert.equal(run.stdout.split("kaboom").length, 2, run.stdout);
  const manifest = JSON.parse(await Deno.readTextFile(join(root, ".slop/out/context_001.json")));
  assert.ok(manifest.warnings.some((w: string) => w.endsWith("kaboom")));
  const written = await Deno.readTextFile(join(root, ".slop/out/context_001.md"));
  assert.match(written, /### b\.py/);
});

Deno.test("slop check in a folder below the project's config names the config it did not read", async () => {
  // An agent that runs the skill's `slop check` from a subfolder was told only to pin a lock
  // there (`slop check --update`), a second lock beside the project's.
  const root = await makeProject({
    "slop.config.ts": "export default { files: ['src/**'] };\n",
    "src/deep/a.ts": "export const a = 1;\n",
  });
  await new Deno.Command("git", { args: ["init", "-q"], cwd: root }).output();
  const run = await runCliShared(["check"], join(root, "src/deep"));
  assert.equal(run.code, 1, run.stderr);
  assert.equal(
    run.stderr,
    "warning: No slop config in this folder, so this build takes its files with the defaults; " +
      '"../../slop.config.ts" above is not read: run slop in its folder, or pass --config ' +
      "../../slop.config.ts\n" +
      'slop: No lock "slop.lock": run `slop check --update` to pin the stable prefix\n',
  );
  const named = await runCliShared(
    ["check", "--config", "../../slop.config.ts"],
    join(root, "src/deep"),
  );
  assert.doesNotMatch(named.stderr, /No slop config/);
  // The project's lock, named by its absolute path (it is not below the current folder).
  assert.ok(named.stderr.includes(`No lock "${join(root, "slop.lock")}"`), named.stderr);
});
