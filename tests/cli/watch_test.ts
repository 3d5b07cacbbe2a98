import assert from "node:assert/strict";
import { join } from "node:path";
import { makeProject, REPO } from "../_helpers.ts";

Deno.test("slop watch rebuilds after a change and prints the prefix reuse", async () => {
  const root = await makeProject({
    "slop.config.ts": `export default {
  files: ["src/**"],
  history: [{ role: "User", content: "keep going" }],
};
`,
    "src/a.ts": "export const a = 1;\n",
    "src/b.ts": "export const b = 2;\n",
  });
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--quiet",
      join(REPO, "cli.ts"),
      "watch",
      "--debounce",
      "50",
      "--max-builds",
      "1",
    ],
    cwd: root,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  // Bounded: the watcher is killed if it has not finished in 30 s.
  const guard = setTimeout(() => child.kill("SIGKILL"), 30_000);
  const lines: string[] = [];
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  let edited = false;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    while (buffer.includes("\n")) {
      lines.push(buffer.slice(0, buffer.indexOf("\n")));
      buffer = buffer.slice(buffer.indexOf("\n") + 1);
    }
    if (!edited && lines.some((l) => l.includes("watching for changes"))) {
      edited = true;
      // Give the watcher a moment to subscribe, then edit the last file.
      await new Promise((r) => setTimeout(r, 300));
      await Deno.writeTextFile(join(root, "src/b.ts"), "export const b = 3;\n");
    }
  }
  const status = await child.status;
  clearTimeout(guard);
  const stderr = await new Response(child.stderr).text();
  assert.equal(status.code, 0, stderr);
  assert.equal(lines[0], "slop: built .slop/out/context_001.md; watching for changes");
  assert.match(
    lines[1],
    /^slop: src\/b\.ts changed: built \.slop\/out\/context_002\.md: reused \d+ B of \d+ B \(\d+%\), 2 blocks; stable prefix changed$/,
  );
  const first = await Deno.readTextFile(join(root, ".slop/out/context_001.md"));
  const second = await Deno.readTextFile(join(root, ".slop/out/context_002.md"));
  let same = 0;
  while (first[same] === second[same]) same++;
  assert.match(lines[1], new RegExp(`reused ${same} B`), "reuse is the common byte prefix");
});

/** Run `slop watch` in `root`, calling `step(lines)` after each stdout line; resolves when it exits. */
async function watchSession(
  root: string,
  maxBuilds: number,
  step: (lines: string[]) => Promise<void>,
): Promise<{ code: number; lines: string[]; stderr: string }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--quiet",
      join(REPO, "cli.ts"),
      "watch",
      "--debounce",
      "50",
      "--max-builds",
      String(maxBuilds),
    ],
    cwd: root,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const guard = setTimeout(() => child.kill("SIGKILL"), 30_000);
  const stderr = new Response(child.stderr).text();
  const lines: string[] = [];
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    while (buffer.includes("\n")) {
      lines.push(buffer.slice(0, buffer.indexOf("\n")));
      buffer = buffer.slice(buffer.indexOf("\n") + 1);
      await step(lines);
    }
  }
  const status = await child.status;
  clearTimeout(guard);
  return { code: status.code, lines, stderr: await stderr };
}

Deno.test("slop watch reloads a changed config, and keeps the last good one when it fails to load", async () => {
  const root = await makeProject({
    "slop.config.ts": `import { files } from "./config/files.ts";\nexport default { files };\n`,
    "config/files.ts": `export const files = ["src/a.ts"];\n`,
    "src/a.ts": "export const a = 1;\n",
    "src/b.ts": "export const b = 2;\n",
  });
  const pause = () => new Promise((r) => setTimeout(r, 300));
  let acted = 0;
  const run = await watchSession(root, 2, async (lines) => {
    const last = lines[lines.length - 1];
    if (acted === 0 && last.includes("watching for changes")) {
      acted++;
      await pause();
      // The new config lists b.ts as well, without the module it imported.
      await Deno.writeTextFile(
        join(root, "slop.config.ts"),
        `export default { files: ["src/a.ts", "src/b.ts"] };\n`,
      );
    } else if (acted === 1 && last.includes("context_002")) {
      acted++;
      await pause();
      await Deno.writeTextFile(join(root, "slop.config.ts"), `export default { files: [ };\n`);
    }
  });
  assert.equal(run.code, 0, run.stderr);
  assert.deepEqual(run.lines.slice(0, 2), [
    "slop: built .slop/out/context_001.md; watching for changes",
    "slop: slop.config.ts changed: reloaded the config",
  ]);
  assert.match(run.lines[2], /^slop: slop\.config\.ts changed: built \.slop\/out\/context_002\.md/);
  assert.match(run.lines[3], /^slop: slop\.config\.ts changed: built \.slop\/out\/context_003\.md/);
  assert.equal(run.lines.length, 4);
  assert.match(
    run.stderr,
    /slop: slop\.config\.ts changed but cannot be loaded; keeping the last good config: .*Cannot load the config/,
  );
  const second = await Deno.readTextFile(join(root, ".slop/out/context_002.md"));
  const third = await Deno.readTextFile(join(root, ".slop/out/context_003.md"));
  const first = await Deno.readTextFile(join(root, ".slop/out/context_001.md"));
  assert.ok(!first.includes("export const b = 2;"), "the first config lists a.ts only");
  assert.ok(second.includes("export const b = 2;"), "the reloaded config lists b.ts");
  assert.ok(third.includes("export const b = 2;"), "the last good config stays in use");
});

Deno.test("slop watch notices a change to a module the config imports and says what it reloaded", async () => {
  const root = await makeProject({
    "slop.config.ts": `import { files } from "./config/files.ts";\nexport default { files };\n`,
    "config/files.ts": `export const files = ["src/a.ts"];\n`,
    "src/a.ts": "export const a = 1;\n",
  });
  let acted = false;
  const run = await watchSession(root, 1, async (lines) => {
    if (!acted && lines[lines.length - 1].includes("watching for changes")) {
      acted = true;
      await new Promise((r) => setTimeout(r, 300));
      await Deno.writeTextFile(join(root, "config/files.ts"), `export const files = ["src/**"];\n`);
    }
  });
  assert.equal(run.code, 0, run.stderr);
  assert.equal(
    run.lines[1],
    "slop: config/files.ts changed: reloaded slop.config.ts; restart slop watch to load config/files.ts itself (Deno keeps a module's first version)",
  );
});
