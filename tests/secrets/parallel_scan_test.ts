import assert from "node:assert/strict";
import { sha256 } from "../../pipeline/read.ts";
import {
  redactSources,
  type ScanAhead,
  scanBatches,
  type ScanHelper,
  scanWorkers,
  SECRETLINT_HINTS,
} from "../../pipeline/secrets.ts";
import { countEarly, stopRun } from "../../accel/precount.ts";
import { redactHandingOff } from "../../accel/scan_handoff.ts";
import { redactText, redactUnlessHinted } from "../../pipeline/_scan.ts";
import type { SourceFile } from "../../pipeline/types.ts";
import { prng } from "../_helpers.ts";

function source(path: string, text: string): SourceFile {
  return {
    path,
    absPath: `/p/${path}`,
    entry: { path },
    text,
    sha256: sha256(text),
    size: text.length,
  } as SourceFile;
}

/**
 * Over a megabyte of code in 120 files (three of them large, scanned first), secrets of every
 * kind scattered through some of them.
 */
function corpus(): SourceFile[] {
  const random = prng(9);
  const hex = (n: number) =>
    Array.from({ length: n }, () => "0123456789abcdef"[Math.floor(random() * 16)]).join("");
  const secrets = [
    `OPENROUTER=sk-or-v1-${hex(64)}`,
    `API_SECRET=${hex(40)}`,
    `aws_access_key_id = "AKIA${hex(16).toUpperCase()}"`,
    `const slack = "xoxb-${hex(10)}-${hex(12)}-${hex(24)}";`,
    `LLM_API_KEY_MAP={"a":"${hex(20)}","b":"${hex(24)}"}`,
    `internal = "ACME-${hex(8).replace(/[a-f]/g, "1")}"`,
    `-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA${hex(60)}\n-----END RSA PRIVATE KEY-----`,
  ];
  const files: SourceFile[] = [];
  for (let f = 0; f < 120; f++) {
    const lines: string[] = [];
    for (let i = 0; i < (f % 50 === 7 ? 4000 + 2000 * (f % 3) : 400); i++) {
      lines.push(`def f${i}(key, token):  # ${hex(8)}\n    return key + token * ${i}`);
      if (random() < 0.004) lines.push(secrets[Math.floor(random() * secrets.length)]);
    }
    files.push(source(`src/m${String(f).padStart(3, "0")}.py`, lines.join("\n") + "\n"));
  }
  return files;
}

Deno.test("a scan split across workers redacts and reports exactly what a scan in one thread does", async () => {
  const rules = { internal: "ACME-[0-9]{8}" };
  const one = corpus();
  const many = corpus();
  assert.ok(one.reduce((n, f) => n + f.text!.length, 0) > 1024 * 1024, "large enough for workers");
  const alone = await redactSources(one, rules, { workers: 1 });
  // Workers that count the texts next (files shown whole) are started for a scan this size.
  const handOff = countEarly("o200k", undefined, () => true);
  const split = await redactHandingOff(many, rules, { workers: 3, handOff });
  stopRun("o200k");
  // With nothing to count next, this thread scans alone, batch by batch.
  const batched = corpus();
  assert.deepEqual(await redactSources(batched, rules, { workers: 3 }), alone);
  assert.deepEqual(batched.map((f) => f.text), one.map((f) => f.text));
  assert.ok(alone.length >= 5, `secrets found: ${alone.length}`);
  assert.deepEqual(new Set(alone.map((f) => f.rule)).size >= 4, true);
  assert.deepEqual(split, alone);
  assert.deepEqual(many.map((f) => [f.text, f.sha256]), one.map((f) => [f.text, f.sha256]));
  // Redacted files lost their raw bytes and took the hash of the redacted text.
  for (const f of many.filter((f) => f.text!.includes("[REDACTED:"))) {
    assert.equal(f.sha256, sha256(f.text!));
  }
});

Deno.test("a scan starts workers when it is large, or when they count the texts next", () => {
  const MB = 1024 * 1024;
  assert.equal(scanWorkers(MB / 2, MB / 2, 1), 0, "small: this thread alone");
  assert.equal(scanWorkers(3 * MB, 0, 1), 0, "zod in skeleton view: nothing to count next");
  assert.equal(scanWorkers(3 * MB, 3 * MB, 1), 1, "zod in full view: they count it next");
  assert.equal(scanWorkers(12 * MB, 0, 3), 0, "the Python stdlib in skeleton view");
  assert.equal(scanWorkers(24 * MB, 0, 3), 3, "the typescript lib in skeleton view");
});

