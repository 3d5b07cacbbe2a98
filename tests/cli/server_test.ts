import assert from "node:assert/strict";
import { join } from "node:path";
import { makeProject, REPO, runCli, runCliShared, tempDir, withEnvSync } from "../_helpers.ts";
import { ok, serverCase } from "./_server.ts";
import { serverFiles } from "../../server/files.ts";
import { isCi, SERVER_V8_FLAGS } from "../../server/client.ts";
import { statusLine } from "../../cli/server.ts";

const PROJECT = {
  "slop.config.ts": `export default { files: ["src/**"] };\n`,
  "src/a.py": "def a():\n    return 1\n",
  "src/b.ts": "export const b = 2;\n",
};

Deno.test("slop build --server writes what a build in the process writes, in one server", async () => {
  const served = await serverCase(PROJECT);
  const local = await makeProject(PROJECT);
  try {
    const first = ok(await served.slop(["build", "--server"]));
    const own = ok(await runCliShared(["build"], local));
    assert.equal(first.stdout, own.stdout, "the same summary");
    assert.equal(first.stderr, "");
    const pid = (await served.status())?.pid;
    assert.ok(pid && pid !== Deno.pid);
    if (Deno.build.os === "linux") {
      // Started with a build server's memory settings, which Linux shows.
      const started = (file: string) => Deno.readTextFile(`/proc/${pid}/${file}`);
      assert.ok((await started("cmdline")).split("\0").includes(SERVER_V8_FLAGS));
    }
    // The server's rehearsal after its first build is not recorded as the last build.
    const stats = JSON.parse(ok(await served.slop(["cache", "stats", "--json"])).stdout);
    assert.deepEqual(stats.lastBuild.files, { hits: 0, misses: 2 });
    for (const root of [served.root, local]) {
      await Deno.writeTextFile(join(root, "src/b.ts"), "export const b = 3;\n");
      await Deno.writeTextFile(join(root, "src/c.md"), "# new file\n");
    }
    const second = ok(await served.slop(["build", "--server"]));
    assert.equal(second.stdout, ok(await runCliShared(["build"], local)).stdout);
    for (const name of ["context_001.md", "context_002.md"]) {
      assert.equal(
        await Deno.readTextFile(join(served.root, ".slop/out", name)),
        await Deno.readTextFile(join(local, ".slop/out", name)),
        name,
      );
    }
    assert.match(
      await Deno.readTextFile(join(served.root, ".slop/out/context_002.md")),
      /new file/,
    );
    // A file created: the watcher says the list may have changed, and the files are listed again.
    const status = await served.status();
    assert.deepEqual([status?.pid, status?.builds], [pid, 2]);
    assert.equal(status?.lastChanges?.structural, true);
    // An edit only: the watcher names the file, and no other file is looked at.
    for (const root of [served.root, local]) {
      await Deno.writeTextFile(join(root, "src/a.py"), "def a():\n    return 2\n");
    }
    assert.equal(
      ok(await served.slop(["build", "--server"])).stdout,
      ok(await runCliShared(["build"], local)).stdout,
    );
    assert.equal(
      await Deno.readTextFile(join(served.root, ".slop/out/context_003.md")),
      await Deno.readTextFile(join(local, ".slop/out/context_003.md")),
    );
    assert.deepEqual((await served.status())?.lastChanges, {
      paths: ["src/a.py"],
      structural: false,
    });
  } finally {
    await served.stopAll();
  }
});

Deno.test("slop build --server relays stdout bytes, stderr and exit codes", async () => {
  const served = await serverCase({
    ...PROJECT,
    // Markdown, shown whole (plain text that large is summarized as data): 3 MB to relay.
    "src/big.md": "x".repeat(3 * 1024 * 1024) + "\n",
  });
  try {
    const printed = ok(await served.slop(["build", "--server", "--stdout", "-q"]));
    const own = ok(await runCliShared(["build", "--stdout", "-q"], served.root));
    assert.equal(printed.stdout.length, own.stdout.length);
    assert.equal(printed.stdout, own.stdout);
    const bad = await served.slop(["build", "--server", "--budget", "lots"]);
    assert.equal(bad.code, 2);
    assert.equal(
      bad.stderr,
      'slop: Invalid --budget "lots": expected a positive whole number of tokens\n',
    );
    await Deno.writeTextFile(
      join(served.root, "slop.config.ts"),
      `export default { filez: [] };\n`,
    );
    const broken = await served.slop(["build", "--server"]);
    assert.equal(broken.code, 2);
    assert.match(broken.stderr, /filez/);
    assert.equal((await served.status())?.builds, 3, "one server ran the three builds");
  } finally {
    await served.stopAll();
  }
});

