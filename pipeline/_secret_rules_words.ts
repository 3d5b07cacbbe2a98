/**
 * The rule for passwords named in other languages than English (`secret_rules.ts` is the public
 * face): `SENHA_BANCO = "…"` (Portuguese), `$contraseña = "…"` (Spanish), `mot_de_passe = …`
 * (French), `Kennwort`, `wachtwoord`, `hasło`, `lösenord`, `salasana`, `heslo`, `jelszó`,
 * `passord`, `şifre`, `пароль`, `密码`, `パスワード`, `비밀번호`, each as a word of a name (or a
 * label) before its `:`, `=`, `=>` or a full-width `：`. English's words are the name search's.
 *
 * @module
 */

import { passwordLike } from "./_secret_rules_names.ts";

type Span = { start: number; end: number };

/**
 * A password's word in another language (any case), then the rest of its name, its quote, blanks,
 * the operator and blanks; the value starts where the match ends.
 */
const FOREIGN_PASSWORD =
  /(?<w>senha|contrase(?:ñ|n)a|contrasenya|mot[_ -]?de[_ -]?passe|kennwort|wachtwoord|has(?:ł|l)o|l(?:ö|o)senord|salasana|heslo|jelsz(?:ó|o)|passord|(?:ş|s)ifre|пароль|密码|密碼|口令|パスワード|비밀번호)[\p{L}\p{N}_.-]{0,32}["'\]]?[ \t]{0,16}(?:=>|[:=：])[ \t]{0,16}/giu;
/** A quoted value (`q`) or a bare one up to a blank, `,`, `;` or the line's end (`v`). */
const VALUE = /(?:(?<o>["'])(?<q>[^"'\r\n\\]{1,256})\k<o>|(?<v>[^\s"'`,;<>]{1,256}))/dy;

/**
 * The passwords under a name in another language ({@linkcode FOREIGN_PASSWORD}), each a password's
 * shape as the English names' values are judged (letters alone are words).
 *
 * @example
 * ```ts
 * import { findForeignPasswords } from "./_secret_rules_words.ts";
 * findForeignPasswords('SENHA_BANCO = "Tr0ub4dor!x9"'); // [{ start: 15, end: 27 }]
 * ```
 */
export function findForeignPasswords(text: string): Span[] {
  const out: Span[] = [];
  FOREIGN_PASSWORD.lastIndex = 0;
  for (const m of text.matchAll(FOREIGN_PASSWORD)) {
    // a Latin word of its own or a camel case name's (not `mysenha`; `dbSenha` is one), in one
    // case (not `hasLockfile`), not the start of a longer word; CJK scripts write words without
    // blanks (`数据库密码`)
    const before = text[m.index! - 1] ?? "";
    if (/[\p{L}\p{N}]/u.test(before) && /[a-zş]/.test(m[0][0])) continue;
    const word = m.groups!.w.replace(/[_ -]/g, "");
    if (!/^(?:\p{Ll}+|\p{Lu}\p{Ll}*|\p{Lu}+|[\p{Lo}\p{Lm}]+)$/u.test(word)) continue;
    if (/\p{Ll}/u.test(text[m.index! + m.groups!.w.length] ?? "")) continue;
    VALUE.lastIndex = m.index! + m[0].length;
    const v = VALUE.exec(text);
    if (!v) continue;
    const group = v.groups!.q !== undefined ? "q" : "v";
    if (!passwordLike(v.groups![group]!, group === "q")) continue;
    const [start, end] = v.indices!.groups![group]!;
    out.push({ start, end });
  }
  return out;
}
