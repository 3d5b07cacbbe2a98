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
