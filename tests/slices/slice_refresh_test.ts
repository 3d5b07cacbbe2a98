import assert from "node:assert/strict";
import { join } from "node:path";
import { anchorSlice, splitLines } from "../../plugins/view_modes/fuzzy_anchor.ts";
import { makeProject, runCliShared } from "../_helpers.ts";
import { stdlibFile, topLevelDef } from "./_stdlib.ts";

const text = await stdlibFile("textwrap.py");
const base = splitLines(text);
const [start, end] = topLevelDef(base, "shorten");

function configWith(slice: object): string {
  return "export default " + JSON.stringify(
    {
      files: [
        { path: "other.py", view: "full" },
        { path: "textwrap.py", view: "custom", slices: [slice] },
      ],
    },
    null,
    2,
  ) + ";\n";
}

/** The JSON record printed after "replace it with". */
function pasted(stdout: string): unknown {
  const at = stdout.indexOf("replace it with\n");
  assert.ok(at >= 0, stdout);
  const rest = stdout.slice(at + "replace it with\n".length);
  return JSON.parse(rest.slice(0, rest.indexOf("\n}\n") + 2));
}

Deno.test("slice refresh prints the new record of a moved config slice, by key path, ready to paste", async () => {
  const slice = anchorSlice(base, start, end, { tag: "shorten", comment: "helper" });
  const root = await makeProject({
    "other.py": "x = 1\n",
    "textwrap.py": text,
    "slop.config.ts": configWith(slice),
  });
  const config = await Deno.readTextFile(join(root, "slop.config.ts"));
  const edited = ["# one", "# two", ...base];
  await Deno.writeTextFile(join(root, "textwrap.py"), edited.join("\n") + "\n");

  const check = await runCliShared(["slice", "refresh", "--check"], root);
  assert.equal(check.code, 1, check.stderr);
  assert.match(check.stdout, /1 slice out of date \(0 in slop\/slices.toml, 1 in slop.config.ts/);

  const run = await runCliShared(["slice", "refresh"], root);
  assert.equal(run.code, 0, run.stderr);
  assert.match(
    run.stdout,
    new RegExp(
      `slop: files\\[1\\]\\.slices\\[0\\] \\(textwrap.py\\) moved ${start}-${end} -> ` +
        `${start + 2}-${end + 2}; it is kept in slop.config.ts: replace it with\\n\\{`,
    ),
  );
  const record = pasted(run.stdout);
  assert.deepEqual(
    record,
    anchorSlice(edited, start + 2, end + 2, { tag: "shorten", comment: "helper" }),
  );
  // Nothing was written: the config is the user's.
  assert.equal(await Deno.readTextFile(join(root, "slop.config.ts")), config);
  assert.equal(await Deno.stat(join(root, "slop/slices.toml")).catch(() => null), null);

  // Pasted over the old one, the slice is exact and --check passes.
  await Deno.writeTextFile(join(root, "slop.config.ts"), configWith(record as object));
  const after = await runCliShared(["slice", "refresh", "--check"], root);
  assert.equal(after.code, 0, after.stdout);
  assert.match(after.stdout, /every slice is up to date/);
  const list = JSON.parse((await runCliShared(["slice", "list", "--json"], root)).stdout);
  assert.equal(list[0].found.status, "exact");
  assert.equal(list[0].origin, "files[1].slices[0]");
});

Deno.test("slice refresh --check writes nothing to the side file and fails on a moved or stale slice", async () => {
  const root = await makeProject({
    "textwrap.py": text,
    "slop.config.ts": 'export default { files: [{ path: "textwrap.py", view: "custom" }] };\n',
  });
  assert.equal((await runCliShared(["slice", "add", `textwrap.py:${start}-${end}`], root)).code, 0);
  assert.equal((await runCliShared(["slice", "refresh", "--check"], root)).code, 0);
  const toml = await Deno.readTextFile(join(root, "slop/slices.toml"));
  await Deno.writeTextFile(join(root, "textwrap.py"), "# one\n" + text);

  const check = await runCliShared(["slice", "refresh", "--check"], root);
  assert.equal(check.code, 1);
  assert.match(check.stdout, /moved/);
  assert.equal(await Deno.readTextFile(join(root, "slop/slices.toml")), toml);

  assert.equal((await runCliShared(["slice", "refresh"], root)).code, 0);
  assert.notEqual(await Deno.readTextFile(join(root, "slop/slices.toml")), toml);
  assert.equal((await runCliShared(["slice", "refresh", "--check"], root)).code, 0);

  // The slice's lines are gone: stale, which refresh cannot mend, and --check fails.
  const gone = [...base];
  gone.splice(start - 1, end - start + 1);
  await Deno.writeTextFile(join(root, "textwrap.py"), gone.join("\n") + "\n");
  const stale = await runCliShared(["slice", "refresh", "--check"], root);
  assert.equal(stale.code, 1);
  assert.match(stale.stdout, /stale/);
  assert.match(stale.stdout, /1 stale\); nothing written/);
});
