import assert from "node:assert/strict";
import { join } from "node:path";
import { beadsSection, buildContext, compareIds, renderBeads, trimDescription } from "../../mod.ts";
import { loadBeads, parseBdList, parseBeadsJsonl } from "../../plugins/sections/_beads.ts";
import { fixture, makeProject, runCliShared } from "../_helpers.ts";

const EXPORT = join(fixture("beads"), "issues.jsonl");

async function beadsProject(jsonl?: string): Promise<string> {
  const tree: Record<string, string> = { "a.ts": "export const a = 1;\n", ".beads/.keep": "" };
  if (jsonl !== undefined) tree[".beads/issues.jsonl"] = jsonl;
  return await makeProject(tree);
}

async function beadsBlock(root: string, beads?: boolean) {
  const result = await buildContext({
    cwd: root,
    inline: { files: ["a.ts"], beads, plugins: [beadsSection({ bd: false })] },
  }, { write: false });
  return { block: result.blocks.find((b) => b.id === "beads"), result };
}

Deno.test("beadsSection() renders the real 704-issue export: closed ids, active bullets", async () => {
  const text = await Deno.readTextFile(EXPORT);
  const rows = text.trim().split("\n").map((l) => JSON.parse(l));
  assert.equal(rows.length, 704);
  const closed = rows.filter((r) => r.status === "closed").map((r) => r.id as string);
  const active = rows.filter((r) => r.status !== "closed" && r.status !== "tombstone");
  const { block, result } = await beadsBlock(await beadsProject(text));
  assert.ok(block);
  assert.equal(block.stability, "volatile");
  assert.deepEqual(result.warnings, []);
  const doc = block.text;
  assert.ok(doc.startsWith("## Beads Mode: Progress Track\n\n**Completed (403):** "));
  // Closed: one comma-separated line holding every closed id exactly once.
  const completed = doc.split("\n")[2].replace(/^\*\*Completed \(\d+\):\*\* /, "").split(", ");
  assert.equal(completed.length, closed.length);
  assert.deepEqual([...completed].sort(), [...closed].sort());
  assert.deepEqual(completed, [...completed].sort(compareIds));
  // Active: one bullet per open, in_progress, hooked and pinned issue.
  assert.ok(doc.includes(`\n**Active (${active.length}):**\n\n`));
  const bullets = doc.split("\n").filter((l) => l.startsWith("- **"));
  assert.equal(bullets.length, active.length);
  for (const row of active) {
    assert.equal(bullets.filter((b) => b.includes(` (${row.id}, ${row.status}, P`)).length, 1);
  }
  // In progress first (by priority, then id), pinned after the open ones.
  assert.ok(bullets[0].startsWith(
    "- **Speed up internal/storage/dolt tests (75s)** (bd-5ua, in_progress, P2): " +
      "attached_molecule: bd-wisp-vnssv attached_formula: mol-polecat-work at",
  ));
  assert.match(bullets[1], /^- \*\*Speed up cmd\/bd\/doctor tests \(44s\)\*\* \(bd-6bq, /);
  assert.match(bullets[2], /\(bd-wisp-5xon7z, in_progress, P2\)/);
  assert.match(bullets[3], /\(bd-wisp-1bq0u0, hooked, P1\)/);
  assert.match(bullets.at(-1)!, /, pinned, P2\)/);
  // Descriptions are trimmed to one line of at most 160 characters.
  for (const bullet of bullets) {
    const description = bullet.split("): ").slice(1).join("): ");
    assert.ok(description.length <= 163, bullet);
    assert.ok(!description.includes("\n"));
  }
  assert.ok(doc.endsWith("\n\n"));
});

Deno.test("renderBeads() is deterministic whatever the input order", async () => {
  const issues = parseBeadsJsonl(await Deno.readTextFile(EXPORT), "x").issues;
  const shuffled = [...issues].sort((a, b) => (a.title < b.title ? 1 : -1));
  assert.notDeepEqual(shuffled.map((i) => i.id), issues.map((i) => i.id));
  assert.equal(renderBeads(shuffled), renderBeads(issues));
});

Deno.test("renderBeads() drops tombstones, keeps the last duplicate and sorts custom statuses last", () => {
  const text = renderBeads([
    { id: "bd-3", title: "Gone", status: "tombstone", description: "" },
    { id: "bd-10", title: "Old title", status: "open", priority: 2, description: "" },
    { id: "bd-9", title: "Review", status: "review", priority: 0, description: "" },
    { id: "bd-2", title: "Done", status: "closed", description: "" },
    { id: "bd-10", title: "New  title\n", status: "open", priority: 2, description: "  x \n y " },
    { id: "bd-4", title: "", status: "deferred", description: "" },
    { id: "bd-11", title: "Blocked", status: "blocked", priority: 3, description: "" },
  ]);
  assert.equal(
    text,
    "## Beads Mode: Progress Track\n\n**Completed (1):** bd-2\n\n**Active (4):**\n\n" +
      "- **Blocked** (bd-11, blocked, P3)\n" +
      "- **New title** (bd-10, open, P2): x y\n" +
      "- **(untitled)** (bd-4, deferred)\n" +
      "- **Review** (bd-9, review, P0)\n\n",
  );
  assert.equal(renderBeads([{ id: "x", title: "t", status: "tombstone", description: "" }]), "");
});