Deno.test("slop build --server applies a config edit and restarts for an imported module's", async () => {
  const served = await serverCase({
    "slop.config.ts": `import { files } from "./files.ts";\nexport default { files };\n`,
    "files.ts": `export const files = ["a.txt"];\n`,
    "a.txt": "alpha\n",
    "b.txt": "beta\n",
    "c.txt": "gamma\n",
  });
  const document = async (n: number) =>
    await Deno.readTextFile(join(served.root, `.slop/out/context_00${n}.md`));
  try {
    ok(await served.slop(["build", "--server"]));
    const pid = (await served.status())?.pid;
    assert.match(await document(1), /alpha/);
    await Deno.writeTextFile(join(served.root, "files.ts"), `export const files = ["b.txt"];\n`);
    ok(await served.slop(["build", "--server"]));
    assert.match(await document(2), /beta/);
    assert.doesNotMatch(await document(2), /alpha/);
    const restarted = await served.status();
    assert.notEqual(restarted?.pid, pid, "a new server for the new module");
    await Deno.writeTextFile(
      join(served.root, "slop.config.ts"),
      `import { files } from "./files.ts";\nexport default { files: [...files, "c.txt"] };\n`,
    );
    ok(await served.slop(["build", "--server"]));
    assert.match(await document(3), /gamma/);
    assert.equal((await served.status())?.pid, restarted?.pid, "a config edit is loaded in place");
  } finally {
    await served.stopAll();
  }
});

Deno.test("slop build --server builds with the client's environment", async () => {
  const served = await serverCase({
    "slop.config.ts": `export default { files: [Deno.env.get("PICK") ?? "a.txt"] };\n`,
    "a.txt": "alpha\n",
    "b.txt": "beta\n",
  });
  try {
    ok(await served.slop(["build", "--server", "--stdout", "-q"], { PICK: "a.txt" }));
    const b = ok(await served.slop(["build", "--server", "--stdout", "-q"], { PICK: "b.txt" }));
    assert.match(b.stdout, /beta/);
    assert.doesNotMatch(b.stdout, /alpha/);
    assert.equal((await served.status())?.builds, 2);
  } finally {
    await served.stopAll();
  }
});

Deno.test("a killed build server is replaced; stop and status say what runs", async () => {
  const served = await serverCase(PROJECT);
  try {
    assert.equal((await served.slop(["server", "status"])).code, 1);
    const started = ok(await served.slop(["server", "start"]));
    assert.match(started.stdout, /^slop: build server pid \d+ for .*: 0 builds; /);
    const pid = (await served.status())!.pid;
    Deno.kill(pid, "SIGKILL");
    ok(await served.slop(["build", "--server", "-q"]));
    const next = await served.status();
    assert.ok(next && next.pid !== pid);
    assert.equal(next.builds, 1);
    const stopped = ok(await served.slop(["server", "stop"]));
    assert.equal(stopped.stdout, `slop: stopped the build server (pid ${next.pid})\n`);
    assert.equal(await served.status(), undefined);
    // With --all, each line names the project whose server it stopped.
    ok(await served.slop(["build", "--server", "-q"]));
    const again = (await served.status())!;
    const all = ok(await served.slop(["server", "stop", "--all"]));
    assert.match(
      all.stdout,
      new RegExp(`^slop: stopped the build server of /\\S+ \\(pid ${again.pid}\\)\\n$`),
    );
    const names = [...Deno.readDirSync(join(served.runtime, "slop"))].map((e) => e.name);
    assert.ok(!names.some((n) => n.endsWith(".sock")), names.join(" "));
  } finally {
    await served.stopAll();
  }
});

Deno.test("in a CI job --server starts no server but uses one that runs; --no-server overrides it", async () => {
  const served = await serverCase(PROJECT);
  try {
    const ci = { CI: "true" };
    const own = ok(await served.slop(["build", "--server"], ci));
    assert.equal(own.stderr, "", "no warning: a CI job builds in its process by choice");
    assert.match(own.stdout, /^slop: wrote \.slop\/out\/context_001\.md/);
    assert.equal(await served.status(), undefined, "no server started");
    ok(await served.slop(["server", "start"]));
    ok(await served.slop(["build", "--server", "-q"], ci));
    assert.equal((await served.status())?.builds, 1, "the running server built it");
    ok(await served.slop(["build", "--server", "--no-server", "-q"]));
    assert.equal((await served.status())?.builds, 1, "--no-server: built in the process");
    const documents = [...Deno.readDirSync(join(served.root, ".slop/out"))]
      .filter((e) => e.name.endsWith(".md")).map((e) => e.name).sort();
    assert.deepEqual(documents, ["context_001.md", "context_002.md", "context_003.md"]);
  } finally {
    await served.stopAll();
  }
});

