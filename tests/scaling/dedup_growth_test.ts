import assert from "node:assert/strict";
import { dedupText } from "../../pipeline/dedup.ts";
import { tallyWork } from "../../pipeline/helpers.ts";
import { SHAPES } from "../../bench/shapes.ts";
import { prng } from "../_helpers.ts";
import { assertLinear, SIZES } from "./_growth.ts";

async function dedupWork(text: string): Promise<number> {
  return (await tallyWork(() => dedupText(text))).get("dedup") ?? 0;
}

Deno.test("content dedup's work grows linearly with the text, whatever its shape", async () => {
  for (const shape of SHAPES) {
    const work: number[] = [];
    for (const size of SIZES) work.push(await dedupWork(shape.make(size)));
    assertLinear(shape.name, work);
  }
});

Deno.test("content dedup's work grows linearly on equal-width base64 lines that never make a blob", async () => {
  // Lines of one width, all base64 characters, never upper, lower and digits together: each is
  // where a wrapped blob could start, and none does.
  const shapes: Record<string, (bytes: number) => string> = {
    "one letter": (bytes) => ("A".repeat(76) + "\n").repeat(Math.floor(bytes / 77)),
    "hex digests": (bytes) => ("0123456789abcdef".repeat(4) + "\n").repeat(Math.floor(bytes / 65)),
    "one letter, wrapped by escaped breaks in one JSON string": (bytes) =>
      ("A".repeat(76) + "\\n").repeat(Math.floor(bytes / 78)),
    "one letter, as a JSON list of lines": (bytes) =>
      ('  "' + "A".repeat(76) + '\\n",\n').repeat(Math.floor(bytes / 84)),
    "a shorter line every 100": (bytes) =>
      Array.from(
        { length: Math.floor(bytes / 77) },
        (_, i) => i % 100 === 99 ? "Z".repeat(40) : "z".repeat(76),
      )
        .join("\n"),
  };
  for (const [name, make] of Object.entries(shapes)) {
    const work: number[] = [];
    for (const size of SIZES) work.push(await dedupWork(make(size)));
    assertLinear(name, work);
  }
});

Deno.test("content dedup's work grows linearly on data URL headers inside data URL parameters", async () => {
  const shapes: Record<string, (bytes: number) => string> = {
    "typed": (bytes) => ";base64,\n" + "data:a/b;x=".repeat(Math.floor(bytes / 11)),
    "untyped": (bytes) => ";base64,\n" + "data:;x=".repeat(Math.floor(bytes / 8)),
    "long type": (bytes) => ";base64,\n" + "data:" + "t".repeat(bytes) + "/",
  };
  for (const [name, make] of Object.entries(shapes)) {
    const work: number[] = [];
    for (const size of SIZES) work.push(await dedupWork(make(size)));
    assertLinear(name, work);
  }
});

/** The regular expression data URL headers were found with (its matches are the spec). */
const DATA_URL_SPEC = /data:([\w.+-]+\/[\w.+-]+)?((?:;[\w.+-]+=[^;,\s"'()]*)*);base64,/g;

/** What the replacements of a text by the regular expression alone would be (data URLs only). */
function specKinds(text: string, minChars: number): string[] {
  const kinds: string[] = [];
  let last = 0;
  for (const m of text.matchAll(DATA_URL_SPEC)) {
    if (m.index! < last) continue;
    const start = m.index! + m[0].length;
    let end = start;
    while (end < text.length && /[A-Za-z0-9+/]/.test(text[end])) end++;
    for (let pad = 0; pad < 2 && text[end] === "="; pad++) end++;
    if (end - start < minChars) continue;
    kinds.push(`data:${m[1] ?? ""}${m[2]};base64`);
    last = end;
  }
  return kinds;
}

Deno.test("content dedup finds the data URLs the regular expression finds, read forward once", () => {
  const random = prng(21);
  const pieces = [
    "data:",
    "image/png",
    "a/b",
    ";",
    "charset=utf-8",
    "x=",
    "name=a b",
    "=",
    ";base64,",
    ",",
    " ",
    "\n",
    '"',
    "(",
    "QUJD".repeat(3),
    "QUJDRA==",
    "+/",
    "t.x-y",
    "data:;",
    "\u00a0",
  ];
  let found = 0;
  const pick = (xs: string[]) => xs[Math.floor(random() * xs.length)];
  for (let n = 0; n < 3000; n++) {
    let text = "";
    const parts = 1 + Math.floor(random() * 14);
    for (let i = 0; i < parts; i++) {
      // Half the time a header as data URLs spell it, then a piece that may break it.
      text += random() < 0.5
        ? `data:${pick(["", "image/png", "a/b", "t.x-y/z+w"])}${
          pick(["", ";charset=utf-8", ";x=", ";a=1;b=2", ";name=a b"])
        };base64,${pick(["", "QUJD".repeat(2), "QUJDRA=="])}`
        : pick(pieces);
    }
    const kinds = dedupText(text, { minChars: 4 }).replacements
      .filter((r) => r.kind.startsWith("data:")).map((r) => r.kind);
    assert.deepEqual(kinds, specKinds(text, 4), JSON.stringify(text));
    found += kinds.length;
  }
  assert.ok(found > 100, `only ${found} data URLs met`);
});
