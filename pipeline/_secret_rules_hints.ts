/**
 * The hint search of the secret rules (`secret_rules.ts` is the public face): one pass over a text
 * that finds the prefixes of the rules for tokens of a known shape (`TOKEN_GATE`), the hints of the
 * name/value pairs (`PAIR_GATE`) and the options, so that each rule runs only on the texts that
 * can hold its matches.
 *
 * @module
 */

import type { TextHints } from "./_secret_rules_common.ts";
import { PREFIX_GATE } from "./_secret_rules_prefixed.ts";

/**
 * What may come before a `\` that continues a value on the next line: a token's characters and a
 * password's marks, not a blank (`x = a + \`) nor a quote.
 */
export const CONTINUED = "[A-Za-z0-9_.~+/=!@#%^*-]";

/**
 * One search for the prefixes of every gated rule (`AKIA`, `ghp_`, `sk-`,
 * `-----BEGIN`, …): a text without any skips them all (most source files).
 * Each prefix is looked for from a character that is rare in code (`K` of
 * `AccountKey=`, `J` of `eyJ`, `~` of `Q~`, the `-` of `sk-`) and checked
 * behind it with a lookbehind, so the search skips most characters (one
 * `includes` per hint would read the text once per hint). A test checks
 * that it finds every rule's samples.
 *
 * @example
 * ```ts
 * import { TOKEN_GATE } from "./secret_rules.ts";
 * "key = 'AKIAQWERTYUIOPASDFGH'".match(TOKEN_GATE); // ["AKIA"]
 * "def add(a, b):\n    return a + b\n".match(TOKEN_GATE); // null
 * ```
 */
