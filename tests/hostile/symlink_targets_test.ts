import assert from "node:assert/strict";
import { join } from "node:path";
import { buildContext } from "../../mod.ts";
import { git, makeProject } from "../_helpers.ts";

const SECRET = (name: string) =>
  `a symbolic link to "${name}", a file that may hold secrets, skipped by default: name the ` +
  'link by its path in "files" to include it';
const LEFT_OUT = (name: string) =>
  `a symbolic link to "${name}", in a folder slop leaves out of every build (".git", ` +
  '"node_modules", ".slop")';

Deno.test("a symbolic link to a file the defaults leave out (.env, .git/config, node_modules) is skipped as its target, with the reason", async () => {
  const outside = await makeProject({ "id_rsa": "-----BEGIN OPENSSH PRIVATE KEY-----\nx\n" });
  const root = await makeProject({
    ".env": "DB_PASSWORD=plain-env-value\n",
    "src/a.ts": "export const a = 1;\n",
    "node_modules/dep/index.js": "dep-code\n",
  });
  await git(root, "init", "-q");
  await Deno.writeTextFile(join(root, ".gitignore"), "node_modules/\n");
  const links: Record<string, string> = {
    "env.txt": ".env",
    "config/app.env.txt": "../.env",
    "gitconfig.txt": ".git/config",
    "dep.js": "node_modules/dep/index.js",
    "alias.ts": "src/a.ts",
    "key.txt": join(outside, "id_rsa"),
  };
  await Deno.mkdir(join(root, "config"));
  for (const [link, to] of Object.entries(links)) await Deno.symlink(to, join(root, link));

  const rows = async (inline: Record<string, unknown>) => {
    const result = await buildContext({ cwd: root, inline }, { write: false });
    assert.doesNotMatch(
      result.document,
      /plain-env-value|repositoryformatversion|dep-code|OPENSSH/,
    );
    return new Map(result.manifest.files.map((f) => [f.path, [f.status, f.reason]]));
  };
  const found = await rows({ allowOutsideRoot: true });
  assert.deepEqual(found.get("env.txt"), ["skipped", SECRET(".env")]);
  assert.deepEqual(found.get("config/app.env.txt"), ["skipped", SECRET(".env")]);
  assert.deepEqual(found.get("gitconfig.txt"), ["skipped", LEFT_OUT(".git/config")]);
  assert.deepEqual(found.get("dep.js"), ["skipped", LEFT_OUT("node_modules/dep/index.js")]);
  assert.deepEqual(found.get("key.txt"), ["skipped", SECRET("id_rsa")]);
  assert.deepEqual(found.get("alias.ts"), ["rendered", undefined]);

  // Named by its path, a link to a secret file is read, as the file itself would be.
  const named = await buildContext({ cwd: root, inline: { files: ["env.txt"] } }, { write: false });
  assert.equal(named.manifest.files.find((f) => f.path === "env.txt")?.status, "rendered");
});
