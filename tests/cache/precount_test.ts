import assert from "node:assert/strict";
import { countTexts } from "../../pipeline/count.ts";
import { setScanKeepChars } from "../../pipeline/secrets.ts";
import {
  precountGiven,
  precountServed,
  precountTurn,
  startPrecount,
  stopRun,
} from "../../accel/precount.ts";
import { eachInWindow } from "../../pipeline/transform.ts";
import { mapWithTurns } from "../../accel/turns.ts";
import { tallyWork } from "../../pipeline/helpers.ts";
import type { CountHelper } from "../../pipeline/secrets.ts";
import type { BpeTable } from "../../pipeline/count.ts";
import { countableSpan } from "../../pipeline/count.ts";
import { dedupText, mayDedup } from "../../pipeline/dedup.ts";
import { SHAPES } from "../../bench/shapes.ts";
import { makeProject, prng, tempDir } from "../_helpers.ts";
import { buildIn } from "./_cache_helpers.ts";
import type { BuildResult } from "../../mod.ts";

/** Files whose first and last lines are the awkward kind: comments, blank lines, indentation. */
function tree(): Record<string, string> {
  const random = prng(11);
  const starts = [
    "/* licence */\n",
    "\n\n",
    "  indented\n",
    "// c\n/// d\n",
    "#!/usr/bin/env x\n",
    "",
  ];
  const ends = ["", "\n", "  }\n", "\n\n\n", "// end", "x = 1 \t\n", "/"];
  const out: Record<string, string> = {};
  for (let i = 0; i < 40; i++) {
    const body = Array.from(
      { length: 2000 + (i % 7) * 500 },
      (_, j) =>
        `${j % 5 ? "  " : ""}let v${j} = ${Math.floor(random() * 1e6)}; // ${"é€🙂"[j % 3]}`,
    ).join("\n");
    out[`src/f${i}.ts`] = starts[i % starts.length] + body + "\n" + ends[i % ends.length];
  }
  out["src/crlf.ts"] = "a = 1\r\n".repeat(5000);
  out["src/messages.json"] = JSON.stringify(
    Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`KEY_${i}`, `message ${i} é`])),
    null,
    2,
  ) + "\n";
  return out;
}

/**
 * The project of `tree()` and its one-thread build (nothing counted early: the reference), made
 * once for the tests that compare builds of it with the scan's workers counting early.
 */
let treeProject: Promise<{ root: string; alone: BuildResult }> | undefined;

function treeAndReference(): Promise<{ root: string; alone: BuildResult }> {
  treeProject ??= (async () => {
    const root = await makeProject(tree());
    return { root, alone: await buildIn(root, await tempDir(), { workers: 1 }) };
  })();
  return treeProject;
}

/** A build with the scan's workers counting early gives what a one-thread build gives. */
async function assertEarlyCountsMatch(): Promise<void> {
  const { root, alone } = await treeAndReference();
  const parallel = await buildIn(root, await tempDir());
  assert.ok(precountServed() > 30, `blocks served from early counts: ${precountServed()}`);
  assert.equal(parallel.document, alone.document);
  assert.deepEqual(parallel.manifest.blocks, alone.manifest.blocks);
  assert.deepEqual(parallel.manifest.files, alone.manifest.files);
}

Deno.test("counts the secret scan's workers start early give the same bytes and counts as one thread", async () => {
  await assertEarlyCountsMatch();
});

Deno.test("texts the scan's workers did not keep (past their bound) are counted early too, with the counts of one thread", async () => {
  // A worker keeps at most a bound of texts (8M characters): with a bound this small it keeps a
  // few files, and the others are sent to be counted from this thread's texts.
  const before = setScanKeepChars(64 * 1024);
  try {
    await assertEarlyCountsMatch();
  } finally {
    setScanKeepChars(before);
  }
});