export const TOKEN_GATE: RegExp = new RegExp(
  [
    // …, JFrog, Tencent, Alibaba, Facebook's `EAA…`, an Azure DevOps PAT's `AZDO` signature
    // …, ipsec.secrets' `: EAP` and `: XAUTH`
    "A(?:KIA|SIA|BIA|CCA|3T|Iza|C[0-9a-f]{32}|T[AC]TT3|TBB|KCp|KID|I(?<=LTAI)|A(?<=EAA)|" +
    "ZDO(?<=[A-Za-z0-9]{76}AZDO)|(?:P|UTH)(?=[ \\t])(?<=:[ \\t]{1,4}(?:EAP|XAUTH))|" +
    // a PKCS #12 file in base64 (`MII…IBAzCC…`, `MIACAQMwgA…`)
    "zCC(?<=[AQgw]IBAzCC)|CAQMwgA(?<=MIACAQMwgA))",
    "g(?:h[pousr]_|ithub_pat_|l(?:pat|ptt|dt|rt|soat|cbt|imt|ft|ffct|oas|agent)-|=(?<=[?&;]sig=)|" +
    "in(?<=[Ss]onar[._-]?[Ll]ogin|(?:devops|cargo)[ \\t]{1,4}login))", // …, `sonar.login`, `az devops login`, `cargo login`
    // …, `psexec`, `PsExec`, a BIP 32 extended private key's `xprv`
    "x(?:ox[abposre]-|app-|ec(?<=(?:[Pp][Ss]|[Pp][Aa])[Ee]xec)|prv(?<![A-Za-z0-9]xprv))",
    "XEC(?<=(?:PS|PA)EXEC)",
    // …, `azure.devops.pat`, Google's `ya29.`, a conda channel's `anaconda.org/t/` (a token's path), Airtable's
    // `pat….` + 64 hex digits and Terraform Cloud's `….atlasv1.` (the prefixed rules' `.` heads)
    "\\.(?:slack\\.com/|(?:pat|PAT)(?![A-Za-z0-9])(?<=[A-Za-z0-9]\\.(?:pat|PAT))|" +
    "(?:org|com|cloud)/t/(?<=conda\\.(?:org|com|cloud)/t/)|" +
    // (its 64 hex digits, or fewer up to a line end: a token wrapped there)
    "(?=[0-9a-f]{64}|[0-9a-f]{0,63}\\r?\\n[ \\t]{0,64}[0-9a-f])(?<=pat[A-Za-z0-9]{14}\\.)|atlasv1\\.(?<=[A-Za-z0-9]{14}\\.atlasv1\\.)|" +
    // Google's OAuth access tokens (`ya29.…`): looked behind from the `.`, which fails at its `9`
    "(?<=ya29\\.))",
    "_(?:live_|test_|authToken=|(?<=npm_|whsec_)|LOGIN(?<=SONAR_LOGIN)|" +
    "(?:secret_access_key|session_token)[ \\t](?<=aws_(?:secret_access_key|session_token)[ \\t])|" +
    // a name that ends in `_PAT` (Azure DevOps), `rabbitmqctl add_user`
    "(?:PAT|pat|Pat)(?![A-Za-z0-9])(?<=[A-Za-z0-9]_(?:PAT|pat|Pat))|user[ \\t](?<=add_user[ \\t])|" +
    // a Terraform state's `"random_password"` and `"random_string"`
    '(?:password|string)"(?<="random_(?:password|string)"))',
    // …, ipsec.secrets' `: PSK`, `NET USER` (in capitals: `net user` has a search of its own)
    "S(?:G\\.|K[0-9a-f]{32}|K(?=[ \\t])(?<=:[ \\t]{1,4}PSK)|" +
    "ER(?=[ \\t])(?<=(?<![\\w.-])[Nn][Ee][Tt](?:\\.[Ee][Xx][Ee])?[ \\t]{1,4}USER))",
    // …, Consul's `-encrypt=`, the SSH2 key format's `---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----`
    "-(?:(?<=sk-)|AgE(?<=pypi-AgE)|----BEGIN|--- BEGIN SSH2|User-Key-File-(?<=PuTTY-User-Key-File-)|encrypt=(?<=[ \\t]-encrypt=)|" +
    // a signed URL's `X-Amz-Signature=`, `X-Amz-Security-Token=`, `X-Goog-Signature=`
    "(?:[Ss]ignature|[Ss]ecurity-[Tt]oken)=(?<=[Xx]-(?:[Aa]mz|[Gg]oog)-(?:[Ss]ignature|[Ss]ecurity-[Tt]oken)=)|" +
    // Composer's `github-oauth.github.com`, `http-basic.…` as `composer config` keys
    "(?:oauth|token|basic)\\.(?<=(?:github|gitlab|http)-(?:oauth|token|basic)\\.)|" +
    // Honeycomb's `x-honeycomb-team` header
    "(?:[Hh]oneycomb-[Tt]eam|HONEYCOMB-TEAM)(?<=[Xx]-(?:[Hh]oneycomb-[Tt]eam|HONEYCOMB-TEAM))|" +
    "(?:pat|PAT)(?![A-Za-z0-9])(?<=[A-Za-z0-9]-(?:pat|PAT)))", // …, `ado-pat`
    "J(?<=eyJ)",
    "~(?<=Q~)",
    // …, a CloudFront signed URL's, .NET's XML RSA key
    // …, Vault's `Unseal Key 1:`
    "Key(?:=(?<=(?:Account|Access)Key=)|-Pair-Id=|Value>(?<=<RSAKeyValue>)|(?<=Unseal Key) [0-9])",
    "v[sbr]\\.(?<=hv[sbr]\\.)", // HashiCorp Vault's `hvs.`, `hvb.`, `hvr.`: from `v`, where the search stops
    // a Go DSN's address, an Azure DevOps host after a URL's user
    // …, Oracle's export and import tools' `exp user/password@db` (checked behind the `@`, whose
    // character before is the password's: most `@`s fail at once)
    "@(?:(?=(?:tcp|unix|udp)6?\\(|dev\\.azure\\.com|[A-Za-z0-9-]{1,64}\\.visualstudio\\.com)|" +
    "(?<=(?<![\\w.-])(?:exp|imp|expdp|impdp|sqlldr)(?:\\.exe)?[ \\t]{1,16}[\"']?[A-Za-z0-9_$#.]{1,64}/[^\\s@/\"'`]{3,128}@))",
    // a Discord bot's token given to its client (`client.run("…")`, `client.login('…')`), and
    // Oracle's Python drivers' `connect(`
    "\\((?:(?=[ \\t]{0,4}[\"'`][MNO][DTjz])(?<=\\.(?:run|login|start)\\()|(?<=[Oo]racle(?:db)?\\.connect\\()|" +
    // databases' and mailers' connects that take a password by position
    // (PHP's `new PDO($dsn, …)`, Perl's `DBI->connect(`), and calls that sign a JWT with a key
    // (`jwt.sign(`, `jwt.encode(`, `SignedString(`, `signWith(`): one look behind for all, each a
    // `(` of a text tries it
    // (MySQL's C client's `mysql_real_connect(`, reqwest's `.bearer_auth(`)
    "(?<=getConnection\\(|PDO\\(|Sequelize\\(|PlainAuth\\(|ssql\\.connect\\(|DBI->connect\\(|" +
    "real_connect\\(|bearer_auth\\(|" +
    // (and Wi-Fi joins given the network's name and its password: Arduino's `WiFi.begin(`,
    // `WiFiMulti.addAP(`, `WiFi.softAP(`, MicroPython's `wlan.connect(`)
    "WiFi\\.begin\\(|addAP\\(|softAP\\(|wlan\\.connect\\(|" +
    "jwt\\.sign\\(|jwt\\.encode\\(|SignedString\\(|signWith\\(|" +
    // (and calls that hash a password given in plain text: a seed's or a fixture's user's,
    // `BCrypt::Password.create(`, `make_password(`, `password_hash(`, `hashpw(`)
    "Password\\.create\\(|Encryptor\\.digest\\(|make_password\\(|password_hash\\(|" +
    "hashpw\\(|bcrypt\\.hash(?:Sync)?\\(|argon2\\.hash\\(|GenerateFromPassword\\(|" +
    // (InSpec's `postgres_session(`, Puppet's `postgresql_password(`, pgcrypto's `crypt(`, a
    // signing key's `SymmetricSecurityKey(`, `hmacShaKeyFor(`)
    "_session\\(|postgresql_password\\(|(?<![\\w.$>:])crypt\\(|SymmetricSecurityKey\\(|hmacShaKeyFor\\()|" +
    // Ruby's `Net::SMTP.start(`, `smtp.start(` and `Net::SMTP.new(` (its `.start(` follows, on
    // that object or on a name given it: `server.start(`, judged by the text's `SMTP`)
    "(?<=[Ss][Mm][Tt][Pp]\\.start\\(|SMTP\\.new\\()|" +
    // providers' clients given their key by position (`cohere.Client(`, `new Ably.Realtime(`,
    // Segment's `analytics.load(`, `dropbox.Dropbox(`), and an array's `].join("")`
    "(?<=cohere\\.(?:Async)?Client(?:V2)?\\(|Ably\\.(?:Realtime|Rest)(?:\\.Promise)?\\(|" +
    "analytics\\.load\\(|dropbox\\.Dropbox\\()|(?=\"\"\\)|''\\))(?<=\\]\\.join\\()|" +
    // a base64 encoder given a `user:` literal (`btoa("user:…")`, `[]byte("…")`, `b"…"`,
    // `[Text.Encoding]::`): the literal's user and `:` first, so most `("` of code fail before the
    // look behind (the names behind every `("` cost the hint search 10%)
    "(?=[ \\t]{0,4}(?:b?[\"'`]|\\[\\]byte\\([\"'`]|utf8\\.encode\\([\"'`])[A-Za-z0-9_.@+-]{1,64}:|[ \\t]{0,4}\\[[\\w.]{1,64}\\]::)" +
    "(?<=btoa\\(|b64encode\\(|ncodeToString\\(|encode64\\(|base64_encode\\(|Buffer\\.from\\(|" +
    "ToBase64String\\(|encode_base64\\(|encodeBase64\\(|base64Encode\\(|base64\\.encode\\(|mime\\.b64\\())",
  ].join("|"),
  "g",
);

