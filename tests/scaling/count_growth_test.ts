import { countTexts } from "../../pipeline/count.ts";
import { tallyWork } from "../../pipeline/helpers.ts";
import { SHAPES } from "../../bench/shapes.ts";
import { prng } from "../_helpers.ts";
import { assertLinear, SIZES, SMALL_SIZES } from "./_growth.ts";

async function countWork(text: string, tokenizer: "o200k" | "cl100k" = "o200k"): Promise<number> {
  return (await tallyWork(() => countTexts([text], { tokenizer, workers: 1 }))).get("count") ?? 0;
}

Deno.test("token counting's work grows linearly (n log n at most) with the text, whatever its shape", async () => {
  for (const shape of SHAPES) {
    const work: number[] = [];
    for (const size of SIZES) work.push(await countWork(shape.make(size)));
    assertLinear(shape.name, work);
  }
});

Deno.test("token counting's work grows n log n at most on one huge piece of any kind, o200k and cl100k", async () => {
  const random = prng(4);
  const shapes: Record<string, (n: number) => string> = {
    "one letter": (n) => "a".repeat(n),
    "digits": (n) => Array.from({ length: n }, (_, i) => String(i % 10)).join(""),
    "spaces": (n) => " ".repeat(n) + "x",
    "punctuation": (n) => "=-".repeat(n / 2),
    "emoji": (n) => "🙂".repeat(n / 4),
    "accented letters": (n) => "é".repeat(n / 2),
    "random base64": (n) =>
      Array.from(
        { length: n },
        () =>
          "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"[
            Math.floor(random() * 64)
          ],
      ).join(""),
  };
  for (const tokenizer of ["o200k", "cl100k"] as const) {
    for (const [name, make] of Object.entries(shapes)) {
      const work: number[] = [];
      for (const size of SMALL_SIZES) work.push(await countWork(make(size), tokenizer));
      assertLinear(`${tokenizer} ${name}`, work, SMALL_SIZES);
    }
  }
});
