/**
 * The rule for passwords passed by position to a call that only takes credentials
 * (`secret_rules.ts` is the public face): `HTTPBasicAuth("user", "…")`, `auth=("user", "…")`,
 * `new NetworkCredential("user", "…")`, `smtp.login("user", "…")`, `new DirectoryEntry(path,
 * "user", "…")`, `new BasicAWSCredentials("AKIA…", "…")`, a database's connect
 * (`new PDO(dsn, "user", "…")`, `mysqli_connect(host, "user", "…")`). No name stands before such a password:
 * the call's own name says what its argument is.
 *
 * @module
 */

import { isPlaceholder, type TextHints } from "./_secret_rules_common.ts";
import { namesOf, passwordLike, REFERENCE } from "./_secret_rules_names.ts";

/**
 * A quoted argument (its quotes maybe escaped, in a JSON string of code): 1 to 128 characters, a
 * `\` among them when it escapes no quote (`"domain\user"`), maybe Rust's owned copy of it, then
 * its `,`.
 */
const ARGUMENT = `\\\\?(["'])(?:[^"'\\\\\\r\\n]|\\\\[^"'\\r\\n]){1,128}\\\\?\\1` +
  // (Rust's owned copy of a literal: `"user".to_owned()`, `.to_string()`, `.into()`)
  `(?:\\.(?:to_owned|to_string|into)\\(\\))?[ \\t]{0,16},\\s{0,64}`;

/**
 * Calls whose third argument is a password, after a path or a host (a literal or a variable, as
 * `url` in `getConnection(url, "app", "…")`) and a user: `new DirectoryEntry(path, "user", "…")`
 * and databases' connects (PHP's `new PDO(dsn, …)`, `mysqli_connect`, `new mysqli`, JDBC's
 * `DriverManager.getConnection`, Python's `pymysql.connect`, `MySQLdb.connect`, `pymssql.connect`,
 * Sequelize's `new Sequelize(db, …)`), and Go's `smtp.PlainAuth(identity, …)` (its identity
 * often `""`).
 */
const THIRD_ARGUMENT_CALLS = [
  "DirectoryEntry",
  "\\bPDO",
  "\\bmysqli(?:_connect|_real_connect)?",
  "\\bmysql_connect",
  "\\.getConnection",
  "\\b(?:pymysql|MySQLdb|connector|pymssql)\\.connect",
  "\\bSequelize",
  "\\bPlainAuth",
  "\\bDBI->connect",
  // PHP's `ldap_bind($ds, $dn, "…")` and `ftp_login($conn, $user, "…")`, the keyring's
  // `set_password(service, user, "…")`
  "\\bldap_bind",
  "\\bftp_login",
  "\\bset_password",
];

/**
 * Calls whose fourth argument is a password, after a realm, a host and a user (each a literal or
 * a variable): sbt's `Credentials("Sonatype Nexus", "oss.sonatype.org", "bob", "…")` (and
 * `DirectCredentials`), Ivy's `CredentialsStore.INSTANCE.addCredentials(realm, host, user, "…")`,
 * MySQL's C client's `mysql_real_connect(conn, host, user, "…", …)`.
 */
const FOURTH_ARGUMENT_CALLS = [
  "(?<![A-Za-z0-9_$])(?:Direct)?Credentials",
  "\\baddCredentials",
  // MySQL's C client after its handle: `mysql_real_connect(conn, host, user, "…", db, …)`
  "\\bmysql_real_connect",
];

/** A variable given as an argument, maybe with one subscript (`url`, `$config['dsn']`). */
const VARIABLE = "[A-Za-z_$][\\w$.]{0,64}(?:\\[[^\\]\\r\\n]{1,64}\\])?";

/** An argument before a password, a literal or a variable: `{@linkcode ARGUMENT}` as group `n`. */
function argumentAs(n: number): string {
  return `(?:${ARGUMENT.replace("\\1", `\\${n}`)}|${VARIABLE}[ \\t]{0,16},\\s{0,64})`;
}