/** A `\` line continuation after a value's character (also JSON-escaped, or blanks collapsed). */
const BACKSLASH_JOINT = String.raw`\\(?=(?:\r?\n|\\\\n| )[ \t]{0,64}[^\s\\])(?<=${CONTINUED}\\)`;
/** A UNC path's `\\host\share` after a blank or a quote (also JSON-escaped: `\\\\host\\share`). */
const UNC = String.raw`\\(?<![\\\w]\\)\\{1,3}(?=[A-Za-z0-9][\w.-]{0,63}\\{1,2}[\w$])`;

/**
 * An escape of a token's mark (`$`, `+`, `-`, `.`, `/`, `:`, `=`, `_`): JSON's `\/` and `\u002d`,
 * C's and Python's `\x2d`, a URL's `%2F` and `%252F` (encoded twice): where `tokenEscapes` (`_secret_rules_escapes.ts`) may find a
 * run to decode (it decodes an escaped `&` too, in a text that holds one of these: alone it is
 * no token's).
 */
const ESCAPED_MARK = String
  .raw`\\(?:\/|(?:u00|x)(?:2[4BbDdEeFf]|3[AaDd]|5[Ff]))|%(?:25)?(?:2[4BbDdEeFf]|3[AaDd]|5[Ff])`;

/** A hint of a rule whose matches are rare: its family, and its branch after its first character. */
interface RareHint {
  family: string;
  /** The search's group that starts at the same character, where the branch goes first. */
  group: string;
  branch: string;
}

