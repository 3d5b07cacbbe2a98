// A finding names the line its secret is on whatever the file's line ends: LF, CRLF, CR alone
// (old Mac files) or a mix. CR-only files used to report every finding on line 1.
import assert from "node:assert/strict";
import { redactText } from "../../pipeline/_scan.ts";
import { applyRedactions } from "../../pipeline/secret_rules.ts";
import { failOnSecrets } from "../../pipeline/secrets.ts";
import { splitSecretPaths } from "../../pipeline/_secret_paths.ts";

const SECRET = `API_SECRET=${"4d".repeat(32)}`;

for (const [name, end] of [["LF", "\n"], ["CRLF", "\r\n"], ["CR", "\r"]]) {
  Deno.test(`a finding names its line in a file with ${name} line ends`, async () => {
    const text = ["# settings", "name = app", SECRET, "debug = false", SECRET].join(end) + end;
    const { findings } = await redactText(text, "settings.env", { secretlint: false });
    assert.deepEqual(findings.map((f) => f.line), [3, 5]);
  });
}

Deno.test("a finding's line counts each line end once in a file of mixed line ends", () => {
  // Lines: 1 "a" (CRLF), 2 "b" (CR), 3 "c" (LF), 4 "" (CR), 5 the secret; a CR right before a
  // match's start and the LF after it fall on the two sides of a span: still one line end.
  const text = "a\r\nb\rc\n\rkey=XYZ\r\nz";
  const start = text.indexOf("XYZ");
  const { findings } = applyRedactions(text, [
    { start, end: start + 3, rule: "k" },
    { start: text.length - 1, end: text.length, rule: "z" },
  ]);
  assert.deepEqual(findings, [{ line: 5, rule: "k" }, { line: 6, rule: "z" }]);
  const split = "x\r\ny=S";
  const at = split.indexOf("\n");
  assert.deepEqual(
    applyRedactions(split, [{ start: at, end: at + 1, rule: "n" }, { start: 4, end: 5, rule: "s" }])
      .findings,
    [{ line: 1, rule: "n" }, { line: 2, rule: "s" }],
  );
});

Deno.test("two matches of one rule on one line are one warning", () => {
  const warnings: string[] = [];
  const findings = [
    { path: "screenshots", line: 3, rule: "sendgrid" },
    { path: "screenshots", line: 3, rule: "sendgrid" },
    { path: "screenshots", line: 4, rule: "sendgrid" },
  ];
  failOnSecrets(findings, false, (w) => warnings.push(w));
  assert.deepEqual(warnings, [
    'Redacted a secret in "screenshots" line 3 (sendgrid)',
    'Redacted a secret in "screenshots" line 4 (sendgrid)',
  ]);
});

Deno.test("names with CR or LF in them do not shift which paths are left out for a secret", () => {
  const key = `AKIA${"Q".repeat(16)}`;
  const paths = ["a\rb.txt", `k/${key}.txt`, "c.txt", "d\r", `x\n${key}`, "e\r\nf", "z\r"];
  assert.deepEqual(splitSecretPaths(paths), {
    kept: ["a\rb.txt", "c.txt", "d\r", "e\r\nf", "z\r"],
    dropped: ["k/[REDACTED:aws].txt", "x\n[REDACTED:aws]"],
  });
  // The secret last, after a name that ends in CR.
  assert.deepEqual(splitSecretPaths(["y\r", key]).dropped, ["[REDACTED:aws]"]);
});
