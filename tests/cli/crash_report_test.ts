import assert from "node:assert/strict";
import { crashReport } from "../../cli/_output.ts";

// Built at run time, so that this file holds no key shape a scanner would flag.
const KEY = ["ghp", "_", "a1B2".repeat(9)].join("");

Deno.test("an error no command caught prints one line naming it a bug, then its stack", () => {
  const text = crashReport(new Error("boom\nsecond line"));
  const lines = text.trimEnd().split("\n");
  assert.equal(lines[0], "slop: internal error: boom");
  assert.match(lines[1], /a bug in slop/);
  assert.ok(lines.slice(2).every((line) => line.trimStart().startsWith("at ")), text);
  assert.ok(lines.length > 2, "the stack is printed for the report");
});

Deno.test("a crash report redacts a key in the message and in the stack", () => {
  const error = new Error(`Invalid value "${KEY}"`);
  error.stack = `Error: Invalid value "${KEY}"\n    at run (file:///x/${KEY}.ts:1:1)`;
  const text = crashReport(error);
  assert.ok(!text.includes(KEY), text);
  assert.match(text, /\[REDACTED:github\]/);
});

Deno.test("a thrown value that is no Error is printed as text", () => {
  assert.equal(crashReport("plain").split("\n")[0], "slop: internal error: plain");
});