/**
 * The hints of the rules whose matches are rare, each read ahead and behind as its rule's match
 * starts, so that a text without one runs none of them (a search of every text for `sername`,
 * `curl`, `/api/` or `OTENV_`, or a rule's pattern run on every text, cost a pass each: 15 ms of
 * the stdlib's 250). Each goes first in a group of {@linkcode HINT_GATE} or
 * {@linkcode PREFIX_OR_BACKSLASH} that starts at its character: those searches stop at it already
 * (as branches of their own they cost the two searches 10 ms; a new first character slows the
 * skip over the rest). None matches where another branch of its group does (each reads other
 * characters ahead or behind), and each match is its first character alone, told apart by
 * {@linkcode rareFamily}.
 */
const RARE_HINTS: Record<string, RareHint> = {
  // a device's IPv4 address, quoted, before a `,` (`OutletDevice(id, "10.0.0.9", "…")`)
  ".": {
    family: "d",
    group: "|\\.(?:",
    branch: String.raw`(?=[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}["'][ \t]{0,16},)(?<=["'][0-9]{1,3}\.)`,
  },
  // short options joined to a `u` after a blank (`curl -fsu user:…`)
  "-": { family: "j", group: "|-(?:", branch: String.raw`(?<=(?:^|\s)-)(?=[A-Za-z]{1,8}u[ \t])` },
  // dotenv-vault's `me_…` and `key_…` before 64 hex digits
  _: {
    family: "D",
    group: "|_(?:",
    branch: String.raw`(?<=(?<![A-Za-z0-9_-])(?:me|key)_)(?=[0-9a-f]{64})`,
  },
  // a token after `/api/` in a URL's path (Hue's `http://bridge/api/<username>/lights`)
  "/": {
    family: "a",
    group: "|\\/(?:",
    branch: String.raw`(?=api\/[A-Za-z0-9-]{30})(?<=[A-Za-z0-9.\]:-]\/)`,
  },
  // 30 token characters after a user's name's operator (`username: …`, `"UserName" => "…"`)
  ":": { family: "n", group: "|:(?:", branch: userNameAt(":") },
};

/** A user's name and its operator behind `op`, and 30 token characters ahead of it. */
function userNameAt(op: string): string {
  return String.raw`(?<=(?:user|USER|User)_?(?:name|NAME|Name)["']?[ \t]{0,16}${op})` +
    String.raw`(?=>?[ \t]{0,16}["']?[A-Za-z0-9_-]{30})`;
}

/** Each {@linkcode RARE_HINTS} hint at one place (sticky): which one matched there. */
const RARE_AT: Record<string, RegExp> = Object.fromEntries(
  Object.entries(RARE_HINTS).map((
    [c, h],
  ) => [c, new RegExp(c.replace(/\W/, "\\$&") + h.branch, "y")]),
);

/** `source` with the rare hints of `chars` first in their groups (each group found once). */
function withRareHints(source: string, chars: string): string {
  for (const c of chars) {
    const { group, branch } = RARE_HINTS[c];
    const parts = source.split(group);
    if (parts.length !== 2) {
      throw new Error(`[secret rules] Cannot find "${group}" once in a hint search`);
    }
    source = parts[0] + group + branch + "|" + parts[1];
  }
  return source;
}

/**
 * The family of a one-character match `c` of a hint search at `at` that is a rare rule's hint
 * ({@linkcode RARE_HINTS}), or nothing.
 */
