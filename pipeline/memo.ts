/**
 * The memos the stages consult when a long-running process hands them some
 * (see `accel/resident.ts`): their shapes. The stages import this small
 * module, not the resident: the resident is a layer on top of them.
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
