import assert from "node:assert/strict";
import { join } from "node:path";
import { loadPicomatch } from "../../deps.ts";
import { makeProject, REPO, tempDir } from "../_helpers.ts";
import { watchOnceWithStderr } from "./_watch.ts";
import { literalGlob, ownOutputFiles } from "../../cli/_own_output.ts";

const KEY = `sk-or-v1-${"ab".repeat(32)}`;

async function until(test: () => Promise<boolean>, what: string): Promise<void> {
  for (let waited = 0; !(await test()); waited += 50) {
    if (waited > 60_000) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

Deno.test("slop watch > watch.log in the project neither rebuilds on its own lines nor bundles the log", async () => {
  const root = await makeProject({
    "slop.config.ts": `export default { files: ["**"] };\n`,
    "src/a.ts": "export const a = 1;\n",
  });
  const command = [Deno.execPath(), "run", "-A", "--quiet", join(REPO, "cli.ts"), "watch"]
    .map((arg) => `'${arg}'`).join(" ");
  const child = new Deno.Command("sh", {
    args: ["-c", `${command} --debounce 50 --max-builds 1 > watch.log 2>&1`],
    cwd: root,
    env: { NO_COLOR: "1" },
  }).spawn();
  const guard = setTimeout(() => child.kill("SIGKILL"), 60_000);
  const log = () => Deno.readTextFile(join(root, "watch.log")).catch(() => "");
  // The watcher is on before it says it watches: the edit needs no wait.
  await until(async () => (await log()).includes("watching for changes"), "the first build");
  await Deno.writeTextFile(join(root, "src/a.ts"), "export const a = 2;\n");
  const status = await child.status;
  clearTimeout(guard);
  const lines = (await log()).trimEnd().split("\n");
  assert.equal(status.code, 0, lines.join("\n"));
  assert.equal(lines[0], "slop: built .slop/out/context_001.md; watching for changes");
  assert.match(lines[1], /^slop: src\/a\.ts changed: built \.slop\/out\/context_002\.md in /);
  for (const name of ["context_001.md", "context_002.md"]) {
    const document = await Deno.readTextFile(join(root, ".slop/out", name));
    assert.ok(document.includes("src/a.ts"), name);
    assert.ok(!document.includes("watch.log"), `${name} bundles the watcher's own log`);
  }
});

Deno.test("slop watch tells a warning once while it stays the same and counts it on the rebuild line", async () => {
  const root = await makeProject({
    "slop.config.ts": `export default { files: ["src/**"] };\n`,
    "src/keys.ts": `export const KEY = "${KEY}";\n`,
    "src/b.ts": "export const b = 2;\n",
  });
  const { lines, stderr } = await watchOnceWithStderr(root, async () => {
    await Deno.writeTextFile(join(root, "src/b.ts"), "export const b = 3;\n");
  });
  const told = stderr.split("\n").filter((l) => l.startsWith("warning: Redacted a secret"));
  assert.deepEqual(told, [
    'warning: Redacted a secret in "src/keys.ts" line 1 (openrouter-key)',
  ]);
  assert.match(
    lines[1],
    /^slop: src\/b\.ts changed: .*; stable prefix changed; 1 warning as before$/,
  );
});

Deno.test("slop watch tells a warning again once the file that gave it changes it", async () => {
  const root = await makeProject({
    "slop.config.ts": `export default { files: ["src/**"] };\n`,
    "src/keys.ts": `export const KEY = "${KEY}";\n`,
  });
  const { lines, stderr } = await watchOnceWithStderr(root, async () => {
    await Deno.writeTextFile(join(root, "src/keys.ts"), `\nexport const KEY = "${KEY}";\n`);
  });
  const told = stderr.split("\n").filter((l) => l.startsWith("warning: Redacted a secret"));
  assert.deepEqual(told, [
    'warning: Redacted a secret in "src/keys.ts" line 1 (openrouter-key)',
    'warning: Redacted a secret in "src/keys.ts" line 2 (openrouter-key)',
  ]);
  assert.doesNotMatch(lines[1], /as before/);
});

Deno.test("ownOutputFiles() names the regular files descriptors 1 and 2 link to, once", async () => {
  const dir = await tempDir();
  const log = join(dir, "watch.log");
  await Deno.writeTextFile(log, "");
  const fds = join(dir, "fd");
  await Deno.mkdir(fds);
  await Deno.symlink(log, join(fds, "1"));
  await Deno.symlink(log, join(fds, "2"));
  assert.deepEqual(ownOutputFiles(fds), [log]);
  await Deno.remove(join(fds, "2"));
  await Deno.symlink(dir, join(fds, "2")); // a folder: not a file anything is written to
  assert.deepEqual(ownOutputFiles(fds), [log]);
  await Deno.remove(join(fds, "1"));
  await Deno.symlink("pipe:[12345]", join(fds, "1")); // what Linux shows for a pipe
  assert.deepEqual(ownOutputFiles(fds), []);
  assert.deepEqual(ownOutputFiles(join(dir, "none")), []);
});

Deno.test("literalGlob() matches exactly its path, whatever characters the name holds", async () => {
  const picomatch = await loadPicomatch();
  const names = [
    "watch.log",
    "logs/watch[1].log",
    "a*b?.log",
    "(x)|{y}+@!.log",
    "^$.log",
    "back\\slash.log",
    ".hidden/out.log",
  ];
  for (const name of names) {
    const match = picomatch(literalGlob(name), { dot: true });
    assert.ok(match(name), name);
    for (const other of names) if (other !== name) assert.ok(!match(other), `${name} vs ${other}`);
    assert.ok(!match(`x/${name}`) && !match(`${name}x`), name);
  }
});
