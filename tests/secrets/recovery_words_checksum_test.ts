// Recovery words with no name (a line alone in a page or a text file, a string literal) are
// redacted only when they are a BIP-39 mnemonic: every word on the English list and the checksum
// right. A run of other words, or of list words with a wrong checksum, is text and stays; the
// named cases (`MNEMONIC=…`, `seed_phrase: …`) are left as they were.
import assert from "node:assert/strict";
import { loadBip39 } from "../../deps.ts";
import { redactText } from "../../pipeline/_scan.ts";
import { kept, redactsValue } from "./_redacts.ts";

const { validateMnemonic, wordlist } = await loadBip39();

/** A small seeded generator, so that each run reads the same words. */
function random(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
}

/** `n` words picked from `words` by `next`. */
function pick(words: string[], n: number, next: () => number): string[] {
  return Array.from({ length: n }, () => words[Math.floor(next() * words.length)]);
}

/** A mnemonic of `n` words with a right checksum: `n - 1` list words and a last that fits. */
function mnemonic(n: number, next: () => number): string {
  for (;;) {
    const head = pick(wordlist, n - 1, next).join(" ");
    const last = wordlist.find((w) => validateMnemonic(`${head} ${w}`, wordlist));
    if (last) return `${head} ${last}`;
  }
}

const GREEK = ["alpha", "beta", "gamma", "delta", "eps", "zeta", "eta", "theta", "iota", "kappa"];

Deno.test("a line of generated words in a text file or a page stays", async () => {
  await kept("eps theta eta beta delta eps gamma alpha zeta theta beta eta\n", "a.md");
  const next = random(7);
  const lines = Array.from({ length: 200 }, (_, i) => pick(GREEK, 12 + (i % 5) * 3, next));
  const text = lines.map((l) => l.join(" ")).join("\n") + "\n";
  for (const path of ["notes.txt", "a.md", "doc.rst"]) await kept(text, path);
});

Deno.test("a string literal of generated words stays", async () => {
  const words = "kappa theta iota beta delta eps gamma alpha zeta theta beta eta";
  await kept(`const s = "${words}";\n`, "a.ts");
  await kept(`s = '${words}'\n`, "a.py");
});

Deno.test("list words with a wrong checksum stay", async () => {
  const wrong = "legal winner thank year wave sausage worth useful legal winner thank year";
  assert.equal(validateMnemonic(wrong, wordlist), false);
  await kept(`${wrong}\n`, "a.md");
  await kept(`const m = "${wrong}";\n`, "a.ts");
  const next = random(11);
  let stayed = 0;
  for (let i = 0; i < 40; i++) {
    const words = pick(wordlist, 12, next).join(" ");
    if (validateMnemonic(words, wordlist)) continue;
    await kept(`${words}\n`, "notes.txt");
    stayed++;
  }
  assert.ok(stayed >= 30, `${stayed}`);
});

Deno.test("mnemonics with a right checksum are redacted alone on a line and as a literal", async () => {
  const next = random(3);
  for (const n of [12, 15, 18, 21, 24]) {
    const words = mnemonic(n, next);
    await redactsValue(`Restore it with:\n\n${words}\n`, words, "README.md");
    await redactsValue(`const m = "${words}";\n`, words, "wallet.ts");
  }
  const vector = "legal winner thank year wave sausage worth useful legal winner thank yellow";
  await redactsValue(`${vector}\n`, vector, "a.md");
});

Deno.test("the well-known stand-ins pass the checksum and stay", async () => {
  const hardhat = "test test test test test test test test test test test junk";
  const abandon = `${"abandon ".repeat(11)}about`;
  for (const words of [hardhat, abandon]) {
    assert.ok(validateMnemonic(words, wordlist));
    await kept(`${words}\n`, "a.md");
    await kept(`const m = "${words}";\n`, "a.ts");
  }
});

Deno.test("named recovery words need no checksum", async () => {
  const words = "abandon zebra orbit velvet canal wisdom harbor ripple fossil gadget lunar tunnel";
  assert.equal(validateMnemonic(words, wordlist), false);
  await redactsValue(`MNEMONIC="${words}"\n`, words, ".env");
  await redactsValue(`seed_phrase: ${words}\n`, words, "wallet.yaml");
  const out = (await redactText(`MNEMONIC="${words}"\n`, ".env")).text;
  assert.equal(out, `MNEMONIC="[REDACTED:password]"\n`);
});

Deno.test("a thread without the check hands words back, redacts to be safe, then loads it", async () => {
  const worker = new Worker(new URL("./_unloaded_check_worker.ts", import.meta.url), {
    type: "module",
  });
  try {
    const line = "eps theta eta beta delta eps gamma alpha zeta theta beta eta\n";
    const answer = new Promise<Record<string, string>>((resolve) => {
      worker.onmessage = (e) => resolve(e.data);
    });
    worker.postMessage(line);
    const { unhinted, sync, text, after } = await answer;
    // the sync scan of a thread without the check cannot tell: handed back, or redacted
    assert.equal(unhinted, "undefined");
    assert.equal(sync, `const m = "[REDACTED:password]";\n`);
    // the async scan loads it and keeps the words, and so does the sync scan after it
    assert.equal(text, line);
    assert.equal(after, line);
  } finally {
    worker.terminate();
  }
});
