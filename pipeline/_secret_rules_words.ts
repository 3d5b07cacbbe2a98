/**
 * The rule for passwords named in other languages than English (`secret_rules.ts` is the public
 * face): `SENHA_BANCO = "…"` (Portuguese), `$contraseña = "…"` (Spanish), `mot_de_passe = …`
 * (French), `Kennwort`, `wachtwoord`, `hasło`, `heslo`, `passord`, `şifre`,
 * `пароль`, `密码`, `パスワード`, `비밀번호`, each as a word of a name (or a label) before its
 * `:`, `=`, `=>` or a full-width `：`. The name search finds where the words end
 * (`NameSpots.foreign`); English's words are the other rules'.
 *
 * @module
 */

import type { TextHints } from "./_secret_rules_common.ts";
import { namesOf, passwordLike } from "./_secret_rules_names.ts";

type Span = { start: number; end: number };

/** The word that ends a text (its last 16 characters), and the text before it (group `b`). */
const WORD_AT_END =
  /(?<b>[^]?)(?<w>senha|hasło|haslo|heslo|kennwort|wachtwoord|contraseña|contrasena|contrasenya|mot[ _-]?de[ _-]?passe|passord|şifre|пароль|密码|密碼|口令|パスワード|비밀번호)$/i;
/**
 * Passwords' words of other scripts (Cyrillic, Chinese, Japanese, Korean), and of Latin ones from
 * a letter beyond Latin-1 (Polish `hasło`, Turkish `şifre`).
 */
const OTHER_SCRIPTS =
  /[пП]ароль|ПАРОЛЬ|密[码碼]|口令|パスワード|비밀번호|[şŞ]ifre|ŞIFRE|ł(?<=[Hh]asł)o|Ł(?<=HASŁ)O/g;
/** Pages and settings files, by name. */
const PAGE_OR_SETTINGS =
  /\.(?:md|markdown|mdx|rst|txt|adoc|ya?ml|json|toml|ini|cfg|conf|properties|env|xml|plist)$|(?:^|[\/\\])\.env(?:\.[\w.-]{1,64})?$/i;
/** After a word: the rest of its name, its quote, blanks, the operator and blanks. */
const REST_AND_OPERATOR =
  /[A-Za-z0-9_.\u00c0-\uffff-]{0,32}["'\]]?[ \t]{0,16}(?:=>|[:=：])[ \t]{0,16}/y;
/** A quoted value (`q`) or a bare one up to a blank, `,`, `;` or the line's end (`v`). */
const VALUE = /(?:(?<o>["'])(?<q>[^"'\r\n\\]{1,256})\k<o>|(?<v>[^\s"'`,;<>]{1,256}))/dy;

/**
 * The passwords under a name in another language, each a password's shape as the English names'
 * values are judged (letters alone are words).
 *
 * @example
 * ```ts
 * import { findForeignPasswords } from "./_secret_rules_words.ts";
 * findForeignPasswords('SENHA_BANCO = "Tr0ub4dor!x9"'); // [{ start: 15, end: 27 }]
 * ```
 */
export function findForeignPasswords(text: string, hints?: TextHints, path?: string): Span[] {
  const out: Span[] = [];
  const ends = [...namesOf(text, hints).foreign];
  // (other scripts' words in pages and settings files only, where such labels and keys are
  // written: the pattern cost 3% of a scan of TypeScript's lib, whose texts hold other scripts)
  if (!path || !PAGE_OR_SETTINGS.test(path)) return wordValues(text, ends, out);
  // the words the name search does not look for: those of other scripts (a pattern from their
  // letters beyond Latin-1, which a text of Latin-1 cannot hold: a pattern from `ñ` or a search
  // for `ontrase` cost 3 to 5% of the stdlib's scan)
  OTHER_SCRIPTS.lastIndex = 0;
  for (const m of text.matchAll(OTHER_SCRIPTS)) ends.push(m.index! + m[0].length);
  return wordValues(text, ends, out);
}

/** The password after each word that ends at one of `ends`, into `out`. */
function wordValues(text: string, ends: number[], out: Span[]): Span[] {
  for (const end of ends) {
    const m = WORD_AT_END.exec(text.slice(Math.max(0, end - 16), end));
    if (!m) continue;
    // a word of its own or a camel case name's (`dbSenha`; not `mysenha`), in one case; CJK
    // scripts write words without blanks (`数据库密码`)
    const word = m.groups!.w.replace(/[_ -]/g, "");
    if (!/^(?:\p{Ll}+|\p{Lu}\p{Ll}*|\p{Lu}+|[\p{Lo}\p{Lm}]+)$/u.test(word)) continue;
    if (/[\p{Ll}\p{N}]/u.test(m.groups!.b) && /^\p{Ll}/u.test(word)) continue;
    REST_AND_OPERATOR.lastIndex = end;
    if (!REST_AND_OPERATOR.exec(text)) continue;
    VALUE.lastIndex = REST_AND_OPERATOR.lastIndex;
    const v = VALUE.exec(text);
    if (!v) continue;
    const group = v.groups!.q !== undefined ? "q" : "v";
    if (!passwordLike(v.groups![group]!, group === "q")) continue;
    const [start, stop] = v.indices!.groups![group]!;
    out.push({ start, end: stop });
  }
  return out;
}
