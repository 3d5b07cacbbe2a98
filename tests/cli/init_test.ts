import assert from "node:assert/strict";
import { delimiter, join, posix, win32 } from "node:path";
import { existsSync } from "node:fs";
import { makeProject, REPO, runCliShared, runTask, tempDir } from "../_helpers.ts";
import { defaultPlugins } from "../../plugins/defaults.ts";
import { jsoncToJson, withContextTask } from "../../cli/_jsonc.ts";
import { relativeSpecifier, runInit } from "../../cli/init.ts";
import { DATA_LIMIT } from "../../pipeline/data_files.ts";

/** This machine's PATH without a folder that holds a `slop`: slop as a clone runs it, not installed. */
const NO_SLOP = {
  PATH: (Deno.env.get("PATH") ?? "").split(delimiter).filter((dir) =>
    !existsSync(join(dir, "slop"))
  )
    .join(delimiter),
};

/** A folder with a `slop` command that runs this clone's cli.ts, as `deno install -g` writes one. */
async function slopCommand(): Promise<string> {
  const bin = await tempDir({ prefix: "slop_bin_" });
  const shim = `#!/bin/sh\nexec '${Deno.execPath()}' run -A '${join(REPO, "cli.ts")}' "$@"\n`;
  await Deno.writeTextFile(join(bin, "slop"), shim, { mode: 0o755 });
  return bin;
}

Deno.test("slop init writes a commented config and the context task, and the task builds in a build server", async () => {
  const root = await makeProject({
    "deno.json": JSON.stringify({ tasks: { test: "deno test" }, fmt: { lineWidth: 90 } }, null, 2),
    "src/a.ts": "export const a = 1;\n",
  });
  const runtime = await tempDir({ prefix: "slop_servers_" });
  const env = { XDG_RUNTIME_DIR: runtime, CI: "", ...NO_SLOP };
  const run = await runCliShared(["init"], root, NO_SLOP);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /wrote slop.config.ts/);
  // Not installed: the task names this clone by its path here, and says so.
  assert.match(
    run.stdout,
    /^slop: the task runs slop's files by their path on this machine \(\S+\/cli\.ts\): .* make it `slop build --server`$/m,
  );
  assert.match(run.stdout, /added the "context" task to deno.json/);
  assert.match(run.stdout, /the task builds in a build server kept warm between builds/);
  // The other way to build is one this machine runs: no `slop` command is on PATH.
  assert.match(run.stdout, /run `deno task context` \(or `deno run -A \S+\/cli\.ts build`\)/);
  const deno = JSON.parse(await Deno.readTextFile(join(root, "deno.json")));
  assert.equal(deno.tasks.test, "deno test", "other tasks are kept");
  assert.deepEqual(deno.fmt, { lineWidth: 90 }, "other keys are kept");
  assert.match(
    deno.tasks.context,
    /^deno run -A \S+\/cli\.ts build --server$/,
  );
  const config = await Deno.readTextFile(join(root, "slop.config.ts"));
  assert.match(config, /^\/\/ /, "the config is commented");
  // No import of slop by a path of this machine: a teammate's checkout loads it too.
  assert.doesNotMatch(config, /\bimport\b.*from/);
  assert.match(config, /^export default \{$/m);
  try {
    for (const n of [1, 2]) {
      const task = await runTask("context", root, env);
      assert.equal(task.code, 0, task.stderr);
      assert.equal(task.stderr, "");
      const doc = await Deno.readTextFile(join(root, `.slop/out/context_00${n}.md`));
      assert.match(doc, /### src\/a\.ts/);
      await Deno.writeTextFile(join(root, "src/a.ts"), "export const a = 2;\n");
    }
    const status = await runCliShared(["server", "status", "--json"], root, env);
    assert.equal(JSON.parse(status.stdout).builds, 2, "both builds ran in one server");
    // `deno task context --no-server` builds in the process.
    const own = await runTask("context --no-server", root, env);
    assert.equal(own.code, 0, own.stderr);
    assert.match(await Deno.readTextFile(join(root, ".slop/out/context_003.md")), /a = 2/);
    const after = await runCliShared(["server", "status", "--json"], root, env);
    assert.equal(JSON.parse(after.stdout).builds, 2, "not in the server");
  } finally {
    await runCliShared(["server", "stop", "--all", "--quiet"], root, env);
  }
});

Deno.test("slop init never overwrites a config or a context task, and leaves alone a file it cannot edit", async () => {
  const broken = '{\n  "tasks": ["not", "an object"]\n}\n';
  const root = await makeProject({
    "slop.config.ts": "export default { files: ['x'] };\n",
    "deno.jsonc": broken,
  });
  // The task it says to add runs this clone's cli.ts: no `slop` on PATH (a contributor who ran
  // `deno task install` before `deno task test` has one, and saw "slop build --server" here).
  const run = await runCliShared(["init"], root, NO_SLOP);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /^slop: kept the existing config slop\.config\.ts$/m);
  assert.match(
    run.stdout,
    /deno\.jsonc is not a JSON object slop can edit, left it alone: add the task\n {2}"context": "deno run/,
  );
  assert.equal(await Deno.readTextFile(join(root, "deno.jsonc")), broken);
  assert.equal(
    await Deno.readTextFile(join(root, "slop.config.ts")),
    "export default { files: ['x'] };\n",
  );
  const other = await makeProject({
    "deno.json": '{ "tasks": { "context": "echo mine" } }',
  });
  assert.equal((await runCliShared(["init", "-q"], other)).code, 0);
  assert.equal(
    await Deno.readTextFile(join(other, "deno.json")),
    '{ "tasks": { "context": "echo mine" } }',
  );
});