function rareFamily(text: string, at: number, c: string): string | undefined {
  const sticky = RARE_AT[c];
  if (!sticky) return undefined;
  sticky.lastIndex = at;
  return sticky.test(text) ? RARE_HINTS[c].family : undefined;
}

/**
 * {@linkcode PREFIX_GATE} (with the rare hints of `/` and `:`), or (group `bs`) a `\` line
 * continuation inside a value (`API_TOKEN="abc\` then `def"`), or (group `unc`) a UNC path's
 * `\\host` (`net use`), or (group `esc`) an escaped mark of a token (family `E`), or a user's
 * name's `=` before a token's characters (family `n`, as its `:` in {@linkcode RARE_HINTS}: the
 * one branch of its own, `=` being no other hint's first character).
 */
export const PREFIX_OR_BACKSLASH: RegExp = new RegExp(
  `${withRareHints(PREFIX_GATE.source, "/:")}|(?<bs>${BACKSLASH_JOINT})|(?<unc>${UNC})|` +
    `(?<esc>${ESCAPED_MARK})|=${userNameAt("=")}`,
  "g",
);

/** The families of {@linkcode PREFIX_OR_BACKSLASH}: its search stops when it has found each. */
const LOOSE_FAMILIES = ["P", "\\", "U", "E", "a", "n"];

/** A match of {@linkcode TOKEN_GATE} that is a name's `PAT` word (Azure DevOps). */
const PAT_END = /^.(?:PAT|pat|Pat)$/;
/** A match of {@linkcode TOKEN_GATE} that is a Composer key's end (`github-oauth.`, `http-basic.`). */
const COMPOSER_KEY = /^-(?:oauth|token|basic)\.$/;

/**
 * How many first characters {@linkcode TOKEN_GATE}'s prefixes have, and the two options' hints,
 * and `r` (a Terraform state's random values), `i` (ipsec.secrets' `: PSK`), `N` (`NET USER`), `e`
 * (Consul's `-encrypt=`) and the rare rules' `d`, `j`, `D`.
 */
const GATE_FAMILIES = 26;

/**
 * The hints of {@linkcode PAIR_FORMS} in one search, each looked for from a character rarer in
 * code than its first (the `v` of `ENV `, `env(` and `value:`; the `(` of `define(`; the `w` of
 * `passw`) and checked behind it: `v` (ENV and `env(`), `alue:`, `alue"`, `alue=`, `alue>` (`value`, `Value`), `(`
 * (`define(`, `setdefault(`, `setProperty(`), `w` (`passw`), `if` (`wif`, a Bitcoin key's name). Twelve `includes` per text cost as much as the forms
 * themselves; `value` looked for from its `a` (every `a` of a text) cost twice its `v`.
 */
