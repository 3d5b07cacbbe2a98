import assert from "node:assert/strict";
import { buildContext, loadConfig } from "../../mod.ts";
import {
  comparePaths,
  DEFAULT_SECRET_FILES,
  HISTORY_FILES,
  loadGlobMatcher,
  nameMatcher,
  resolveTargets,
} from "../../pipeline/resolve.ts";
import { manyGlobsMatcher, withPrefix } from "../../pipeline/_path_matchers.ts";
import { gitInit, makeProject } from "../_helpers.ts";
import { resolveAgain } from "../../accel/kept_resolution.ts";

const IGNORE_TREE = {
  ".gitignore": "*.log\nbuild/\n!keep.log\n",
  "a.ts": "a",
  "debug.log": "log",
  "keep.log": "kept by negation",
  "build/out.js": "built",
  "src/.gitignore": "secret.txt\n!../debug.log\n",
  "src/main.ts": "main",
  "src/secret.txt": "nested ignore",
  "lib/.gitignore": "*\n!.gitignore\n!public.ts\n",
  "lib/public.ts": "public",
  "lib/private.ts": "private",
  ".slop/out/context_001.md": "old output",
  "node_modules/x/index.js": "dep",
};

/** Why a file that usually holds secrets, matched by a glob, is listed as skipped. */
const SECRET_REASON =
  'may hold secrets, skipped by default: name it by its path in "files" to include it';

async function paths(root: string): Promise<{ paths: string[]; source: string }> {
  const { targets, source } = await resolveTargets(await loadConfig({ cwd: root }));
  return { paths: targets.map((t) => t.path), source };
}

Deno.test("resolveTargets() outside git applies nested .gitignore files and negations like git", async () => {
  const root = await makeProject(IGNORE_TREE);
  await makeProject({ ".git/info/exclude": "a.ts\n" }, root);
  const { paths: found, source } = await paths(root);
  assert.equal(source, "walk");
  // .git/ without HEAD is not a work tree: git says no, the walker reads .git/info/exclude.
  // A node_modules folder is not entered: it is one row (skipped with the reason).
  assert.deepEqual(found, [
    ".gitignore",
    "keep.log",
    "lib/.gitignore",
    "lib/public.ts",
    "node_modules",
    "src/.gitignore",
    "src/main.ts",
  ]);
});

Deno.test("resolveTargets() in a git work tree uses exactly what git ls-files lists", async () => {
  const root = await makeProject(IGNORE_TREE);
  await gitInit(root);
  await makeProject({ "untracked.ts": "new", "ignored.log": "x" }, root);
  await Deno.writeTextFile(`${root}/.git/info/exclude`, "untracked-excluded.ts\n");
  await makeProject({ "untracked-excluded.ts": "x" }, root);
  await Deno.remove(`${root}/src/main.ts`);
  const { paths: found, source } = await paths(root);
  assert.equal(source, "git");
  const out = await new Deno.Command("git", {
    args: ["ls-files", "-co", "--exclude-standard"],
    cwd: root,
    stdout: "piped",
  }).output();
  // The state dir (`.slop`) is slop's; a `node_modules` folder stands for the files git lists in it.
  const expected = [
    ...new Set(
      new TextDecoder().decode(out.stdout).split("\n")
        .filter((p) => p && p !== "src/main.ts" && !p.startsWith(".slop/"))
        .map((p) => p.replace(/^node_modules\/.*$/, "node_modules")),
    ),
  ].sort();
  assert.deepEqual(found, expected);
  assert.ok(found.includes("node_modules"));
  assert.ok(found.includes("untracked.ts"));
  assert.ok(!found.includes("untracked-excluded.ts"));
  assert.ok(!found.includes("src/main.ts"), "a deleted tracked file is not part of the project");
});

