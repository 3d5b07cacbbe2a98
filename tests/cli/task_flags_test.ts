// `slop build --task TEXT` and `--task-file PATH`: the task reaches the document; bad values are
// errors that name the flag or the path.
import assert from "node:assert/strict";
import { join } from "node:path";
import { makeProject, REPO, runCliShared } from "../_helpers.ts";
import { ok, serverCase } from "./_server.ts";
import { taskFlag } from "../../cli/_flags.ts";

const TASK = "Fix the parser: a quoted comma splits the field";

async function project(): Promise<string> {
  return await makeProject({
    "src/parser.py":
      '"""Parse CSV fields."""\n\n\ndef split_field(line):\n    return line.split(",")\n',
    "src/report.py": '"""Print a report."""\n\n\ndef show(rows):\n    print(rows)\n',
    "notes/task.md": `${TASK}\n`,
    "notes/empty.md": " \n\n",
    "notes/latin1.txt": new Uint8Array([0x63, 0x61, 0x66, 0xe9]),
  });
}

function taskOf(document: string): string {
  return document.slice(document.lastIndexOf("## Task\n"));
}

Deno.test("slop build --task puts the task after the files, last in the document", async () => {
  const root = await project();
  const run = await runCliShared(["build", "--task", TASK, "--stdout", "-q"], root);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(taskOf(run.stdout), `## Task\n\n${TASK}\n\n`);
  assert.ok(run.stdout.indexOf("## Files") < run.stdout.indexOf("## Task Files"));
  const json = await runCliShared(
    ["build", "--task", TASK, "--ignore", "notes/**", "--json", "-q"],
    root,
  );
  const manifest = JSON.parse(json.stdout);
  assert.equal(manifest.task.files[0].path, "src/parser.py");
  assert.equal(manifest.task.files[0].where, "map");
  // Ranked as slop rank ranks (its view modes loaded as the build needs them).
  const all = JSON.parse(
    (await runCliShared(["build", "--task", TASK, "--json", "-q"], root)).stdout,
  );
  const rank = await runCliShared(["rank", "--task", TASK, "--json"], root);
  const ranked = JSON.parse(rank.stdout).files as Array<{ path: string; score: number }>;
  const named = all.task.files as Array<{ path: string; score: number }>;
  assert.deepEqual(
    named.map((f) => [f.path, f.score]),
    ranked.slice(0, named.length).map((f) => [f.path, f.score]),
  );
});

/** Run the CLI in `cwd` with the task on its standard input; its stdout. */
async function withStdin(cwd: string, args: string[], env: Record<string, string> = {}) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", join(REPO, "cli.ts"), ...args],
    cwd,
    env: { NO_COLOR: "1", ...env },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(TASK));
  await writer.close();
  const out = await child.output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout);
}

