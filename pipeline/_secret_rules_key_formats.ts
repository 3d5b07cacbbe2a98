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
/** A private member of an XML RSA key (group `v`), in a text that holds an `<RSAKeyValue>`. */
export const XML_RSA_PRIVATE =
  /<(?<t>P|Q|DP|DQ|InverseQ|D)>(?<v>[A-Za-z0-9+/=\s]{16,8192})<\/\k<t>>/g;
/** `0x` and 64 hex digits (group `v`), whole: a chain's private key, or a hash of the same size. */
export const CHAIN_KEY = /(?<![0-9A-Za-z_])0x(?<v>[0-9a-fA-F]{64})(?![0-9A-Za-z_])/g;
/**
 * The names on a line before a chain's private key: a private key's, a signer's, a deployer's or
 * a wallet's key, Hardhat's `accounts` (a transaction's or a block's hash is under none of them).
 */
const CHAIN_KEY_NAME =
  /(?:priv(?:ate)?[_.-]?key|(?:signer|deployer|wallet|owner|admin|account)[_.-]?(?:private[_.-]?)?key|accounts|mnemonic)[^\r\n]{0,64}$/i;

/**
 * Whether the `0x` value at `start` of `text` is under a private key's name on its line.
 *
 * @example
 * ```ts
 * import { chainKeyNamed } from "./_secret_rules_key_formats.ts";
 * chainKeyNamed(`PRIVATE_KEY=0x${"ab".repeat(32)}`, 14); // true
 * ```
 */
export function chainKeyNamed(text: string, start: number): boolean {
  return CHAIN_KEY_NAME.test(text.slice(Math.max(0, start - 2 - 96), start - 2));
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
