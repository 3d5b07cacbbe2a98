/**
 * Git LFS pointer files: what a clone holds in place of a large file's content when Git LFS is
 * not installed or the content was not pulled (`GIT_LFS_SKIP_SMUDGE=1`, CI checkouts). A pointer
 * is a few lines of text (`version https://git-lfs.github.com/spec/v1`, `oid sha256:...`,
 * `size N`), so it would render as the file's content: an image or a data set that is not there.
 *
 * @module
 */

/** The reason a pointer is skipped, with what to do. */
export const LFS_POINTER_REASON = "a Git LFS pointer, not the file's content: run " +
  '"git lfs pull" to check the content out';

/** Pointers are small: the spec caps them under 1024 bytes. */
const MAX_POINTER_BYTES = 1024;

// Lines end with `\n`, or `\r\n` in a checkout that converts line ends (`core.autocrlf`); the
// last one may have none.
const POINTER = new RegExp(
  "^version https://(?:git-lfs\\.github\\.com|hawser\\.github\\.com)/spec/v1\\r?\\n" +
    "(?:[a-z0-9.-]+ [^\\r\\n]*(?:\\r?\\n|$))*$",
);

/**
 * Whether `text` (a file of `size` bytes) is a Git LFS pointer: the spec's version line first,
 * `key value` lines after it, an `oid sha256:` of 64 hex digits and a `size`.
 *
 * @example
 * ```ts
 * import { isLfsPointer } from "./_lfs_pointer.ts";
 * const oid = "4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393";
 * const text = `version https://git-lfs.github.com/spec/v1\noid sha256:${oid}\nsize 12345\n`;
 * isLfsPointer(text, text.length); // true
 * isLfsPointer("# Readme\n", 9); // false
 * ```
 */
export function isLfsPointer(text: string, size: number): boolean {
  return size < MAX_POINTER_BYTES && POINTER.test(text) &&
    /^oid sha256:[0-9a-f]{64}\r?$/m.test(text) && /^size \d+\r?$/m.test(text);
}
