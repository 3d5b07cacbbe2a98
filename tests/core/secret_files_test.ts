import assert from "node:assert/strict";
import { buildContext } from "../../mod.ts";
import { gitInit, makeProject } from "../_helpers.ts";

// Files that usually hold secrets (`.env*`, `*.pem`, `id_rsa*`, `*.key`) are never rendered unless
// their own path is given: a glob, a folder in "files" or a folder on the command line lists them
// as skipped with the reason (never silently missing, never read), and the seed's history files
// stay out whatever names their folder.
const REASON = 'may hold secrets, skipped by default: name it by its path in "files" to include it';

for (const git of [true, false]) {
  Deno.test(`files that hold secrets are listed as skipped unless their path is given (${git ? "git" : "no git"})`, async () => {
    const root = await makeProject({
      ".env": "TOKEN=one-two-three-four\n",
      "certs/server.pem": "not a real key\n",
      "deploy/id_rsa": "not a real key either\n",
      "src/a.ts": "export const a = 1;\n",
      "src/history.toml": 'history = ["User: hi"]\n',
    });
    if (git) await gitInit(root);
    const build = async (options: { paths?: string[]; files?: string[] }) => {
      const result = await buildContext(
        { cwd: root, paths: options.paths, inline: options.files ? { files: options.files } : {} },
        { write: false },
      );
      return {
        rendered: result.manifest.files.filter((f) => f.status === "rendered").map((f) => f.path),
        skipped: result.manifest.files.filter((f) => f.status === "skipped")
          .map((f) => `${f.path}: ${f.reason}`),
        document: result.document,
      };
    };
    const secrets = [".env", "certs/server.pem", "deploy/id_rsa"].map((p) => `${p}: ${REASON}`);

    const zero = await build({});
    assert.deepEqual(zero.rendered, ["src/a.ts"]);
    assert.deepEqual(zero.skipped, secrets);
    assert.ok(!zero.document.includes("not a real key"), "a skipped file is never read");

    // A folder on the command line, or the whole root, names none of them.
    for (const paths of [["."], ["certs", "deploy", "src"]]) {
      const byFolder = await build({ paths });
      assert.deepEqual(byFolder.rendered, ["src/a.ts"], paths.join(" "));
      assert.ok(!byFolder.document.includes("not a real key"), paths.join(" "));
    }
    assert.deepEqual((await build({ paths: ["certs"] })).skipped, [secrets[1]]);

    // Their own path, on the command line or in "files", includes them.
    assert.deepEqual((await build({ paths: [".env", "certs/server.pem"] })).rendered, [
      ".env",
      "certs/server.pem",
    ]);
    const named = await build({ files: ["src/**", "deploy/id_rsa"] });
    assert.deepEqual(named.rendered, ["deploy/id_rsa", "src/a.ts"]);
    assert.deepEqual(named.skipped, []);
  });
}

// The same names in other cases (`.ENV`, `SERVER.PEM`: Windows tools write capitals, and a
// case-blind file system such as macOS's or Windows's opens `.ENV` as `.env`) are the same files.
Deno.test("files that hold secrets are skipped whatever the case of their names, and links to them", async () => {
  const names = [".ENV", ".Env.Local", "certs/SERVER.PEM", "deploy/ID_RSA.old", "keys/Private.Key"];
  const root = await makeProject({
    ...Object.fromEntries(names.map((n) => [n, "PLAIN=correct-horse-battery-staple\n"])),
    "src/a.ts": "export const a = 1;\n",
  });
  await Deno.symlink(".ENV", `${root}/notes.txt`);
  const result = await buildContext({ cwd: root }, { write: false });
  const rows = result.manifest.files;
  assert.deepEqual(rows.filter((f) => f.status === "rendered").map((f) => f.path), ["src/a.ts"]);
  assert.deepEqual(
    rows.filter((f) => f.status === "skipped" && f.reason === REASON).map((f) => f.path),
    names.toSorted(),
  );
  assert.match(
    rows.find((f) => f.path === "notes.txt")?.reason ?? "",
    /a file that may hold secrets/,
  );
  assert.ok(!result.document.includes("correct-horse"), "no such file is read");
  // Named by its own path, it is read, as `.env` is.
  const named = await buildContext({ cwd: root, paths: [".ENV"] }, { write: false });
  assert.deepEqual(named.manifest.files.map((f) => [f.path, f.status]), [[".ENV", "rendered"]]);
});
