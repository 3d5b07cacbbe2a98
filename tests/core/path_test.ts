import assert from "node:assert/strict";
import nodePath from "node:path";
import { pathToFileURL } from "node:url";
import { type PathFunctions, posixPath, windowsPath } from "../../pipeline/_path.ts";
import * as platformPath from "../../pipeline/_path.ts";
import { extensionOf } from "../../pipeline/extension.ts";
import { extname } from "../../pipeline/paths.ts";
import { languageFor } from "../../grammars/languages.ts";

const POSIX_PATHS = [
  "",
  ".",
  "..",
  "/",
  "//",
  "///",
  "a",
  "a/",
  "a//",
  "/a",
  "/a/",
  "//a",
  "//a/b",
  "/a//b",
  "a/b/c",
  "a/./b",
  "a/../b",
  "../a",
  "../../a/b",
  "a/b/../../..",
  "/a/b/../../..",
  "/..",
  "/../a",
  "./a",
  "a/.",
  "a/..",
  "a/b/",
  "a/b//",
  "/a/b/c.ts",
  "a.b.c",
  ".bashrc",
  "a/.bashrc",
  "..a",
  "...",
  "a.",
  "a.b/",
  "a/b.c/",
  "/x/y/z.tar.gz",
  "a\\b",
  "C:\\x",
  "a b/c d.ts",
  "é/ü.md",
  "/work/proj/.slop",
  "src/../../up",
];

const WINDOWS_PATHS = [
  ...POSIX_PATHS,
  "C:",
  "C:\\",
  "C:/",
  "c:\\",
  "C:a",
  "C:a\\b",
  "C:\\a",
  "C:\\a\\",
  "C:\\a\\b.ts",
  "C:\\a\\..\\..",
  "C:/a/b",
  "D:\\x\\y",
  "d:\\X\\y",
  "\\a",
  "\\a\\b",
  "\\\\server",
  "\\\\server\\",
  "\\\\server\\share",
  "\\\\server\\share\\",
  "\\\\server\\share\\a\\b.txt",
  "//server/share/a",
  "\\\\\\a",
  "C:\\a\\.\\b\\..\\c",
  "C:\\A\\b",
  "c:\\a\\B",
  "C:.",
  "C:..\\a",
  "\\\\srv\\sh\\x.y.z",
  "a\\b\\",
  "a\\\\b",
  "C:\\a\\b\\\\",
  "1:\\a",
  "a\\C:",
  "ab:\\c",
  "x\\..\\C:a",
  "x\\y:z",
  "C:x\\..\\D:a",
];

/**
 * `base` is put first in `resolve` and `relative`'s inputs that are not fully qualified: on
 * Windows, node:path's working folder here is a POSIX one.
 */
function compare(
  name: string,
  ours: PathFunctions,
  theirs: typeof nodePath.posix,
  paths: string[],
  base?: string,
) {
  const full = (p: string) =>
    base && !/^([A-Za-z]:[\\/]|[\\/]{2}[^\\/]+[\\/]+[^\\/])/.test(p) ? [base, p] : [p];
  Deno.test(`${name}: one-path functions match node:path`, () => {
    for (const p of paths) {
      assert.equal(ours.dirname(p), theirs.dirname(p), `dirname(${JSON.stringify(p)})`);
      assert.equal(ours.basename(p), theirs.basename(p), `basename(${JSON.stringify(p)})`);
      assert.equal(ours.extname(p), theirs.extname(p), `extname(${JSON.stringify(p)})`);
      assert.equal(ours.isAbsolute(p), theirs.isAbsolute(p), `isAbsolute(${JSON.stringify(p)})`);
      assert.equal(ours.join(p), theirs.join(p), `join(${JSON.stringify(p)})`);
      assert.equal(
        ours.resolve(...full(p)),
        theirs.resolve(...full(p)),
        `resolve(${JSON.stringify(p)})`,
      );
    }
  });
  Deno.test(`${name}: two-path functions match node:path`, () => {
    for (const a of paths) {
      for (const b of paths) {
        const args = JSON.stringify([a, b]);
        assert.equal(ours.join(a, b), theirs.join(a, b), `join(${args})`);
        assert.equal(
          ours.resolve(...full(a), b),
          theirs.resolve(...full(a), b),
          `resolve(${args})`,
        );
        const [from, to] = [theirs.resolve(...full(a)), theirs.resolve(...full(b))];
        assert.equal(ours.relative(from, to), theirs.relative(from, to), `relative(${args})`);
        if (!base) assert.equal(ours.relative(a, b), theirs.relative(a, b), `relative(${args})`);
      }
    }
  });
  Deno.test(`${name}: join and resolve of several parts match node:path`, () => {
    const parts = ["a", "", "/b", "..", "c/", "C:\\d", "\\\\s\\t", "."];
    for (let i = 0; i < parts.length; i++) {
      const args = [...parts.slice(i), ...parts.slice(0, i)];
      assert.equal(ours.join(...args), theirs.join(...args), `join(${JSON.stringify(args)})`);
      const full = base ? [base, ...args] : args;
      assert.equal(
        ours.resolve(...full),
        theirs.resolve(...full),
        `resolve(${JSON.stringify(args)})`,
      );
    }
    assert.equal(ours.join(), theirs.join());
    if (!base) assert.equal(ours.resolve(), theirs.resolve());
  });
}

