import assert from "node:assert/strict";
import { countTexts, tableFor } from "../../pipeline/count.ts";
import { redactText } from "../../pipeline/_scan.ts";

/** Post one job to a scan worker and wait for its answer. */
function ask(worker: Worker, job: Record<string, unknown>): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    worker.onmessage = (event) => resolve(event.data);
    worker.postMessage(job);
  });
}

Deno.test("a scan worker keeps only the texts it was asked to keep that are long enough to count early", async () => {
  const long = "let a = 1;\n".repeat(400);
  const worker = new Worker(new URL("../../pipeline/_scan_worker.ts", import.meta.url).href, {
    type: "module",
  });
  try {
    const scanned = await ask(worker, {
      id: 1,
      rules: {},
      items: [
        { path: "kept.ts", text: long, keep: true },
        { path: "skeleton.ts", text: long, keep: false },
        { path: "small.ts", text: "let a = 1;\n", keep: true },
      ],
    });
    assert.equal((scanned.results as unknown[]).length, 3);
    const table = await tableFor("o200k");
    const answer = await ask(worker, {
      id: 2,
      table,
      spans: [["kept.ts", 0, 11], ["skeleton.ts", 0, 11], ["small.ts", 0, 11]],
    });
    // A text the worker holds is counted; the others are answered -1 (not held).
    const [tokens] = await countTexts([long.slice(0, 11)], { workers: 1 });
    assert.deepEqual(answer.counts, [tokens, -1, -1]);
  } finally {
    worker.terminate();
  }
});

Deno.test("a scan worker hands back the short texts secretlint must scan and redacts the others itself", async () => {
  const worker = new Worker(new URL("../../pipeline/_scan_worker.ts", import.meta.url).href, {
    type: "module",
  });
  try {
    const secret = `API_SECRET=${"4d".repeat(20)}\n`;
    const large = "x = 1\n".repeat(50_000) +
      `SLACK=xoxb-123456789012-1234567890123-${"aB3dE6gH9jK2mN5pQ8sT1vW4"}\n`;
    const whole = await redactText(large, "d.py");
    assert.equal(whole.findings.length, 1);
    const answer = await ask(worker, {
      id: 1,
      rules: { internal: "ACME-[0-9]{8}" },
      items: [
        { path: "a.env", text: `${secret}x = "ACME-12345678"\n` },
        { path: "b.py", text: 'aws = "AKIAABCDEFGHIJKLMNOP"\n' },
        { path: "c.py", text: "x = 1\n" },
        { path: "d.py", text: large },
      ],
    });
    assert.deepEqual(answer.results, [
      {
        text: 'API_SECRET=[REDACTED:hex-secret]\nx = "[REDACTED:internal]"\n',
        findings: [{ line: 1, rule: "hex-secret" }, { line: 2, rule: "internal" }],
      },
      { handBack: true },
      { findings: [] },
      // Large: scanned here, secretlint included, as this thread would.
      whole,
    ]);
  } finally {
    worker.terminate();
  }
});
