/**
 * Shared checks of the hollowing tests: what a hollowed text may change, and that the views do
 * not change.
 *
 * @module
 */

import assert from "node:assert/strict";
import { hollowText } from "../../grammars/_hollow.ts";
import { LANGUAGES } from "../../grammars/languages.ts";
import { renderCode } from "../../plugins/view_modes/_code.ts";

/** Assert what hollowing may change: only characters other than line breaks, inside bodies. */
export function assertSameShape(text: string, hollow: string): void {
  assert.equal(hollow.length, text.length);
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "\n" || hollow[i] === "\n") assert.equal(hollow[i], text[i], `offset ${i}`);
  }
}

/** The skeleton, outline-style and masked renders with and without hollowing are the same. */
async function assertSameViews(path: string, text: string): Promise<void> {
  for (const options of [{}, { maxValueLines: 3 }, { rest: "hide" as const }]) {
    const plain = await renderCode(path, text, { ...options, hollow: false });
    const hollowed = await renderCode(path, text, options);
    assert.deepEqual(hollowed, plain);
  }
}

/**
 * Assert that a language's hollowing gone wrong (each region's head replaced by `head`, which
 * leaves a bracket or string open) makes the view parse the whole text: the views are the same.
 */
export async function assertWholeParseWhenBroken(
  language: string,
  path: string,
  text: string,
  head: string,
): Promise<void> {
  const spec = LANGUAGES.find((l) => l.id === language)!;
  const hollow = spec.hollow;
  spec.hollow = (t, options) => hollow?.(t, options)?.map((r) => ({ ...r, head }));
  try {
    assert.ok(hollowText(text, spec.hollow(text)!).includes(head));
    assert.deepEqual(await renderCode(path, text), await renderCode(path, text, { hollow: false }));
  } finally {
    spec.hollow = hollow;
  }
}

/** What {@linkcode assertMangledTexts} mangles and how. */
export interface MangleOptions {
  /** The file name the views are rendered for (its extension picks the language). */
  path: string;
  /** The text to mangle. */
  base: string;
  /** What an edit inserts (one of these, chosen at random). */
  pieces: string[];
  /** Mangled texts to try. */
  runs: number;
  /** At most this many edits a text. */
  maxEdits: number;
  /** The random source. */
  random: () => number;
  /** The hollowed text, or undefined when nothing is hollowed. */
  hollow: (text: string) => string | undefined;
}

/**
 * Mangle a text at random (each edit cuts up to 2 characters and inserts a piece) and assert, for
 * each mangled text that is hollowed, its shape, and where the whole text parses cleanly, the
 * same views; at least 50 and 20 of them must be so, or the test proves little.
 */
export async function assertMangledTexts(options: MangleOptions): Promise<void> {
  const { path, base, pieces, runs, maxEdits, random, hollow } = options;
  let hollowed = 0;
  let clean = 0;
  for (let i = 0; i < runs; i++) {
    let text = base;
    for (let k = 1 + Math.floor(random() * maxEdits); k > 0; k--) {
      const at = Math.floor(random() * text.length);
      const cut = Math.floor(random() * 3);
      text = text.slice(0, at) + pieces[Math.floor(random() * pieces.length)] +
        text.slice(at + cut);
    }
    const hollowedText = hollow(text);
    if (hollowedText === undefined) continue;
    hollowed++;
    assertSameShape(text, hollowedText);
    const plain = await renderCode(path, text, { hollow: false });
    if (plain && !plain.hasErrors) {
      clean++;
      assert.deepEqual(await renderCode(path, text), plain, JSON.stringify(text));
    }
  }
  assert.ok(hollowed > 50, `only ${hollowed} of ${runs} hollowed`);
  assert.ok(clean > 20, `only ${clean} of ${runs} parsed cleanly`);
}

/**
 * One case of a hollowing test: hollowed (or, when `whole`, not) with its shape kept, parsed as
 * meant (with errors only when `hasErrors`), and with the same views hollowed or not.
 */
export async function assertHollowCase(
  path: string,
  text: string,
  hollow: string | undefined,
  expect: { whole?: boolean; hasErrors?: boolean } = {},
): Promise<void> {
  if (expect.whole) assert.equal(hollow, undefined);
  else assertSameShape(text, hollow!);
  const plain = await renderCode(path, text, { hollow: false });
  assert.equal(plain?.hasErrors, expect.hasErrors ?? false, "parses as meant");
  await assertSameViews(path, text);
}