Deno.test("resolveTargets() hints case-insensitive matches for entries that match nothing", async () => {
  const root = await makeProject({
    "src/Main.ts": "x",
    "slop.config.ts": `export default { files: ["src/main.ts", "SRC/**"] };\n`,
  });
  const { warnings } = await resolveTargets(await loadConfig({ cwd: root }));
  assert.deepEqual(warnings, [
    'No file matches "src/main.ts" (files[0]); did you mean "src/Main.ts"?',
    'No file matches "SRC/**" (files[1]); did you mean "src/Main.ts"?',
  ]);
});

Deno.test("a folder entry that matches nothing is a warning that says so, not a file row", async () => {
  const root = await makeProject({
    "src/a.ts": "a",
    "build/out.js": "x",
    ".gitignore": "build/\n",
  });
  await gitInit(root);
  const inline = { files: ["src/", "nope/", "Src/", "build/", "gone.ts"] };
  const { targets, warnings } = await resolveTargets(await loadConfig({ cwd: root, inline }));
  // A literal file path that is missing is still a row (the read says "file not found"); a
  // folder named without its slash is too ("is a directory").
  assert.deepEqual(targets.map((t) => t.path), ["gone.ts", "src/a.ts"]);
  assert.deepEqual(warnings, [
    'No file matches "nope/" (files[1]): there is no folder "nope" in the project',
    'No file matches "Src/" (files[2]): there is no folder "Src" in the project; did you mean "src/a.ts"?',
    'No file matches "build/" (files[3]): the folder "build" holds no file slop bundles (it is empty, git ignores its files, or slop leaves them out by default)',
    'No file matches "gone.ts" (files[4])',
  ]);
});

Deno.test("resolveTargets() merges matching entries in order, later keys winning", async () => {
  const root = await makeProject({
    "src/a.ts": "a",
    "src/b.ts": "b",
    "slop.config.ts": `export default { files: [
      { path: "src/**", view: "summary", options: { x: 1 } },
      { path: "src/b.ts", view: "full", options: { y: 2 } },
    ] };\n`,
  });
  const { targets } = await resolveTargets(await loadConfig({ cwd: root }));
  assert.deepEqual(targets.map((t) => [t.path, t.entry.view, t.entry.options]), [
    ["src/a.ts", "summary", { x: 1 }],
    ["src/b.ts", "full", { x: 1, y: 2 }],
  ]);
});

Deno.test("resolveTargets() leaves out secret-looking files unless listed by literal path", async () => {
  const root = await makeProject({
    ".env": "A=1",
    ".env.local": "B=2",
    "id_rsa": "k",
    "a.ts": "a",
  });
  // Matched by a glob, they are targets only to be listed as skipped, with the reason.
  const zero = await resolveTargets(await loadConfig({ cwd: root }));
  assert.deepEqual(zero.targets.filter((t) => !t.skip).map((t) => t.path), ["a.ts"]);
  assert.deepEqual(zero.targets.filter((t) => t.skip).map((t) => [t.path, t.skip]), [
    [".env", SECRET_REASON],
    [".env.local", SECRET_REASON],
    ["id_rsa", SECRET_REASON],
  ]);
  const config = await loadConfig({ cwd: root, inline: { files: ["**", ".env"] } });
  const { targets } = await resolveTargets(config);
  assert.deepEqual(targets.filter((t) => !t.skip).map((t) => t.path), [".env", "a.ts"]);
});

Deno.test("resolveTargets() keeps the configured history file and outputs out of the file set", async () => {
  const root = await makeProject({
    "a.ts": "a",
    "chat.jsonl": '{"role":"User","content":"hi"}\n',
    "x_history.toml": "",
  });
  const result = await buildContext({ cwd: root, inline: { history: "chat.jsonl" } }, {
    write: true,
  });
  assert.deepEqual(result.files.map((f) => f.path), ["a.ts"]);
  const again = await buildContext({ cwd: root, inline: { history: "chat.jsonl" } }, {
    write: true,
  });
  assert.deepEqual(again.files.map((f) => f.path), ["a.ts"], "outputs in .slop are never bundled");
});