Deno.test("slop build --task-file reads the task from a file or from stdin", async () => {
  const root = await project();
  const file = await runCliShared(
    ["build", "--task-file", "notes/task.md", "--stdout", "-q"],
    root,
  );
  assert.equal(file.code, 0, file.stderr);
  assert.equal(taskOf(file.stdout), `## Task\n\n${TASK}\n\n`);
  // The task's file is the task, not a file of the project: left out, as --ignore would.
  assert.doesNotMatch(file.stdout, /^### notes\/task\.md$/m);
  const stdin = await withStdin(root, ["build", "--task-file", "-", "--stdout", "-q"]);
  assert.match(stdin, /^### notes\/task\.md$/m);
  assert.equal(
    await withStdin(
      root,
      ["build", "--task-file", "-", "--ignore", "notes/task.md", "--stdout", "-q"],
    ),
    file.stdout,
  );
});

Deno.test("slop build names the task flag or file at fault", async () => {
  const root = await project();
  const cases: Array<[string[], string]> = [
    [
      ["--task", TASK, "--task-file", "notes/task.md"],
      "Give the task with --task or with --task-file, not both",
    ],
    [["--task", " "], `Invalid --task " ": the task is empty`],
    [
      ["--task-file", "notes/nope.md"],
      `Cannot read the task file "notes/nope.md" (--task-file): file not found`,
    ],
    [["--task-file", "notes/empty.md"], `The task file "notes/empty.md" (--task-file) is empty`],
    [
      ["--task-file", "notes/latin1.txt"],
      `Cannot read the task file "notes/latin1.txt" (--task-file): not UTF-8 text`,
    ],
  ];
  for (const [args, message] of cases) {
    const run = await runCliShared(["build", ...args, "--stdout"], root);
    assert.equal(run.code, 2, args.join(" "));
    assert.equal(run.stderr, `slop: ${message}\n`);
    assert.equal(run.stdout, "");
  }
});

Deno.test("a blank or invisible task is named in one short line, its value escaped and cut", async () => {
  const root = await project();
  await Deno.writeTextFile(join(root, "notes/zw.md"), "\u200b\u2060\n\u202e\n");
  const cases: Array<[{ task?: string; taskFile?: string }, string]> = [
    [{ task: " \r\r\n" }, `Invalid --task " \\r\\r\\n": the task is empty`],
    [{ task: "\u200b\u2060" }, `Invalid --task "\u200b\u2060": the task is empty`],
    [{ task: "\n".repeat(1_000_000) }, `Invalid --task "${"\\n".repeat(100)}…": the task is empty`],
    [{ taskFile: "notes/zw.md" }, `The task file "notes/zw.md" (--task-file) is empty`],
    [
      { taskFile: "notes/a\nb.md" },
      `Cannot read the task file "notes/a\\nb.md" (--task-file): file not found`,
    ],
  ];
  for (const [flags, message] of cases) {
    await assert.rejects(taskFlag(flags, root), (error: Error) => {
      assert.equal(error.message, message);
      return true;
    });
  }
});

Deno.test("a task file over 10 MB is refused by its size, and a device (/dev/zero) unread", async () => {
  const root = await makeProject({ "task.md": "fix it\n" });
  const big = await Deno.open(join(root, "big.md"), { create: true, write: true });
  await big.truncate(10 * 1024 * 1024 + 1); // sparse: cheap to make
  big.close();
  await assert.rejects(
    () => taskFlag({ taskFile: "big.md" }, root),
    new Error(
      'Cannot read the task file "big.md" (--task-file): it holds over 10485760 bytes, ' +
        "more than a task's text",
    ),
  );
  await assert.rejects(
    () => taskFlag({ taskFile: "/dev/zero" }, root),
    new Error(
      'Cannot read the task file "/dev/zero" (--task-file): it is a device (such as /dev/zero ' +
        "or a terminal), which slop does not read: put the text in a file",
    ),
  );
  assert.equal(await taskFlag({ taskFile: "task.md" }, root), "fix it\n");
});

Deno.test("a task file in UTF-16 with its byte order mark (Windows PowerShell's `>`) is read as its text", async () => {
  const task = "fix the caf\u00e9 parser \u{1f41b}\n";
  const utf16 = (bigEndian: boolean) => {
    const bytes = new Uint8Array(2 + task.length * 2);
    const view = new DataView(bytes.buffer);
    view.setUint16(0, 0xfeff, !bigEndian);
    for (let i = 0; i < task.length; i++) view.setUint16(2 + i * 2, task.charCodeAt(i), !bigEndian);
    return bytes;
  };
  const root = await makeProject({
    "le.md": utf16(false),
    "be.md": utf16(true),
    "utf8.md": new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(task)]),
  });
  for (const file of ["le.md", "be.md", "utf8.md"]) {
    assert.equal(await taskFlag({ taskFile: file }, root), task, file);
  }
  // UTF-16 cut in the middle of a character is no text.
  await Deno.writeFile(join(root, "odd.md"), utf16(false).subarray(0, 7));
  await assert.rejects(taskFlag({ taskFile: "odd.md" }, root), (error: Error) => {
    assert.equal(
      error.message,
      'Cannot read the task file "odd.md" (--task-file): not UTF-16 text, though it starts with its mark',
    );
    return true;
  });
});

Deno.test("slop build --help lists --task and --task-file", async () => {
  const run = await runCliShared(["build", "--help"], await project());
  assert.match(run.stdout, /--task <text>/);
  assert.match(run.stdout, /--task-file <path>/);
});

Deno.test("slop build --server takes the task, its file read by the client (stdin too)", async () => {
  const { root, runtime, slop, stopAll } = await serverCase({
    "src/parser.py":
      '"""Parse CSV fields."""\n\n\ndef split_field(line):\n    return line.split(",")\n',
    "notes/task.md": `${TASK}\n`,
  });
  try {
    const inProcess = ok(await slop(["build", "--task", TASK, "--stdout", "-q"]));
    // The task's file is left out of the build, through the server too.
    const withoutFile = ok(
      await slop(["build", "--task", TASK, "--ignore", "notes/task.md", "--stdout", "-q"]),
    );
    const viaFile = ok(
      await slop(["build", "--server", "--task-file", "notes/task.md", "--stdout", "-q"]),
    );
    assert.equal(viaFile.stdout, withoutFile.stdout);
    assert.equal(taskOf(viaFile.stdout), `## Task\n\n${TASK}\n\n`);
    const piped = await withStdin(
      root,
      ["build", "--server", "--task-file", "-", "--stdout", "-q"],
      {
        XDG_RUNTIME_DIR: runtime,
        CI: "",
      },
    );
    assert.equal(piped, inProcess.stdout);
    const both = await slop(["build", "--server", "--task", "x", "--task-file", "notes/task.md"]);
    assert.equal(both.code, 2);
    assert.equal(both.stderr, "slop: Give the task with --task or with --task-file, not both\n");
  } finally {
    await stopAll();
  }
});