/**
 * A credentials call and its literal arguments up to the password (group `v`, quoted, 4 to 256
 * characters, its closing quote after it): the user's (or the access key's) first, and for
 * a {@linkcode THIRD_ARGUMENT_CALLS} call the path's or host's before it (group `w`), for a
 * {@linkcode FOURTH_ARGUMENT_CALLS} call the realm's and the host's (group `x`). Looked for from the call's `(`, its name checked behind
 * it (a search from the names' letters would stop at every `H`, `N`, `l`, `a`).
 */
export const CREDENTIAL_CALL: RegExp = new RegExp(
  "\\((?<=(?:" +
    [
      "HTTPBasicAuth",
      "HTTPDigestAuth",
      "HttpNtlmAuth",
      "HTTPProxyAuth",
      "[Bb]asicAuth",
      "NetworkCredential",
      "PasswordAuthentication",
      "UsernamePasswordCredentials",
      "UsernamePasswordAuthenticationToken",
      "BasicAWSCredentials",
      "Credentials\\.basic", // OkHttp's `Credentials.basic("user", "…")`
      // Rust's lettre (SMTP) and others: `Credentials::new("user".to_owned(), "…".to_owned())`
      "\\bCredentials::new",
      "AwsBasicCredentials\\.create",
      "(?:\\.|->)login",
      "\\.simple_bind(?:_s)?", // python-ldap's `conn.simple_bind_s(dn, "…")`
      "\\bauth[ \\t]{0,4}=[ \\t]{0,4}",
      // Oracle's Python drivers given the user and the password apart (`cx_Oracle.connect(user,
      // "…", dsn)`), and Wi-Fi joins given the network's name first (`WiFi.begin("ssid", "…")`)
      "[Oo]racle(?:db)?\\.connect",
      "WiFi\\.begin",
      "\\.addAP",
      "\\.softAP",
      "\\bwlan\\.connect",
      // InSpec's database sessions (`postgres_session('postgres', '…')`, `mysql_session`) and
      // Puppet's hash of a role's password (`postgresql_password('app', '…')`)
      "\\b(?:postgres|mysql)_session",
      "\\bpostgresql_password",
    ].join("|") +
    ")\\()[ \\t]{0,16}" + ARGUMENT + "\\\\?([\"'])(?<v>[^\"'\\\\\\r\\n]{4,256})(?=\\\\?\\2)" +
    "|\\((?<=(?:" + THIRD_ARGUMENT_CALLS.join("|") + ")\\()\\s{0,64}" +
    `(?:${
      ARGUMENT.replace("\\1", "\\4").replace("{1,128}", "{0,128}")
    }|${VARIABLE}[ \\t]{0,16},\\s{0,64})` +
    argumentAs(5) + "\\\\?([\"'])(?<w>[^\"'\\\\\\r\\n]{4,256})(?=\\\\?\\6)" +
    "|\\((?<=(?:" + FOURTH_ARGUMENT_CALLS.join("|") + ")\\()\\s{0,64}" +
    argumentAs(8) + argumentAs(9) + argumentAs(10) +
    "\\\\?([\"'])(?<x>[^\"'\\\\\\r\\n]{4,256})(?=\\\\?\\11)",
  "g",
);

/**
 * After a `passw` word: the rest of a setter's or a builder's name (`setPassword`, `.password`)
 * and its one quoted argument (group `v`, 4 to 256 characters), then `)`.
 */