Deno.test("a build server whose project folder is removed logs no error for the edits it sees", async () => {
  const served = await serverCase(PROJECT);
  try {
    ok(await served.slop(["build", "--server", "-q"]));
    const pid = (await served.status())!.pid;
    const log = [...Deno.readDirSync(join(served.runtime, "slop"))].find((e) =>
      e.name.endsWith(".log")
    )!;
    // The server may still write its state after the build (order memory): a folder made while
    // the removal walks the tree leaves it "not empty" (seen once in the suite under a load of 18).
    for (let attempt = 0;; attempt++) {
      try {
        await Deno.remove(served.root, { recursive: true });
        break;
      } catch (error) {
        if (attempt >= 20 || !/not empty/i.test(String(error))) throw error;
      }
    }
    // The watcher tells of the removal, and the server would prepare the next build in a folder
    // that is gone (it did so within 150 ms, and logged the error).
    let text = "";
    for (let i = 0; i < 20; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      text = await Deno.readTextFile(join(served.runtime, "slop", log.name));
      assert.doesNotMatch(text, /NotFound|chdir/);
    }
    assert.match(text, new RegExp(`listening at .* \\(pid ${pid}\\)`));
  } finally {
    await Deno.mkdir(served.root, { recursive: true });
    await served.stopAll();
  }
});

Deno.test("isCi() takes CI for a CI job unless it is unset, empty, 0 or false", () => {
  for (const value of ["true", "1", "yes", "TRUE", "gitlab"]) {
    assert.equal(isCi(value), true, value);
  }
  for (const value of [undefined, "", " ", "0", "false", "False"]) {
    assert.equal(isCi(value), false, String(value));
  }
});

Deno.test("an idle build server exits after --server-idle", async () => {
  const served = await serverCase(PROJECT);
  try {
    ok(await served.slop(["build", "--server", "--server-idle", "300ms", "-q"]));
    let running = true;
    // Looked at until it has gone, for up to 60 s: a loaded machine runs its timer late.
    for (let i = 0; i < 600 && running; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      running = (await served.status()) !== undefined;
    }
    assert.equal(running, false);
    const bad = await served.slop(["build", "--server", "--server-idle", "soon"]);
    assert.equal(bad.code, 2);
    assert.equal(
      bad.stderr,
      'slop: Invalid --server-idle "soon": expected a time like 30s, 15m or 2h, over 0 and at most 596h\n',
    );
  } finally {
    await served.stopAll();
  }
});

Deno.test("two clients at once start one build server", async () => {
  const served = await serverCase(PROJECT);
  try {
    const runs = await Promise.all([
      served.slop(["build", "--server", "-q"]),
      served.slop(["build", "--server", "-q"]),
    ]);
    runs.forEach(ok);
    const all = JSON.parse(ok(await served.slop(["server", "status", "--all", "--json"])).stdout);
    assert.equal(all.length, 1);
    assert.equal(all[0].builds, 2);
    const out = [...Deno.readDirSync(join(served.root, ".slop/out"))].map((e) => e.name).sort();
    assert.deepEqual(out.filter((n) => n.endsWith(".md")), ["context_001.md", "context_002.md"]);
  } finally {
    await served.stopAll();
  }
});

/** A copy of the bundled example whose config imports this repository's `config.ts`. */
async function exampleCopy(dir: string): Promise<string> {
  await new Deno.Command("cp", { args: ["-r", `${join(REPO, "examples")}/.`, dir] }).output();
  await Deno.remove(join(dir, ".slop"), { recursive: true }).catch(() => {});
  const config = join(dir, "slop.config.ts");
  const text = await Deno.readTextFile(config);
  const url = new URL("../../config.ts", import.meta.url).href;
  await Deno.writeTextFile(config, text.replace(`"../config.ts"`, `"${url}"`));
  return dir;
}

