import assert from "node:assert/strict";
import { join } from "node:path";
import { buildContext } from "../../mod.ts";
import { decodeText } from "../../pipeline/_text_decode.ts";
import { makeProject, runCliShared } from "../_helpers.ts";

/** `text` in `encoding`, made by inverting the runtime's decoder (one or two bytes a character). */
function encode(text: string, encoding: string): Uint8Array {
  const decoder = new TextDecoder(encoding, { fatal: true });
  const table = new Map<string, number[]>();
  const learn = (bytes: number[]) => {
    try {
      const char = decoder.decode(new Uint8Array(bytes));
      if ([...char].length === 1 && !table.has(char)) table.set(char, bytes);
    } catch {
      // Not a whole character in this encoding.
    }
  };
  for (let a = 0; a < 256; a++) learn([a]);
  // Two-byte characters only for the encodings that have them (the East Asian ones).
  if ([...text].some((char) => !table.has(char))) {
    for (let a = 0x81; a < 0xff; a++) for (let b = 0x40; b < 0xff; b++) learn([a, b]);
  }
  const out: number[] = [];
  for (const char of text) {
    const bytes = table.get(char);
    assert.ok(bytes, `"${char}" has bytes in ${encoding}`);
    out.push(...bytes);
  }
  return new Uint8Array(out);
}

const TEXTS: Record<string, [string, string]> = {
  "latin1.py": ["windows-1252", "# Größe der Datei prüfen, über alles: café, naïve\nx = 1\n"],
  "cyrillic.c": ["windows-1251", "/* Это русский текст для проверки кодировки файла */\nint x;\n"],
  "japanese.txt": [
    "shift_jis",
    "これは日本語のテキストです。ファイルの説明をここに書きます。関数の使い方について。\n",
  ],
  "chinese.txt": ["gb18030", "这是一个中文文本文件，用于测试编码检测功能。这是第二句话。\n"],
  "korean.txt": ["euc-kr", "이것은 한국어 텍스트입니다. 인코딩 감지를 테스트합니다.\n"],
};

Deno.test("text in an older encoding (Latin-1, Windows-1251, Shift_JIS, GB18030, EUC-KR) is read as text, not skipped as binary", async () => {
  const files: Record<string, Uint8Array> = {};
  for (const [path, [encoding, text]] of Object.entries(TEXTS)) {
    files[path] = encode(text.repeat(3), encoding);
    assert.throws(() => new TextDecoder("utf-8", { fatal: true }).decode(files[path]), path);
  }
  const root = await makeProject(files);
  const result = await buildContext({ cwd: root }, { write: false });
  for (const [path, [, text]] of Object.entries(TEXTS)) {
    const row = result.manifest.files.find((f) => f.path === path)!;
    assert.equal(row.status, "rendered", path);
    assert.ok(result.document.includes(text.repeat(3)), `${path} reads as its text`);
  }
});

Deno.test("a mostly UTF-8 file with a stray byte keeps its UTF-8 characters; a secret in a Latin-1 file is redacted", async () => {
  const utf8 = new TextEncoder().encode("naïve — “quoted” ünïcödé\n".repeat(4));
  const stray = new Uint8Array([...utf8, 0xff, 0x0a]);
  const secret = "Xk9mPq2vL8zR4tWb7Yc";
  const latin1 = encode(`# Schlüssel für die Größe\npassword = "${secret}"\n`, "windows-1252");
  const root = await makeProject({ "stray.md": stray, "config.py": latin1 });
  const result = await buildContext({ cwd: root }, { write: false });
  assert.ok(result.document.includes("naïve — “quoted” ünïcödé\n".repeat(4) + "\ufffd\n"));
  assert.ok(result.document.includes("# Schlüssel für die Größe"));
  assert.ok(!result.document.includes(secret), "the secret is redacted");
});

Deno.test("bytes with many control characters and no NUL stay binary; a legacy file reads the same cold and warm", async () => {
  let seed = 7;
  const random = new Uint8Array(4096).map(() => {
    seed = (seed * 1103515245 + 12345) >>> 0;
    return 1 + (seed >>> 16) % 255; // never 0: no NUL to give it away
  });
  assert.deepEqual(await decodeText(random), { binary: "binary file (not valid UTF-8)" });
  const root = await makeProject({
    "random.bin": random,
    "latin1.txt": encode("Größe über alles\n".repeat(50), "windows-1252"),
  });
  const cold = await runCliShared(["build", "--stdout"], root);
  const warm = await runCliShared(["build", "--stdout"], root);
  assert.equal(cold.code, 0, cold.stderr);
  assert.ok(cold.stdout.includes("Größe über alles\n"));
  assert.equal(warm.stdout, cold.stdout);
  const manifest = await runCliShared(["build", "--stdout", "--json"], root);
  const row = JSON.parse(manifest.stdout).manifest.files.find((f: { path: string }) =>
    f.path === "random.bin"
  );
  assert.equal(row.reason, "binary file (not valid UTF-8)");
  await Deno.remove(join(root, ".slop"), { recursive: true });
});

Deno.test("a legacy text whose lines beyond ASCII lie far apart, past the sample's size, is read in its encoding", async () => {
  // Lines of Shift_JIS between 100 KB of ASCII lines, one at the very start and one at the end
  // with no line break: the sample of the lines beyond ASCII finds each.
  const ascii = "plain ascii line of the log\n".repeat(4000);
  const japanese = "これは日本語のテキストです。ファイルの説明をここに書きます。";
  const text = `${japanese}\n${ascii}${japanese}\n${ascii}${ascii}${japanese}`;
  const decoded = await decodeText(encode(text, "shift_jis"));
  assert.deepEqual(decoded, { text });
});
