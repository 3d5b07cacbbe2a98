import assert from "node:assert/strict";
import { join } from "node:path";
import { makeProject, runCliShared, tempDir } from "../_helpers.ts";
import { buildContext } from "../../mod.ts";

const CONFIG = `export default {
  files: ["src/**"],
  presets: { only_b: { files: ["src/b.py"] } },
  personas: { brief: { strategy: "summarize" } },
};
`;

async function project(): Promise<string> {
  return await makeProject({
    "slop.config.ts": CONFIG,
    "src/a.py": "def alpha():\n    return 1\n",
    "src/b.py": "def beta():\n    return 2\n",
  });
}

Deno.test("slop watch rejects an unknown --format, naming the flag and the value", async () => {
  const root = await project();
  const run = await runCliShared(["watch", "--format", "yaml", "--max-builds", "0"], root);
  assert.equal(run.code, 2);
  assert.equal(run.stderr, `slop: Invalid --format "yaml": expected markdown, xml or json\n`);
});

Deno.test("slop watch names the bad flag and its value", async () => {
  const root = await project();
  const debounce = await runCliShared(["watch", "--debounce", "soon"], root);
  assert.equal(debounce.code, 2);
  assert.equal(
    debounce.stderr,
    `slop: Invalid --debounce "soon": expected milliseconds, a number from 0 to 2147483647\n`,
  );
  const max = await runCliShared(["watch", "--max-builds", "-1"], root);
  assert.equal(max.code, 2);
  assert.equal(
    max.stderr,
    `slop: Invalid --max-builds "-1": expected a whole number of at least 0\n`,
  );
});

Deno.test("slop watch --persona builds with the persona", async () => {
  const root = await project();
  const run = await runCliShared(["watch", "--persona", "brief", "--max-builds", "0"], root);
  assert.equal(run.code, 0, run.stderr);
  const doc = await Deno.readTextFile(join(root, ".slop/out/context_001.md"));
  assert.match(doc, /^## Files \(Summary\)\n/);
});

Deno.test("slop stats --persona and --preset build with them instead of reading the latest output", async () => {
  const root = await project();
  await buildContext({ cwd: root }); // the latest output, built in this process
  const persona = await runCliShared(["stats", "--persona", "brief", "--json"], root);
  assert.equal(persona.code, 0, persona.stderr);
  const stats = JSON.parse(persona.stdout);
  assert.equal(stats.output, undefined);
  assert.deepEqual(stats.files.map((f: { view: string }) => f.view), ["summary", "summary"]);
  const preset = await runCliShared(["stats", "--preset", "only_b", "--json"], root);
  assert.deepEqual(JSON.parse(preset.stdout).files.map((f: { path: string }) => f.path), [
    "src/b.py",
  ]);
});

Deno.test("slop report --preset reports a build of the preset", async () => {
  const root = await project();
  const run = await runCliShared(["report", "--preset", "only_b", "--stdout"], root);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /src\/b\.py/);
  assert.doesNotMatch(run.stdout, /src\/a\.py/);
});

Deno.test("an unknown persona or preset without a config says there is no config file and how to make one", async () => {
  const root = await makeProject({ "a.txt": "a\n" });
  const persona = await runCliShared(["build", "--persona", "x"], root);
  assert.equal(persona.code, 2);
  assert.equal(
    persona.stderr,
    'slop: No config file (zero-config): Unknown persona "x" (personas are defined in a config ' +
      "file: `slop init` writes one) (--persona)\n",
  );
  const preset = await runCliShared(["check", "--preset", "y"], root);
  assert.equal(preset.code, 2);
  assert.equal(
    preset.stderr,
    'slop: No config file (zero-config): Unknown preset "y" (presets are defined in a config ' +
      "file: `slop init` writes one) (--preset)\n",
  );
});

Deno.test("an unknown persona or preset names the flag that asked for it, in every command that takes it", async () => {
  const root = await makeProject({
    "slop.config.ts": 'export default { files: ["*.txt"], personas: { reviewer: {} } };\n',
    "a.txt": "a\n",
  });
  for (const command of ["build", "check", "payload"]) {
    const run = await runCliShared([command, "--persona", "reviwer"], root);
    assert.equal(run.code, 2, command);
    assert.equal(
      run.stderr,
      'slop: Invalid config "slop.config.ts": Unknown persona "reviwer" (did you mean "reviewer"?) ' +
        "(--persona)\n",
      command,
    );
  }
});