Deno.test("resolveTargets() with positional paths restricts the build but keeps entry options", async () => {
  const root = await makeProject({
    "src/a.ts": "a",
    "src/b.ts": "b",
    "docs/c.md": "# c",
    "slop.config.ts": `export default { files: ["**", { path: "src/b.ts", view: "summary" }] };\n`,
  });
  const { targets } = await resolveTargets(await loadConfig({ cwd: root, paths: ["src"] }));
  assert.deepEqual(targets.map((t) => [t.path, t.entry.view]), [["src/a.ts", undefined], [
    "src/b.ts",
    "summary",
  ]]);
});

Deno.test("resolveTargets() takes a path with a backslash that names a file as written, and one that names none as a Windows separator", async () => {
  const root = await makeProject({
    "back\\slash.py": "1",
    "lo\\ck/t.py": "2",
    "docs/a.md": "# a",
    "other.py": "3",
  });
  const pick = async (flags: { paths?: string[]; ignore?: string[]; include?: string[] }) =>
    (await resolveTargets(await loadConfig({ cwd: root, ...flags }))).targets.map((t) => t.path);
  // Named on the command line (as `slop mcp`'s view_files does).
  assert.deepEqual(await pick({ paths: ["back\\slash.py", "lo\\ck", "docs\\a.md"] }), [
    "back\\slash.py",
    "docs/a.md",
    "lo\\ck/t.py",
  ]);
  // Left out by --ignore (it stayed in: the ignore named "back/slash.py").
  assert.deepEqual(await pick({ ignore: ["back\\slash.py", "lo\\ck"] }), ["docs/a.md", "other.py"]);
});

const HARD_NAMES = [
  ...[".env", ".env.local", "a/.env", "a/b/.envrc", "x.env", "env", ".ENV", "..env", "\n.env"],
  ...["a.pem", ".pem", "a/.pem", "..pem", "pem", "a.pem.bak", "a\n.pem", "é.pem", "a\\b.pem"],
  ...["id_rsa", "id_rsa.pub", "a/id_rsa2", "xid_rsa", "id_rsa\r", "a.key", ".key", "key", "a.KEY"],
  ...["history.toml", "a/history.toml", "x_history.toml", "_history.toml", "xhistory.toml"],
  ...["a/b_history.toml", "history.toml.bak", ".env\nx", "a/b\nc.key", "x\u2028.key"],
  ...[".", "..", "a/./b", "a/../b", "a/..", ".git/x", "a/.b/c", "a b/.env x", "a/b\\.env"],
  ...["", "a/", ".env/", "a/.pem/", "/", "//", "a//.env", ".env//", "README.md", "docs/README"],
];

Deno.test("nameMatcher() decides plain name patterns as picomatch does, and hands others to it", async () => {
  const lists = [DEFAULT_SECRET_FILES, HISTORY_FILES, ["*.md", "README*", "x"], ["a?c", "[ab]*"]];
  for (const list of lists) {
    const glob = await loadGlobMatcher(list, { dot: true, basename: true });
    const plain = nameMatcher(list);
    for (const name of HARD_NAMES) {
      assert.equal(plain(name), glob(name), `${JSON.stringify(list)} on ${JSON.stringify(name)}`);
    }
    const globCaseBlind = await loadGlobMatcher(list, { dot: true, basename: true, nocase: true });
    const plainCaseBlind = nameMatcher(list, { nocase: true });
    for (const name of [...HARD_NAMES, ...HARD_NAMES.map((n) => n.toUpperCase())]) {
      const label = `${JSON.stringify(list)} on ${JSON.stringify(name)}, any case`;
      assert.equal(plainCaseBlind(name), globCaseBlind(name), label);
    }
  }
});

