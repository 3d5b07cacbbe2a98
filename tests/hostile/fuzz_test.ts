import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { buildContext, type OutputFormat } from "../../mod.ts";
import { sha256 } from "../../pipeline/read.ts";
import { prng, tempDir } from "../_helpers.ts";

const NAME_PARTS = [
  "a",
  "src",
  "my file",
  "ünï",
  "日本",
  "new\nline",
  "tab\tx",
  "-dash",
  "x.y",
  "$v",
];
const EXTS = [".ts", ".py", ".md", ".txt", ".json", "", ".bin", ".toml"];
const SECRET = `sk-or-v1-${"9f".repeat(32)}`;

interface Generated {
  root: string;
  /** Every path that must appear in the manifest. */
  expected: Set<string>;
  /** Bytes of regular files, for hash checks. */
  bytes: Map<string, Uint8Array>;
}

/** Build a random tree of files, hostile contents and odd entries (bounded: at most 24 entries). */
async function generate(seed: number): Promise<Generated> {
  const random = prng(seed);
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)];
  const root = await tempDir({ prefix: "slop_fuzz_" });
  const expected = new Set<string>();
  const bytes = new Map<string, Uint8Array>();
  const enc = new TextEncoder();
  const count = 4 + Math.floor(random() * 20);
  for (let i = 0; i < count; i++) {
    const depth = Math.floor(random() * 4);
    const dirs = Array.from({ length: depth }, () => pick(NAME_PARTS));
    const path = [...dirs, `${pick(NAME_PARTS)}${i}${pick(EXTS)}`].join("/");
    const abs = join(root, path);
    await Deno.mkdir(dirname(abs), { recursive: true });
    const kind = Math.floor(random() * 12);
    let data: Uint8Array | undefined;
    if (kind === 0) data = new Uint8Array(0);
    else if (kind === 1) data = new Uint8Array([1, 0, 2, 0, 3]);
    else if (kind === 2) data = new Uint8Array([0xff, 0xfe, 0x41, 0xc3]);
    else if (kind === 3) data = enc.encode(`\ufeffa\r\nb\rc`);
    else if (kind === 4) data = enc.encode(`API_KEY=${SECRET}\n`);
    else if (kind === 5) data = enc.encode("w".repeat(5000 + Math.floor(random() * 5000)));
    else if (kind === 6) data = enc.encode("</document_content>\n```\n````\n");
    else if (kind === 7) await Deno.symlink(`missing${i}`, abs);
    else if (kind === 8) await Deno.symlink("/etc/hostname", abs);
    else if (kind === 9) {
      const fifo = new Deno.Command("mkfifo", { args: [abs] }).outputSync();
      if (!fifo.success) data = enc.encode("no fifo\n");
    } else data = enc.encode(`line ${i}\n`.repeat(1 + Math.floor(random() * 50)));
    if (data) {
      try {
        await Deno.writeFile(abs, data);
      } catch {
        continue; // the name was taken by a symlink or FIFO of an earlier entry
      }
      bytes.set(path, data);
    }
    expected.add(path);
  }
  return { root, expected, bytes };
}

Deno.test("fuzz: builds over 30 generated hostile trees never throw and account for every file", async () => {
  const formats: OutputFormat[] = ["markdown", "xml", "json"];
  for (let seed = 1; seed <= 30; seed++) {
    const { root, expected, bytes } = await generate(seed);
    const random = prng(seed * 7919);
    const result = await buildContext({
      cwd: root,
      inline: {
        maxFileSize: 1000 + Math.floor(random() * 10_000),
        output: { format: formats[seed % 3] },
      },
    }, { write: seed % 5 === 0 });
    const rows = new Map(result.manifest.files.map((f) => [f.path, f]));
    assert.deepEqual([...rows.keys()].sort(), [...expected].sort(), `seed ${seed}: every file`);
    for (const [path, f] of rows) {
      assert.ok(["rendered", "skipped", "error"].includes(f.status), `seed ${seed} ${path}`);
      if (f.status !== "rendered") assert.ok(f.reason, `seed ${seed}: ${path} has a reason`);
      const data = bytes.get(path);
      if (data && f.status === "rendered") {
        // A redacted file is hashed as redacted (see pipeline/secrets.ts).
        const redacted = new TextDecoder().decode(data).includes(SECRET);
        assert.equal(f.sha256 === sha256(data), !redacted, `seed ${seed}: ${path} hash`);
      }
    }
    assert.ok(!result.document.includes(SECRET), `seed ${seed}: the secret was redacted`);
    const blocks = result.manifest.blocks;
    const total = blocks.reduce((n, b) => n + b.length, 0);
    assert.equal(total, new TextEncoder().encode(result.document).length, `seed ${seed}: tiling`);
    await Deno.remove(root, { recursive: true });
  }
});
