import assert from "node:assert/strict";
import { join } from "node:path";
import { makeProject, REPO } from "../_helpers.ts";

/** Run `slop watch --max-builds 1` in `root`; call `edit` once it watches. Returns stdout lines. */
async function watchOnce(root: string, edit: () => Promise<void>): Promise<string[]> {
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
      // Give the watcher a moment to subscribe.
      await new Promise((r) => setTimeout(r, 300));
      await edit();
    }
  }
  const status = await child.status;
  clearTimeout(guard);
  const stderr = await new Response(child.stderr).text();
  assert.equal(status.code, 0, stderr);
  return lines;
}

Deno.test("slop watch reloads the config when slop.config.ts changes", async () => {
  const root = await makeProject({
    "slop.config.ts": `export default { files: ["src/a.ts"] };\n`,
    "src/a.ts": "export const a = 1;\n",
    "src/b.ts": "export const b = 2;\n",
  });
  const lines = await watchOnce(root, async () => {
    await Deno.writeTextFile(
      join(root, "slop.config.ts"),
      `export default { files: ["src/**"] };\n`,
    );
  });
  assert.match(lines[1], /^slop: slop\.config\.ts changed: built \.slop\/out\/context_002\.md: /);
  const first = await Deno.readTextFile(join(root, ".slop/out/context_001.md"));
  const second = await Deno.readTextFile(join(root, ".slop/out/context_002.md"));
  assert.doesNotMatch(first, /src\/b\.ts/);
  assert.match(second, /### src\/b\.ts/);
});