Deno.test("slop build PATHS that all match nothing is a usage error naming them, relative to the root, and writes nothing", async () => {
  const root = await project();
  const run = await runCliShared(["build", "src/nothere", "docs"], root);
  assert.equal(run.code, 2, run.stderr);
  assert.match(
    run.stderr,
    /^slop: No file matches the paths "src\/nothere", "docs": nothing to build \(check the spelling/,
  );
  assert.equal(await Deno.stat(join(root, ".slop", "out")).then(() => true, () => false), false);
});

Deno.test("slop build --state-dir naming a file fails with a sentence that names the folder", async () => {
  const root = await project();
  await Deno.writeTextFile(join(root, "afile"), "");
  const run = await runCliShared(["build", "--state-dir", "afile"], root);
  assert.equal(run.code, 1);
  assert.equal(
    run.stderr,
    `slop: Cannot create the output folder "afile/out": Not a directory: print the document with --stdout, or pass --state-dir to a folder you can write\n`,
  );
});

Deno.test("slop watch prints the build's warnings; --quiet prints nothing but errors", async () => {
  const root = await makeProject({
    "slop.config.ts": `export default { files: ["src/**", "missing/**"] };\n`,
    "src/a.py": "def alpha():\n    return 1\n",
  });
  const run = await runCliShared(["watch", "--max-builds", "0"], root);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /^slop: built \.slop\/out\/context_001\.md; watching for changes\n$/);
  assert.match(run.stderr, /^warning: No file matches "missing\/\*\*" \(files\[1\]\)/m);
  const quiet = await runCliShared(["watch", "--max-builds", "0", "--quiet", "--no-cache"], root);
  assert.equal(quiet.code, 0, quiet.stderr);
  assert.equal(quiet.stdout + quiet.stderr, "");
});

Deno.test("slop stats names the latest output relative to the current folder, as build does", async () => {
  const root = await project();
  await buildContext({ cwd: root }); // the latest output, built in this process
  const outside = await tempDir();
  const run = await runCliShared(["stats", "-c", join(root, "slop.config.ts")], outside);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout.split("\n")[0], `slop stats: ${join(root, ".slop/out/context_001.md")}`);
  const inside = await runCliShared(["stats"], root);
  assert.equal(inside.stdout.split("\n")[0], "slop stats: .slop/out/context_001.md");
});

Deno.test("--json prints indented JSON on every command that has it, as build does", async () => {
  const root = await project();
  await buildContext({ cwd: root }); // the latest output, built in this process
  await buildContext({ cwd: root }); // the latest output, built in this process
  assert.equal((await runCliShared(["check", "--update", "-q"], root)).code, 0);
  assert.equal((await runCliShared(["slice", "add", "src/a.py:1-1", "-q"], root)).code, 0);
  for (
    const args of [["build", "--json"], ["stats", "--json"], ["check", "--json"], [
      "explain",
      "--json",
    ], ["slice", "list", "--json"]]
  ) {
    const run = await runCliShared(args, root);
    assert.equal(run.code, 0, `${args.join(" ")}: ${run.stderr}`);
    assert.match(run.stdout, /^[[{]\n {2}/, args.join(" "));
    JSON.parse(run.stdout);
  }
});

Deno.test("slop build PATHS names each path that matches nothing, even when another matches", async () => {
  const root = await project();
  const run = await runCliShared(["build", "--stdout", "src/nothere", "src"], root);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stderr, /warning: No file matches the path "src\/nothere"\n/);
  assert.match(run.stdout, /### src\//);
});

Deno.test("a mistyped command is a usage error, not a build of a path that does not exist", async () => {
  const root = await project();
  for (
    const [typed, meant] of [["buidl", "build"], ["stat", "stats"], ["chek", "check"], [
      "hepl",
      "help",
    ]]
  ) {
    const run = await runCliShared([typed], root);
    assert.equal(run.code, 2, run.stderr);
    assert.equal(
      run.stderr,
      `slop: Unknown command "${typed}" (did you mean "${meant}"?), and no file or folder has that name\n`,
    );
    assert.equal(run.stdout, "");
  }
  // Nothing was written, so the latest output is not an empty document.
  assert.equal(await Deno.stat(join(root, ".slop", "out")).then(() => true, () => false), false);
  // A file or folder of that name is built as a path.
  await Deno.writeTextFile(join(root, "stat"), "a file named stat\n");
  const built = await runCliShared(["stat", "--stdout"], root);
  assert.equal(built.code, 0, built.stderr);
  assert.match(built.stdout, /a file named stat/);
});
