import assert from "node:assert/strict";
import { join } from "node:path";
import { makeProject, REPO, runCli, runScript, tempDir } from "../_helpers.ts";
import { messageFaults } from "./_bad_input.ts";

/**
 * Paths a user or a config names that slop reads (`--task-file`, the config file, a `.gitignore`)
 * given what no file should be: a FIFO no program writes, a device, a socket, a link loop, a file
 * of 3 GB, a file of /proc that never ends. Each case runs in a child process killed after
 * {@linkcode KILL_MS}: a read that waits for good fails the test (as a kill) instead of holding
 * the suite. The bound is not the point of a case being quick; the cases are seconds apart from it.
 */
const KILL_MS = 90_000;

/** Run `code` (a module, importing by absolute URL) in a child in `cwd`, killed after KILL_MS. */
async function inChild(code: string, cwd: string): Promise<string> {
  const out = await runScript(code, cwd, { signal: AbortSignal.timeout(KILL_MS) });
  assert.equal(out.signal, null, `killed after ${KILL_MS / 1000} s (a hang): ${out.stdout}`);
  assert.equal(out.code, 0, out.stderr);
  return out.stdout;
}

/** Put each hostile kind at `dir/<name>` (a FIFO, devices, a socket's stand-in, a loop, 3 GB). */
async function hostileFiles(dir: string): Promise<Record<string, string>> {
  const made: Record<string, string> = {};
  const at = (name: string) => (made[name] = join(dir, name));
  const fifo = await new Deno.Command("mkfifo", { args: [at("fifo")] }).output();
  assert.ok(fifo.success, "mkfifo");
  await Deno.symlink("/dev/zero", at("zero"));
  await Deno.symlink("/dev/urandom", at("urandom"));
  await Deno.symlink(at("loop"), at("loop"));
  await Deno.symlink("/proc/self/pagemap", at("pagemap"));
  await Deno.writeFile(at("huge"), new Uint8Array());
  await Deno.truncate(made.huge, 3 * 1024 ** 3);
  await Deno.mkdir(at("folder"));
  return made;
}

Deno.test("--task-file on a FIFO, a device, a loop, 3 GB or /proc: one clear error each, no wait for good", async () => {
  const root = await makeProject({ "a.py": "x = 1\n" });
  const files = await hostileFiles(root);
  const flags = new URL("cli/_flags.ts", `file://${REPO}/`).href;
  const out = await inChild(
    `import { taskFlag } from ${JSON.stringify(flags)};
const out = {};
for (const name of ${JSON.stringify(Object.keys(files))}) {
  out[name] = await taskFlag({ taskFile: name }, ${JSON.stringify(root)}).then(
    (t) => "read " + t.length, (e) => e.message);
}
console.log(JSON.stringify(out));
Deno.exit(0);`,
    root,
  );
  const got: Record<string, string> = JSON.parse(out);
  const reasons: Record<string, RegExp> = {
    fifo: /it is a FIFO that no program opened to write in 10 s/,
    zero: /it is a device \(such as \/dev\/zero or a terminal\)/,
    urandom: /it is a device/,
    loop: /symbolic link loop/,
    pagemap: /cannot read it: invalid argument/,
    huge: /it holds over 10485760 bytes, more than a task.s text/,
    folder: /it is a folder/,
  };
  for (const [name, reason] of Object.entries(reasons)) {
    assert.match(got[name], reason, name);
    assert.deepEqual(messageFaults(got[name], [`"${name}"`, "--task-file"]), [], got[name]);
  }
});

Deno.test("--task-file on a FIFO reads what a program writes into it, started after slop", async () => {
  const root = await makeProject({ "a.py": "def retry():\n    return 1\n" });
  const fifo = join(root, "issue");
  assert.ok((await new Deno.Command("mkfifo", { args: [fifo] }).output()).success);
  // The writer opens the FIFO a second after slop does (its open waits for a reader).
  const writer = new Deno.Command("sh", {
    args: ["-c", `sleep 1; printf 'fix the retry loop' > '${fifo}'`],
    signal: AbortSignal.timeout(KILL_MS),
  }).output();
  const run = await runCli(
    ["build", "--task-file", "issue", "--stdout", "-q", "--no-server"],
    root,
    {},
    {
      signal: AbortSignal.timeout(KILL_MS),
    },
  );
  await writer;
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /fix the retry loop/);
});

Deno.test("a config file that is a folder, a loop, 3 GB or a /proc file is refused before Deno imports it", async () => {
  const root = await makeProject({ "a.py": "x = 1\n" });
  await hostileFiles(root);
  const config = new URL("pipeline/config.ts", `file://${REPO}/`).href;
  const names = ["folder", "loop", "huge", "pagemap", "fifo", "zero"];
  const out = await inChild(
    `import { loadConfig } from ${JSON.stringify(config)};
const out = {};
for (const name of ${JSON.stringify(names)}) {
  out[name] = await loadConfig({ cwd: ${JSON.stringify(root)}, config: name }).then(
    () => "loaded", (e) => e.message);
}
// The config slop finds by its name, as a folder.
Deno.mkdirSync(${JSON.stringify(join(root, "slop.config.ts"))});
out.found = await loadConfig({ cwd: ${
      JSON.stringify(root)
    } }).then(() => "loaded", (e) => e.message);
console.log(JSON.stringify(out));
Deno.exit(0);`,
    root,
  );
  const got: Record<string, string> = JSON.parse(out);
  const reasons: Record<string, RegExp> = {
    folder: /is a folder, not a file/,
    loop: /is a symbolic link loop/,
    huge: /it holds over 16777216 bytes, more than slop loads of a config module/,
    pagemap: /cannot read it: invalid argument/,
    fifo: /it is not a regular file/,
    zero: /it is not a regular file/,
    found: /"slop\.config\.ts": Cannot load the config: "[^"]*slop\.config\.ts" is a folder/,
  };
  for (const [name, reason] of Object.entries(reasons)) {
    assert.match(got[name], reason, name);
    const shown = name === "found" ? "slop.config.ts" : `"${name}"`;
    assert.deepEqual(messageFaults(got[name], [shown]), [], got[name]);
  }
});

Deno.test("a .gitignore slop cannot read (a FIFO, a device, a folder) is named in a warning, and the build ends", async () => {
  const cases = ["fifo", "zero", "folder"];
  const out: Record<string, string> = {};
  for (const kind of cases) {
    const root = await makeProject({ "a.py": "x = 1\n", "b.log": "log\n" });
    const files = await hostileFiles(await tempDir());
    if (kind === "folder") await Deno.mkdir(join(root, ".gitignore"));
    else await Deno.rename(files[kind], join(root, ".gitignore"));
    const run = await runCli(["build", "--stdout", "--no-server"], root, {}, {
      signal: AbortSignal.timeout(KILL_MS),
    });
    assert.equal(run.code, 0, run.stderr);
    out[kind] = run.stderr.split("\n").find((l) => l.includes('".gitignore"')) ?? "";
  }
  assert.match(
    out.fifo,
    /Cannot read "\.gitignore": it is not a regular file .*; its rules are not applied/,
  );
  assert.match(out.zero, /Cannot read "\.gitignore": it is not a regular file/);
  assert.match(out.folder, /Cannot read "\.gitignore": it is a folder; its rules are not applied/);
});
