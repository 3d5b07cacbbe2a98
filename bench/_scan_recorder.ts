/**
 * A stand-in scanner for `bench/growth_probe.ts`: given to `bench/leak_probe.ts` in place of
 * `pipeline/_scan.ts`, it prints each text the probe would scan (with its path) as one JSON line
 * after a `\u0001`, and redacts nothing. The growth probe reads those lines for the shapes the
 * secret rules look for.
 *
 * @module
 */

/** Print `text` and `path` for the growth probe; the text comes back as it is. */
export function redactText(text: string, path: string): Promise<{ text: string }> {
  console.log("\u0001" + JSON.stringify([path, text]));
  return Promise.resolve({ text });
}
