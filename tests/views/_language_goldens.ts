// The golden tests every tree-sitter language gets: its skeleton and outline byte for byte
// (snapshots of the calling test file), and the same bytes on every render, with or without
// hollowing.
import assert from "node:assert/strict";
import { renderCode } from "../../plugins/view_modes/_code.ts";
import { outlineText } from "../../plugins/view_modes/outline.ts";
import { languageFor } from "../../grammars/languages.ts";
import { raw, snapshotPath } from "../_helpers.ts";

/**
 * Register the golden tests of each `[path, text]` sample; `testUrl` is the calling test file's
 * `import.meta.url`, whose snapshot file holds the goldens.
 */
export function languageGoldens(samples: Array<[string, string]>, testUrl: string): void {
  const snapshots = snapshotPath(testUrl);
  for (const [path, text] of samples) {
    Deno.test(`skeletonViewMode() golden: ${path} byte-exact`, async (t) => {
      const view = await renderCode(path, text);
      assert.ok(view, `no grammar for ${path}`);
      assert.equal(view.hasErrors, false);
      await t.assertSnapshot(view.text, { serializer: raw, path: snapshots });
    });

    Deno.test(`outlineViewMode() golden: ${path} byte-exact, with lines`, async (t) => {
      const view = (await renderCode(path, text))!;
      const lines = view.symbols.map((s) => `${s.line} ${s.qualifiedName} ${s.kind}`).join("\n");
      const comment = languageFor(path)!.lineComment ?? "//";
      await t.assertSnapshot(`${outlineText(view.symbols, comment)}\n${lines}\n`, {
        serializer: raw,
        path: snapshots,
      });
    });

    Deno.test(`the code views of ${path} are the same bytes each time, with or without hollowing`, async () => {
      const first = await renderCode(path, text);
      const again = await renderCode(path, text);
      const whole = await renderCode(path, text, { hollow: false });
      assert.deepEqual(again, first);
      assert.deepEqual(whole, first);
    });
  }
}

/** A mask case: the file's path and text, the symbol masked, a line of its body. */
export type MaskCase = [path: string, text: string, name: string, body: string];

/**
 * Check each case's masks: without one the body is elided, `def` shows it whole, `hide` leaves
 * out what `shown(hidden, name)` looks for (the name as its definition writes it).
 */
export async function assertMasks(
  cases: MaskCase[],
  shown: (hidden: string, name: string) => boolean,
): Promise<void> {
  for (const [path, text, name, body] of cases) {
    const plain = (await renderCode(path, text))!.text;
    assert.ok(!plain.includes(body), `${path}: the body is elided without a mask`);
    const masked = (await renderCode(path, text, { mask: { [name]: "def" } }))!.text;
    assert.ok(masked.includes(body), `${path}: ${name} is shown whole`);
    const hidden = (await renderCode(path, text, { mask: { [name]: "hide" } }))!.text;
    assert.ok(!shown(hidden, name), `${path}: ${name} is hidden`);
  }
}

/** Options of {@linkcode corrupted}. */
export interface CorruptedOptions {
  /** The share of characters replaced by a random ASCII one in the garbled variant. @default {0.03} */
  garble?: number;
  /** Add a variant that starts with a NUL byte. @default {false} */
  nul?: boolean;
}

/**
 * Variants of a text the way an editor mid-change or a bad copy leaves it: cut short, lines lost,
 * brackets or `end`s gone, garbled characters, an unterminated string, CRLF line ends. Seeded:
 * the same variants on every run.
 */
export function corrupted(text: string, options: CorruptedOptions = {}): string[] {
  const { garble = 0.03, nul = false } = options;
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const lines = text.split("\n");
  return [
    text.slice(0, Math.floor(text.length / 3)),
    text.slice(Math.floor(text.length / 2)),
    lines.filter((_, i) => i % 7 !== 3).join("\n"),
    text.replaceAll("}", ""),
    text.replaceAll("end", ""),
    text.replaceAll("(", "{"),
    [...text].map((c) => next() < garble ? String.fromCharCode(Math.floor(next() * 128)) : c)
      .join(""),
    `${text}\n"unterminated`,
    ...(nul ? [`\u0000${text}`] : []),
    text.replaceAll("\n", "\r\n"),
  ];
}
