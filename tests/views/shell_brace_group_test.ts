import assert from "node:assert/strict";
import { renderCode } from "../../plugins/view_modes/_code.ts";

// A script wrapped in `{ ... }` so that a shell runs none of it before all of it has arrived
// (nvm's `nvm.sh` and `install.sh`, 160 KB and 100 functions, `curl ... | bash` installers): the
// code views kept nothing of it, not one function. Written for these tests.
const TEXT = [
  "#!/usr/bin/env bash",
  "",
  "{ # this ensures the entire script is downloaded #",
  "",
  "# The directory nvm lives in.",
  'NVM_DIR="${HOME}/.nvm"',
  "",
  "nvm_echo() {",
  '  command printf %s\\\\n "$*" 2>/dev/null',
  "}",
  "",
  'if [ -z "${NVM_DIR}" ]; then',
  "  exit 1",
  "fi",
  "",
  "nvm_install() {",
  '  nvm_echo "installing"',
  "}",
  "",
  "nvm_install",
  "",
  "} # this ensures the entire script is downloaded #",
  "",
].join("\n");

Deno.test("a shell script's top-level brace group keeps its functions and assignments", async () => {
  const view = (await renderCode("install.sh", TEXT))!;
  assert.deepEqual(view.symbols.map((s) => `${s.kind} ${s.qualifiedName}`), [
    "variable NVM_DIR",
    "function nvm_echo",
    "function nvm_install",
  ]);
  assert.equal(
    view.text,
    [
      // The `#!` line is the file's: it stays with the blank line below it.
      "#!/usr/bin/env bash",
      "",
      "{",
      "# The directory nvm lives in.",
      'NVM_DIR="${HOME}/.nvm"',
      "",
      "nvm_echo() { ... }",
      "",
      "nvm_install() { ... }",
      "} # this ensures the entire script is downloaded #",
      "",
    ].join("\n"),
  );
});

Deno.test("a brace group of commands alone is left out", async () => {
  const text = "f() {\n  echo f\n}\n\n{\n  echo a\n  echo b\n} > log.txt\n";
  const view = (await renderCode("run.sh", text))!;
  assert.equal(view.text, "f() { ... }\n");
});

Deno.test("the body of a function head the parser cannot read is no brace group of the script", async () => {
  // symfony/console's `completion.bash` is a template: `_sf_{{ COMMAND_NAME }}() {`.
  const text = [
    "_sf_{{ COMMAND_NAME }}() {",
    '    local cur="${COMP_WORDS[COMP_CWORD]}"',
    "    IFS=$'\\n'",
    "}",
    "",
    "complete -F _sf_{{ COMMAND_NAME }} {{ COMMAND_NAME }}",
    "",
  ].join("\n");
  const view = (await renderCode("completion.bash", text))!;
  assert.deepEqual(view.symbols, []);
  assert.equal(view.text.trim(), "");
});

Deno.test("a brace group whose output is redirected keeps its functions and its redirect", async () => {
  // An installer that logs all it does (`{ ... } > install.log 2>&1`, `{ ...; } >> log`): the
  // group is a redirected statement, whose items the code views left out with its commands.
  const text = [
    "#!/bin/sh",
    "{",
    "  set -e",
    "  install_dir() {",
    '    echo "$HOME/.tool"',
    "  }",
    "  VERSION=1.2",
    '  mkdir -p "$(install_dir)"',
    "} > /tmp/install.log 2>&1",
    "{ echo a; echo b; } | sort",
    "echo done > /tmp/done",
    "{ X=2; echo $X; } >> log",
    "",
  ].join("\n");
  const view = (await renderCode("install.sh", text))!;
  assert.deepEqual(view.symbols.map((s) => `${s.kind} ${s.qualifiedName}`), [
    "function install_dir",
    "variable VERSION",
    "variable X",
  ]);
  assert.equal(
    view.text,
    [
      "#!/bin/sh",
      "{",
      "  set -e",
      "  install_dir() { ... }",
      "  VERSION=1.2",
      "} > /tmp/install.log 2>&1",
      "{ X=2; } >> log",
      "",
    ].join("\n"),
  );
});

Deno.test("a script's #! line stays whatever becomes of the statement after it", async () => {
  // The `#!` line is the file's (it says what runs it), not a comment of the first statement: a
  // dropped command, a blank line or a header comment after it does not take it away.
  const body = "f() {\n  echo f\n}\n";
  const cases: [string, string, string][] = [
    ["run.sh", `#!/bin/sh\necho hi\n${body}`, "#!/bin/sh\nf() { ... }\n"],
    ["run.sh", `#!/bin/sh\n\n${body}`, "#!/bin/sh\n\nf() { ... }\n"],
    ["run.sh", `#!/bin/sh\n# Copyright\n\necho hi\n\n${body}`, "#!/bin/sh\n\nf() { ... }\n"],
    ["run.sh", `#!/bin/sh\nset -e\n\n${body}`, "#!/bin/sh\nset -e\n\nf() { ... }\n"],
    [
      "bin/tool.js",
      "#!/usr/bin/env node\nif (x) {\n  y();\n}\n\nfunction main() {}\n",
      "#!/usr/bin/env node\n\nfunction main() {}\n",
    ],
    [
      "tool.py",
      "#!/usr/bin/env python3\n\nmain()\n\ndef main():\n    return 1\n",
      "#!/usr/bin/env python3\n\ndef main():\n    ...\n",
    ],
  ];
  for (const [path, text, expected] of cases) {
    assert.equal((await renderCode(path, text))!.text, expected, text);
  }
});
