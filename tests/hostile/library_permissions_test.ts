import assert from "node:assert/strict";
import { join } from "node:path";
import { childEnv, makeProject, REPO } from "../_helpers.ts";

/**
 * A program using slop as a library with narrow permissions (`deno run --allow-read=. app.ts`):
 * the first permission missing is one line naming it and its flag, nothing on stderr (it was
 * Deno's `Requires env access to "SLOP_DIR"` from inside `loadConfig`, then a worker's uncaught
 * error printed beside a build that went on, then a plugin error for the order memory's write).
 */
Deno.test("a library build with narrow permissions names the first one missing in one line, or builds", async () => {
  const root = await makeProject({ "a.ts": "export const a = 1;\n" });
  const app = join(root, "app.ts");
  await Deno.writeTextFile(
    app,
    `import { buildContext } from ${JSON.stringify(join(REPO, "mod.ts"))};
try {
  const result = await buildContext({ cwd: ${JSON.stringify(root)} }, { write: false });
  console.log(result.manifest.files.map((f) => f.path).join(" "));
} catch (error) {
  console.log((error as Error).message);
}
`,
  );
  const run = async (...flags: string[]) => {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--quiet", "--no-prompt", "--config", join(REPO, "deno.json"), ...flags, app],
      cwd: root,
      clearEnv: true,
      env: childEnv(),
      stdout: "piped",
      stderr: "piped",
    }).output();
    const dec = new TextDecoder();
    return { stdout: dec.decode(out.stdout).trim(), stderr: dec.decode(out.stderr) };
  };
  const see = 'see "Permissions" in docs/install.md';
  const cases: [string[], string][] = [
    [
      [`--allow-read=${root}`],
      "No environment access (--allow-env): slop reads SLOP_DIR, HOME, TMPDIR and its " +
      `SLOP_* settings; ${see}`,
    ],
    [
      [`--allow-read=${root}`, "--allow-env"],
      `No read access to "${REPO}" (--allow-read=${REPO}): slop's own modules, which ` +
      `its workers load; ${see}`,
    ],
    [
      [`--allow-read=${root},${REPO}`, "--allow-env"],
      `No write access to "${root}/.slop" (--allow-write=${root}/.slop): a build keeps ` +
      "its order memory, cache and outputs there (a build with remember: false, write: false " +
      `and cache.enabled false writes nothing); ${see}`,
    ],
    [[`--allow-read=${root},${REPO}`, "--allow-env", `--allow-write=${root}`], "a.ts app.ts"],
  ];
  for (const [flags, said] of cases) {
    const { stdout, stderr } = await run(...flags);
    assert.deepEqual({ stdout, stderr }, { stdout: said, stderr: "" }, flags.join(" "));
  }
});