export const SETTER_AT =
  /(?:or)?d\([ \t]{0,16}\\?(["'])(?<v>[^"'\\\r\n]{4,256})\\?\1[ \t]{0,16}\)/dy;
/**
 * After a `passw` word that is a call's name of its own: `ord(`, a parameter's name as a literal,
 * `,` and its value (group `v`, 4 to 256 characters): TeamCity's `password("env.X", "…")`.
 */
const PARAMETER_AT =
  /(?:or)?d\([ \t]{0,16}(["'])[^"'\\\r\n]{1,128}\1[ \t]{0,16},[ \t]{0,16}(["'])(?<v>[^"'\\\r\n]{4,256})\2/dy;
/**
 * What stands before a setter's password word: `set` or `with` glued to its capital
 * (`setPassword`; Python's `zip.setpassword(…)` is given bytes), a member access's `.` or `->`.
 */
const SETTER_BEFORE = /(?:(?<![A-Za-z])(?:set|Set|with|With)P|(?:\.|->)[Pp])$/;

/** An argument before a password: a literal, or a name (`&self.user`, `ENV['USER']`), and its `,`. */
const ANY_ARGUMENT =
  `(?:"[^"\\\\\\r\\n]{0,128}"|'[^'\\\\\\r\\n]{0,128}'|[&*A-Za-z0-9_$@:.]{1,64}(?:\\[[^\\]\\r\\n]{1,64}\\])?)` +
  `[ \\t]{0,16},\\s{0,64}`;
/** A quoted password (group `v`), 4 to 256 characters. */
const QUOTED_PASSWORD = `(?<q>["'])(?<v>[^"'\\\\\\r\\n]{4,256})\\k<q>`;
/**
 * Calls that take a password by position in a shape of their own, from their `(`: Rust's
 * `.basic_auth(user, Some("…"))` (reqwest, ureq), Ruby's `Net::SMTP.start(address, port, helo,
 * user, "…")` and `smtp.start(helo, user, "…", :login)` (also after `Net::SMTP.new(…)`, and on
 * any name in a text that names `SMTP`: `server.start(…)`; its authentication's symbol after the
 * password).
 */
export const POSITIONAL_CALL: RegExp = new RegExp(
  `\\((?:(?<=basic_auth\\()\\s{0,64}${ANY_ARGUMENT}Some\\(\\s{0,64}${QUOTED_PASSWORD}` +
    `|(?<=SMTP\\.start\\()\\s{0,64}(?:${ANY_ARGUMENT}){4}${QUOTED_PASSWORD}` +
    `|(?:(?<=(?:smtp|SMTP\\.new\\([^()\\r\\n]{0,256}\\))\\.start\\()|(?<other>(?<=[\\w)]\\.start\\()))` +
    `\\s{0,64}(?:${ANY_ARGUMENT}){2}${QUOTED_PASSWORD}` +
    `[ \\t]{0,16},[ \\t]{0,16}:(?:plain|login|cram_md5))`,
  "dy",
);

/**
 * Calls that sign a JWT with a literal key, from their `(`: `jwt.sign(payload, "…")` (Node),
 * `jwt.encode(payload, "…", …)` (PyJWT), Go's `token.SignedString([]byte("…"))`, jjwt's
 * `.signWith(SignatureAlgorithm.HS256, "…")`; the key is group `v`.
 */
export const JWT_CALL: RegExp = new RegExp(
  `\\((?:(?<=jwt\\.(?:sign|encode)\\()\\s{0,64}(?:\\{[^{}\\r\\n]{0,256}\\}|[\\w$.]{1,128})[ \\t]{0,16},\\s{0,64}` +
    `|(?<=SignedString\\()[ \\t]{0,16}\\[\\]byte\\(` +
    `|(?<=signWith\\()\\s{0,64}[\\w.]{1,64}[ \\t]{0,16},\\s{0,64}` +
    // .NET's signing key made from a literal (`new SymmetricSecurityKey(Encoding.UTF8.GetBytes(
    // "…"))`) and JJWT's `Keys.hmacShaKeyFor("…".getBytes())`
    `|(?<=SymmetricSecurityKey\\()[ \\t]{0,16}Encoding\\.\\w{1,16}\\.GetBytes\\([ \\t]{0,16}` +
    `|(?<=hmacShaKeyFor\\()[ \\t]{0,16})${QUOTED_PASSWORD}`,
  "dy",
);

/**
 * A one-argument `auth` call given a literal password (group `v`), from its `(`: Redis clients'
 * `red:auth("…")` (OpenResty), `client.auth("…")`, `$redis->auth("…")`, `jedis.auth("…")`.
 */
const AUTH_CALL =
  /\((?<=(?:[.:]|->)(?:bearer_)?auth\()[ \t]{0,16}\\?(["'])(?<v>[^"'\\\r\n]{4,256})\\?\1[ \t]{0,16}\)/dy;

/**
 * Calls that hash a password given in plain text, from their `(`: a seed's or a fixture's user's
 * password (group `v`). Ruby's `BCrypt::Password.create("…")` and Devise's
 * `Devise::Encryptor.digest(User, "…")`, Django's `make_password("…")`, PHP's
 * `password_hash("…", PASSWORD_DEFAULT)`, Flask's `generate_password_hash("…")`, Python's
 * `bcrypt.hashpw(b"…", …)`, Node's `bcrypt.hash("…", 10)`, `bcrypt.hashSync(…)` and
 * `argon2.hash(…)`, Go's `bcrypt.GenerateFromPassword([]byte("…"), …)`. Not Ansible's filter
 * (`'…' | password_hash('sha512')`), whose argument is the hash's scheme.
 *
 * @example
 * ```ts
 * import { HASH_CALL } from "./_secret_rules_calls.ts";
 * HASH_CALL.lastIndex = 13; // the call's `(`
 * HASH_CALL.exec('make_password("Tr0ub4dor&3")')?.groups?.v; // "Tr0ub4dor&3"
 * ```
 */
export const HASH_CALL: RegExp = new RegExp(
  `\\((?:(?<=Encryptor\\.digest\\()[ \\t]{0,16}[\\w:.]{1,64}[ \\t]{0,16},[ \\t]{0,16}` +
    `|(?<=(?:Password\\.create|make_password|(?<!\\|[ \\t]{0,4})password_hash|hashpw|bcrypt\\.hash(?:Sync)?|` +
    `argon2\\.hash)\\()[ \\t]{0,16}b?` +
    `|(?<=GenerateFromPassword\\()[ \\t]{0,16}\\[\\]byte\\()${QUOTED_PASSWORD}` +
    // pgcrypto's and PHP's `crypt('…', gen_salt('bf'))`, `crypt("…", '$6$…')`, `crypt('…', salt)`:
    // a salt follows the password
    `|\\((?<=(?<![\\w.$>:])crypt\\()[ \\t]{0,16}${QUOTED_PASSWORD}` +
    `(?=[ \\t]{0,16},[ \\t]{0,16}(?:gen_salt\\(|["']\\$|\\$?[\\w.]{0,64}(?:salt|hash)))`,
  "dy",
);

/** The call's sticky spelling, tried at each `(` a trigger leads to. */
const CREDENTIAL_CALL_AT = new RegExp(CREDENTIAL_CALL.source, "y");

/**
 * Substrings that lead to a credentials call's `(` besides the `auth` and `credential` words the
 * name search finds (`nameSpots`): `gin(` of `.login(`, `Entry(` of `DirectoryEntry(`, the
 * connects' names (`getConnection(`: a trigger on `Connection(` alone cost 2% of a scan), each looked
 * for with `indexOf` from a character rare in code, not a pattern tried at every `(` of a text
 * (`(` is common).
 */
const TRIGGERS = [
  "gin(",
  "Entry(",
  "getConnection(",
  "PDO(",
  "Sequelize(",
  "PlainAuth(",
  "ssql.connect(",
  "I->connect(",
  "real_connect(",
  "bearer_auth(",
  "jwt.sign(",
  "jwt.encode(",
  "SignedString(",
  "signWith(",
  "SMTP.start(",
  ".start(",
  "racle.connect(",
  "racledb.connect(",
  "WiFi.begin(",
  "addAP(",
  "softAP(",
  "wlan.connect(",
  "Password.create(",
  "Encryptor.digest(",
  "make_password(",
  "password_hash(",
  "hashpw(",
  "bcrypt.hash(",
  "bcrypt.hashSync(",
  "argon2.hash(",
  "GenerateFromPassword(",
  "_session(",
  "postgresql_password(",
  "crypt(",
  "SecurityKey(",
  "hmacShaKeyFor(",
];
/** How far a call's `(` may be from its trigger: the rest of its name (`entication(`). */
const NAME_REACH = 24;
/**
 * The password of every {@linkcode CREDENTIAL_CALL}, when it is not a stand-in (`password`,
 * `changeme`) or a reference (`$PASSWORD`, `%s`).
 *
 * @example
 * ```ts
 * import { findCredentialCalls } from "./_secret_rules_calls.ts";
 * findCredentialCalls('auth=HTTPBasicAuth("deploy", "Tr0ub4dor3")'); // [{ start: 30, end: 40 }]
 * ```
 */
export function findCredentialCalls(
  text: string,
  hints?: TextHints,
  path?: string,
): Array<{ start: number; end: number }> {
  const opens = new Set<number>();
  const open = (at: number) => {
    // the call's `(` after its word, within the rest of its name (`Credentials(`, `auth = (`)
    for (let i = at; i < text.length && i <= at + NAME_REACH; i++) {
      const c = text.charCodeAt(i);
      if (c === 40) return opens.add(i);
      if (c === 10 || c === 13) return;
    }
  };
  const spots = namesOf(text, hints);
  for (const at of spots.calls) open(at);
  // A MySQL client's connect, from the `mysql` the name search found: in its name
  // (`mysqli_connect(`, `pymysql.connect(`) or in its first argument (`new PDO('mysql:…'`,
  // `getConnection("jdbc:mysql://…"`), whose `(` is a few characters before it.
  for (const { at, kind } of spots.commands) {
    if (kind !== "mysql") continue;
    open(at);
    const near = text.slice(Math.max(0, at - 29), at - 5);
    const back = near.lastIndexOf("(");
    if (back >= 0 && /^[ \t]{0,16}\\?["'](?:jdbc:)?$/.test(near.slice(back + 1))) {
      opens.add(at - 5 - near.length + back);
    }
  }
  // the connects' names, in a text whose hint search found one (family `(`)
  const connects = !hints || hints.families.includes("(");
  for (const trigger of TRIGGERS) {
    if (!connects && trigger !== "gin(" && trigger !== "Entry(") continue;
    for (let at = text.indexOf(trigger); at >= 0; at = text.indexOf(trigger, at + 1)) open(at);
  }
  return [
    ...setterArguments(text, spots.passwords),
    ...appPasswords(text, spots.passwords),
    ...typedPasswords(text, spots.passwords),
    ...callArguments(text, opens),
    // (a bind in code: a page's DNs are examples, and its commands' options are other rules')
    ...(!(path && PAGE_FILE.test(path)) && (text.includes("dc=") || text.includes("DC="))
      ? bindPasswords(text)
      : []),
  ];
}

/**
 * After a `passw` word: the rest of its name, an operator and a quoted app password as Google
 * shows one, four groups of four lower case letters (`EMAIL_HOST_PASSWORD = 'abcd efgh ijkl
 * mnop'`): group `v`.
 */
const APP_PASSWORD_AT =
  /(?:[Oo][Rr])?[Dd][Ss]?["']?[ \t]{0,16}(?:=|:|=>)[ \t]{0,16}(?<q>["'])(?<v>[a-z]{4} [a-z]{4} [a-z]{4} [a-z]{4})\k<q>/dy;

/** The app passwords after a password's name ({@linkcode APP_PASSWORD_AT}), not a stand-in's. */
function appPasswords(text: string, passwords: number[]): Array<{ start: number; end: number }> {
  const out: Array<{ start: number; end: number }> = [];
  for (const at of passwords) {
    APP_PASSWORD_AT.lastIndex = at;
    const m = APP_PASSWORD_AT.exec(text);
    const value = m?.groups?.v;
    // (a stand-in's letters in order, `abcd efgh ijkl mnop`, a group repeated, a placeholder)
    if (!m || !value || /abcd|wxyz|(\w{4}) \1/.test(value)) continue;
    if (isPlaceholder(value.replace(/ /g, ""))) continue;
    const [start, end] = m.indices!.groups!.v;
    out.push({ start, end });
  }
  return out;
}

/** Pages of prose. */
const PAGE_FILE = /\.(?:md|markdown|mdx|txt|rst|adoc|html?)$/i;

/**
 * A directory's bind: a literal DN of a user (`"uid=sync,ou=svc,dc=corp"`, `"cn=admin,dc=…"`)
 * and, as the next argument, a literal password (group `v`): ldap3's `Connection(server, dn,
 * "…")`, Go's `l.Bind(dn, "…")`, UnboundID's `new LDAPConnection(host, port, dn, "…")`. From the
 * DN's first key, checked for a quote behind it.
 */
const BIND_DN =
  /(?:cn|uid|CN|UID)=(?<=\\?["'](?:cn|uid|CN|UID)=)[^"'\\\r\n]{1,256}?,[ \t]{0,4}(?:dc|DC|ou|OU|o|O)=[^"'\\\r\n]{1,256}\\?(["'])[ \t]{0,16},\s{0,64}\\?(?<q>["'])(?<v>[^"'\\\r\n]{4,256})\\?\k<q>/dg;

/** The passwords given after a user's DN ({@linkcode BIND_DN}); another DN (a list of them) is none. */
function bindPasswords(text: string): Array<{ start: number; end: number }> {
  const out: Array<{ start: number; end: number }> = [];
  BIND_DN.lastIndex = 0;
  for (const m of text.matchAll(BIND_DN)) {
    const value = m.groups!.v;
    if (/^[A-Za-z]{1,16}=/.test(value) || isPlaceholder(value) || REFERENCE.test(value)) continue;
    if (/^\s|\s$/.test(value) || !passwordLike(value, true)) continue;
    const [start, end] = m.indices!.groups!.v;
    out.push({ start, end });
  }
  return out;
}

/**
 * After a `passw` word inside a selector (`'#password'`, `By.ID, "password"`, `'Password'`): the
 * selector's end, then the text typed into that field, as a browser test writes it
 * (`page.fill('#password', '…')`, `cy.get('#password').type('…')`, Selenium's
 * `.send_keys("…")`, WebdriverIO's `.setValue('…')`, Capybara's `fill_in 'Password', with: '…'`):
 * group `a` is a next argument's comma, `v` the text.
 */
const TYPED_AT =
  /[\w.\]\[="'-]{0,64}["']\s{0,8}(?:\)\s{0,8}\.\s{0,8}(?:fill|type|send_keys|sendKeys|setValue|addValue|pressSequentially)\s{0,8}\(\s{0,8}|(?<a>,)\s{0,8}(?:with:\s{0,8})?)(?<q>["'`])(?<v>[^"'`\\\r\n]{1,256})\k<q>/dy;
/** Before a selector whose next argument is the text typed (`.fill(`, `fill_in `, `.type(`). */
const TYPED_CALL_BEFORE =
  /(?:\.(?:fill|type|fillField|setValue|typeText|sendKeys|fillIn)\s{0,4}\(|fill_in[ \t(]{1,4})\s{0,4}["'][^\r\n]{0,64}$/;

/** The texts browser tests type into a password field ({@linkcode TYPED_AT}). */
function typedPasswords(text: string, passwords: number[]): Array<{ start: number; end: number }> {
  const out: Array<{ start: number; end: number }> = [];
  for (const at of passwords) {
    // the selector's quote, 64 characters back at most (each spot's search bounded)
    const before = text.slice(Math.max(0, at - 64), at);
    const quote = Math.max(before.lastIndexOf("'"), before.lastIndexOf('"'));
    if (quote < 0 || before.slice(quote).includes("\n")) continue;
    const open = at - before.length + quote;
    TYPED_AT.lastIndex = at;
    const m = TYPED_AT.exec(text);
    const value = m?.groups?.v;
    if (!m || !value || isPlaceholder(value) || REFERENCE.test(value)) continue;
    if (!passwordLike(value, true)) continue;
    if (m.groups!.a && !TYPED_CALL_BEFORE.test(text.slice(Math.max(0, open - 64), open + 1))) {
      continue;
    }
    const [start, end] = m.indices!.groups!.v!;
    out.push({ start, end });
  }
  return out;
}

/**
 * A setter's or a builder's one argument (`ds.setPassword("…")`, `.password("…")`,
 * `ssh.Password("…")`), from the `passw` words the name search marks (at `passwords`).
 */
function setterArguments(text: string, passwords: number[]): Array<{ start: number; end: number }> {
  const out: Array<{ start: number; end: number }> = [];
  for (const at of passwords) {
    const word = at - 5;
    // (or a parameter's definition: TeamCity's `password("env.DEPLOY_KEY", "…")`)
    const pattern = SETTER_BEFORE.test(text.slice(Math.max(0, word - 5), word + 1))
      ? SETTER_AT
      : /[\w.$]/.test(text[word - 1] ?? "")
      ? undefined
      : PARAMETER_AT;
    if (!pattern) continue;
    pattern.lastIndex = at;
    const m = pattern.exec(text);
    const value = m?.groups?.v;
    if (!m || !value || isPlaceholder(value) || !passwordLike(value, true)) continue;
    const [start, end] = m.indices!.groups!.v!;
    out.push({ start, end });
  }
  return out;
}

/** A call's first argument that names an anonymous login (`ftp.login("anonymous", …)`). */
const ANONYMOUS_USER = /^\([ \t]{0,16}\\?(["'])(?:anonymous|ftp)\\?\1[ \t]{0,16},/i;

/** The credential argument of each call opened at `opens` (by name, else by position). */
function callArguments(text: string, opens: Set<number>): Array<{ start: number; end: number }> {
  const out: Array<{ start: number; end: number }> = [];
  for (const open of [...opens].sort((a, b) => a - b)) {
    CREDENTIAL_CALL_AT.lastIndex = open;
    const m = CREDENTIAL_CALL_AT.exec(text);
    if (!m) {
      JWT_CALL.lastIndex = open;
      const jwt = JWT_CALL.exec(text);
      const key = jwt?.groups?.v;
      if (jwt && key && !isPlaceholder(key) && !REFERENCE.test(key) && passwordLike(key, true)) {
        const [start, end] = jwt.indices!.groups!.v!;
        out.push({ start, end });
        continue;
      }
      AUTH_CALL.lastIndex = open;
      const auth = AUTH_CALL.exec(text);
      const password = auth?.groups?.v;
      if (
        auth && password && !isPlaceholder(password) && !REFERENCE.test(password) &&
        passwordLike(password, true)
      ) {
        const [start, end] = auth.indices!.groups!.v!;
        out.push({ start, end });
        continue;
      }
      HASH_CALL.lastIndex = open;
      const hashed = HASH_CALL.exec(text)?.indices?.groups?.v;
      const plain = hashed && text.slice(hashed[0], hashed[1]);
      if (
        hashed && plain && !isPlaceholder(plain) && !REFERENCE.test(plain) && !/^\s|\s$/.test(plain)
      ) {
        out.push({ start: hashed[0], end: hashed[1] });
        continue;
      }
      POSITIONAL_CALL.lastIndex = open;
      const p = POSITIONAL_CALL.exec(text);
      const value = p?.groups?.v;
      // `.start(` on another name (`server.start(…, :login)`) is SMTP's in a text that names it
      if (p?.groups?.other !== undefined && !text.includes("SMTP")) continue;
      if (p && value && !isPlaceholder(value) && !REFERENCE.test(value) && !/^\s|\s$/.test(value)) {
        const [start, end] = p.indices!.groups!.v!;
        out.push({ start, end });
      }
      continue;
    }
    const value = m?.groups?.v ?? m?.groups?.w ?? m?.groups?.x;
    if (!m || !value || isPlaceholder(value) || REFERENCE.test(value) || /^\s|\s$/.test(value)) {
      continue;
    }
    // An anonymous login's password is an e-mail address or `-anonymous@` by convention.
    if (m.groups?.v !== undefined && ANONYMOUS_USER.test(m[0])) continue;
    const end = open + m[0].length;
    out.push({ start: end - value.length, end });
  }
  return out;
}
