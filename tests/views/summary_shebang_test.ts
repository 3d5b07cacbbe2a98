import assert from "node:assert/strict";
import { summarize } from "../../plugins/view_modes/summary.ts";

Deno.test("a script without an extension is summarized in the language its #! line names", () => {
  const cases: Array<[string, string, string]> = [
    ["#!/usr/bin/python3\n", "def main():\n    pass\n", "**Python**"],
    ["#!/usr/bin/env python3.12\n", "import os\n", "**Python**"],
    ["#!/usr/bin/env -S PYTHONHASHSEED=0 python -u\n", "class A: pass\n", "**Python**"],
    ["#!/usr/bin/ruby\n", "require 'rack'\nmodule M; end\n", "**Ruby**"],
    ["#!/usr/bin/env node\n", "export function run() {}\n", "**JavaScript**"],
    ["#!/usr/bin/env -S deno run -A\n", "export function run() {}\n", "**TypeScript**"],
    ["#!/usr/bin/php\n", "<?php\nfunction f() {}\n", "**PHP**"],
    ["#!/bin/sh\n", "f() { :; }\n", "**Shell**"],
    ["#!/usr/bin/env bash\n", "function f { :; }\n", "**Shell**"],
    ["#!/bin/zsh -f\n", ". ./env.zsh\n", "**Shell**"],
    ["#!/usr/bin/env pwsh\n", "function Get-X { }\n", "**PowerShell**"],
  ];
  for (const [line, body, label] of cases) {
    const summary = summarize("bin/tool", line + body);
    assert.ok(summary.startsWith(`${label}, `), `${line}: ${summary}`);
    assert.match(summary, /\n- \w+: `/, `${line}: ${summary}`);
  }
});

Deno.test("a #! line decides nothing for a file with an extension, or for an unknown interpreter", () => {
  // A shell script read as Shell by its extension, whatever its #! line names.
  assert.match(summarize("run.sh", "#!/usr/bin/env python3\ndef f(): pass\n"), /^\*\*Shell\*\*/);
  for (
    const [path, text] of [
      ["bin/tool", "#!/bin/awk -f\ndef f(): pass\n"],
      ["bin/tool", "#!/usr/bin/env\n"],
      ["bin/tool", "#!\n"],
      ["bin/tool", "#!" + " ".repeat(100_000) + "python\n"],
    ]
  ) {
    assert.match(summarize(path, text), /^\*\*Text\*\*/, `${path}: ${text.slice(0, 40)}`);
  }
});