compare("posix", posixPath, nodePath.posix, POSIX_PATHS);
compare("windows", windowsPath, nodePath.win32, WINDOWS_PATHS, "C:\\base\\dir");

Deno.test("the platform's functions are node:path's", () => {
  for (const a of POSIX_PATHS) {
    assert.equal(platformPath.join("/r", a), nodePath.join("/r", a));
    assert.equal(platformPath.resolve(a), nodePath.resolve(a));
    assert.equal(platformPath.relative("/work/x", a), nodePath.relative("/work/x", a));
    assert.equal(platformPath.dirname(a), nodePath.dirname(a));
    assert.equal(platformPath.basename(a), nodePath.basename(a));
    assert.equal(platformPath.extname(a), nodePath.extname(a));
    assert.equal(platformPath.isAbsolute(a), nodePath.isAbsolute(a));
  }
  assert.equal(platformPath.sep, nodePath.sep);
});

Deno.test("file URLs match node:url's pathToFileURL", () => {
  const paths = Deno.build.os === "windows" ? WINDOWS_PATHS : [
    ...POSIX_PATHS,
    "/a b/c",
    "/a%20b",
    "/a?b#c",
    "/tab\there",
    "/line\nbreak\r",
    "/ü/€.ts",
    "/dir/",
    "rel/dir/",
    "/a;b,c=d&e+f$g@h:i",
    "/[x]{y}|z^`'\"<>",
    "/~user/!*()",
  ];
  for (const p of paths) {
    assert.equal(posixOrPlatform(p), pathToFileURL(p).href, `toFileUrl(${JSON.stringify(p)})`);
  }
});

function posixOrPlatform(p: string): string {
  return platformPath.toFileUrl(p).href;
}

Deno.test("join() of a root and a listed path matches node:path, on plain and odd inputs alike", () => {
  // Plain ones take join()'s fast path (returned as they are); the others are normalized.
  const roots = ["/", "/r", "/r/", "/r//s", "/r/./s", "/r/../s", "r", ".", "/a b/c\nd"];
  const paths = ["a", "a/b", "a b/c", ".env", "a/.b", "..a", "a..", "a/.../b", "a\\b", "a\nb"];
  paths.push("", ".", "..", "a/", "a//b", "./a", "a/./b", "a/../b", "/x", "é/ü");
  for (const root of roots) {
    for (const path of paths) {
      assert.equal(posixPath.join(root, path), nodePath.posix.join(root, path), `${root} ${path}`);
    }
  }
});

Deno.test("one extension rule: extensionOf, extname (the plugins' surface) and the grammar table agree on dot files, double and missing extensions", () => {
  const cases: Array<[path: string, extension: string]> = [
    ["home/.bashrc", ""],
    [".bashrc", ""],
    ["dist/app.tar.gz", ".gz"],
    ["Makefile", ""],
    ["src/Makefile", ""],
    ["types/index.d.ts", ".ts"],
    ["a/b.c/Makefile", ""],
    ["a/..", ""],
    ["src/App.TSX", ".TSX"],
  ];
  for (const [path, extension] of cases) {
    const name = path.slice(path.lastIndexOf("/") + 1);
    assert.equal(extensionOf(name), extension, `extensionOf(${JSON.stringify(name)})`);
    assert.equal(extname(path), extension, `extname(${JSON.stringify(path)})`);
    assert.equal(extname(path), nodePath.posix.extname(path), `node:path on ${path}`);
  }
  // The grammar table reads the same rule: a `.d.ts` is TypeScript, a dot file has no extension.
  assert.equal(languageFor("types/index.d.ts")?.id, languageFor("a.ts")?.id);
  assert.equal(languageFor("src/App.TSX")?.id, languageFor("App.tsx")?.id);
  assert.equal(languageFor("a/b.c/Rakefile")?.id, "ruby");
  assert.equal(languageFor("home/.bashrc"), undefined);
});

Deno.test("shownPath() names a path inside a folder relative to it, the root folder and names starting with '..' too", () => {
  const { shownPath, sep } = platformPath;
  const at = (...parts: string[]) => parts.join(sep);
  const root = Deno.build.os === "windows" ? "C:\\" : "/";
  assert.equal(shownPath(at("", "p", "src", "a.py"), at("", "p")), at("src", "a.py"));
  // The folder itself, a sibling with the folder's name as a prefix, and a path outside: as given.
  assert.equal(shownPath(at("", "p"), at("", "p")), at("", "p"));
  assert.equal(shownPath(at("", "p2", "a.py"), at("", "p")), at("", "p2", "a.py"));
  assert.equal(shownPath(at("", "q", "a.py"), at("", "p")), at("", "q", "a.py"));
  // A file whose name starts with `..` is inside (a `relative()` test took it for outside).
  assert.equal(shownPath(at("", "p", "..cache"), at("", "p")), "..cache");
  // The root folder ends with its separator.
  assert.equal(shownPath(`${root}p${sep}a.py`, root), `p${sep}a.py`);
  // No folder given: the working folder.
  assert.equal(shownPath(at(Deno.cwd(), "x.ts")), "x.ts");
  // A relative folder (a library caller's `cwd`): resolved against the working folder.
  assert.equal(shownPath(at(Deno.cwd(), "sub", "x.ts"), "sub"), "x.ts");
  assert.equal(shownPath(at(Deno.cwd(), "sub", "x.ts"), `.${sep}sub${sep}`), "x.ts");
  assert.equal(shownPath(at(Deno.cwd(), "x.ts"), "."), "x.ts");
});
