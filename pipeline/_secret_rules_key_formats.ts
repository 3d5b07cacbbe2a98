/**
 * The rules for private keys in formats other than PEM's (`secret_rules.ts` is the public face):
 * an OpenVPN static key (`ta.key`: 16 lines of 32 hex digits in its armour), a minisign or
 * signify secret key (its `untrusted comment:` line says so), the private members of .NET's XML
 * RSA key (`<P>`, `<Q>`, `<DP>`, `<DQ>`, `<InverseQ>`, `<D>` in an `<RSAKeyValue>`), and a
 * chain's private key (`0x` and 64 hex digits) under a private key's, a signer's or an
 * `accounts` name (Hardhat, Foundry, `.env` files of web3 projects), and a keypair file of 64
 * bytes alone (Solana's `id.json`).
 *
 * @module
 */

/** An OpenVPN static key's lines of hex digits (group `v`), after its armour's first line. */
export const OPENVPN_KEY =
  /-----BEGIN OpenVPN Static key V1-----\r?\n(?<v>[0-9a-fA-F]{32}(?:\r?\n[0-9a-fA-F]{32}){1,255})/g;
/** A minisign or signify secret key (group `v`), on the line after a comment that says so. */
export const SIGN_SECRET_KEY =
  /untrusted comment: [^\r\n]{0,128}secret key\r?\n(?<v>[A-Za-z0-9+/]{40,1024}={0,2})/g;
/**
 * The secret key of a minisign or signify key file (see {@linkcode SIGN_SECRET_KEY}), which starts
 * with its comment line.
 *
 * @example
 * ```ts
 * import { findSignSecretKey } from "./_secret_rules_key_formats.ts";
 * findSignSecretKey(`untrusted comment: minisign secret key\nRWRTY0Iy${"a".repeat(40)}\n`);
 * // [{ start: 39, end: 87 }]
 * ```
 */
export function findSignSecretKey(text: string): Array<{ start: number; end: number }> {
  const from = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  if (!text.startsWith("untrusted comment:", from)) return [];
  SIGN_SECRET_KEY.lastIndex = 0;
  const m = SIGN_SECRET_KEY.exec(text);
  if (!m || m.index !== from) return [];
  const end = m.index + m[0].length;
  return [{ start: end - m.groups!.v.length, end }];
}

/** A private member of an XML RSA key (group `v`), in a text that holds an `<RSAKeyValue>`. */
export const XML_RSA_PRIVATE =
  /<(?<t>P|Q|DP|DQ|InverseQ|D)>(?<v>[A-Za-z0-9+/=\s]{16,8192})<\/\k<t>>/g;
/**
 * `0x` and 64 hex digits (group `v`), whole: a chain's private key, or a hash of the same size.
 * Tried at each `0x` (sticky).
 */
export const CHAIN_KEY = /(?<![0-9A-Za-z_])0x(?<v>[0-9a-fA-F]{64})(?![0-9A-Za-z_])/y;
/**
 * The names on a line before a chain's private key: a private key's, a signer's, a deployer's or
 * a wallet's key, Hardhat's `accounts` (a transaction's or a block's hash is under none of them).
 */
const CHAIN_KEY_NAME =
  /(?:priv(?:ate)?[_.-]?key|(?:signer|deployer|wallet|owner|admin|account)[_.-]?(?:private[_.-]?)?key|accounts|mnemonic)[^\r\n]{0,64}$/i;

/** Whether a character code is a hex digit. */
function isHex(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70);
}

/**
 * The chain private keys of `text`: each `0x` and 64 hex digits under a private key's name on its
 * line ({@linkcode CHAIN_KEY_NAME}), found from each `0x`.
 *
 * @example
 * ```ts
 * import { findChainKeys } from "./_secret_rules_key_formats.ts";
 * findChainKeys(`PRIVATE_KEY=0x${"ab".repeat(32)}`); // [{ start: 14, end: 78 }]
 * ```
 */
export function findChainKeys(text: string): Array<{ start: number; end: number }> {
  const out: Array<{ start: number; end: number }> = [];
  for (let at = text.indexOf("0x"); at >= 0; at = text.indexOf("0x", at + 2)) {
    // (most `0x` of code are short numbers: a hex digit 64 on and none after first)
    if (!isHex(text.charCodeAt(at + 65)) || isHex(text.charCodeAt(at + 66))) continue;
    CHAIN_KEY.lastIndex = at;
    if (!CHAIN_KEY.test(text)) continue;
    if (CHAIN_KEY_NAME.test(text.slice(Math.max(0, at - 96), at))) {
      out.push({ start: at + 2, end: at + 66 });
    }
    at += 64;
  }
  return out;
}

/** A keypair file as Solana's `solana-keygen` writes it: 64 numbers of 0 to 255 in a JSON array. */
const KEYPAIR_ALONE =
  /^\s{0,64}\[(?<v>(?:[ \t\r\n]{0,8}[0-9]{1,3}[ \t\r\n]{0,8},){63}[ \t\r\n]{0,8}[0-9]{1,3}[ \t\r\n]{0,8})\]\s{0,64}$/d;

/**
 * The 64 bytes of a text that is a keypair file alone (see {@linkcode KEYPAIR_ALONE}; Solana's
 * `id.json`), each number a byte, not all the same: an ed25519 secret key and its public key.
 *
 * @example
 * ```ts
 * import { findKeypairFile } from "./_secret_rules_key_formats.ts";
 * findKeypairFile(`[${Array.from({ length: 64 }, (_, i) => i * 3).join(",")}]`).length; // 1
 * ```
 */
export function findKeypairFile(text: string): Array<{ start: number; end: number }> {
  if (text.length > 1200 || !text.includes("[")) return [];
  const m = KEYPAIR_ALONE.exec(text);
  if (!m) return [];
  const bytes = m.groups!.v.split(",").map((n) => Number(n));
  if (bytes.some((b) => b > 255) || new Set(bytes).size < 16) return [];
  const [start, end] = m.indices!.groups!.v!;
  return [{ start, end }];
}
