// The suite leaves nothing in the temp dir: a test file makes its temp folders through tempDir() or
// makeProject() of tests/_helpers.ts, which remove them when the test module ends, even after a
// failed assertion. A folder made with Deno.makeTempDir() and removed at the test's last line stays
// behind whenever the test fails before it (or moves things out of it), and CI machines fill up.
import assert from "node:assert/strict";
import { dirname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";

const TESTS = normalize(join(dirname(fileURLToPath(import.meta.url)), ".."));

/** The test files, as paths under tests/. */
function testFiles(): string[] {
  const files: string[] = [];
  for (const area of Deno.readDirSync(TESTS)) {
    if (!area.isDirectory || area.name.startsWith("_") || area.name === "fixtures") continue;
    for (const file of Deno.readDirSync(join(TESTS, area.name))) {
      const path = `${area.name}/${file.name}`;
      // This file names the call it looks for.
      if (file.isFile && path.endsWith("_test.ts") && path !== "core/temp_folders_test.ts") {
        files.push(path);
      }
    }
  }
  return files.sort();
}

Deno.test("test files make temp folders that are removed when the module ends", () => {
  const files = testFiles();
  assert.ok(files.length > 100, `${files.length} test files found`);
  const raw = files.flatMap((file) =>
    Deno.readTextFileSync(join(TESTS, file)).split("\n").flatMap((line, i) =>
      // The sync form stays allowed for a module-level folder removed by the module's own unload.
      /\bDeno\.makeTempDir\(/.test(line) ? [`tests/${file}:${i + 1}`] : []
    )
  );
  assert.deepEqual(raw, [], "use tempDir() of tests/_helpers.ts instead of Deno.makeTempDir()");
});
