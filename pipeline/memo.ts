/**
 * The shapes of a long-running process's memos (see `accel/resident.ts`):
 * the transform stage consults a memo of renders when one is handed to it
 * (`TransformOptions.rendered`), and the speed layer's wrappers a memo of
 * placed blocks. Kept here, not in the resident, so that the stage need not
 * import the layer on top of it.
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