Deno.test("trimDescription() and compareIds()", () => {
  assert.equal(trimDescription("a  b\n\nc"), "a b c");
  assert.equal(trimDescription("alpha beta gamma delta", 12), "alpha beta...");
  assert.deepEqual(["bd-a.10", "bd-a.2", "bd-a", "bd-9", "bd-10"].sort(compareIds), [
    "bd-9",
    "bd-10",
    "bd-a",
    "bd-a.2",
    "bd-a.10",
  ]);
});

Deno.test("beadsSection() reports malformed lines by number and renders the rest", async () => {
  const lines = (await Deno.readTextFile(EXPORT)).trim().split("\n").slice(0, 5);
  lines.splice(1, 0, "{not json");
  lines.splice(3, 0, '{"title":"no id","status":"open"}');
  lines.splice(5, 0, "[1,2]");
  const { block, result } = await beadsBlock(await beadsProject(lines.join("\n") + "\n"));
  assert.deepEqual(result.warnings, [
    '[plugin slop:beads] Skipped ".beads/issues.jsonl" line 2: not valid JSON',
    '[plugin slop:beads] Skipped ".beads/issues.jsonl" line 4: expected a string "id"',
    '[plugin slop:beads] Skipped ".beads/issues.jsonl" line 6: expected an issue object',
  ]);
  const ids = lines.flatMap((l) => {
    try {
      return [JSON.parse(l).id].filter(Boolean);
    } catch {
      return [];
    }
  });
  assert.equal(ids.length, 5);
  for (const id of ids) assert.ok(block!.text.includes(id), id);
});

Deno.test("beadsSection() is off without .beads/, off with beads: false, an error with beads: true", async () => {
  const plain = await makeProject({ "a.ts": "a" });
  assert.equal((await beadsBlock(plain)).block, undefined);
  await assert.rejects(
    () => beadsBlock(plain, true),
    (error: Error) => {
      assert.match(error.message, /\[plugin slop:beads\]/);
      assert.ok(error.message.includes(`No Beads project in "${plain}": ".beads/" not found`));
      return true;
    },
  );
  const project = await beadsProject('{"id":"bd-1","title":"T","status":"open"}\n');
  assert.ok((await beadsBlock(project)).block);
  assert.equal((await beadsBlock(project, false)).block, undefined);
  const empty = await beadsProject();
  assert.equal((await beadsBlock(empty)).block, undefined);
  const required = await beadsBlock(empty, true);
  assert.equal(required.block, undefined);
  assert.deepEqual(required.result.warnings, [
    '[plugin slop:beads] No Beads issues: no "bd" to run and no ".beads/issues.jsonl"',
  ]);
});

Deno.test("the beads section sits after the files, in the volatile tail", async () => {
  const root = await beadsProject('{"id":"bd-1","title":"T","status":"open"}\n');
  const result = await buildContext({
    cwd: root,
    inline: {
      files: ["a.ts"],
      history: ["User: hi"],
      plugins: [beadsSection({ bd: false })],
    },
  }, { write: false });
  assert.deepEqual(result.blocks.map((b) => b.id), [
    "files",
    "files:a.ts",
    "beads",
    "history",
    "history:recent",
  ]);
  assert.equal(result.manifest.prefix.bytes, result.blocks[2].offset);
});

Deno.test("parseBdList() reads the raw array and the { schema_version, data } envelope", () => {
  const issue = { id: "bd-1", title: "T", status: "open", priority: 1 };
  assert.deepEqual(
    parseBdList(JSON.stringify([issue])).issues,
    parseBdList(
      JSON.stringify({ schema_version: 2, data: [issue] }),
    ).issues,
  );
  assert.throws(() => parseBdList('{"schema_version":1}'), /expected an array or/);
  assert.throws(() => parseBdList("oops"), /Cannot parse the output of "bd list --json --all"/);
});

async function fakeBd(root: string, script: string): Promise<string> {
  const bin = join(root, "..", `bin_${crypto.randomUUID()}`);
  await Deno.mkdir(bin);
  await Deno.writeTextFile(join(bin, "bd"), `#!/bin/sh\n${script}\n`);
  await Deno.chmod(join(bin, "bd"), 0o755);
  return bin;
}

