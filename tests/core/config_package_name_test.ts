import assert from "node:assert/strict";
import { join, relative, sep } from "node:path";
import { ConfigError, loadConfig } from "../../mod.ts";
import { makeProject, REPO, tempDir } from "../_helpers.ts";

// A newcomer writes the import of defineConfig by slop's package name (`slop/config`, or
// `jsr:@slop/slop/config` after reading that slop is laid out for JSR): slop is not published, so
// the error says to import it by path and gives this slop's path. Through the installed command
// (`deno install -g -c deno.json` runs slop with a copy of its deno.json), Deno resolved the jsr
// name into the install folder and the hint named that folder as if the user had written it
// (twenty-ninth session, user42).

const CONFIG = (specifier: string) =>
  `import { defineConfig } from "${specifier}";\nexport default defineConfig({ files: ["a.py"] });\n`;

Deno.test("a config importing slop by a bare package name is told to import this slop by path", async () => {
  const root = await makeProject({ "slop.config.ts": CONFIG("slop/config"), "a.py": "x = 1\n" });
  const here = relative(root, join(REPO, "config.ts")).split(sep).join("/");
  await assert.rejects(() => loadConfig({ cwd: root }), (error: Error) => {
    assert.ok(error instanceof ConfigError);
    assert.ok(
      error.message.endsWith(
        '\nthe config imports slop by a package name ("slop/config"), which is not published: ' +
          `import slop's files by path or URL, this slop's as "${here}"`,
      ),
      error.message,
    );
    return true;
  });
});

Deno.test("a config importing a package whose name only starts with slop gets no such hint", async () => {
  const root = await makeProject({ "slop.config.ts": CONFIG("slopify/config"), "a.py": "x = 1\n" });
  await assert.rejects(() => loadConfig({ cwd: root }), (error: Error) => {
    assert.match(error.message, /Import "slopify\/config" not a dependency/);
    assert.doesNotMatch(error.message, /imports slop/);
    return true;
  });
});

Deno.test("the installed command names a jsr import of slop as a package name, not its install folder", async () => {
  // The install folder as `deno install -g -c deno.json` lays it out: a copy of deno.json alone.
  const install = await tempDir({ prefix: "slop_install_copy_" });
  await Deno.copyFile(join(REPO, "deno.json"), join(install, "deno.json"));
  const root = await makeProject({
    "slop.config.ts": CONFIG("jsr:@slop/slop/config"),
    "a.py": "x = 1\n",
  });
  const run = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", "--config", join(install, "deno.json"), join(REPO, "cli.ts")],
    cwd: root,
    env: { NO_COLOR: "1" },
    stdin: "null",
  }).output();
  const stderr = new TextDecoder().decode(run.stderr);
  assert.equal(run.code, 2, stderr);
  const here = relative(root, join(REPO, "config.ts")).split(sep).join("/");
  assert.ok(
    stderr.endsWith(
      '\nthe config imports slop by a package name ("jsr:@slop/slop/…"), which is not published: ' +
        `import slop's files by path or URL, this slop's as "${here}"\n`,
    ),
    stderr,
  );
});