Deno.test("the scan's batches go largest first, files in path order within a batch", () => {
  const files = corpus();
  const batches = scanBatches(files);
  const sizes = batches.map((b) => b.reduce((n, f) => n + f.text!.length, 0));
  assert.deepEqual(sizes, [...sizes].sort((a, b) => b - a));
  // The large files are batches of their own, at the front.
  assert.ok(sizes[0] > 256 * 1024 && batches[0].length === 1);
  assert.deepEqual(batches.flat().map((f) => f.path).sort(), files.map((f) => f.path).sort());
  for (const batch of batches) {
    assert.deepEqual(batch.map((f) => f.path), batch.map((f) => f.path).sort());
  }
});

Deno.test("redactUnlessHinted() is redactText() for texts secretlint skips, and declines the others", async () => {
  for (const file of corpus()) {
    const own = redactUnlessHinted(file.text!, { rules: { internal: "ACME-[0-9]{8}" } });
    const full = await redactText(file.text!, file.path, { rules: { internal: "ACME-[0-9]{8}" } });
    assert.equal(own === undefined, SECRETLINT_HINTS.test(file.text!), file.path);
    if (own) assert.deepEqual(own, full);
  }
  // Some of each: the corpus holds texts with and without hints.
  const own = corpus().map((f) => redactUnlessHinted(f.text!));
  assert.ok(own.some((r) => r === undefined) && own.some((r) => r?.findings.length));
});

Deno.test("a scan worker is handed a second batch while it scans a large one", async () => {
  // With one large batch in hand a worker waited, once it was done, for this thread to end its
  // own large batch before it was handed the next.
  let inHand = 0;
  let most = 0;
  let jobs = 0;
  const helper: ScanHelper = {
    scan: (files) => {
      jobs++;
      most = Math.max(most, ++inHand);
      return new Promise((resolve) =>
        setTimeout(() => {
          inHand--;
          resolve(files.map(() => ({ findings: [] })));
        }, 5)
      );
    },
    count: () => Promise.resolve([]),
    stop: () => {},
  };
  // A scan begun ahead that scanned nothing: its worker scans at the secrets stage.
  const ahead: ScanAhead = { settle: () => Promise.resolve([helper]), take: () => undefined };
  const large = (i: number) => source(`src/large${i}.py`, `v${i} = ${i}\n`.repeat(100_000));
  const files = [0, 1, 2, 3, 4, 5].map(large);
  const handOff = { keep: () => false, take: () => {} };
  await redactHandingOff(files, {}, { handOff, ahead, workers: 2 });
  assert.ok(jobs >= 2, `batches the worker scanned: ${jobs}`);
  assert.equal(most, 2, "batches in the worker's hand at once");
});

Deno.test("a scan across workers whose onProgress throws ends the batches under way, stops its workers and throws it", async () => {
  // A cancelled build throws from its progress: the scan took no batch more, but it threw at
  // once, its worker still scanning (and telling progress) for a build that had ended.
  const events: string[] = [];
  let pending = 0;
  const helper: ScanHelper = {
    scan: (files) => {
      events.push(`scan ${files.length}`);
      pending++;
      return new Promise((resolve) =>
        setTimeout(() => {
          pending--;
          resolve(files.map(() => ({ findings: [] })));
        }, 5)
      );
    },
    count: () => Promise.resolve([]),
    stop: () => events.push(`stop (${pending} batches pending)`),
  };
  const ahead: ScanAhead = { settle: () => Promise.resolve([helper]), take: () => undefined };
  const files = Array.from(
    { length: 40 },
    (_, i) => source(`src/m${i}.py`, `v${i} = ${i}\n`.repeat(20_000)),
  );
  const stop = new Error("cancelled");
  const handOff = { keep: () => false, take: () => {} };
  const scanning = redactHandingOff(files, {}, {
    handOff,
    ahead,
    workers: 2,
    onProgress: (done) => {
      if (done === 0) return;
      events.push("told");
      throw stop;
    },
  });
  await assert.rejects(scanning, (error) => error === stop);
  const scans = events.filter((e) => e.startsWith("scan")).length;
  assert.ok(scans < 10, `${scans} batches of 40 files begun`);
  assert.equal(events.at(-1), "stop (0 batches pending)", events.join(", "));
  assert.equal(events.filter((e) => e.startsWith("stop")).length, 1);
});
