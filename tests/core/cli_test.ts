import assert from "node:assert/strict";
import { join } from "node:path";
import { makeProject, REPO, runCliShared, tempDir } from "../_helpers.ts";

Deno.test("slop build exits 2 and names the key path of an unknown config key", async () => {
  const root = await makeProject({
    "a.ts": "a",
    "slop.config.ts":
      `export default { files: ["a.ts", "b", "c", { path: "a.ts", veiw: "full" }] };\n`,
  });
  const run = await runCliShared(["build"], root);
  assert.equal(run.code, 2);
  assert.equal(
    run.stderr.trim(),
    'slop: Invalid config "slop.config.ts": Unknown key "files[3].veiw" (did you mean "files[3].view"?)',
  );
});

Deno.test("slop build zero-config bundles every text file and --stdout prints the document", async () => {
  const root = await makeProject({
    "README.md": "# Hi\n",
    "src/a.ts": "export {};\n",
    "img.bin": new Uint8Array([0, 1, 2]),
  });
  const run = await runCliShared(["build", "--stdout"], root);
  assert.equal(run.code, 0);
  assert.equal(
    run.stdout,
    "## Files\n\n### README.md\n\n```markdown\n# Hi\n```\n\n### src/a.ts\n\n```ts\nexport {};\n```\n\n",
  );
  assert.match(run.stderr, /files: 2 rendered, 1 skipped, 0 errors/);
  assert.match(run.stderr, /skipped: img.bin \(binary file\)/);
  await assert.rejects(() => Deno.stat(join(root, ".slop", "out")), "--stdout writes no file");
});

Deno.test("slop build --json prints the manifest and --strict fails on file errors", async () => {
  const root = await makeProject({
    "a.ts": "a",
    "slop.config.ts": `export default { files: ["a.ts", "gone.ts"] };\n`,
  });
  const run = await runCliShared(["build", "--json"], root);
  assert.equal(run.code, 0);
  const manifest = JSON.parse(run.stdout);
  assert.deepEqual(
    manifest.files.map((f: { path: string; status: string }) => [f.path, f.status]),
    [["a.ts", "rendered"], ["gone.ts", "error"]],
  );
  assert.match(run.stderr, /warning: No file matches "gone.ts" \(files\[1\]\)/);
  const strict = await runCliShared(["build", "--strict", "-q"], root);
  assert.equal(strict.code, 1);
});

Deno.test("slop build --include, --ignore and PATHS shape the file set", async () => {
  const root = await makeProject({
    "a.ts": "a",
    "b.ts": "b",
    "docs/c.md": "c",
    "slop.config.ts": `export default { files: ["?.ts"] };\n`,
  });
  const withDocs = await runCliShared(
    ["build", "--json", "--include", "docs/**", "--ignore", "b.ts"],
    root,
  );
  const paths = JSON.parse(withDocs.stdout).files.map((f: { path: string }) => f.path);
  assert.deepEqual(paths, ["a.ts", "docs/c.md"]);
  const only = await runCliShared(["build", "--json", "b.ts"], root);
  assert.deepEqual(JSON.parse(only.stdout).files.map((f: { path: string }) => f.path), ["b.ts"]);
});

Deno.test("slop build --help lists the build flags", async () => {
  const run = await runCliShared(["build", "--help"], REPO);
  assert.equal(run.code, 0);
  for (
    const flag of [
      "--config",
      "--include",
      "--ignore",
      "--persona",
      "--preset",
      "--strategy",
      "--stdout",
      "--json",
      "--strict",
      "--state-dir",
    ]
  ) {
    assert.ok(run.stdout.includes(flag), flag);
  }
});

Deno.test("deno task context writes context_001.md then context_002.md with the same prefix hash", async () => {
  const state = await tempDir();
  const runs = [];
  for (let i = 0; i < 2; i++) {
    runs.push(
      await runCliShared(
        ["build", "--config", "examples/slop.config.ts", "--state-dir", state],
        REPO,
      ),
    );
  }
  assert.deepEqual(runs.map((r) => r.code), [0, 0]);
  const m1 = JSON.parse(await Deno.readTextFile(join(state, "out", "context_001.json")));
  const m2 = JSON.parse(await Deno.readTextFile(join(state, "out", "context_002.json")));
  assert.equal(m1.prefix.sha256, m2.prefix.sha256);
  assert.ok(m1.prefix.bytes > 0);
  const doc = await Deno.readTextFile(join(state, "out", "context_001.md"));
  assert.match(
    doc,
    /### docs\/notes.md\n\n```markdown\n3: - TODO: add a `move` command/,
    "the example's custom view plugin ran",
  );
});

Deno.test("slop --version prints the version from deno.json", async () => {
  const meta = JSON.parse(await Deno.readTextFile(`${REPO}/deno.json`));
  const run = await runCliShared(["--version"], REPO);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout, `${meta.version}\n`);
});
