/**
 * The shapes of a long-running process's memos (see `accel/resident.ts`):
 * the speed layer's wrappers consult a memo of renders
 * (`accel/kept_renders.ts`) and one of placed blocks. No stage reads them;
 * the block's shape is the count and place stages' own data.
 *
 * @module
 */

/** A block's hash, length and count, as the count and place stages compute them. */
export interface BlockMemo {
  /** The block's text (the memo holds for this exact text only). */
  text: string;
  sha256: string;
  /** Its UTF-8 length. */
  length: number;
  /** Tokens by the tokenizer named. */
  tokens: number;
  tokenizer: string;
}

/** A memo that keeps what the current and the previous build used. */
export interface Memo<T> {
  get(key: string): T | undefined;
  set(key: string, value: T): void;
}
