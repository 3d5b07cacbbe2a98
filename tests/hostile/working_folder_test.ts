// A long-lived slop process (`slop mcp`, the build server, `slop watch`) stays in the folder it
// started in, and that folder may be deleted and cloned again at the same path under it. Deno
// resolves an `npm:` package from the working folder, so the first grammar or tokenizer such a
// process needed after that failed with "Unable to get CWD". Each case runs in a child process:
// the test files share this one's working folder.
import assert from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { REPO, runScript, tempDir } from "../_helpers.ts";

const MOD = JSON.stringify(pathToFileURL(join(REPO, "mod.ts")).href);

/** Build `project` (its working folder when empty) with a.py as a skeleton: the document and notes. */
const BUILD = `async function build(project) {
  const result = await buildContext({
    cwd: project,
    inline: { files: [{ path: "a.py", view: "skeleton" }] },
  }, { write: false });
  return { document: result.document, notes: result.manifest.files[0].notes ?? [] };
}`;

Deno.test("a process whose working folder was deleted and made again loads grammars from it again", async () => {
  const folder = await tempDir({ prefix: "slop_cwd_" });
  const run = await runScript(
    `import { buildContext } from ${MOD};
${BUILD}
const here = Deno.cwd();
Deno.removeSync(here, { recursive: true });
Deno.mkdirSync(here);
Deno.writeTextFileSync(here + "/a.py", "def f(x):\\n    return x * 2\\n");
console.log(JSON.stringify(await build(here)));`,
    folder,
  );
  assert.equal(run.code, 0, run.stderr);
  const { document, notes } = JSON.parse(run.stdout);
  assert.match(document, /def f\(x\):\n {4}\.\.\./, "a skeleton: the grammar was loaded");
  assert.deepEqual(notes, []);
});

Deno.test("a working folder gone for good is named in the file's note, and that summary is not cached", async () => {
  const folder = await tempDir({ prefix: "slop_cwd_" });
  const project = await tempDir({ prefix: "slop_cwd_project_" });
  await Deno.writeTextFile(join(project, "a.py"), "def f(x):\n    return x * 2\n");
  const run = await runScript(
    `import { buildContext } from ${MOD};
${BUILD}
Deno.removeSync(Deno.cwd(), { recursive: true });
const gone = await build(${JSON.stringify(project)});
Deno.chdir(${JSON.stringify(project)});
const back = await build(${JSON.stringify(project)});
console.log(JSON.stringify({ gone, back }));`,
    folder,
  );
  assert.equal(run.code, 0, run.stderr);
  const { gone, back } = JSON.parse(run.stdout);
  assert.match(
    gone.notes.join("\n"),
    new RegExp(`the working folder "${folder}" is gone \\(deleted or moved\\); start slop again`),
  );
  assert.doesNotMatch(gone.notes.join("\n"), /Unable to get CWD/);
  // The next build renders the file again (a summary stored for it would come back from the cache).
  assert.match(back.document, /def f\(x\):\n {4}\.\.\./);
  assert.deepEqual(back.notes, []);
});

Deno.test("a working folder or --root whose name is not valid UTF-8 is named in one line", async () => {
  const parent = await tempDir({ prefix: "slop_cwd_name_" });
  // Deno holds paths as strings: the shell makes the folder and enters it.
  const run = async (script: string) => {
    const output = await new Deno.Command("sh", {
      args: ["-c", `mkdir -p "$1/$(printf 'x\\377')" && ${script}`, "sh", parent],
      env: { SLOP: join(REPO, "cli.ts"), DENO: Deno.execPath() },
      stdout: "piped",
      stderr: "piped",
    }).output();
    return { code: output.code, stderr: new TextDecoder().decode(output.stderr) };
  };
  const here = await run(`cd "$1/$(printf 'x\\377')" && exec "$DENO" run -A --quiet "$SLOP" build`);
  assert.equal(here.code, 2, here.stderr);
  assert.equal(
    here.stderr,
    `slop: Cannot use the working folder "${parent}/x\\xFF": its path is not valid UTF-8, so slop ` +
      "cannot open files in it (rename the folder, or run slop from another)\n",
  );
  // `slop mcp` serves all the same (each call answers with the line; stdin is closed here, so
  // the session ends at once).
  const root = await run(`exec "$DENO" run -A --quiet "$SLOP" mcp --root "$1/$(printf 'x\\377')"`);
  assert.equal(root.code, 0, root.stderr);
  assert.match(
    root.stderr,
    /^slop: Invalid --root ".*\/x\uFFFD": no such folder \(bytes that are not valid UTF-8 in an argument arrive as U\+FFFD/,
  );
  assert.match(
    root.stderr.split("\n")[0],
    /: rename the folder\): start slop mcp again .* \(each tool call answers with this error\)$/,
  );
});
