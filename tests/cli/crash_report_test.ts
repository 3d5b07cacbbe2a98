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

Deno.test("an npm package Deno cannot fetch is no bug: the cause and what to check, no stack", () => {
  // As Deno 2 throws it for an import whose package the registry did not serve.
  const error = Object.assign(
    new TypeError(
      `Failed loading http://127.0.0.1:9/tree-sitter-python for package "tree-sitter-python"\n` +
        "    0: error sending request for url (http://127.0.0.1:9/tree-sitter-python): " +
        "client error (Connect): tcp connect error: Connection refused (os error 111)\n" +
        "    at \x1b[0m\x1b[36mfile:///slop/deps.ts\x1b[0m:\x1b[0m\x1b[33m108\x1b[0m:\x1b[0m\x1b[33m8\x1b[0m",
    ),
    { code: "ERR_MODULE_NOT_FOUND" },
  );
  const lines = crashReport(error).trimEnd().split("\n");
  assert.equal(
    lines[0],
    `slop: cannot load slop's npm packages: Failed loading http://127.0.0.1:9/tree-sitter-python for package "tree-sitter-python"`,
  );
  assert.match(lines[1], /^ {2}0: error sending request .*Connection refused/);
  assert.match(lines[2], /npm registry .*HTTPS_PROXY.*NPM_CONFIG_REGISTRY/);
  assert.equal(lines.length, 3, "no stack, no colour codes");
  assert.doesNotMatch(lines.join("\n"), /bug in slop/);
  assert.ok(!lines.join("\n").includes("\x1b"), "no colour codes");
  // A module of slop's own that is missing is still a bug.
  const own = Object.assign(new TypeError('Module not found "file:///slop/cli/gone.ts"'), {
    code: "ERR_MODULE_NOT_FOUND",
  });
  assert.match(crashReport(own), /^slop: internal error: Module not found/);
});

Deno.test("a crash report's stack has no colour codes", () => {
  const error = new Error("boom");
  error.stack = "Error: boom\n    at \x1b[0m\x1b[36mfile:///x.ts\x1b[0m:\x1b[0m\x1b[33m1\x1b[0m:1";
  assert.equal(crashReport(error).split("\n")[2], "    at file:///x.ts:1:1");
});
