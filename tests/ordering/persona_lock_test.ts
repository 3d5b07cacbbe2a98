import assert from "node:assert/strict";
import { join } from "node:path";
import { makeProject, runCli } from "../_helpers.ts";
import { isLockVariant, lockVariant } from "../../pipeline/lock.ts";

const CONFIG = `export default {
  files: ["src/**"],
  personas: { worker: { tier: 3, focus: ["src/a.py"] } },
  presets: { api: { files: ["src/a.py"] } },
};
`;

async function project(): Promise<string> {
  return await makeProject({
    "slop.config.ts": CONFIG,
    "src/a.py": "def a(x):\n    return x + 1\n",
    "src/b.py": "def b(y):\n    '''Double.'''\n    return y * 2\n",
  });
}

Deno.test("lockVariant() names a persona's and a preset's lock beside slop.lock", () => {
  assert.equal(lockVariant("/p/slop.lock", []), "/p/slop.lock");
  assert.equal(lockVariant("/p/slop.lock", ["worker"]), "/p/slop.worker.lock");
  assert.equal(lockVariant("/p/slop.lock", ["worker", "api"]), "/p/slop.worker.api.lock");
  assert.equal(lockVariant("/p/pins/prefix", [undefined, "api"]), "/p/pins/prefix.api");
  assert.ok(isLockVariant("slop.worker.lock", "slop.lock"));
  assert.ok(!isLockVariant("slop.ts", "slop.lock"));
  assert.ok(!isLockVariant("src/slop.worker.lock", "slop.lock"));
});

Deno.test("slop check --persona pins its own lock and never overwrites slop.lock", async () => {
  const root = await project();
  assert.equal((await runCli(["check", "--update"], root)).code, 0);
  const base = await Deno.readTextFile(join(root, "slop.lock"));
  const run = await runCli(["check", "--update", "--persona", "worker"], root);
  assert.equal(run.code, 0, run.stderr);
  const worker = await Deno.readTextFile(join(root, "slop.worker.lock"));
  assert.notEqual(worker, base, "tier 3 renders other bytes");
  assert.equal(await Deno.readTextFile(join(root, "slop.lock")), base, "slop.lock untouched");
  // Both pass against their own lock.
  assert.equal((await runCli(["check"], root)).code, 0);
  assert.equal((await runCli(["check", "--persona", "worker"], root)).code, 0);
  assert.equal((await runCli(["check", "--preset", "api"], root)).code, 1, "no lock yet");
});

Deno.test("a persona's lock is never bundled as a file", async () => {
  const root = await project();
  await Deno.writeTextFile(join(root, "slop.worker.lock"), "# pinned elsewhere\n");
  const zero = await runCli(
    ["build", "--stdout", "-c", "slop.config.ts", "--include", "*.lock"],
    root,
  );
  assert.equal(zero.code, 0, zero.stderr);
  assert.ok(!zero.stdout.includes("slop.worker.lock"), zero.stdout);
});

Deno.test("slop check with a persona or preset tells the command that re-pins its own lock", async () => {
  const root = await project();
  const missing = await runCli(["check", "--persona", "worker", "--preset", "api"], root);
  assert.equal(missing.code, 1);
  assert.match(
    missing.stderr,
    /No lock "slop\.worker\.api\.lock": run `slop check --persona worker --preset api --update` to pin/,
  );
  const update = "slop check --persona worker --preset api --update";
  assert.equal((await runCli(update.split(" ").slice(1), root)).code, 0);
  await Deno.writeTextFile(join(root, "src/a.py"), "def a(x):\n    return x + 2\n");
  const moved = await runCli(["check", "--persona", "worker", "--preset", "api"], root);
  assert.equal(moved.code, 1);
  assert.match(moved.stderr, /run `slop check --persona worker --preset api --update` to re-pin/);
  // A config given by path is part of the command.
  const other = await runCli(["check", "-c", "slop.config.ts"], root);
  assert.match(other.stderr, /run `slop check --config slop\.config\.ts --update` to pin/);
});