Deno.test("countableSpan() cuts where head + middle + tail count as the whole", async () => {
  const texts = Object.values(tree());
  let checked = 0;
  for (const text of texts.slice(0, 14)) {
    const span = countableSpan(text);
    assert.ok(span, "two cuts");
    // As the files section renders a block: heading, fence, the text ending in a newline, fence.
    const content = text.endsWith("\n") ? text : text + "\n";
    const block = `### a.ts\n\n\`\`\`ts\n${content}\`\`\`\n\n`;
    const at = block.indexOf(content) + span[0];
    const end = block.indexOf(content) + span[1];
    const cut = (i: number) => block[i - 1] === "\n" && !/[\s/]/.test(block[i]);
    if (!cut(at) || !cut(end)) continue; // knownCount counts such a block whole
    checked++;
    const [whole, head, middle, tail] = await countTexts(
      [block, block.slice(0, at), block.slice(at, end), block.slice(end)],
      { workers: 1 },
    );
    assert.equal(head + middle + tail, whole);
  }
  assert.ok(checked >= 8, `checked ${checked}`);
  assert.equal(countableSpan("one line"), undefined);
  assert.equal(countableSpan("/a\n b\n"), undefined);
  assert.deepEqual(countableSpan("a\nb\nc\n"), [0, 6]);
  assert.deepEqual(countableSpan(" a\nb\nc"), [3, 5]);
  assert.deepEqual(countableSpan('{\n  "a": 1\n}\n'), [0, 13]);
});

Deno.test("a large file's text is counted early in pieces, with the same bytes and counts as one thread", async () => {
  const random = prng(23);
  const line = (j: number, indent: string) =>
    `${indent}const k${j} = "${Math.floor(random() * 1e9).toString(36)}"; // ${"aé€🙂"[j % 4]}`;
  const files: Record<string, string> = {};
  // Cut into pieces at unindented lines; one file has none after its first (one piece);
  // a small file beside them is counted with its block.
  for (let i = 0; i < 3; i++) {
    files[`big/f${i}.ts`] = Array.from(
      { length: 20_000 + i * 3000 },
      (_, j) => line(j, i === 2 && j ? "  " : j % (3 + i) ? "  " : ""),
    ).join("\n") + "\n";
  }
  files["big/small.ts"] = "x = 1\n";
  const root = await makeProject(files);
  const states = [await tempDir(), await tempDir()];
  const parallel = await buildIn(root, states[0]);
  assert.equal(precountServed(), 3, "the three large files");
  const alone = await buildIn(root, states[1], { workers: 1 });
  assert.equal(parallel.document, alone.document);
  assert.deepEqual(parallel.manifest.blocks, alone.manifest.blocks);
  assert.deepEqual(parallel.manifest.files, alone.manifest.files);
  for (const dir of [root, ...states]) await Deno.remove(dir, { recursive: true });
});

Deno.test("texts content dedup rewrites are not counted early: only what the document holds is counted", async () => {
  const random = prng(31);
  const line = (j: number) => `const k${j} = "${Math.floor(random() * 1e9).toString(36)}";`;
  // Enough to scan for the scan's workers to start and count what they keep.
  const code = Array.from({ length: 100_000 }, (_, j) => line(j)).join("\n") + "\n";
  const pem = SHAPES.find((s) => s.name === "pem_bundle")!.make(1024 * 1024);
  const root = await makeProject({ "src/a.ts": code, "data/certs.crt": pem });
  const states = [await tempDir(), await tempDir()];
  const parallel = await buildIn(root, states[0]);
  // The certificates are replaced by references (`.pem` files are skipped by default, plain text
  // that large is summarized as data: a `.crt`):
  // their text is never counted early, the code's is.
  assert.match(parallel.document, /\[base64, \d+ bytes, sha256 [0-9a-f]+…\]/);
  assert.ok(precountGiven() > code.length / 2, `characters counted early: ${precountGiven()}`);
  assert.ok(
    precountGiven() <= code.length,
    `characters counted early: ${precountGiven()} of ${code.length}`,
  );
  assert.equal(precountServed(), 1);
  const alone = await buildIn(root, states[1], { workers: 1 });
  assert.equal(parallel.document, alone.document);
  assert.deepEqual(parallel.manifest.blocks, alone.manifest.blocks);
  for (const dir of [root, ...states]) await Deno.remove(dir, { recursive: true });
});

Deno.test("mayDedup() is false only for texts dedupText() leaves as they are", () => {
  const texts = [
    ...SHAPES.map((s) => s.make(64 * 1024)),
    "const x = 1;\n".repeat(200),
    "QUJD".repeat(300),
    `![x](data:image/png;base64,${"A".repeat(2000)})`,
    `a;base64,${"b".repeat(1100)}`,
    ("A".repeat(76) + "\n").repeat(30),
    "A".repeat(76) + "\nshort\n" + "x".repeat(2000),
  ];
  for (const text of texts) {
    const changed = dedupText(text).text !== text;
    if (changed) assert.ok(mayDedup(text), text.slice(0, 40));
  }
  assert.equal(mayDedup(SHAPES.find((s) => s.name === "pem_bundle")!.make(64 * 1024)), true);
  assert.equal(mayDedup("const x = 1;\n".repeat(200)), false);
});

