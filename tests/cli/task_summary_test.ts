// The build summary's task line: the files the task section shows, those only the map shows and
// those only named, counted as the manifest's `task.files` says and worded as docs/task_context.md
// documents them.
import assert from "node:assert/strict";
import { join } from "node:path";
import { makeProject, REPO, runCliShared } from "../_helpers.ts";

const TASK = "fix the parser: a quoted comma splits the field";

/** 30 parsers that all match the task, of three sizes, so a budget shows some, maps some, names some. */
function parsers(): Record<string, string> {
  const files: Record<string, string> = { "src/main.py": "def main():\n    pass\n" };
  for (let i = 1; i <= 30; i++) {
    const defs = Array.from(
      { length: 40 * (1 + i % 3) },
      (_, k) =>
        `def parse_field_${k}(line):\n    """Split the quoted comma field ${k}."""\n` +
        `    return line.split(",")\n`,
    );
    files[`src/parser_${i}.py`] = `"""Parser ${i}: split a quoted comma field."""\n\n` +
      defs.join("\n");
  }
  return files;
}

Deno.test("the summary's task line counts the files shown, only in the map and only named, as the manifest does", async () => {
  const root = await makeProject(parsers());
  const args = ["build", "--task", TASK, "--budget", "12000", "--no-server"];
  const built = await runCliShared([...args, "--stdout"], root);
  assert.equal(built.code, 0, built.stderr);
  const line = built.stderr.split("\n").find((l) => l.startsWith("task: ")) ?? built.stderr;
  const json = await runCliShared([...args, "--json", "-q"], root);
  const files = JSON.parse(json.stdout).task.files as Array<{ where: string }>;
  const count = (where: string) => files.filter((f) => f.where === where).length;
  const [task, map, named] = [count("task"), count("map"), count("listed")];
  assert.ok(task > 3 && map > 0 && named > 0, `${task} ${map} ${named}`);
  assert.match(
    line,
    new RegExp(
      `^task: ${task} files in the task section: [^;]+ and ${task - 3} more; ` +
        `${map} only in the map, ${named} only named \\(slop rank --task says why\\)$`,
    ),
  );
  const page = await Deno.readTextFile(join(REPO, "docs", "task_context.md"));
  // The page shows both counts as the summary words them.
  assert.match(page, /`; \d+ only in the map`/);
  assert.match(page, /`\d+ only named`/);
});