Deno.test("manyGlobsMatcher() decides as one matcher of all its globs, and withPrefix() as a filter", async () => {
  const globs = [
    ...["src/g1*.ts", "src/g12*.ts", "src/**", "a/**", "a/**/b", "**/x", "*.md", ".*", "./a/*"],
    ...["a//b*", "a/./b*", "a/../b", "/a*", "!a*", "{a,b}/c", "a/[bc]*", "a/?", "a b/*", "é/*"],
    ...["docs", "docs/", "a", "a/b/c.ts", "src/g1", "x*y/z", "@(a|b)/*", "+(a)", "a\\*b"],
    // picomatch reads a `|` outside a group as two patterns: `docs/b` is matched, from no `src/` start
    ...["src/a|docs/b", "src/x*|*.md"],
  ];
  const paths = [
    ...HARD_NAMES,
    ...["src/g1.ts", "src/g12.ts", "src/g2.ts", "src", "a", "a/b", "a/c/b", "x", "q/x", "a.md"],
    ...[".a", "b/c", "a/bz", "a/b/c.ts", "a b/c", "é/f", "e\u0301/f", "docs/a", "xay/z", "ab"],
    ...["docs/b", "src/a", "src/xy"],
  ];
  const all = await loadGlobMatcher(globs, { dot: true });
  for (let size = 1; size <= globs.length; size += 3) {
    for (let start = 0; start + size <= globs.length; start += size) {
      const some = globs.slice(start, start + size);
      const one = await loadGlobMatcher(some, { dot: true });
      const many = await manyGlobsMatcher(some);
      for (const path of paths) {
        assert.equal(many(path), one(path), `${JSON.stringify(some)} on ${JSON.stringify(path)}`);
      }
    }
  }
  const many = await manyGlobsMatcher(globs);
  for (const path of paths) assert.equal(many(path), all(path), JSON.stringify(path));
  const sorted = paths.toSorted(comparePaths);
  for (const prefix of ["", "a", "a/", "src/g1", "é", "zzz", ".", "a/b/c.ts"]) {
    const filter = (list: string[]) => list.filter((p) => p.startsWith(prefix));
    assert.deepEqual(withPrefix(sorted, prefix), filter(sorted), prefix);
    assert.deepEqual(withPrefix(paths, prefix), filter(paths), `${prefix}, unsorted`);
  }
});

Deno.test("resolveTargets() with the entry ** takes every candidate, dot files and folders too", async () => {
  const root = await makeProject({
    "a.ts": "a",
    ".hidden/b.ts": "b",
    "c/.d.ts": "d",
    "c/e f.ts": "e",
    ".env": "SECRET=1",
    "h_history.toml": "",
  });
  const config = await loadConfig({ cwd: root, inline: { files: ["**"] } });
  const { targets } = await resolveTargets(config);
  assert.deepEqual(targets.filter((t) => !t.skip).map((t) => t.path), [
    ".hidden/b.ts",
    "a.ts",
    "c/.d.ts",
    "c/e f.ts",
  ]);
  assert.deepEqual(targets.filter((t) => t.skip).map((t) => [t.path, t.skip]), [
    [".env", SECRET_REASON],
  ]);
});

Deno.test("resolveAgain() gives a file matched by the same config entries as last time the same entry object, a file matched otherwise a new one", async () => {
  const root = await makeProject({
    "a.py": "A = 1\n",
    "b.py": "B = 2\n",
    "slop.config.ts": `export default { files: ["*.py", { path: "b.py", view: "skeleton" }] };\n`,
  });
  const config = await loadConfig({ cwd: root });
  const first = await resolveTargets(config);
  const { resolution: again, lstats } = await resolveAgain(config, first);
  assert.deepEqual([...lstats.keys()].sort(), ["a.py", "b.py", "slop.config.ts"]);
  assert.deepEqual(again.targets, first.targets);
  for (const [i, target] of again.targets.entries()) {
    assert.equal(target.entry, first.targets[i].entry, target.path);
  }
  // Another config (as after a reload): its entries are other objects, the files' entries anew.
  await Deno.writeTextFile(
    `${root}/slop.config.ts`,
    `export default { files: ["*.py", { path: "b.py", view: "summary" }] };\n`,
  );
  const reloaded = await loadConfig({ cwd: root, reload: true });
  const { resolution: next } = await resolveAgain(reloaded, again);
  assert.equal(next.targets.find((t) => t.path === "b.py")?.entry.view, "summary");
  assert.notEqual(next.targets[0].entry, again.targets[0].entry);
});