Deno.test("a helper is handed many texts it did not keep ahead of its answers, so it counts while this thread renders", () => {
  // This thread lets answers in only between its stages: a helper handed two batches and then
  // one per answer went idle for most of the transform.
  let handed = 0;
  const helper: CountHelper = {
    count: () => (handed++, new Promise(() => {})), // never answers (this thread is busy)
    stop: () => {},
  };
  const files = Array.from({ length: 24 }, (_, i) => ({
    path: `src/f${i}.py`,
    text: `x${i} = 1\n`.repeat(60_000),
  }));
  startPrecount(files, "o200k", [helper], {} as BpeTable);
  stopRun("o200k");
  assert.equal(handed, 16);
});

/**
 * Start early counts of 48 texts of 480,000 characters with one helper that answers as a worker
 * does: a message, on a later turn of the event loop (none once stopped). `handed` counts the
 * batches it was given.
 */
function startLateHelper(): { handed: number } {
  const jobs = { handed: 0 };
  let stopped = false;
  const helper: CountHelper = {
    count: (
      { spans, texts },
    ) => (jobs.handed++,
      new Promise((resolve) =>
        setTimeout(() => stopped || resolve(new Array(spans.length + texts.length).fill(1)), 0)
      )),
    stop: () => void (stopped = true),
  };
  const files = Array.from({ length: 48 }, (_, i) => ({
    path: `src/f${i}.py`,
    text: `x${i} = 1\n`.repeat(60_000),
  }));
  startPrecount(files, "o200k", [helper], {} as BpeTable);
  return jobs;
}

Deno.test("renders that never wait let the helpers' answers in between them, and each answer hands the next batch", async () => {
  // A transform of cached renders resolves each render at once: without a turn of the event loop
  // between them, the helpers' answers waited for the count stage, and the helpers idled once
  // their first batches were counted.
  const handed = async (between?: () => Promise<void> | undefined) => {
    const jobs = startLateHelper();
    const work = await tallyWork(() =>
      eachInWindow(40, () => {
        // A render that keeps this thread busy for 5 ms and never waits.
        const until = performance.now() + 5;
        while (performance.now() < until);
        return Promise.resolve();
      }, { between })
    );
    stopRun("o200k");
    return { jobs: jobs.handed, ahead: work.get("early characters counted: helpers, ahead") ?? 0 };
  };
  const plain = await handed();
  assert.equal(plain.jobs, 16, "the batches handed ahead");
  assert.equal(plain.ahead, 0, "no answer came in");
  const turned = await handed(precountTurn);
  assert.ok(turned.jobs > 16, `batches handed: ${turned.jobs}`);
  assert.ok(turned.ahead >= 16 * 256 * 1024, `characters counted ahead: ${turned.ahead}`);
});

Deno.test("a loop of this thread's own work with turns lets the helpers' answers in, and gives what map gives", async () => {
  // The count stage hashed every block in one loop that never waits before it counted: the
  // helpers' answers (each handing the next batch) came in after it, and they idled meanwhile.
  const handed = async (withTurns: boolean) => {
    const jobs = startLateHelper();
    const items = Array.from({ length: 40 }, (_, i) => i);
    // Work that keeps this thread busy for 5 ms an item and never waits.
    const busy = (n: number) => {
      const until = performance.now() + 5;
      while (performance.now() < until);
      return n * 2;
    };
    let out: number[] = [];
    const work = await tallyWork(async () => {
      out = withTurns ? await mapWithTurns(items, busy) : items.map(busy);
    });
    stopRun("o200k");
    assert.deepEqual(out, items.map((n) => n * 2));
    return { jobs: jobs.handed, ahead: work.get("early characters counted: helpers, ahead") ?? 0 };
  };
  const plain = await handed(false);
  assert.equal(plain.jobs, 16, "the batches handed ahead");
  assert.equal(plain.ahead, 0, "no answer came in");
  const turned = await handed(true);
  assert.ok(turned.jobs > 16, `batches handed: ${turned.jobs}`);
  assert.ok(turned.ahead >= 16 * 256 * 1024, `characters counted ahead: ${turned.ahead}`);
});
