/**
 * Whether words are a BIP-39 mnemonic (a wallet's recovery words): every word in BIP-39's English
 * wordlist and the checksum right (the last bits of the last word are the first bits of the
 * SHA-256 of the entropy the other bits spell). Every phrase a wallet makes passes, and a run of
 * other words passes 1 time in 16 (12 words) to 256 (24 words) even when all are on the list.
 * The check is @scure/bip39's, loaded on first use: until a process has loaded it,
 * {@linkcode isMnemonic} answers `undefined` and counts the question, so that an async scan loads
 * it and scans again ({@linkcode loadMnemonicCheck}) and a sync one redacts to be safe.
 *
 * English only: the other lists' words are accented (French, Spanish), not Latin letters
 * (Japanese, Korean, Chinese) or rare in wallets made for English speakers' tools (Czech, Italian,
 * Portuguese), and the rules read words of `a` to `z` alone.
 *
 * @module
 */

let check: ((words: string) => boolean) | undefined;
let asked = 0;

/**
 * Whether `words` (single blanks between them) are a BIP-39 English mnemonic with a right
 * checksum; `undefined` when this process has not loaded the check yet.
 *
 * @example
 * ```ts
 * import { isMnemonic, loadMnemonicCheck } from "./_bip39.ts";
 * await loadMnemonicCheck();
 * isMnemonic("legal winner thank year wave sausage worth useful legal winner thank yellow"); // true
 * isMnemonic("legal winner thank year wave sausage worth useful legal winner thank year"); // false
 * ```
 */
export function isMnemonic(words: string): boolean | undefined {
  if (!check) asked++;
  return check?.(words);
}

/**
 * How many times {@linkcode isMnemonic} answered `undefined` in this process: a scan that sees
 * it grow asked without the check.
 *
 * @example
 * ```ts
 * import { mnemonicQuestions } from "./_bip39.ts";
 * mnemonicQuestions() >= 0; // true
 * ```
 */
export function mnemonicQuestions(): number {
  return asked;
}

/**
 * Load @scure/bip39's check (once a process).
 *
 * @example
 * ```ts
 * import { loadMnemonicCheck } from "./_bip39.ts";
 * await loadMnemonicCheck();
 * ```
 */
export async function loadMnemonicCheck(): Promise<void> {
  if (check) return;
  const { loadBip39 } = await import("../deps.ts");
  const { validateMnemonic, wordlist } = await loadBip39();
  // (the package answers a word off the list by an exception, which costs ~0.1 ms: asked first)
  const listed = new Set(wordlist);
  check = (words) =>
    words.split(" ").every((w) => listed.has(w)) && validateMnemonic(words, wordlist);
}