Deno.test("slop init names the config it keeps, a slop.config.js or .mjs too, and writes no slop.config.ts", async () => {
  for (const name of ["slop.config.js", "slop.config.mjs"]) {
    const root = await makeProject({ [`app/${name}`]: "export default { files: ['x'] };\n" });
    const run = await runCliShared(["init", "app"], root);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout.split("\n")[0], `slop: kept the existing config app/${name}`);
    assert.equal(existsSync(join(root, "app", "slop.config.ts")), false);
  }
});

Deno.test("slop init creates deno.json when the project has none", async () => {
  const root = await makeProject({ "a.md": "# A\n" });
  const run = await runCliShared(["init", "."], root);
  assert.equal(run.code, 0, run.stderr);
  const deno = JSON.parse(await Deno.readTextFile(join(root, "deno.json")));
  assert.deepEqual(deno, { tasks: { context: deno.tasks.context } }, "the task and nothing else");
});

Deno.test("slop init in a Node project: a script in package.json, no deno.json, a config tsc can read", async () => {
  const pkg = JSON.stringify(
    // A dependency in Deno's npm cache (slop's own), so that an install would need no network.
    { name: "app", scripts: { test: "node --test" }, dependencies: { picomatch: "4.0.3" } },
    null,
    2,
  ) + "\n";
  const root = await makeProject({ "package.json": pkg, "src/index.js": "export const a = 1;\n" });
  const init = await runCliShared(["init"], root, NO_SLOP);
  assert.equal(init.code, 0, init.stderr);
  assert.match(init.stdout, /^slop: added the "context" script to package\.json$/m);
  assert.match(
    init.stdout,
    /^slop: run `npm run context` \(or `deno run -A \S+ build`\) to build /m,
  );
  assert.match(init.stdout, /`npm run context -- --no-server` builds without it/);
  // The script is written into package.json as it stands: npm's two-space layout, its last line.
  const after = await Deno.readTextFile(join(root, "package.json"));
  const context = JSON.parse(after).scripts.context;
  assert.match(context, /^deno run -A \S+\/cli\.ts build --server$/);
  assert.equal(
    after,
    pkg.replace(
      '"test": "node --test"',
      `"test": "node --test",\n    "context": ${JSON.stringify(context)}`,
    ),
  );
  assert.equal(existsSync(join(root, "deno.json")), false, "no deno.json in a Node project");
  // No import of slop: the project's tsc would type-check slop's Deno modules through it.
  const config = await Deno.readTextFile(join(root, "slop.config.ts"));
  assert.doesNotMatch(config, /\bimport\b.*from/);
  assert.match(config, /^export default \{$/m);
  // `deno task` runs package.json scripts too: the script builds, installing nothing.
  const task = await runTask("context --no-server -q", root, { CI: "true" });
  assert.equal(task.code, 0, task.stderr);
  assert.match(await Deno.readTextFile(join(root, ".slop/out/context_001.md")), /src\/index\.js/);
  assert.equal(existsSync(join(root, "node_modules")), false, "no node_modules in the project");
  assert.equal(existsSync(join(root, "deno.lock")), false, "no deno.lock in the project");
  // A Node project that uses Deno too keeps its tasks in its deno.json.
  const both = await makeProject({ "package.json": pkg, "deno.json": "{}\n" });
  assert.equal((await runCliShared(["init", "-q"], both, NO_SLOP)).code, 0);
  assert.ok(JSON.parse(await Deno.readTextFile(join(both, "deno.json"))).tasks.context);
  assert.equal(await Deno.readTextFile(join(both, "package.json")), pkg);
  assert.match(await Deno.readTextFile(join(both, "slop.config.ts")), /^export default \{$/m);
});

Deno.test({
  name:
    "slop init with the slop command installed writes `slop build --server`, which any checkout with slop runs",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    const bin = await slopCommand();
    const installed = { PATH: `${bin}${delimiter}${NO_SLOP.PATH}` };
    const pkg = '{ "name": "app" }\n';
    const deno = await makeProject({ "src/a.ts": "export const a = 1;\n" });
    const node = await makeProject({ "package.json": pkg, "src/a.ts": "export const a = 1;\n" });
    const runs = await Promise.all([
      runCliShared(["init"], deno, installed),
      runCliShared(["init"], node, installed),
    ]);
    for (const run of runs) {
      assert.equal(run.code, 0, run.stderr);
      assert.doesNotMatch(run.stdout, /a path on this machine/);
    }
    const task = JSON.parse(await Deno.readTextFile(join(deno, "deno.json"))).tasks.context;
    assert.equal(task, "slop build --server");
    const script = JSON.parse(await Deno.readTextFile(join(node, "package.json"))).scripts.context;
    assert.equal(script, "slop build --server");
    for (const root of [deno, node]) {
      const config = await Deno.readTextFile(join(root, "slop.config.ts"));
      assert.doesNotMatch(config, /\bimport\b.*from|\.\.\//, "no path of this machine");
    }
    // The task runs the installed command; where slop is not installed, it says so.
    const built = await runTask("context --no-server -q", deno, installed);
    assert.equal(built.code, 0, built.stderr);
    assert.match(await Deno.readTextFile(join(deno, ".slop/out/context_001.md")), /src\/a\.ts/);
    const missing = await runTask("context --no-server -q", node, NO_SLOP);
    assert.notEqual(missing.code, 0);
    assert.match(missing.stderr, /slop: command not found/);
    // A relative folder on PATH names a place in the current folder, not an installed command.
    const here = await makeProject({ "bin/slop": "#!/bin/sh\n" });
    await Deno.chmod(join(here, "bin/slop"), 0o755);
    const relative = { PATH: `bin${delimiter}${NO_SLOP.PATH}` };
    assert.equal((await runCliShared(["init", "-q"], here, relative)).code, 0);
    const own = JSON.parse(await Deno.readTextFile(join(here, "deno.json"))).tasks.context;
    assert.match(own, /^deno run -A \S+\/cli\.ts build --server$/);
  },
});

Deno.test("this repository's tasks run slop as slop init's task does, with no V8 flags to type", async () => {
  const deno = JSON.parse(await Deno.readTextFile(join(REPO, "deno.json")));
  assert.equal(deno.tasks.slop, "deno run -A cli.ts");
  assert.equal(deno.tasks.context, "deno run -A cli.ts build --config examples/slop.config.ts");
  for (const [name, task] of Object.entries<string>(deno.tasks)) {
    // The test task gives `deno test` a flag of its own (`--expose-gc`: a build's collections in
    // the test process are one full collection); no task that runs slop names V8 flags.
    if (name === "test") {
      assert.match(task, /deno test [^&]*--v8-flags=--expose-gc /, `task "${name}"`);
      assert.doesNotMatch(
        task.replace("--v8-flags=--expose-gc ", ""),
        /v8-flags/,
        `task "${name}"`,
      );
      continue;
    }
    assert.doesNotMatch(task, /v8-flags/, `task "${name}"`);
  }
});

Deno.test("slop init names deno.jsonc when that is the file it adds the task to", async () => {
  const root = await makeProject({ "deno.jsonc": '{\n  "imports": {}\n}\n' });
  const run = await runCliShared(["init"], root);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /^slop: added the "context" task to deno\.jsonc$/m);
  assert.equal(await Deno.lstat(join(root, "deno.json")).then(() => true, () => false), false);
});

Deno.test("slop init into a path that is a file, or cannot be made, names the folder", async () => {
  const root = await makeProject({ "afile": "x\n" });
  const file = await runCliShared(["init", "afile"], root);
  assert.equal(file.code, 1);
  assert.equal(file.stderr, `slop: Cannot create the folder "afile": a file of that name exists\n`);
  const deep = await runCliShared(["init", "afile/sub"], root);
  assert.equal(deep.code, 1);
  assert.match(deep.stderr, /^slop: Cannot create the folder "afile\/sub": .+\n$/);
  assert.doesNotMatch(deep.stderr, /os error|mkdir '/);
});

Deno.test("slop init beside a package.json that is a FIFO or a link to /dev/zero names it and ends", async () => {
  // Read by `Deno.readTextFile`: the FIFO held `slop init` for good, the link read without end.
  const NOT_REGULAR = "it is not a regular file (a FIFO, socket or device), which slop does not " +
    "read: put a file in its place";
  const fifo = await makeProject({ "a.py": "x = 1\n" });
  await new Deno.Command("mkfifo", { args: [join(fifo, "package.json")] }).output();
  const linked = await makeProject({ "a.py": "x = 1\n" });
  await Deno.symlink("/dev/zero", join(linked, "package.json"));
  for (const root of [fifo, linked]) {
    const signal = AbortSignal.timeout(60_000); // bounded: the old read never came back
    const run = await runCliShared(["init"], root, {}, { signal });
    assert.deepEqual([run.code, run.stderr], [
      1,
      `slop: Cannot read "package.json": ${NOT_REGULAR}\n`,
    ]);
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("slop init beside a config slop does not load writes nothing and names it", async () => {
  // It wrote slop.config.ts beside slop.config.yaml: the yaml's settings were ignored from then on.
  const root = await makeProject({ "a.py": "x = 1\n" });
  await Deno.mkdir(join(root, "slop.config.json")); // a folder of such a name is no config
  for (const name of ["slop.config.yaml", "Slop.Config.json"]) {
    const folder = join(root, name === "slop.config.yaml" ? "yaml" : "json");
    await Deno.mkdir(folder);
    await Deno.writeTextFile(join(folder, name), "exclude: [private]\n");
    const errors: string[] = [];
    const error = console.error;
    console.error = (line: string) => errors.push(line);
    try {
      assert.equal(await runInit(folder, { quiet: true }), 1);
    } finally {
      console.error = error;
    }
    assert.deepEqual([...Deno.readDirSync(folder)].map((e) => e.name), [name]);
    assert.equal(errors.length, 1);
    assert.match(
      errors[0],
      new RegExp(`^slop: Cannot set up slop: ".*${name}" is a config slop does not load`),
    );
  }
  // The folder alone is passed over.
  const log = console.log;
  console.log = () => {};
  try {
    assert.equal(await runInit(root, {}), 0);
  } finally {
    console.log = log;
  }
  assert.ok(existsSync(join(root, "slop.config.ts")));
});

Deno.test("slop init's config names every built-in view mode in the defaultView comment", async () => {
  const root = await makeProject({});
  assert.equal((await runCliShared(["init", "-q"], root)).code, 0);
  const text = await Deno.readTextFile(join(root, "slop.config.ts"));
  const lines = text.split("\n");
  const first = lines.findIndex((l) => l.includes("The view for files that set none"));
  assert.ok(first >= 0, text);
  const end = lines.findIndex((l, i) => i > first && !l.trim().startsWith("//"));
  const comment = lines.slice(first, end).join(" ");
  const views = defaultPlugins().filter((p) => p.kind === "view-mode").map((p) =>
    p.name.replace(/^slop:/, "")
  );
  for (const view of views) assert.match(comment, new RegExp(`\\b${view}\\b`), view);
  // The size over which a data file is summarized unless named, as the rule has it.
  assert.ok(text.includes(`a data file over ${DATA_LIMIT / 1024} KB, named: shown whole`), text);
});

Deno.test("slop init creates the folder it is given", async () => {
  const root = await makeProject({});
  const run = await runCliShared(["init", "-q", "new/project"], root);
  assert.equal(run.code, 0, run.stderr);
  assert.ok((await Deno.stat(join(root, "new/project/slop.config.ts"))).isFile);
  // A package of a monorepo, from its root: the files are named from here, and the task is to
  // run there.
  await Deno.mkdir(join(root, "packages/web app"), { recursive: true });
  await Deno.writeTextFile(join(root, "packages/web app/package.json"), '{ "name": "web" }\n');
  const pkg = await runCliShared(["init", "packages/web app"], root);
  assert.equal(pkg.code, 0, pkg.stderr);
  const lines = pkg.stdout.split("\n");
  assert.deepEqual(lines.slice(0, 2), [
    "slop: wrote packages/web app/slop.config.ts",
    'slop: added the "context" script to packages/web app/package.json',
  ]);
  assert.match(
    lines[2],
    /^slop: in 'packages\/web app', run `npm run context` \(or `[^`]+ build`\) to build the next context document \(its path is the build's first line: \.slop\/out\/context_NNN\.md by default\)$/,
  );
});

Deno.test("slop init names the Node project's package manager, by its lockfile, in the commands it says", async () => {
  const root = await makeProject({});
  const cases: Array<[string, string, string]> = [
    ["pnpm-lock.yaml", "pnpm run context", "pnpm run context --no-server"],
    ["yarn.lock", "yarn run context", "yarn run context --no-server"],
    ["bun.lockb", "bun run context", "bun run context --no-server"],
    ["package-lock.json", "npm run context", "npm run context -- --no-server"],
  ];
  for (const [lockfile, run, bare] of cases) {
    const folder = join(root, lockfile);
    await Deno.mkdir(folder);
    await Deno.writeTextFile(join(folder, "package.json"), '{ "name": "web" }\n');
    await Deno.writeTextFile(join(folder, lockfile), "\n");
    const stdout = await initPrinted(folder);
    assert.ok(stdout.includes(`run \`${run}\` (or \``), stdout);
    assert.ok(stdout.includes(`(\`${bare}\` builds without it)`), stdout);
  }
});

Deno.test("slop init in a monorepo package names the package manager of the workspace's root", async () => {
  // The lockfile sits at the workspace's root, or package.json names its manager; a lockfile
  // above the repository (a stray one in a home folder) is not the project's.
  const root = await makeProject({
    "yarn.lock": "\n",
    "repo/.git/HEAD": "ref: refs/heads/main\n",
    "repo/pnpm-lock.yaml": "lockfileVersion: '9.0'\n",
    "repo/packages/web/package.json": '{ "name": "web" }\n',
    "repo/packages/api/package.json": '{ "name": "api", "packageManager": "bun@1.2.0" }\n',
    "other/.git/HEAD": "ref: refs/heads/main\n",
    "other/package.json": '{ "name": "other" }\n',
    "yarn/.git/HEAD": "ref: refs/heads/main\n",
    "yarn/package.json": '{ "name": "top", "packageManager": "yarn@4.5.0+sha512.abc" }\n',
    "yarn/packages/ui/package.json": '{ "name": "ui" }\n',
  });
  const cases: Array<[string, string]> = [
    ["repo/packages/web", "pnpm run context"],
    ["repo/packages/api", "bun run context"],
    ["other", "npm run context"],
    ["yarn/packages/ui", "yarn run context"],
  ];
  for (const [folder, run] of cases) {
    const stdout = await initPrinted(join(root, folder));
    assert.ok(stdout.includes(`run \`${run}\` (or \``), `${folder}: ${stdout}`);
  }
});

Deno.test("slop init in a folder of a Go or Node repository writes no deno.json there", async () => {
  // The folder has no project file of its own; the repository's top says whose project it is. A
  // Deno project above keeps the task in the folder, and nothing above the repository counts.
  const root = await makeProject({
    "go.mod": "module example.com/stray\n",
    "go/.git/HEAD": "ref: refs/heads/main\n",
    "go/go.mod": "module example.com/app\n",
    "go/tools/gen/main.go": "package main\n",
    "node/.git/HEAD": "ref: refs/heads/main\n",
    "node/package.json": '{ "name": "root", "workspaces": ["packages/*"] }\n',
    "deno/.git/HEAD": "ref: refs/heads/main\n",
    "deno/deno.json": "{}\n",
    "deno/lib/mod.ts": "export const a = 1;\n",
    "plain/.git/HEAD": "ref: refs/heads/main\n",
    "plain/sub/a.txt": "text\n",
  });
  const cases: Array<[string, string | undefined]> = [
    ["go/tools/gen", "../../go.mod"],
    ["node/packages/new", "../../package.json"],
    ["deno/lib", undefined],
    ["plain/sub", undefined],
  ];
  for (const [folder, above] of cases) {
    const stdout = await initPrinted(join(root, folder));
    assert.ok(existsSync(join(root, folder, "slop.config.ts")), folder);
    assert.equal(existsSync(join(root, folder, "deno.json")), above === undefined, folder);
    if (above !== undefined) {
      assert.ok(stdout.includes(`wrote no task: ${above} makes this folder part of`), stdout);
    }
  }
});

Deno.test("slop init in a Poetry, Go, Cargo or .NET project writes no deno.json and says the command", async () => {
  const root = await makeProject({});
  // What makes each a project of another toolchain: its manifest, or a solution by its ending.
  const cases: Array<[string, string]> = [
    ["pyproject.toml", '[tool.poetry]\nname = "app"\n'],
    ["go.mod", "module example.com/app\n"],
    ["Cargo.toml", '[workspace]\nmembers = ["core"]\n'],
    ["MediatR.sln", "Microsoft Visual Studio Solution File\n"],
  ];
  for (const [manifest, text] of cases) {
    const folder = join(root, manifest.replace(".", "_"));
    await Deno.mkdir(folder);
    await Deno.writeTextFile(join(folder, manifest), text);
    const stdout = await initPrinted(folder);
    assert.ok(existsSync(join(folder, "slop.config.ts")), manifest);
    assert.ok(!existsSync(join(folder, "deno.json")), `${manifest}: no deno.json`);
    assert.ok(!stdout.includes("deno task"), stdout);
    assert.ok(stdout.includes(`wrote no task: ${manifest} makes this a project`), stdout);
    assert.match(
      stdout,
      /run `(slop|deno run -A \S*cli\.ts) build( --server)?` to build the next/,
    );
  }
  // A project with a deno.json or package.json beside its manifest still gets the task there.
  const both = join(root, "both");
  await Deno.mkdir(both);
  await Deno.writeTextFile(join(both, "go.mod"), "module example.com/both\n");
  await Deno.writeTextFile(join(both, "deno.json"), "{}\n");
  const log = console.log;
  console.log = () => {};
  try {
    assert.equal(await runInit(both, {}), 0);
  } finally {
    console.log = log;
  }
  assert.ok(JSON.parse(await Deno.readTextFile(join(both, "deno.json"))).tasks.context);
});

// slop may sit in a folder whose name has a space, a `#` or a quote (`~/My Tools/slop`): the task
// `slop init` writes must still run it, and the config must still load.
for (const folder of ["my tools", "c# tools", "bob's tools"]) {
  Deno.test(`slop init from a path with "${folder}" writes a task and a config that work`, async () => {
    const outer = await tempDir({ prefix: "slop_odd_" });
    const link = join(outer, folder);
    await Deno.symlink(REPO, link);
    const root = await makeProject({ "src/a.ts": "export const a = 1;\n" });
    const init = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--quiet", join(link, "cli.ts"), "init"],
      cwd: root,
      env: { NO_COLOR: "1", ...NO_SLOP },
    }).output();
    assert.ok(init.success, new TextDecoder().decode(init.stderr));
    const deno = JSON.parse(await Deno.readTextFile(join(root, "deno.json")));
    assert.match(deno.tasks.context, /tools/, "the task names slop by its path here");
    const task = await runTask("context --no-server", root, { CI: "" });
    assert.equal(task.code, 0, task.stderr);
    const doc = await Deno.readTextFile(join(root, ".slop/out/context_001.md"));
    assert.match(doc, /### src\/a\.ts/);
    // The config names no folder of this machine.
    const config = await Deno.readTextFile(join(root, "slop.config.ts"));
    assert.ok(!config.includes("tools"), config);
  });
}

const TASK = "deno run -A cli.ts build";

Deno.test("withContextTask() writes the task into the text as it stands, in the object's own layout", () => {
  const cases: Array<[string, string]> = [
    [
      '{\n  // mine\n  "tasks": { "dev": "deno run main.ts" }\n}\n',
      `{\n  // mine\n  "tasks": { "dev": "deno run main.ts", "context": "${TASK}" }\n}\n`,
    ],
    [
      '{\n  "tasks": { "dev": "deno run main.ts", },\n}\n',
      `{\n  "tasks": { "dev": "deno run main.ts", "context": "${TASK}", },\n}\n`,
    ],
    [
      '{\n  "tasks": {\n    "dev": "deno run main.ts" // the dev server\n  },\n  "fmt": {}\n}\n',
      '{\n  "tasks": {\n    "dev": "deno run main.ts", // the dev server\n' +
      `    "context": "${TASK}"\n  },\n  "fmt": {}\n}\n`,
    ],
    [
      '{\n  "tasks": {\n    "dev": "x",\n  },\n}\n',
      `{\n  "tasks": {\n    "dev": "x",\n    "context": "${TASK}",\n  },\n}\n`,
    ],
    ['{\n  "tasks": {}\n}\n', `{\n  "tasks": { "context": "${TASK}" }\n}\n`],
    [
      '{\n\t"name": "x", /* why */\n\t"imports": { "a": "b" }\n}\n',
      `{\n\t"name": "x", /* why */\n\t"imports": { "a": "b" },\n\t"tasks": {\n\t\t"context": "${TASK}"\n\t}\n}\n`,
    ],
    ['{ "name": "x" }', `{ "name": "x", "tasks": { "context": "${TASK}" } }`],
    ["{}", `{ "tasks": { "context": "${TASK}" } }`],
    [
      '/* a */ { "a": "b\\"c // not a comment" /* x */ }',
      `/* a */ { "a": "b\\"c // not a comment", "tasks": { "context": "${TASK}" } /* x */ }`,
    ],
  ];
  for (const [before, after] of cases) assert.equal(withContextTask(before, TASK), after, before);
});

Deno.test("withContextTask() keeps a context task and refuses what it cannot edit safely", () => {
  assert.equal(withContextTask('{ "tasks": { "context": "mine" } }', TASK), "kept");
  for (
    const text of [
      '{ "tasks": [] }',
      '{ "tasks": "x" }',
      '{ "tasks": {}, "tasks": {} }',
      '{ "tasks": { /* keep me */ } }',
      "// only a comment\n",
      '{ "a": 1 } trailing',
      '{ "a": 1',
      '{ "a": "open }',
      '{ "a": 1 /* open }',
      "{ 'a': 1 }",
      "[1, 2]",
      "",
    ]
  ) {
    assert.equal(withContextTask(text, TASK), undefined, text);
  }
});

Deno.test("jsoncToJson() drops comments and trailing commas, never inside strings", () => {
  const text = '{\n  // c\n  "a": "// no", /* d */ "b": [1, 2,],\n  "c": { "d": "/* no */", },\n}';
  assert.deepEqual(JSON.parse(jsoncToJson(text)!), {
    a: "// no",
    b: [1, 2],
    c: { d: "/* no */" },
  });
  assert.equal(jsoncToJson('{ "a": "open'), undefined);
});

Deno.test("slop init adds the context task to a deno.jsonc with comments, which Deno then runs", async () => {
  const jsonc =
    '{\n  // the project\'s tasks\n  "tasks": {\n    "dev": "deno run main.ts", // dev server\n  },\n}\n';
  const root = await makeProject({ "deno.jsonc": jsonc, "src/a.ts": "export const a = 1;\n" });
  const run = await runCliShared(["init"], root, NO_SLOP);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /added the "context" task to deno.jsonc/);
  const text = await Deno.readTextFile(join(root, "deno.jsonc"));
  assert.ok(
    text.startsWith(
      '{\n  // the project\'s tasks\n  "tasks": {\n    "dev": "deno run main.ts", // dev server\n    "context": "deno run -A ',
    ),
    text,
  );
  // In the process: the task's build server is `init_test.ts`'s (in a folder of its own).
  const task = await runTask("context --no-server", root);
  assert.equal(task.code, 0, task.stderr);
  assert.match(await Deno.readTextFile(join(root, ".slop/out/context_001.md")), /### src\/a\.ts/);
});

/** `slop init` in `folder`, in this process (a CLI start each would cost a second): what it printed. */
async function initPrinted(folder: string): Promise<string> {
  const printed: string[] = [];
  const log = console.log;
  console.log = (line: string) => printed.push(line);
  try {
    assert.equal(await runInit(folder, {}), 0);
  } finally {
    console.log = log;
  }
  return printed.join("\n");
}

Deno.test("slop init's task names slop by a path that works from the project, on any drive", () => {
  assert.equal(relativeSpecifier("/p", "/p/tools/cli.ts"), "./tools/cli.ts");
  assert.equal(relativeSpecifier("/p", "/p/.slop/cli.ts"), "./.slop/cli.ts");
  assert.equal(relativeSpecifier("/p/a", "/p/slop/cli.ts"), "../slop/cli.ts");
  assert.equal(relativeSpecifier("/p", "/cli.ts", { path: posix }), "../cli.ts");
  assert.equal(
    relativeSpecifier("C:\\work\\app", "C:\\slop\\cli.ts", { path: win32 }),
    "../../slop/cli.ts",
  );
  // No relative path leads to another drive: the absolute path, with no "./" before it.
  assert.equal(
    relativeSpecifier("C:\\work\\app", "D:\\slop\\cli.ts", { path: win32 }),
    "D:/slop/cli.ts",
  );
});