Deno.test("slop build --server follows the example's history, slices, knowledge and sources", async () => {
  const served = await serverCase({});
  const local = await exampleCopy(await tempDir());
  await exampleCopy(served.root);
  const edit = async (root: string) => {
    await Deno.writeTextFile(
      join(root, "discussion.jsonl"),
      `{"role": "User", "content": "And a restock report?"}\n`,
      { append: true },
    );
    await Deno.writeTextFile(
      join(root, "slop/knowledge/facts.md"),
      "- Stock is never negative.\n",
      {
        append: true,
      },
    );
    const design = join(root, "docs/design.md");
    await Deno.writeTextFile(design, "# Moved down\n\n" + await Deno.readTextFile(design));
    const report = join(root, "src/report.ts");
    await Deno.writeTextFile(report, (await Deno.readTextFile(report)) + "\nexport const x = 1;\n");
  };
  try {
    for (const round of [1, 2]) {
      if (round === 2) await Promise.all([edit(served.root), edit(local)]);
      const server = ok(await served.slop(["build", "--server", "--stdout", "-q"]));
      const own = ok(await runCliShared(["build", "--stdout", "-q"], local));
      assert.equal(server.stdout, own.stdout, `round ${round}`);
      assert.equal(server.stderr, own.stderr);
    }
    assert.equal((await served.status())?.builds, 2);
  } finally {
    await served.stopAll();
  }
});

Deno.test("a build server that cannot start logs why, and the build runs in the client", async () => {
  // A socket path longer than Unix sockets allow (about 104-108 bytes): the server cannot listen.
  const runtime = await tempDir({ prefix: `slop_${"x".repeat(100)}_` });
  const root = await makeProject(PROJECT);
  const env = { XDG_RUNTIME_DIR: runtime, CI: "" };
  const run = ok(await runCli(["build", "--server"], root, env));
  assert.match(
    run.stderr,
    /^slop: warning: the build server did not start \(see ".*\.log"\): building in this process\n$/,
  );
  assert.match(run.stdout, /^slop: wrote \.slop\/out\/context_001\.md/);
  const log = [...Deno.readDirSync(join(runtime, "slop"))].find((e) => e.name.endsWith(".log"));
  assert.ok(log, "a log file");
  assert.match(
    await Deno.readTextFile(join(runtime, "slop", log.name)),
    /stopped by an error: /,
  );
});

Deno.test("a client that cannot start a build server says why and builds in its own process", async () => {
  const runtime = await tempDir({ prefix: "slop_servers_" });
  const root = await makeProject(PROJECT);
  // The lock file the client opens to start the server is a folder.
  const cwd = await Deno.realPath(root);
  const lock = withEnvSync({ XDG_RUNTIME_DIR: runtime }, () => serverFiles({ cwd }).lock);
  await Deno.mkdir(lock);
  const run = ok(await runCli(["build", "--server"], root, { XDG_RUNTIME_DIR: runtime, CI: "" }));
  assert.match(
    run.stderr,
    /^slop: warning: the build server cannot be started \(.+\): building in this process\n$/,
  );
  assert.match(run.stdout, /^slop: wrote \.slop\/out\/context_001\.md/);
});

Deno.test("serverFiles() names a server after its key: the same key the same files, any other key others", async () => {
  const runtime = await tempDir({ prefix: "slop_servers_" });
  withEnvSync({ XDG_RUNTIME_DIR: runtime }, () => {
    const key = { cwd: "/p", config: "slop.config.ts", stateDir: ".slop" };
    const files = serverFiles(key);
    assert.match(files.id, /^[0-9a-f]{20}$/);
    assert.equal(files.socket, `${runtime}/slop/${files.id}.sock`);
    assert.deepEqual(serverFiles({ ...key }), files);
    const others = [
      { ...key, cwd: "/q" },
      { ...key, config: "other.config.ts" },
      { ...key, stateDir: ".state" },
      { ...key, config: undefined },
    ].map((other) => serverFiles(other).id);
    assert.equal(new Set([files.id, ...others]).size, 5);
  });
});

Deno.test("slop server status never shows a peak below the resident size", () => {
  const MB = 1024 * 1024;
  const status = {
    pid: 42,
    cwd: "/p",
    version: "0",
    started: "2026-01-01T00:00:00Z",
    idleMs: 900_000,
    builds: 1,
    prepares: 0,
    rss: 68.7 * MB,
  };
  // Linux updates VmHWM lazily: a peak read just before can be below the RSS read after it.
  const line = statusLine({ ...status, peakRss: 68.6 * MB });
  assert.match(line, /; (\S+ \S+) resident, peak \1;/, line);
  assert.match(statusLine({ ...status, peakRss: 90 * MB }), /resident, peak 90(\.0)? MB;/);
  assert.doesNotMatch(statusLine({ ...status, peakRss: 0 }), /peak/);
});
