// `slop mcp` started without --root in the file system's root or the home folder (where Claude
// Desktop starts the servers it gives no folder) refuses to serve it, naming --root; an explicit
// --root of that folder is served.
import assert from "node:assert/strict";
import { join } from "node:path";
import { REPO, tempDir } from "../_helpers.ts";
import { serverEnv } from "./_client.ts";

/** `slop mcp` with `args` in `cwd`, stdin closed at once; its exit code and stderr. */
async function mcp(cwd: string, args: string[], env: Record<string, string> = {}) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", join(REPO, "cli.ts"), "mcp", ...args],
    cwd,
    env: serverEnv(env),
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: out.code, stderr: new TextDecoder().decode(out.stderr) };
}

Deno.test("slop mcp refuses the file system's root or the home folder as an implied project root", async () => {
  const root = await mcp("/", []);
  assert.equal(root.code, 2);
  assert.equal(
    root.stderr,
    'slop: No project to serve: the server was started in the file system\'s root ("/"); pass ' +
      "the project's folder as --root <dir> (docs/mcp.md shows it for each client)\n",
  );
  const home = await tempDir({ prefix: "slop_home_" });
  const inHome = await mcp(home, [], { HOME: home });
  assert.equal(inHome.code, 2);
  assert.match(
    inHome.stderr,
    /started in your home folder \(".*slop_home_.*"\); pass .* --root <dir>/,
  );
  // Named, it is the user's choice: served (stdin is closed, so the session ends at once).
  const named = await mcp(home, ["--root", home], { HOME: home });
  assert.equal(named.code, 0, named.stderr);
  assert.match(named.stderr, /^slop mcp: serving .*slop_home_.* over stdio\n/);
});
