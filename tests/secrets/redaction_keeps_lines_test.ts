// A redaction keeps the document's lines (the eighth sweep's leftover): a value over several lines
// (a private key, a value split over two string literals on two lines, a `\` continuation, a YAML
// value on the line after its key) was replaced by one marker, and the lines of everything after
// it moved up. Now each of its lines is a marker, with its line end, its indent and the quotes
// and operator around the value's piece kept; a blank line stays blank. Python's literals side
// by side on two lines are one string only inside brackets: outside, the next line's literal is
// a statement of its own and stays. The values are made here at random: no real secret is
// written in this repository.
import assert from "node:assert/strict";
import { redactText } from "../../pipeline/_scan.ts";
import { prng } from "../_helpers.ts";

const random = prng(4211);
const pick = (chars: string, n: number) =>
  Array.from({ length: n }, () => chars[Math.floor(random() * chars.length)]).join("");
const AN = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const token = () =>
  pick("ABCDEFGHJKLMNPQRSTUVWXYZ", 2) + pick("abcdefghjkmnpqrstuvwxyz", 2) + pick("23456789", 2) +
  pick(AN, 26);
const password = () =>
  pick("ABCDEFGHJKLMNPQRSTUVWXYZ", 1) + pick("abcdefghjkmnpqrstuvwxyz", 5) + pick("23456789", 3) +
  pick("!#%&*?", 1) + pick("abcdefghjkmnpqrstuvwxyz", 3);
const base64 = (n: number) => pick(AN + "+/", n);

/** Lines as the rules count them. */
const lines = (text: string) => text.split(/\r\n|[\n\v\f\r\x85\u2028\u2029]/);

/** Texts whose redaction spans lines, with the secret pieces planted in each. */
function cases(): Array<[path: string, text: string, pieces: string[]]> {
  const k = [base64(64), base64(64), base64(40)];
  const t = token(), u = token(), w = password();
  const [a, b] = [t.slice(0, 16), t.slice(16)];
  return [
    [
      "key.pem",
      `-----BEGIN RSA PRIVATE KEY-----\nMIIE${k[0]}\n${k[1]}\n\n${
        k[2]
      }\n-----END RSA PRIVATE KEY-----\nafter\n`,
      k,
    ],
    [
      "values.yml",
      `tls:\n  key: |\n    -----BEGIN RSA PRIVATE KEY-----\n    MIIE${k[0]}\n    ${
        k[1]
      }\n    -----END RSA PRIVATE KEY-----\n  port: 1\n`,
      k,
    ],
    ["settings.py", `SECRET = ("${a}"\n          "${b}")\nDEBUG = True\n`, [a, b]],
    ["app.js", `const apiKey = '${a}' +\n  '${b}';\nlet y = 2;\n`, [a, b]],
    ["app.php", `$key = "${a}" .\r\n    "${b}";\r\n$y = 2;\r\n`, [a, b]],
    [".env", `API_TOKEN="${a}\\\n${b}"\nY=2\n`, [a, b]],
    ["a.yml", `password:\n  ${w}\nnext: ${u.slice(0, 3)}\n`, [w]],
  ];
}

Deno.test("a redaction over several lines keeps the document's lines, a marker on each", async () => {
  for (const [path, text, pieces] of cases()) {
    const out = (await redactText(text, path)).text;
    const [before, after] = [lines(text), lines(out)];
    assert.equal(after.length, before.length, `${path}:\n${out}`);
    for (const piece of pieces) assert.ok(!out.includes(piece), `${path}:\n${out}`);
    // each line either is the file's own or holds a marker (a blank one stays blank)
    for (let i = 0; i < before.length; i++) {
      if (before[i] === after[i]) continue;
      assert.ok(after[i].includes("[REDACTED:"), `${path} line ${i + 1}: ${after[i]}`);
      assert.equal(before[i].trim() === "", after[i].trim() === "", `${path} line ${i + 1}`);
    }
    // the text after the secret is where it was, and a second scan changes nothing
    assert.equal(after[after.length - 2], before[before.length - 2], path);
    assert.equal((await redactText(out, path)).text, out, path);
  }
});

Deno.test("the quotes and operators around each line's piece of a value stay", async () => {
  const t = token();
  const text = `const apiKey = '${t.slice(0, 16)}' +\n  '${t.slice(16)}';\n`;
  assert.equal(
    (await redactText(text, "app.js")).text,
    "const apiKey = '[REDACTED:named-secret]' +\n  '[REDACTED:named-secret]';\n",
  );
});

Deno.test("Python's literal on the next line outside brackets is a statement of its own", async () => {
  for (
    const [first, second] of [
      [`password = '{V}'`, `'{W}'`],
      [`token = "{V}"`, `"{W}"`],
      [`API_KEY = "{V}"  # (a comment's "(" is no bracket)`, `"""{W}"""`],
      [`f(")")\nsecret = '{V}'`, `'{W}'`],
    ]
  ) {
    const v = password(), w = pick("abcdefghjkmnpqrstuvwxyz ", 16);
    const text = `${first.replace("{V}", v)}\n${second.replace("{W}", w)}\nx = 1\n`;
    const out = (await redactText(text, "module.py")).text;
    assert.ok(!out.includes(v), out);
    assert.ok(out.includes(`\n${second.replace("{W}", w)}\nx = 1\n`), out);
  }
  // inside brackets the literals are one string, redacted whole
  const t = token();
  for (const open of ["(", "dict(key=", "(\n    "]) {
    const text = `SECRET = ${open}"${t.slice(0, 14)}"\n    "${t.slice(14)}"\n`;
    const out = (await redactText(text, "settings.py")).text;
    assert.ok(!out.includes(t.slice(0, 14)) && !out.includes(t.slice(14)), out);
  }
});
