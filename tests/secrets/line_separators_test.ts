import assert from "node:assert/strict";
import { redactText } from "../../pipeline/_scan.ts";
import { splitSecretPaths } from "../../pipeline/_secret_paths.ts";
import { buildContext } from "../../mod.ts";
import { makeProject } from "../_helpers.ts";

// A file whose lines end with another separator than LF or CRLF: a lone CR (old Mac files), NEL
// (U+0085), the line and paragraph separators (U+2028, U+2029), a form feed or a vertical tab.
// A reader sees one setting a line; the rules read lines by LF, and took the file for one line:
// `password: swordfish42` after a separator, AWS's key after a NEL and Spring's letters-only
// password after a lone CR were kept.
const LINES = [
  "DB_PASSWORD=Zq7wK2p9vX",
  "password: swordfish42",
  "export AWS_SECRET_ACCESS_KEY=Tk3bZ9xQ2mN8vL4pR7sW1yC6dF0hJ5gK3aE9uI2o",
  "spring.datasource.password=swordfish",
  "<password>hunter2hunter2</password>",
];
const VALUES = ["Zq7wK2p9vX", "swordfish42", "Tk3bZ9xQ2mN8", "=swordfish\n", "hunter2hunter2"];
const SEPARATORS = { cr: "\r", nel: "\u0085", ls: "\u2028", ps: "\u2029", ff: "\f", vt: "\v" };

Deno.test("secrets on lines ended by CR, NEL, U+2028, U+2029, a form feed or a vertical tab are redacted as on LF lines", async () => {
  for (const path of ["app.properties", "a.py", "settings.yml"]) {
    const lf = await redactText(LINES.join("\n") + "\n", path);
    for (const value of VALUES) assert.ok(!lf.text.includes(value), `${path}, LF: ${value}`);
    for (const [name, separator] of Object.entries(SEPARATORS)) {
      const text = LINES.join(separator) + separator;
      const redacted = await redactText(text, path);
      // Compared with the separator read as a line end, as the document shows a lone CR.
      const shown = redacted.text.replaceAll(separator, "\n");
      for (const value of VALUES) assert.ok(!shown.includes(value), `${path}, ${name}: ${value}`);
      assert.deepEqual(redacted.findings.map((f) => f.rule), lf.findings.map((f) => f.rule), name);
      // Each finding names the line the rules read it on (they all said line 1 after NEL).
      assert.deepEqual(redacted.findings.map((f) => f.line), lf.findings.map((f) => f.line), name);
      // Only the values are replaced: the separators stay where they were.
      assert.equal(redacted.text.split(separator).length, LINES.length + 1, name);
    }
  }
});

Deno.test("a path whose name holds another line end is dropped alone when it holds a secret", () => {
  for (const separator of Object.values(SEPARATORS)) {
    const secret = `keys/AKIA${"Q".repeat(16)}.txt`;
    const paths = [`a${separator}b.ts`, secret, `c${separator}d.ts`];
    const { kept, dropped } = splitSecretPaths(paths);
    assert.deepEqual(kept, [paths[0], paths[2]], JSON.stringify(separator));
    assert.equal(dropped.length, 1, JSON.stringify(separator));
  }
});

Deno.test("a build redacts a CR-only file's secrets and shows its lines with LF", async () => {
  const root = await makeProject({ "app.properties": LINES.join("\r") + "\r" });
  const { document } = await buildContext({ cwd: root }, { write: false });
  for (const value of VALUES) assert.ok(!document.includes(value), value);
  assert.match(document, /spring\.datasource\.password=\[REDACTED:\w[\w-]*\]\n/);
});
