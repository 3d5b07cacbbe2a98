import assert from "node:assert/strict";
import { setScanAheadChars } from "../../accel/scan_ahead.ts";
import { tallyWork } from "../../pipeline/helpers.ts";
import { makeProject, prng, tempDir } from "../_helpers.ts";
import { buildIn } from "./_cache_helpers.ts";

/** Files of about 40,000 characters, every fifth with a token slop's rules redact. */
function tree(): Record<string, string> {
  const random = prng(41);
  const out: Record<string, string> = {};
  for (let i = 0; i < 30; i++) {
    const lines = Array.from(
      { length: 1000 + (i % 4) * 100 },
      (_, j) => `value_${j} = ${Math.floor(random() * 1e9)}  # ${"aé€🙂"[j % 4]} note`,
    );
    if (i % 5 === 0) {
      const token = Array.from(
        { length: 36 },
        () => "abcdefghijklmnopqrstuvwxyz0123456789"[Math.floor(random() * 36)],
      ).join("");
      lines.splice(400, 0, `GITHUB_TOKEN = "ghp_${token}"`);
    }
    out[`pkg/m${String(i).padStart(2, "0")}.py`] = lines.join("\n") + "\n";
  }
  return out;
}

Deno.test("texts read are scanned on a worker before the secrets stage, with the findings and bytes of one thread", async () => {
  const root = await makeProject(tree());
  // The default starts the workers once 8M characters are read; this tree has about 1.2M.
  const before = setScanAheadChars(0);
  try {
    let ahead!: Awaited<ReturnType<typeof buildIn>>;
    const work = await tallyWork(async () => ahead = await buildIn(root, await tempDir()));
    // Two batches of at least 256K characters are always sent (no answer needed to send them);
    // a later one only while the worker has fewer than two jobs left.
    const sent = work.get("characters sent to scan ahead") ?? 0;
    const taken = work.get("characters scanned ahead") ?? 0;
    assert.ok(sent >= 2 * 256 * 1024, `characters sent to scan ahead: ${sent}`);
    // Those the worker hands back (secretlint scans them: the files with a token) are scanned then.
    assert.ok(taken >= 256 * 1024 && taken < sent, `characters scanned ahead: ${taken} of ${sent}`);
    // One thread: no worker, nothing scanned ahead; the same document and findings.
    const alone = await buildIn(root, await tempDir(), { workers: 1 });
    assert.ok(ahead.manifest.secrets?.length === 6, `findings: ${ahead.manifest.secrets?.length}`);
    assert.deepEqual(ahead.manifest.secrets, alone.manifest.secrets);
    assert.equal(ahead.document, alone.document);
    assert.deepEqual(ahead.manifest.files, alone.manifest.files);
    assert.deepEqual(ahead.manifest.blocks, alone.manifest.blocks);
  } finally {
    setScanAheadChars(before);
  }
});

Deno.test("a read of fewer characters than the bound starts no worker to scan ahead", async () => {
  // About 1.2M characters, under the default 8M: the secrets stage scans them, as before.
  const root = await makeProject(tree());
  const work = await tallyWork(async () => await buildIn(root, await tempDir()));
  assert.equal(work.get("characters sent to scan ahead"), undefined);
  assert.equal(work.get("characters scanned ahead") ?? 0, 0);
});
