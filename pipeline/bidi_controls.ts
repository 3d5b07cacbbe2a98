/**
 * Unicode's bidirectional embedding, override and isolate controls (U+202A to U+202E, U+2066 to
 * U+2069) in a text a file block shows. They change the order in which a viewer displays the
 * characters around them but not the order a compiler or a model reads them in, so code can look
 * like other code ("Trojan Source", CVE-2021-42574). The `full` view shows a file as it is on disk,
 * controls included, so the build notes them instead: on the file's manifest entry, before its
 * text in the document and in the build summary. The marks (U+200E, U+200F, U+061C) are left out,
 * as rustc's lint of these characters leaves them out: they only nudge the neutral characters
 * around them, and text in Arabic or Hebrew uses them as a matter of course.
 *
 * @module
 */

/** Any of the controls (one code unit each; none is a surrogate). */
const CONTROL = /[\u202a-\u202e\u2066-\u2069]/;

/** The controls a text holds: how many, which, and where the first is. */
export interface BidiControls {
  /** How many there are. */
  count: number;
  /** The distinct code points found, ascending. */
  codes: number[];
  /** The 1-based line of the first. */
  line: number;
}

/**
 * The controls in `text`, or `undefined` when it has none (one regular expression search: a text
 * of Latin-1 characters alone is not even read, none being one of them).
 *
 * @example
 * ```ts
 * import { bidiControls } from "./bidi_controls.ts";
 * bidiControls("a\nb\u202e c\u2066\u2069"); // { count: 3, codes: [0x202e, 0x2066, 0x2069], line: 2 }
 * bidiControls("x = 1\n"); // undefined
 * ```
 */
export function bidiControls(text: string): BidiControls | undefined {
  const first = text.search(CONTROL);
  if (first < 0) return undefined;
  const codes = new Set<number>();
  let count = 0;
  for (let i = first; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if ((code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069)) {
      codes.add(code);
      count++;
    }
  }
  let line = 1;
  for (let i = text.indexOf("\n"); i >= 0 && i < first; i = text.indexOf("\n", i + 1)) line++;
  return { count, codes: [...codes].sort((a, b) => a - b), line };
}

/**
 * {@linkcode bidiControls} of the text whose UTF-8 is `bytes`, without decoding it: each control
 * is the three bytes E2 80 AA to AE or E2 81 A6 to A9, and a line feed is one byte.
 *
 * @example
 * ```ts
 * import { bidiControlBytes } from "./bidi_controls.ts";
 * bidiControlBytes(new TextEncoder().encode("a\n\u202e")); // { count: 1, codes: [0x202e], line: 2 }
 * ```
 */
export function bidiControlBytes(bytes: Uint8Array): BidiControls | undefined {
  const codes = new Set<number>();
  let count = 0;
  let first = -1;
  for (let i = bytes.indexOf(0xe2); i >= 0; i = bytes.indexOf(0xe2, i + 1)) {
    const [b1, b2] = [bytes[i + 1], bytes[i + 2]];
    if (!((b1 === 0x80 && b2 >= 0xaa && b2 <= 0xae) || (b1 === 0x81 && b2 >= 0xa6 && b2 <= 0xa9))) {
      continue;
    }
    codes.add(0x2000 | ((b1 & 0x3f) << 6) | (b2 & 0x3f));
    count++;
    if (first < 0) first = i;
  }
  if (first < 0) return undefined;
  let line = 1;
  for (let i = bytes.indexOf(10); i >= 0 && i < first; i = bytes.indexOf(10, i + 1)) line++;
  return { count, codes: [...codes].sort((a, b) => a - b), line };
}

/** How every note of {@linkcode bidiNote} starts after its count. */
const NOTE_WORDS = " bidirectional control character";

/** The start of a {@linkcode bidiNote}: its count, its words, the first code point's name. */
const NOTE_START = /^\d+ bidirectional control characters? \(U\+/;

/**
 * The note of a file whose shown text holds `found`: in its manifest entry, and in parentheses
 * before its text in the document.
 *
 * @example
 * ```ts
 * import { bidiNote } from "./bidi_controls.ts";
 * bidiNote({ count: 1, codes: [0x202e], line: 4 });
 * // "1 bidirectional control character (U+202E), on line 4: a viewer may show the text around it in another order than a compiler reads it (Trojan Source); shown as it is"
 * ```
 */
export function bidiNote(found: BidiControls): string {
  const names = found.codes.map((c) => `U+${c.toString(16).toUpperCase()}`).join(", ");
  const one = found.count === 1;
  return `${found.count}${NOTE_WORDS}${one ? "" : "s"} (${names}), ${one ? "" : "the first "}` +
    `on line ${found.line}: a viewer may show the text around ${one ? "it" : "them"} in another ` +
    `order than a compiler reads it (Trojan Source); shown as ${one ? "it is" : "they are"}`;
}

/**
 * The {@linkcode bidiNote} among a file's notes, if it has one.
 *
 * @example
 * ```ts
 * import { bidiNote, bidiNoteOf } from "./bidi_controls.ts";
 * const note = bidiNote({ count: 2, codes: [0x2066, 0x2069], line: 1 });
 * bidiNoteOf({ notes: ["empty file", note] }) === note; // true
 * bidiNoteOf({}); // undefined
 * ```
 */
export function bidiNoteOf(file: { notes?: string[] }): string | undefined {
  return file.notes?.find((n) => NOTE_START.test(n));
}
