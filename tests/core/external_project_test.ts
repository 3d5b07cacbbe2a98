import assert from "node:assert/strict";
import { join } from "node:path";
import { makeProject, REPO, runTask } from "../_helpers.ts";
import { SLOP_V8_FLAGS } from "../../cli/init.ts";

Deno.test("a project outside the repo imports defineConfig by path and runs slop with deno task context", async () => {
  const root = await makeProject({
    "deno.json": JSON.stringify({
      nodeModulesDir: "auto",
      tasks: { context: `deno run -A ${SLOP_V8_FLAGS} ${join(REPO, "cli.ts")} build` },
    }),
    "slop.config.ts": `import { defineConfig } from "${join(REPO, "mod.ts")}";\n` +
      `export default defineConfig({ files: ["src/**", { path: "src/notes.md", view: "summary" }] });\n`,
    "src/main.ts": "console.log('hello');\n",
    "src/notes.md": "# Notes\n\n## Plan\n",
  });
  const task = await runTask("context", root);
  assert.equal(task.code, 0, task.stderr);
  const doc = await Deno.readTextFile(join(root, ".slop", "out", "context_001.md"));
  assert.equal(
    doc,
    // No git and no order memory yet: the bigger block comes first.
    "## Files\n\n### src/notes.md\n\n**Markdown**, 3 lines\n- Notes\n  - Plan\n\n### src/main.ts\n\n```ts\nconsole.log('hello');\n```\n\n",
  );
});
