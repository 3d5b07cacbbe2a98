/**
 * The rule for the text of an XML element with attributes under a secret's name (`secret_rules.ts`
 * is the public face): FileZilla's `<Pass encoding="base64">…</Pass>`, `<password type="x">…`.
 * An element without attributes (`<password>…</password>`) is a name and its value to the named
 * rules already: its `>` follows the name.
 *
 * @module
 */

import { findNamedPasswords, findNamedTokens } from "./_secret_rules_names.ts";

/** A name that may hold a secret, as the name/value pairs read one (`_secret_rules_pairs.ts`). */
const SECRET_ELEMENT = /secret|token|passw|pwd|passphrase|credential|auth|bearer|key|salt/i;
/** `pass` as a word of a name (`Pass`, `dbPass`), not inside another (`bypass`, `compass`). */
const PASS_ELEMENT = /(?<![A-Za-z])(?:pass|Pass|PASS)(?![a-z])|(?<=[a-z0-9])Pass(?![a-z])/;
/** An element's name right after `</`, and its `>`. */
export const CLOSING: RegExp = /[A-Za-z_][A-Za-z0-9_.:-]{0,127}(?=>)/y;
/** One attribute or more, then the start tag's `>`, at the end of what is read before a value. */
export const ATTRIBUTES: RegExp =
  /^(?:[ \t]{1,16}[A-Za-z_:][A-Za-z0-9_.:-]{0,64}[ \t]{0,16}=[ \t]{0,16}(?:"[^"<>\r\n]{0,256}"|'[^'<>\r\n]{0,256}')){1,16}[ \t]{0,16}>$/;
/** How far before a closing tag its value and start tag are looked for (one line). */
const REACH = 2048;

/**
 * The secrets in the text of elements with attributes named like a secret: each closing tag
 * `</NAME>` whose name holds a secret's word, whose start tag `<NAME attr="…">` is on the same
 * line right before the text, is read as `NAME>text</NAME>` by the named rules (an element's text
 * counts as quoted there). One `indexOf` search for `</`; the rest only at secret names.
 *
 * @example
 * ```ts
 * import { findElementSecrets } from "./_secret_rules_elements.ts";
 * findElementSecrets('<Pass encoding="base64">aHVudGVyMjI=</Pass>'); // [{ start: 24, end: 36, … }]
 * ```
 */
export function findElementSecrets(
  text: string,
): Array<{ start: number; end: number; rule: string }> {
  const out: Array<{ start: number; end: number; rule: string }> = [];
  for (let at = text.indexOf("</"); at >= 0; at = text.indexOf("</", at + 2)) {
    CLOSING.lastIndex = at + 2;
    const name = CLOSING.exec(text)?.[0];
    if (!name || !(SECRET_ELEMENT.test(name) || PASS_ELEMENT.test(name))) continue;
    // Read back at most REACH characters each: `lastIndexOf` over the whole text would read to
    // its start for every closing tag (`</key>` a thousand times with no `<key`: quadratic).
    const before = text.slice(Math.max(0, at - REACH), at);
    const open = before.lastIndexOf(">");
    if (open < 0 || /[<\r\n]/.test(before.slice(open + 1))) continue;
    const tag = before.lastIndexOf(`<${name}`, open);
    if (tag < 0) continue;
    if (!ATTRIBUTES.test(before.slice(tag + name.length + 1, open + 1))) continue;
    const shift = at - before.length;
    out.push(...elementSecrets(before.slice(open + 1), name, shift + open + 1));
  }
  return out;
}

/** The secrets of an element's text `value` at `at`, read as `NAME>value</NAME>`. */
function elementSecrets(
  value: string,
  name: string,
  at: number,
): Array<{ start: number; end: number; rule: string }> {
  const line = `${name}>${value}</${name}>`;
  const shift = at - name.length - 1;
  const passwords = findNamedPasswords(line).map((f) => ({ ...f, rule: "password" }));
  return [...findNamedTokens(line), ...passwords]
    .filter((f) => f.start > name.length && f.end <= name.length + 1 + value.length)
    .map((f) => ({ ...f, start: f.start + shift, end: f.end + shift }));
}
