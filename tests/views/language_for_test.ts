import assert from "node:assert/strict";
import { languageFor, LANGUAGES } from "../../grammars/languages.ts";
import { extname } from "../../pipeline/_path.ts";

/** What `languageFor` gave when grammars/ took the extension from `pipeline/_path.ts`. */
const byPathModule = (path: string) =>
  LANGUAGES.find((l) => l.extensions.includes(extname(path).toLowerCase()));

Deno.test("languageFor: a path's language comes from the extension node:path would give", () => {
  const paths = [
    "a.py",
    "src/app.tsx",
    "A.PY",
    ".py",
    "a/.py",
    "a.py/",
    "a.py//",
    "dir.py/file",
    "dir.py/",
    "..",
    "../x.go",
    "a..py",
    "a.",
    ".",
    "",
    "/",
    "///",
    "a/b/c.rs",
    "C:x.py",
    "C:\\a\\b.py",
    "a\\b.py",
    "x.d.ts",
    ".hidden.ts",
    "noext",
    "a.py.md",
    "README.md",
    "b/..py",
    "..py",
  ];
  for (const path of paths) assert.equal(languageFor(path), byPathModule(path), path);
  // Generated paths over the characters that matter: separators, dots, a drive colon.
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const alphabet = ["/", "\\", ".", ".", "p", "y", "P", ":", "C", "t", "s", "x"];
  for (let n = 0; n < 20000; n++) {
    const length = Math.floor(random() * 9);
    let path = "";
    for (let i = 0; i < length; i++) path += alphabet[Math.floor(random() * alphabet.length)];
    assert.equal(languageFor(path), byPathModule(path), JSON.stringify(path));
  }
  // The check is not empty: some generated and listed paths have a language.
  assert.equal(languageFor("dir.py/")?.id, "python");
  assert.equal(languageFor(".py"), undefined);
});