export const PAIR_GATE: RegExp =
  /[Vv](?:(?=[ \t(])(?<=(?:ENV|[Ee]nv))|alue[:"=>])|\((?<=define\(|setdefault\(|setProperty\()|w(?:(?<=passw)|if(?<=(?<![A-Za-z])wif))/g;
/** How many hints {@linkcode PAIR_GATE} tells apart. */
const PAIR_HINTS = 8;

/**
 * {@linkcode TOKEN_GATE} and {@linkcode PAIR_GATE} in one search (group `pair`: the latter's): a
 * pass over a text where each took one. No match of the one holds the first character of a match
 * of the other (their first characters differ: `A g x . _ S - J ~ K` against `V v a ( w`, and
 * neither's matches hold the other's at a later character where it would match), so the
 * search finds what the two found apart. Group `option`: the `-` of the options that
 * `user-option`, `password-option` and `dash-password-option` read (`-u `, `--user=`,
 * `--password`, `-Password `, `-storepass `, …), which each
 * searched a text for on its own; a match of theirs starts after a blank, where no other hint's
 * match is (none holds a blank, and `sk-`, `pypi-AgE`, `-----BEGIN` cannot start one).
 */
export const HINT_GATE: RegExp = new RegExp(
  `${withRareHints(TOKEN_GATE.source, ".-_")}|(?<pair>${PAIR_GATE.source})|` +
    // (the tools' options first: openssl's `-pass pass:…` is one, not a PowerShell `-Pass`)
    `(?<tool>-(?=w[ \\t]|p(?:w|wd|ass(?:wd)?)?[ \\t=]|[PUkbHNcAXat][ \\t]|-(?:cookie|header)[ \\t=]|pass(?:in|out|word)?[ \\t]{1,4}pass:)(?<=[ \\t]-))|` +
    `(?<option>-(?=u[ \\t=]|-(?:proxy-)?user[ \\t=]|-(?:[a-z0-9]{1,16}-){0,3}(?:pass(?:w(?:or)?d|phrase)?|requirepass|masterauth|token|api-?key|(?:account|storage)-key|secret|oauth2-bearer|creds)|` +
    `(?:[Pp]ass(?:word|wd)?|PlainPassword|Secret|ClientSecret|Token|ApiKey|(?:src|dest)?(?:store|key)pass|setcookie)[ \\t]))`,
  "g",
);

/**
 * The hints of `text` (see {@linkcode TextHints}), in one search that stops when it has found
 * every one.
 *
 * @example
 * ```ts
 * import { textHints } from "./secret_rules.ts";
 * textHints("ENV API_KEY AKIAQWERTYUIOPASDFGH").families; // "A"
 * ```
 */
export function textHints(text: string): TextHints {
  const hints: TextHints = { families: "", pairs: new Set() };
  HINT_GATE.lastIndex = 0;
  for (let m = HINT_GATE.exec(text); m; m = HINT_GATE.exec(text)) {
    // `V` and `v` are one hint (ENV), as `value:` and `alue:` are.
    const rare = m[0].length === 1 ? rareFamily(text, m.index, m[0]) : undefined;
    if (rare) {
      if (!hints.families.includes(rare)) hints.families += rare;
    } else if (m.groups!.pair !== undefined) {
      hints.pairs.add(m[0][1] ? m[0].slice(1) : m[0].toLowerCase());
    } else if (m.groups!.option !== undefined) {
      // `-u`, `--user` and `--proxy-user` (`u`), or `--password` and the like (`o`)
      const family = text[m.index + 1] === "u" || text[m.index + 2] === "u" ||
          text.startsWith("-proxy-user", m.index + 1)
        ? "u"
        : "o";
      if (!hints.families.includes(family)) hints.families += family;
    } else if (m.groups!.tool !== undefined) {
      if (!hints.families.includes("t")) hints.families += "t";
    } else {
      // A name that ends in `PAT` (`_PAT`, `.pat`, `-pat`) is family `p`, a Composer key `c`, a
      // Terraform state's `"random_password"` or `"random_string"` `r`, ipsec.secrets' `: PSK`,
      // `: EAP`, `: XAUTH` `i`, `NET USER` `N`, Consul's `-encrypt=` `e`
      const family = PAT_END.test(m[0])
        ? "p"
        : COMPOSER_KEY.test(m[0])
        ? "c"
        : m[0].endsWith('"')
        ? "r"
        : m[0] === "SK" || m[0] === "AP" || m[0] === "AUTH"
        ? "i"
        : m[0] === "SER"
        ? "N"
        : m[0] === "-encrypt="
        ? "e"
        : m[0][0];
      if (!hints.families.includes(family)) hints.families += family;
    }
    if (hints.families.length === GATE_FAMILIES && hints.pairs.size === PAIR_HINTS) break;
  }
  // The prefixed tokens' hint (`P`) in a search of its own: as branches of the search above (in
  // those that start at `_`, `-` and `.` already, or new ones) it would slow that search more
  // than a search of its own costs. So are the hints of a `\` (`\\`, `U`): the search above starts at
  // 16 characters, and with a 17th V8 gave up its quick skip (bench/README.md has the cost).
  PREFIX_OR_BACKSLASH.lastIndex = 0;
  for (let m = PREFIX_OR_BACKSLASH.exec(text); m; m = PREFIX_OR_BACKSLASH.exec(text)) {
    const g = m.groups!;
    const family = m[0] === "=" ? "n" : (m[0].length === 1 && rareFamily(text, m.index, m[0])) ||
      (g.bs !== undefined ? "\\" : g.unc !== undefined ? "U" : g.esc !== undefined ? "E" : "P");
    if (!hints.families.includes(family)) hints.families += family;
    if (LOOSE_FAMILIES.every((f) => hints.families.includes(f))) break;
  }
  return hints;
}
