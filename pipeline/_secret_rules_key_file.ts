/**
 * The rule for a file that holds a key alone (`secret_rules.ts` is the public face): Rails'
 * `config/master.key` and `config/credentials/<env>.key` hold 32 hex digits and nothing else, with
 * no name around them. A build reads such a file only when its path is named (`*.key` files are
 * skipped otherwise), and then its text is all there is to judge it by, with its name: a checksum
 * file (`app.tar.gz.sha256`, `SHA256SUMS`, `checksums.txt`) holds the same digits, and is public.
 * A file named as a secret's (Ansible's `.vault_pass`, Erlang's `.erlang.cookie`) is its one line.
 *
 * @module
 */

import { isPlaceholder } from "./_secret_rules_common.ts";
import { PLACEHOLDER_WORD } from "./_secret_rules_names.ts";

/**
 * A whole text that is 32, 64, 96 or 128 hex digits of one case (a key of 128 to 512 bits), with a
 * BOM before and a line end after maybe: a commit id (40) or a hash with its file's name is not.
 */
const KEY_ALONE = /^\uFEFF?(?:(?:[0-9a-f]{32}){1,4}|(?:[0-9A-F]{32}){1,4})(?=(?:\r?\n|\r)?$)/;

/**
 * A checksum file's extension (`app.zip.sha256`, `pkg.tgz.md5`, `release.sum`), also as the tool
 * that wrote it is named (coreutils' `sha256sum`, `md5sum`, `b2sum`, Perl's `shasum`).
 */
const CHECKSUM_EXTENSION =
  /\.(?:(?:md5|sha1|sha224|sha256|sha384|sha512|sha3|sha|b2)(?:sums?)?|sum|sums|checksum)$/i;
/** A checksum list's name: `SHA256SUMS`, `MD5SUMS.txt`, `checksums.txt`, `app_1.2_checksums.txt`. */
const CHECKSUM_NAME = /(?:^(?:sha\d{1,3}|md5|b2)sums|checksums?)(?:\.txt)?$/i;

/** Whether `path` names a checksum file (its extension or its name, as release tools write them). */
function isChecksumPath(path: string): boolean {
  const name = path.slice(Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\")) + 1);
  return CHECKSUM_EXTENSION.test(name) || CHECKSUM_NAME.test(name);
}

/**
 * The key of a text that holds one alone (see {@linkcode KEY_ALONE}), with letters and digits
 * both: 32 digits alone are a number. Not in a checksum file (`path`: see {@linkcode isChecksumPath}).
 *
 * @example
 * ```ts
 * import { findKeyFile } from "./_secret_rules_key_file.ts";
 * findKeyFile("1c1dafbaef8b9a658b7638578d4aede6\n"); // [{ start: 0, end: 32 }]
 * findKeyFile("# key\n1c1dafbaef8b9a658b7638578d4aede6\n"); // []
 * ```
 */
export function findKeyFile(
  text: string,
  _hints?: unknown,
  path?: string,
): Array<{ start: number; end: number }> {
  if (path !== undefined && SECRET_FILE_NAME.test(path)) return secretFile(text);
  if (text.length > 131 || (path !== undefined && isChecksumPath(path))) return [];
  const m = KEY_ALONE.exec(text);
  if (!m || !/[0-9]/.test(m[0]) || !/[a-fA-F]/.test(m[0])) return [];
  const start = m[0].startsWith("\uFEFF") ? 1 : 0;
  return [{ start, end: m[0].length }];
}

/**
 * Files whose whole text is a secret by their name: Ansible's vault password file
 * (`.vault_pass`, `.vault_password`, `vault_pass.txt`) and Erlang's distribution cookie
 * (`.erlang.cookie`).
 */
const SECRET_FILE_NAME = /(?:^|[/\\])(?:\.?vault[_-]pass(?:word)?(?:\.txt)?|\.erlang\.cookie)$/;
/** One line of 6 to 256 characters without blanks (a script, `#!…`, is no password). */
const ONE_SECRET_LINE = /^\uFEFF?(?<v>[^\s#$%{<][^\s]{5,255})(?=(?:\r?\n|\r)?$)/d;

/** The secret that a file named as one holds: its one line, when it is not a stand-in. */
function secretFile(text: string): Array<{ start: number; end: number }> {
  if (text.length > 260) return [];
  const m = ONE_SECRET_LINE.exec(text);
  if (!m || isPlaceholder(m.groups!.v) || PLACEHOLDER_WORD.test(m.groups!.v)) return [];
  const [start, end] = m.indices!.groups!.v!;
  return [{ start, end }];
}
