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
import { BEYOND_LATIN1 } from "./_secret_rules_escapes.ts";

type Span = { start: number; end: number };

/**
 * The word that ends a text (its last 24 characters), and the text before it (group `b`): a
 * password's word, or an API key's or a token's (a key's word with `api` or `secret` beside it).
 */
export const WORD_AT_END: RegExp = new RegExp(
  "(?<b>[^]?)(?<w>senha|hasło|haslo|heslo|kennwort|wachtwoord|contraseña|contrasena|contrasenya|" +
    "contrasinal|mot[ _-]?de[ _-]?passe|passord|şifre|sifre|пароль|парола|лозинка|гасло|密码|密碼|" +
    "口令|パスワード|비밀번호|암호|salasana|l[öo]senord|jelsz[óo]|parool|parol[aă]|geslo|lozinka|adgangskode|" +
    "slapta[žz]odis|kata[ _-]?sandi|katalaluan|pasahitza|m[aậ]t[ _-]?kh[aẩ]u|κωδικός|ΚΩΔΙΚΌΣ|" +
    "كلمة[ _]?المرور|סיסמה|รหัสผ่าน|पासवर्ड|jeton(?:[ _-]?api)?|токен|令牌|密钥|秘钥|トークン|" +
    "シークレット|토큰|(?:api|secret)[ _-]?(?:키|キー)|APIキー|비밀[ _]?키|" +
    "(?:clave|chave|cl[eé]|klucz|ключ)[ _-]?(?:api|secret[ao]?|secrète|secrete|секретный)|" +
    "(?:api|tajny|секретный|geheimer?|gizli)[ _-]?(?:klucz|ключ|schl(?:ü|ue)ssel|anahtar[ıi]?)|" +
    "api[ _-]?anahtar[ıi]?)$",
  "i",
);
/**
 * Passwords' and tokens' words of other scripts (Cyrillic, Greek, Arabic, Hebrew, Thai,
 * Devanagari, Chinese, Japanese, Korean), and of Latin ones from a letter beyond Latin-1 (Polish
 * `hasło`, Turkish `şifre`, Vietnamese `mật khẩu`, Lithuanian `slaptažodis`), each from such a
 * letter: a text of Latin-1 holds none (see bench/README.md).
 */
export const OTHER_SCRIPTS: RegExp = new RegExp(
  "[пП]ароль|ПАРОЛЬ|[пП]арола|[лЛ]озинка|[гГ]асло|[тТ]окен|[кК]люч[ _-]?(?:api|API|секретный)|[кК]люч(?<=(?:api|API|секретный)[ _-]?[кК]люч)|[κΚ]ωδικός|ΚΩΔΙΚΌΣ|كلمة[ _]?المرور|סיסמה|รหัสผ่าน|पासवर्ड|密[码碼钥]|秘钥|口令|令牌|パスワード|トークン|シークレット|キー(?<=API[ _]?キー)|비밀번호|암호|토큰|키(?<=(?:API|api|비밀)[ _]?키)|[şŞ]ifre|ŞIFRE|ł(?<=[Hh]asł)o|Ł(?<=HASŁ)O|ậ(?<=[Mm]ậ)t[ _-]?khẩu|ž(?<=[Ss]lapta)odis|ı(?<=[Aa]nahtarı)",
  "y",
);
/** The first letters of {@linkcode OTHER_SCRIPTS}' words: where the words are looked for. */
const OTHER_SCRIPTS_FIRST = /[пПлЛгГтТкКκΚكסรप密秘口令パトシキ비암토키şŞŁłậžı]/g;
/**
 * Passwords' and tokens' words of Latin letters that the name search does not look for (no letter
 * of theirs is one it starts from): in settings files, each after no letter.
 */
const LATIN_WORDS =
  /(?:[Ll]ösenord|LÖSENORD|[Jj]elszó|JELSZÓ|[Pp]arol[aă]|PAROL[AĂ]|[Aa]pi[_ -]?[Ss]chlüssel|[Cc]lé[_ -]?secrète|[Ss]alasana|SALASANA|[Ll]osenord|LOSENORD|[Jj]elszo|JELSZO|[Pp]arool|PAROOL|[Gg]eslo|GESLO|[Ss]laptazodis|SLAPTAZODIS|[Jj]eton(?:[_ -]?(?:api|API))?|JETON(?:_API)?|[Mm]at[_ -]?[Kk]hau|MAT_?KHAU)(?![a-z])/g;
