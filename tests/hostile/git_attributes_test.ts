import assert from "node:assert/strict";
import { join } from "node:path";
import { build, buildContext, defaultPlugins, loadConfig, speedLayer } from "../../mod.ts";
import { resident } from "../../accel/resident.ts";
import { git, makeProject } from "../_helpers.ts";

const NAME_IT = 'skipped by default: name it in "files" to include it';
const BINARY = `marked binary in .gitattributes ("binary" or "-diff"), ${NAME_IT}`;
const GENERATED = `marked generated in .gitattributes (linguist-generated), ${NAME_IT}`;
const VENDORED = `marked vendored in .gitattributes (linguist-vendored), ${NAME_IT}`;

Deno.test("files .gitattributes marks binary, -diff, generated or vendored are skipped with the reason; the rest and a named one are built", async () => {
  const root = await makeProject({
    ".gitattributes": [
      "*.dat binary",
      "snap/*.txt -diff",
      "gen/** linguist-generated",
      "api.pb.go linguist-generated=true",
      "third_party/** linguist-vendored",
      "third_party/ours.c -linguist-vendored",
      "keep.gen linguist-generated=false",
      "unspecified binary",
      "set/** linguist-vendored",
      "",
    ].join("\n"),
    "sub/.gitattributes": "local.txt binary\n",
    "a.dat": "text that git is told is binary\n",
    "snap/one.txt": "snapshot\n",
    "gen/out.ts": "export const x = 1;\n",
    "api.pb.go": "package api\n",
    "third_party/lib.c": "int lib;\n",
    "third_party/ours.c": "int ours;\n",
    "keep.gen": "kept\n",
    "sub/local.txt": "nested attributes\n",
    // Names that are git's answers' words, and a space: each answer is cut at its NULs.
    "unspecified": "a file named like the value of no attribute\n",
    "set/unset words.txt": "a folder named like a value\n",
    "src/main.ts": "export const main = 1;\n",
  });
  await git(root, "init", "-q");

  const result = await buildContext({ cwd: root }, { write: false });
  const rows = new Map(result.manifest.files.map((f) => [f.path, f]));
  const expected: Record<string, string | undefined> = {
    "a.dat": BINARY,
    "snap/one.txt": BINARY,
    "sub/local.txt": BINARY,
    "gen/out.ts": GENERATED,
    "api.pb.go": GENERATED,
    "third_party/lib.c": VENDORED,
    "third_party/ours.c": undefined,
    "keep.gen": undefined,
    "src/main.ts": undefined,
    "unspecified": BINARY,
    "set/unset words.txt": VENDORED,
  };
  for (const [path, reason] of Object.entries(expected)) {
    const row = rows.get(path);
    assert.equal(row?.status, reason ? "skipped" : "rendered", `${path}: ${JSON.stringify(row)}`);
    assert.equal(row?.reason, reason, path);
  }
  assert.doesNotMatch(result.document, /told is binary|snapshot|int lib/);

  // Named by its path, a marked file is built, as a lockfile is.
  const named = await buildContext({ cwd: root, inline: { files: ["a.dat", "src/**"] } }, {
    write: false,
  });
  assert.equal(named.manifest.files.find((f) => f.path === "a.dat")?.status, "rendered");
});

Deno.test("attributes from outside the listing count: a monorepo folder built alone, .git/info/attributes with no .gitattributes", async () => {
  const mono = await makeProject({
    ".gitattributes": "*.dat binary\nsvc/gen/** linguist-generated\n",
    "svc/a.py": "x = 1\n",
    "svc/b.dat": "text that git is told is binary\n",
    "svc/gen/c.py": "y = 2\n",
  });
  await git(mono, "init", "-q");
  const sub = await buildContext({ cwd: join(mono, "svc") }, { write: false });
  const rows = new Map(sub.manifest.files.map((f) => [f.path, f]));
  assert.equal(rows.get("a.py")?.status, "rendered");
  assert.equal(rows.get("b.dat")?.reason, BINARY);
  assert.equal(rows.get("gen/c.py")?.reason, GENERATED);

  const plain = await makeProject({ "a.py": "x = 1\n", "b.dat": "told binary\n" });
  await git(plain, "init", "-q");
  await Deno.writeTextFile(join(plain, ".git/info/attributes"), "*.dat binary\n");
  const info = await buildContext({ cwd: plain }, { write: false });
  assert.equal(info.manifest.files.find((f) => f.path === "b.dat")?.reason, BINARY);
});

Deno.test("a resident process (slop watch, the build server) lists the files again after .gitattributes or .gitignore is edited", async () => {
  const root = await makeProject({
    ".gitattributes": "*.txt text\n",
    ".gitignore": "*.log\n",
    "a.dat": "data\n",
    "b.txt": "text\n",
  });
  await git(root, "init", "-q");
  const kept = resident();
  // One config for every build, as a resident process keeps it.
  const config = await loadConfig({ cwd: root, stateDir: join(root, ".slop") });
  const rows = async () => {
    const result = await build(config, {
      builtins: defaultPlugins(),
      write: false,
      layer: speedLayer({ resident: kept }),
    });
    return result.manifest.files.map((f) => `${f.path} ${f.status}`);
  };
  assert.deepEqual(await rows(), [
    ".gitattributes rendered",
    ".gitignore rendered",
    "a.dat rendered",
    "b.txt rendered",
  ]);
  await Deno.writeTextFile(join(root, ".gitattributes"), "*.dat binary\n");
  kept.changed([".gitattributes"], false);
  assert.deepEqual(await rows(), [
    ".gitattributes rendered",
    ".gitignore rendered",
    "a.dat skipped",
    "b.txt rendered",
  ]);
  await Deno.writeTextFile(join(root, ".gitignore"), "*.txt\n");
  kept.changed([".gitignore"], false);
  assert.deepEqual(await rows(), [
    ".gitattributes rendered",
    ".gitignore rendered",
    "a.dat skipped",
  ]);
  await kept.close();
});