Deno.test("slop build runs `bd list --json --all` from PATH and reads its envelope", async () => {
  const root = await beadsProject('{"id":"bd-jsonl","title":"From JSONL","status":"open"}\n');
  await Deno.writeTextFile(join(root, "slop.config.ts"), 'export default { files: ["a.ts"] };\n');
  const envelope = {
    schema_version: 1,
    data: [
      { id: "bd-2", title: "From bd", status: "in_progress", priority: 1, description: "Live" },
      { id: "bd-1", title: "Shipped", status: "closed", priority: 2 },
      { id: "bd-0", title: "Deleted", status: "tombstone", priority: 2 },
    ],
  };
  const bin = await fakeBd(
    root,
    `echo "$@" > "${root}/bd-args.txt"\ncat <<'JSON'\n${JSON.stringify(envelope)}\nJSON`,
  );
  const run = await runCliShared(["build", "--stdout"], root, {
    PATH: `${bin}:${Deno.env.get("PATH")}`,
  });
  assert.equal(run.code, 0, run.stderr);
  assert.equal(await Deno.readTextFile(join(root, "bd-args.txt")), "list --json --all\n");
  assert.ok(
    run.stdout.endsWith(
      "## Beads Mode: Progress Track\n\n**Completed (1):** bd-1\n\n**Active (1):**\n\n" +
        "- **From bd** (bd-2, in_progress, P1): Live\n\n",
    ),
    run.stdout,
  );
  assert.ok(!run.stdout.includes("From JSONL"));
});

Deno.test("beadsSection() falls back to the JSONL export when bd fails, with a warning", async () => {
  const root = await beadsProject('{"id":"bd-jsonl","title":"From JSONL","status":"open"}\n');
  const bin = await fakeBd(root, 'echo "no beads database found" >&2\nexit 1');
  const result = await buildContext({
    cwd: root,
    inline: { files: ["a.ts"], plugins: [beadsSection({ bd: join(bin, "bd") })] },
  }, { write: false });
  assert.deepEqual(result.warnings, [
    `[plugin slop:beads] "${
      join(bin, "bd")
    } list --json --all" failed: no beads database found; reading ".beads/issues.jsonl" instead`,
  ]);
  assert.ok(result.document.includes("- **From JSONL** (bd-jsonl, open)\n"));
});

/** Whether process `pid` is running (not gone, nor a zombie left for its parent to reap). */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) [ZX] /.test(Deno.readTextFileSync(`/proc/${pid}/stat`));
  } catch {
    return false;
  }
}

/**
 * A `bd` that never answers (waiting on its database's lock or daemon) held the section until the
 * hook's deadline failed it, and ran on after the build; one that prints without end (a loop)
 * filled slop's memory. Each is stopped, and the export read instead, with a warning.
 */
Deno.test("beadsSection() stops a bd that never answers or prints without end, and reads the export", async () => {
  const root = await beadsProject('{"id":"bd-jsonl","title":"From JSONL","status":"open"}\n');
  const pids = join(root, "..", `pids_${crypto.randomUUID()}`);
  const cases = {
    "waits": `echo $$ >> "${pids}"\nexec sleep 600`,
    "prints without end": `echo $$ >> "${pids}"\nexec yes '[{"id":"bd-1","status":"open"},'`,
  };
  for (const [name, script] of Object.entries(cases)) {
    await Deno.writeTextFile(pids, "");
    const bd = join(await fakeBd(root, script), "bd");
    const loaded = await loadBeads(root, { bd, timeoutMs: 2000, outputLimit: 1 << 20 });
    const reason = name === "waits"
      ? "gave no answer within 2000 ms"
      : `printed over ${1 << 20} bytes`;
    assert.deepEqual(loaded?.warnings, [
      `"${bd} list --json --all" ${reason}; reading ".beads/issues.jsonl" instead`,
    ], name);
    assert.deepEqual(loaded?.issues.map((i) => i.id), ["bd-jsonl"], name);
    const pid = Number(Deno.readTextFileSync(pids).trim());
    for (let i = 0; i < 100 && alive(pid); i++) await new Promise((r) => setTimeout(r, 50));
    const running = alive(pid);
    if (running) Deno.kill(pid, "SIGKILL");
    assert.ok(!running, `${name}: bd ${pid} still running`);
  }
  assert.throws(() => beadsSection({ timeoutMs: 0 }), {
    message: '[plugin slop:beads] Invalid option "timeoutMs": expected a whole number of ' +
      "milliseconds from 1 to 2147483647, got 0",
  });
});

