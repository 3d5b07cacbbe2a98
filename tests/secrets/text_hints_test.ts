import assert from "node:assert/strict";
import { SECRET_SHAPES, textHints } from "../../pipeline/secret_rules.ts";
import { prng } from "../_helpers.ts";

const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const HEX = "0123456789abcdef";
const B64 = "ABCabcxyzXYZ0123456789_-+/=.~";

/**
 * Texts of every gated rule's prefixes followed by runs of token characters, the options the
 * option rules read (in each spelling, after a blank or not), and the characters the hints share
 * (`-`, `_`, `k`, `u`, blanks), in random order.
 */
function generated(random: () => number): string {
  const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)];
  const run = (chars: string, n: number) =>
    Array.from({ length: n }, () => pick([...chars])).join("");
  const prefixes = SECRET_SHAPES.filter((s) => s.gate).flatMap((s) => s.hints);
  const pieces = [
    () => pick(prefixes) + run(pick([UPPER, HEX, B64]), pick([16, 32, 35, 40, 60])),
    () =>
      pick(["-u", "--user", "--password", "--passwd", "--token", "--api-key", "--secret", "-"]) +
      pick([" ", "\t", "=", "", "x"]),
    () => pick(["user:", "a:"]) + run(B64, 4 + Math.floor(random() * 12)),
    () =>
      pick([
        " ",
        " ",
        " ",
        "\n",
        "\t",
        "-",
        "--",
        "_",
        "k",
        "sk",
        "u",
        "'",
        '"',
        "pypi",
        "Q",
        "ey",
      ]),
    () => run(B64, Math.floor(random() * 20)),
  ];
  return Array.from({ length: 16 }, () => pick(pieces)()).join("");
}

Deno.test("textHints() finds the gate of every gated rule that matches a text", () => {
  const random = prng(23);
  const matched = new Set<string>();
  for (let i = 0; i < 8000; i++) {
    const text = generated(random);
    const { families } = textHints(text);
    for (const shape of SECRET_SHAPES) {
      if (!shape.gate || !shape.pattern) continue;
      shape.pattern.lastIndex = 0;
      if (!shape.pattern.test(text)) continue;
      matched.add(shape.id);
      const found = [...shape.gate].some((c) => families.includes(c));
      assert.ok(found, `${shape.id} (gate ${shape.gate}) in ${JSON.stringify(text)}: ${families}`);
    }
  }
  // Most gated rules matched somewhere, the option rules among them.
  assert.ok(matched.has("user-option") && matched.has("password-option"), [...matched].join());
  assert.ok(matched.size >= 12, [...matched].join());
});
