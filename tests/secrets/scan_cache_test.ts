import assert from "node:assert/strict";
import { join } from "node:path";
import { openCache } from "../../pipeline/cache.ts";
import { sha256 } from "../../pipeline/read.ts";
import { redactSources } from "../../pipeline/secrets.ts";
import type { SourceFile } from "../../pipeline/types.ts";
import { tempDir } from "../_helpers.ts";

const KEY = `sk-or-v1-${"ab".repeat(32)}`;

function source(path: string, text: string, hash = sha256(text)): SourceFile {
  return {
    path,
    absPath: `/p/${path}`,
    entry: { path },
    text,
    sha256: hash,
    size: text.length,
  } as SourceFile;
}

Deno.test("redactSources() with a cache skips files a previous scan found clean, by path and content hash", async () => {
  const dir = await tempDir();
  try {
    const cache = openCache(join(dir, "cache"));
    const clean = "export const a = 1;\n";
    const first = [source("a.ts", clean), source("b.ts", "export const b = 2;\n")];
    assert.deepEqual(await redactSources(first, {}, { cache }), []);
    // The same path and hash with other text (which no real file can have) is not scanned again:
    // the verdict is the cache's.
    const tampered = source("a.ts", `KEY=${KEY}\n`, sha256(clean));
    assert.deepEqual(await redactSources([tampered], {}, { cache }), []);
    assert.equal(tampered.text, `KEY=${KEY}\n`);
    // An edited file (new hash) is scanned and redacted; so is a known text under other rules.
    const edited = source("b.ts", `KEY=${KEY}\n`);
    const found = await redactSources([edited], {}, { cache });
    assert.deepEqual(found.map((f) => [f.path, f.rule]), [["b.ts", "openrouter-key"]]);
    assert.equal(edited.text, "KEY=[REDACTED:openrouter-key]\n");
    const other = source("a.ts", "const a = 1; // TOKEN-1234\n");
    const rules = { internal: "TOKEN-[0-9]{4}" };
    assert.deepEqual(await redactSources([other], {}, { cache }), []);
    const ruled = source("a.ts", "const a = 1; // TOKEN-1234\n");
    assert.deepEqual((await redactSources([ruled], rules, { cache })).map((f) => f.rule), [
      "internal",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("redactSources() without a cache scans every file", async () => {
  const tampered = source("a.ts", `KEY=${KEY}\n`, sha256("export const a = 1;\n"));
  const found = await redactSources([tampered], {});
  assert.deepEqual(found.map((f) => f.rule), ["openrouter-key"]);
});