/** Settings files, by name: where {@linkcode LATIN_WORDS} are looked for, every one. */
const SETTINGS_FILE =
  /\.(?:ya?ml|json|toml|ini|cfg|conf|properties|env|xml|plist)$|(?:^|[\/\\])\.env(?:\.[\w.-]{1,64})?$/i;
/** Prose, by a file's name: a page's words are its language's (a search of tldr's pages cost 5%). */
const PROSE_FILE = /\.(?:md|markdown|mdx|rst|txt|adoc|asciidoc|html?|tex|po|pot)$/i;
/**
 * In other files (code: `const lösenord = "…"`, `$jelszó = "…"`), the words of
 * {@linkcode LATIN_WORDS} that names in code hold (Swedish, Finnish, Italian's and Turkish's
 * `parola`, Hungarian, Vietnamese's `matKhau` written without its marks), by a piece of each, looked for before it: a search of a text costs about
 * 1% of its scan for each word it looks for (bench/README.md, twenty-sixth round).
 */
const CODE_GATE = /senord|alasana|arol[aă]|elsz|khau/i;
/**
 * A word in one case (`senha`, `Senha`, `SENHA`), of a script without case (`密码`, `รหัสผ่าน`,
 * `APIキー`), or camel case (`motDePasse`): 24 characters at most, as {@linkcode WORD_AT_END} reads.
 */
const ONE_CASE =
  /^(?:\p{Ll}{1,32}|\p{Lu}\p{Ll}{0,32}|\p{Lu}{1,32}|\p{Lu}{0,8}[\p{Lo}\p{Lm}][\p{Lo}\p{Lm}\p{M}]{0,32}|\p{Ll}{1,16}(?:\p{Lu}\p{Ll}{1,16}){1,4})$/u;
/**
 * After a word: the rest of its name, its quote, blanks, the operator and blanks. The operator may
 * be Go's `:=`, or a type annotation's `:` with its type before the `=` (`hasło: string = "…"`,
 * `lösenord: &str = "…"`, `senha: String? = "…"`).
 */
const REST_AND_OPERATOR =
  /[A-Za-z0-9_.\u00c0-\uffff-]{0,32}["']?\]?[ \t]{0,16}(?:=>|:=|:[ \t]{0,16}&?[A-Za-z_][\w.]{0,32}(?:<[\w., ]{0,32}>)?(?:\[\])?\??[ \t]{0,16}=(?![=>])|[:=：＝])[ \t]{0,16}/y;
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
  // the words the name search does not look for: those of other scripts (a pattern from their
  // letters beyond Latin-1, which a text of Latin-1 cannot hold: a pattern from `ñ` or a search
  // for `ontrase` cost 3 to 5% of the stdlib's scan)
  // (other scripts' words in any file: a PHP or Python settings file names its keys so too; only
  // in a text with a character beyond Latin-1, a test V8 answers at once for a text of Latin-1)
  if (BEYOND_LATIN1.test(text)) {
    // (from each first letter: one pattern of all the words read two-byte texts 6 times slower)
    OTHER_SCRIPTS_FIRST.lastIndex = 0;
    for (const f of text.matchAll(OTHER_SCRIPTS_FIRST)) {
      OTHER_SCRIPTS.lastIndex = f.index!;
      const m = OTHER_SCRIPTS.exec(text);
      if (m) ends.push(m.index + m[0].length);
    }
  }
  // (Latin words with none of the name search's letters in settings files and code, where such
  // names are written, not in prose: a pattern from their common letters slowed a scan of tldr's
  // pages 5%; in code, a few words by their pieces first)
  const settings = path !== undefined && SETTINGS_FILE.test(path);
  if (settings || (path && !PROSE_FILE.test(path) && CODE_GATE.test(text))) {
    LATIN_WORDS.lastIndex = 0;
    for (const m of text.matchAll(LATIN_WORDS)) {
      if (!/[A-Za-z]/.test(text[m.index! - 1] ?? "")) ends.push(m.index! + m[0].length);
    }
  }
  return wordValues(text, ends, out);
}

/** The password after each word that ends at one of `ends`, into `out`. */
function wordValues(text: string, ends: number[], out: Span[]): Span[] {
  for (const end of ends) {
    const m = WORD_AT_END.exec(text.slice(Math.max(0, end - 24), end));
    if (!m) continue;
    // a word of its own or a camel case name's (`dbSenha`; not `mysenha`), in one case; CJK
    // scripts write words without blanks (`数据库密码`)
    const word = m.groups!.w.replace(/[_ -]/g, "");
    if (!ONE_CASE.test(word)) continue;
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