Deno.test("beadsSection() bounds every field of a hostile issue: title, status, id, priority", async () => {
  // A key across the title's cut (200 characters) is left out whole, never cut in two.
  const key = "ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5";
  const title = `${"x".repeat(184)}/${key} ${"word ".repeat(200_000)}`;
  const issues = [
    { id: "bd-1", title, status: "open", priority: "P" + "9".repeat(5000) },
    { id: "bd-2", title: "T", status: "s".repeat(100_000), priority: 1 },
    { id: "bd-" + "9".repeat(300), title: "long id", status: "open" },
    // Beads priorities are whole numbers (0 to 4): any other number is left out, as a long one is.
    { id: "bd-4", title: "Huge", status: "open", priority: 1e300 },
    { id: "bd-5", title: "Below", status: "open", priority: -1 },
    { id: "bd-6", title: "Half", status: "open", priority: 2.5 },
  ];
  const jsonl = issues.map((i) => JSON.stringify(i)).join("\n") + "\n";
  const { block, result } = await beadsBlock(await beadsProject(jsonl));
  assert.deepEqual(result.warnings, [
    '[plugin slop:beads] Skipped ".beads/issues.jsonl" line 3: the "id" is 303 characters, over 200',
  ]);
  const text = block!.text;
  assert.ok(text.length < 1000, `${text.length} characters`);
  assert.ok(!text.includes(key.slice(0, 8)), text);
  assert.ok(text.includes(`- **${"x".repeat(184)}/...** (bd-1, open)\n`), text);
  assert.ok(text.includes(`- **T** (bd-2, ${"s".repeat(40)}..., P1)`), text);
  for (
    const line of [
      "- **Huge** (bd-4, open)\n",
      "- **Below** (bd-5, open)\n",
      "- **Half** (bd-6, open)\n",
    ]
  ) {
    assert.ok(text.includes(line), text);
  }
});

Deno.test("renderBeads() bounds the list: 20,000 issues give the capped lists and a count of the rest", () => {
  // 12,000 closed (closed_at one minute apart; every tenth has none, and pairs share a time),
  // 8,000 active: a JSONL export of 20,000 lines, 533 of them in progress at P0 (more than the
  // 500 shown). Both lists are many times their caps: more issues add only time.
  const lines: string[] = [];
  for (let n = 0; n < 20_000; n++) {
    const closed = n < 12_000;
    const time = new Date(Date.UTC(2026, 0, 1) + Math.floor(n / 2) * 60_000).toISOString();
    lines.push(JSON.stringify({
      id: `bd-${n}`,
      title: `Issue ${n} `.repeat(4),
      status: closed ? "closed" : n % 3 ? "open" : "in_progress",
      priority: n % 5,
      description: "Some words about the issue. ".repeat(8),
      ...closed && n % 10 ? { closed_at: time } : {},
    }));
  }
  const { issues, warnings } = parseBeadsJsonl(lines.join("\n"), "issues.jsonl");
  assert.deepEqual(warnings, []);
  const text = renderBeads(issues, { source: ".beads/issues.jsonl" });
  // Same bytes twice, and whatever the input order.
  assert.equal(renderBeads([...issues].reverse(), { source: ".beads/issues.jsonl" }), text);
  const [, , completed] = text.split("\n");
  // The 500 most recently closed, in id order, then the count of the others and where they are.
  const ids = completed.replace(/^\*\*Completed \(12000\):\*\* /, "").split(", ");
  assert.equal(ids.at(-1), `and 11500 older ones (see ".beads/issues.jsonl")`);
  const kept = ids.slice(0, -1);
  assert.equal(kept.length, 500);
  assert.deepEqual(kept, [...kept].sort(compareIds));
  // Newest first; a pair closed at the same minute in id order.
  const recent = Array.from({ length: 12_000 }, (_, n) => n).filter((n) => n % 10)
    .sort((a, b) => Math.floor(b / 2) - Math.floor(a / 2) || a - b).slice(0, 500)
    .map((n) => `bd-${n}`);
  assert.deepEqual([...kept].sort(), recent.sort());
  // The first 500 active issues in the section's order (in_progress first, by priority), then
  // a line counting the others.
  const bullets = text.split("\n").filter((l) => l.startsWith("- "));
  assert.equal(bullets.length, 501);
  assert.ok(text.includes("**Active (8000):**"));
  assert.ok(bullets.slice(0, 500).every((b) => b.includes(", in_progress, P0)")));
  assert.equal(bullets[500], `- ... and 7500 more active issues (see ".beads/issues.jsonl")`);
  assert.ok(text.length < 200_000, `${text.length} bytes`);
  // The caps are options; from bd the line names the command.
  const small = renderBeads(issues, { maxActive: 1, maxClosed: 0 });
  assert.match(
    small,
    /\*\*Completed \(12000\):\*\* 12000 older ones \(see `bd list --status closed`\)\n/,
  );
  assert.match(small, /\n- \.\.\. and 7999 more active issues \(see `bd list`\)\n\n$/);
  assert.throws(() => beadsSection({ maxClosed: -1 }), {
    message:
      '[plugin slop:beads] Invalid option "maxClosed": expected a whole number of 0 or more, got -1',
  });
});
