/**
 * slop's secret rules: one table of credential shapes that both the build's
 * scanner (`pipeline/_scan.ts`) and the knowledge scrubber
 * (`knowledge/_secrets.ts`) run. Each rule finds exactly the value of a
 * credential (never its key name, never part of it); the scanner replaces it
 * with `[REDACTED:<label>]`.
 *
 * Every pattern runs in time linear in its input: each starts at a literal
 * (`AKIA`, `ghp_`, `://`, an assignment operator, …) and every quantifier
 * after it is bounded, so one start costs a bounded amount of work; a rule
 * that reads far (PEM blocks) is code that never reads a character twice.
 * A rule runs only on texts that hold one of its hints.
 *
 * @module
 */

/**
 * The version of the rule table, part of the secret scan's cache key (with each rule's pattern
 * and code): raise it when a helper the rules call changes what they find, so that files found
 * clean by an older table are scanned again (3: the line of a finding in a file with CR line ends;
 * 4: prefixed provider tokens, placeholders of few characters, generated keys under a name;
 * 5: a -u option's URL left to the URL rule; 6: a value on the line after its name that ends
 * like `"…"):`, or after a `\` continuation); 7: an Azure SAS signature (`&sig=…`); 8: crypt(3)
 * password hashes, PuTTY key files, `pass` names, `=` in a password, a URL user with an `@`,
 * base64 `user:password` under an `auth` name, Laravel's `base64:` keys; 9: an element's text
 * with attributes, well-known environment names (`SSHPASS`, `REDISCLI_AUTH`), `Basic <base64>`
 * with no name, passwords of letters alone on a data file's line; 10: `pw` and glued `PASS` names,
 * dotted tokens (Vault's, Kubernetes bootstrap tokens), random letters under a key's name, a
 * JWK's private members, Jenkins secrets, Oracle's `user/password@`, credentials calls, Teams
 * webhooks, four provider prefixes, lower-case `basic`; 11: an unquoted password ends before a
 * connection string's next key, `;Database=`; 12: short tokens under a token's or key's name,
 * New Relic license keys, `sonar.login`, PsExec's `-p`, a `;` before a quote ends a password;
 * 13: code under a secret's name is kept: member accesses, calls, types, a ternary's branch, a
 * name that ends a statement, label text, versions; 14: long options with words before their
 * own (`--db-password`) and as a list's next item, tools' one-dash options (`docker login -p`,
 * `sqlcmd -P`, `ldapsearch -w`, `smbclient -U user%…`, openssl's `pass:`), `echo … |
 * --password-stdin`, `aws configure set`, curl's cookies, Go MySQL DSNs, Oracle's Python
 * `connect`, signed URLs, a Discord bot's token given to its client, Vault's `hvs.` alone, four
 * provider prefixes (Firebase's `AAAA…:APA91b`, Google refresh tokens, Mailchimp, Supabase
 * `sb_secret_`), Alibaba and Tencent key ids, OpenAI's `sk-None-`; public keys, maps under `keyv`,
 * git's `-u`, prose's `identified by`, labels and file names kept; slop's own `[REDACTED:…]`
 * placeholders and Helm template values in a Kubernetes Secret kept, a JSON Secret read string by
 * string; 15: a shell test's comparison of a password variable with a word kept, libtool's
 * `test "$linkmode,$pass" = "lib,link"`; 16: the code between two string literals
 * (`'…'+Parameters.Password+'…'`) kept; 17: passwords by position (`htpasswd -b`, `net use`,
 * `rabbitmqctl add_user`, `composer config http-basic.…`), `curl -u TOKEN:`, Azure DevOps PATs,
 * Facebook's `EAA…`, Composer's `auth.json` tokens, `?code=` and `?key=` in a URL,
 * `x-functions-key`, `az login -p`, a value split by a `\` continuation, a YAML anchor or a TOML
 * multi-line string's line end before a value; a `0x` number under a key's name kept); 18: a
 * test's values that name themselves kept (`AccessToken: "ACCESSX1"`, `test_…_0001`), passwords
 * by position in databases' connect calls, a Twilio secret after its SID, a secret's default
 * (`${DB_PASSWORD:-…}`, `getenv("…", "…")`, a Terraform variable's), `mysqladmin … password`,
 * Redis's `requirepass` and `masterauth`, an escaped quote inside a quoted password, the tokens
 * of a list under a secret's name, a value split over two string literals; 19: a value that
 * spells a word of its name other than its last only counts as a test's echo with `x`s
 * (`postgres123` under `POSTGRES_PASSWORD` is redacted again); 20: a generated key under a name
 * whose last word is `key` (`"Jwt": {"Key": …}`, `SENDGRID_KEY`), a file of a key alone
 * (`master.key`), a secret piped to `gh auth login --with-token` or `az devops login`, JSON
 * escaped twice, a concatenation's short first literal, a short `?code=`, a DSL's
 * `storePassword "…"`, a passphrase of words with `test` among them; a value's full stops trimmed
 * in one pass, name tests bounded; 21: a key made for the browser under a `key` name stays
 * (`STRIPE_PUBLISHABLE_KEY=pk_live_…`, `vapidKey`, `applicationServerKey`, `Idempotency-Key`);
 * 22: a checksum file's digest kept (the key-file rule reads the file's name), passwords by
 * position to `getConnection`, `pymssql.connect`, `new Sequelize` and `smtp.PlainAuth`, a
 * setter's or builder's password (`setPassword("…")`, `.password("…")`), `setProperty`'s name and
 * value, Terraform state's `random_password` and marked `random_string`, admins' commands and
 * daemons' files (`net user`, `zip -P`, 7-Zip's `-p`, openssl's `-pass pass:`, HAProxy, answer
 * files, unseal keys, Wi-Fi `psk=`, Bundler's host credentials, recovery words), Postman's
 * `{"key": …, "value": …}`, OpenVPN static keys, minisign and signify secret
 * keys, XML RSA private members, chain private keys under a key's name, keypair files; Mapbox's
 * public `pk.eyJ…` kept; 23: `cmdkey /pass:`, `schtasks /RP`, `cargo login`, a conda channel's
 * `/t/TOKEN/`, ipsec.secrets' `PSK`/`EAP`/`XAUTH`, Consul's gossip key, Bitcoin WIF keys, HAR's
 * and `.http` files' cookies, Rust's `basic_auth(…, Some("…"))`, Ruby's `Net::SMTP` `start`,
 * Python bytes with escapes, a `%2B`, `%2F` or `%3D` inside a named token, `net user` and
 * `mnemonic` in any case, recovery words under `seed_phrase` or `recovery_phrase`.
 * 24: a checksum file named by its tool (`*.sha256sum`, `*.md5sum`, `*.shasum`) kept, a call
 * whose argument opens a literal at the line's end (grpc-go's
 * `"test-key": testutils.MarshalAny(t, &v3corepb.Address{`) kept as code.
 * 25: a struct literal's or initializer's field given a name of code kept (grpc-go's
 * `oauth2.Token{AccessToken: tokenBase64}`), a map's `"name"` (`"title"`, `"type"`, …) and its
 * values of words and numbers joined (`allow_policy_1`) kept under a key's name.
 * 26: secrets commands take by position or by a tool's own option (`mc alias set NAME URL ACCESS
 * SECRET`, `mc config host add`, `rclone config create … pass …`, `echo "u:…" | chpasswd`, `echo
 * … | passwd --stdin`, `plink -pw`, `mosquitto_pub -P`, `ipmitool -P`, `rabbitmqadmin -p`, `cqlsh
 * -p`, `security unlock-keychain -p`, `altool -p`, `ssh-keygen -N`, `--passphrase`, `--ks-pass
 * pass:`, `--account-key`, `-setcookie`, `nmcli … wifi connect … password`), Ruby's SMTP `.start(`
 * on any name in a text that names `SMTP`, Perl's `DBI->connect` and `->login`, PowerShell's
 * `-AsPlainText` before the string, Erlang tuples and Clojure keywords under a secret's name, a
 * JWT's signing key given to `jwt.sign`, `jwt.encode`, `SignedString` or `signWith`, webhook
 * tokens in a URL's path (`/hooks/…`, `/hook/<uuid>`, `/with/key/…`), files that are a secret by
 * their name (`.vault_pass`, `.erlang.cookie`); a call's next keyword argument (`,host=`) ends an
 * unquoted value (`connect(password=pw,host=h)` is code).
 * 27: an anonymous login's password (`ftp.login("anonymous", "-anonymous@")`) is no secret.
 * 28: secrets after the word that announces them (`::add-mask::…`, `ngrok authtoken` and
 * `add-authtoken`, `wpa_passphrase SSID …`, `db2 connect … using …`, Oracle's `exp`, `imp`,
 * `expdp`, `impdp` and `sqlldr` `user/…@db`, an `expect` of a password prompt and its `send`),
 * one-argument `auth("…")` calls, `ldap_bind`, `ftp_login`, `simple_bind_s`,
 * `keyring.set_password`, tools' own options (SNMP's `-c`, `-A`, `-X`, `racadm -p`, `dsadd -pwd`,
 * `ktpass -pass`, `x11vnc -passwd`, HTTPie's `-a user:…`, `net rpc -U user%…`, FreeRDP's `/p:`,
 * WMIC's `/password:`), a preseed's `password` answers, `reg add … /v …Password … /d …`,
 * fetchmail's `with password`, Sentinel's `auth-pass`, HAProxy's `stats auth`, cloud-init's
 * `chpasswd` list, `vncpasswd` and `smbpasswd` pipes, a Wi-Fi `.psk =`, and generated values under
 * `pepper`, `signer` and `salt` names in configuration files; 29: a password of letters alone
 * declared as a constant of code (`public const string ADMIN_PASSWORD = '…';`,
 * `static final String PASSWORD = "…";`, `readonly X_PASSWORD: string = '…'`), Postfix's `sasl_passwd` map, an `ftp` heredoc's `user NAME …`,
 * `wpa_cli … set_network N psk '"…"'`, `iwconfig … key s:…`.
 * 30: a value declared with a type or a declarator between its name and it (Go's
 * `const AdminPassword string = "…"`, C's `kSecret[] = "…"`, `#define API_KEY "…"`, Rust's
 * `: &[u8] = b"…"`, `const char* password`, the CDK's and Pulumi's secret calls, fastlane's
 * `git_basic_authorization`), values written apart from their names (a property list's
 * `<key>`/`<string>`, Android's `<meta-data>`, Gradle's `buildConfigField` and `resValue`, an ARM
 * parameter's `"value"`, a NoEcho parameter's `Default:`, Yarn 1's `"NAME" "VALUE"`, an INI
 * `[secrets]` or `[credentials]` section's one-token values), letters alone unquoted in settings
 * files, in prose as capitalised words joined, and as a connection string's member, ODBC's
 * `PWD={…}`, SQL's `\040` blanks and `= N'…'`, YAML's `!!str`, `--requirepass`, Neon, Resend,
 * Yandex, Airtable and Terraform Cloud tokens with no name; `postgres-credentials` kept.
 * 31: a value split over joined literals or `\` continuations is read within 2 KB of its joints
 * on a longer line, and a FreeRDP line up to the next `xfreerdp` (the same findings on shorter
 * lines; a long line of them took the square of its length). 32: 30 and 31 together.
 * 33: a password of letters alone as a literal's member on one line
 * (`redis.Options{Addr: "x", Password: "…"}`) and as an environment read's default
 * (`os.getenv("DB_PASSWORD", "…")`, `process.env.X ?? "…"`, `${X:-…}`), Rust's
 * `unwrap_or("…")`/`unwrap_or_else(|_| "…")` after `env::var`, a `pass` name's call
 * (`env::var("DB_PASS")`), the secrets a file's format holds (`.netrc`'s `password` token,
 * Subversion's `svn.simple`, `AUTH` in `.rediscli_history`, an Ansible literal piped to
 * `password_hash`, a page's `**Password:**` before a code span and `` `user` / `…` ``), a
 * Dockerfile's `ENV A=… B=…` and `ENV NAME value` with letters alone, `wandb login` and
 * `algoliasearch(id, …)` hex keys; Airtable's and Terraform Cloud's heads gated by the main hint
 * search's `.`; 34: a joined window reads whole lines again (31 cut it 2 KB before a joint: a
 * value longer than that before its `\` or `+` lost its name and was left), its joints on one line
 * one window; 35: lines ended by a lone CR, NEL, U+2028, U+2029, a form feed or a vertical tab are
 * read as lines ended by LF (a file of them was one line to the rules).
 * 36: a quoted name's value as the next literal (`VALUES ('smtp_password', '…')`,
 * `user_pref("…password", "…")`) and SQL rows under a secret's column (`INSERT`, `COPY`),
 * Algolia's clients' keys by position, `AUTH` at a `redis-cli` prompt in a page, passwords named
 * in other languages (`senha`, `contraseña`, `Kennwort`, `пароль`, `密码`, …), a YAML parameter's
 * `default:` and XML `<name>`/`<defaultValue>` pairs, make's `?=`, lower case names glued to
 * `pass` (`dbpass`), Exim's `passwd.client`, sendmail's `authinfo`, isync's `Pass`, `.conf`
 * directives, services' authorization schemes (`Splunk`, `ApiKey`, …), YAML block sequences under
 * a secret's name, `--creds user:…`, `-p=…`, key setters, a string literal's prefix (`@"…"`,
 * `r"…"`), a JWT after a percent-escape, a template's literal, literals side by side after `(`,
 * Zapier's hooks, `user:password` under an `auth` name, Riot and Asana tokens; vault references,
 * secrets' file paths, periodic test vectors, Slack stand-ins of words, Sealed Secrets'
 * values and dependency specs kept; 37: the first colon of a `::` after a key's name is no
 * operator (Rust's `UnboundKey::new(…)` was a random key); 38: a finding's line counts the line
 * ends of 35 too (all said line 1 after NEL, U+2028, U+2029, `\f` and `\v`); 39: a make file's
 * `::=` and `:::=` read as `:=` (`PASSWORD ::= …` was kept); 40: known providers' clients' keys by
 * position (`cohere.Client("…")`, `new Ably.Realtime("…")`, `analytics.load("…")`,
 * `dropbox.Dropbox("…")`), Honeycomb's `x-honeycomb-team` header, and a key split over an array's
 * literals joined with `.join("")`. 41: Rust's byte arrays and lazy cells (`[u8; 32] = *b"…"`,
 * `Lazy::new(|| "…")`, `LazyLock`), a table's row of a secret's name and its value (HTML, a
 * notebook's output, Markdown), a literal piped into base64 or a secret store (`| base64`,
 * `base64 <<<`, `| runas`, `| wrangler secret put`, …), base64 values of a YAML `data:` map read
 * decoded, credentials bare in prose and SQL comments (`admin / …`, `password …`), a printed
 * struct's `Password:…`, `FlyV1`, a token before `@host`, Erlang's `<<"…">>`, seed words under
 * a seed's name, server directives' `Authorization`, Caddy's DNS tokens, Hurl's `[BasicAuth]`,
 * cookie jars, Postman's API key auth, Envoy's inline secrets, `MapNetworkDrive`, crypt hashes
 * with `$$`; base64 of a public PEM block and Twilio SID stand-ins kept. 42: decoded base64 read
 * as UTF-8, block scalars' short last lines, nested maps read once. 43: a table's column under a
 * secret's header (Markdown, Confluence, reST, AsciiDoc, HTML, CSV and TSV), credentials bare in
 * code's comments and more shapes in prose (`login admin/…`, `admin:…`, an account's known
 * name, `password is \`…\``), pipes through `tee` and across `\` continuations, here-strings and
 * pipes into more secret stores (`vault kv put`, `kubectl create secret`, `sudo -S`), seed words
 * with no name (a literal or a line of 12 to 24 words alone), base64 of base64 and JSON
 * `data`/`binaryData` maps read decoded, templated YAML's names, a template's `default` under a
 * secret's expression, Objective-C's `@"…"` after `#define`, files named for a login's
 * credentials (`auth.txt`), text typed into a password field by browser tests. 44: a value
 * declared with a type annotation (`password: str = "…"`, `apiToken: string | *"…"`, Nickel's
 * `| String =`), a list's parameter's `default:` (`- name: registry-password`), values written
 * apart (an Xcode scheme's `key`/`value`, PHP's `var_dump`, CMake's `set`, Meson's options,
 * `… set NAME VALUE` commands, DuckDB's `CREATE SECRET`, SQLCipher's `PRAGMA key`), files of logins
 * (PgBouncer's `userlist.txt`, `chap-secrets`, davfs2's `secrets`, `*.secrets`, OpenVPN's inline
 * `<auth-user-pass>`), SNMP's users and communities, Nagios' `$USERn$`, Redis ACLs' `>…`,
 * systemd's `SetCredential=`, FTP's `PASS` and IMAP's `LOGIN` in sessions, a literal piped to a
 * password hasher (`mkpasswd`, `openssl passwd`), a password after a user's DN, a token folded over
 * a YAML block, glued `…pass` names with letters alone, Google's app passwords, NuGet, Telnyx,
 * Braintree, LaunchDarkly and PKCS #12 keys, a Telegram token after `/bot`; OpenPGP messages
 * (Renovate's `encrypted`) kept. 45: a prefixed token to the end of its run of token characters
 * (past its rule's bound, or a `-` or `_` after its body), an OpenAI key of any kind by its marker.
 * 46: every token known by its start (the provider tokens, the prefixed family, JWTs, Facebook's,
 * Django's, PKCS #12 and PEM keys in base64) to the end of its run however long (`sk-or-v1-…`
 * and `sk-ant-…` left what lay past their bound, most others were dropped for a `-` after them),
 * and a common word's head (`re_`, `sk_`, `secret_`) too when what follows it reads as random. 47: words of a language under a
 * secret's name (a locale file's `パスワードを忘れた`, `API-ключ`) kept; `\u002C`, `&#034;`, `&#X22;`
 * decoded; a value ends before a character reference its `;` cut (`…&amp;next=1`). 48: the two
 * 46s (this list's and the token runs) and 47 in one. 49: one decoder of escapes for both readings
 * (a log's `\x22` and `\x3d`, as nginx writes a logged body's, and `\u005b`… decoded as marks
 * too; a token that starts with an escape covered from its first character); the classes of the
 * twenty-fifth round's probe. 50: Google's `ya29.` access tokens with no name around them,
 * passwords named in Latin-script languages in code files (`lösenord`, `parola`, `jelszó`,
 * `MOT_DE_PASSE`), a bare `key`'s random value with fewer than three digits (and `/* key = … *\/`),
 * a Terraform state's values under attributes that name nothing and a `random_string` without
 * its `special`, keys written as lists of bytes (`network_key: [...]`), cookies that code sets
 * (`setHeader('Set-Cookie', …)`, `res.cookie`, `set_cookie`, `Cookie::new`, `cookies = {…}`),
 * Wi-Fi joins and Oracle's connects given a password by position, JSON's `"psk":`, a bearer
 * scheme given apart from its token. 51: a `.txt` manual's line that starts with `key`, `password`
 * or `secret` and goes on as prose, and Vim script's scoped variables, kept. 52: device consoles'
 * and home devices' secrets (Tasmota's
 * `MqttPassword …` in a `Backlog`, Tuya's local keys and tinytuya's device lists, a key given to a
 * device's client after its address, tokens in an `/api/` path or a user's name as Hue's), the
 * values a notebook's outputs print apart from their names (a secret's expression as a cell's
 * last line, `print(api_key)`, a DataFrame's secret column), names and values written as sibling
 * attributes (`name = "adminPassword"` / `value = …`, `- key: /db/password` / `value:`), other
 * languages' password words before `:=` or a type, curl's joined `-fsu`, header options' `-Key`
 * and `-Token` names, RSpec's `let(:password) { … }`, Traefik's `basicauth.users`, dotenv-vault's
 * keys, `id:secret` tokens under a token's name, tables of secrets' `key` columns, the CDK's
 * `unsafe_plain_text`; search-only keys (Algolia's, DocSearch's) kept. 53: a token wrapped inside
 * what its gate reads after its head (Airtable's 64 hex digits, a prefixed token's first 8
 * characters), an escaped mark between a Django key's other marks, `--header` where `-H` was read.
 * 54: a Django key without its `django-insecure-` prefix whose marks spell a reference's opener
 * (`%(`, `$(`, a leading `$`), hold `(` and `)` unquoted or `))`, or start with `=` (a quoted
 * password starting with `=`); kept: a keyword argument after an environment read's name
 * (`env("SECRET_KEY", default=None)`), a CJK message with full-width marks under a password's name,
 * an object named as itself (`txtSecretKey.Name = "txtSecretKey"`);
 * a prefixed token split over two string literals (`"dop_v1_ab" + "cd…"`) under no secret's name,
 * or wrapped over two lines 3 to 7 characters into it. 55: a token in pieces joined by any
 * language's join, its prefix cut too. 56: a token URL-encoded twice (`%252F`), Braintree's `$`
 * escaped (`%24`, `\u0024`), a token right after a decoded escape (`…%3Dghp_…`), a password
 * under a type and `:=` (VHDL's, Ada's), a token split by Fortran's `//`, VB's `& _` or an Erlang
 * binary; kept: a record's field (`#node{key=Key,…}`), a name set to itself negated, an
 * `LS_COLORS` entry's colours (`*passwd=0;38;5;149:…`). 57: a secret named in a Lisp's forms
 * (`(def password "…")`, `(defvar *db-password* "…")`, `(setq …)`, `(define …)`, a `let`'s
 * binding, a keyword `:password "…"`, `(gethash "password" …)`), Tcl's `set` and `dict set`,
 * ABAP's `TYPE … VALUE '…'` and `DATA(…) =`, Smalltalk's `at: '…' put: '…'`, Salesforce's
 * `<field>`/`<value>`, Ansible's `!unsafe`, a schema field's default (proto2's `[default = "…"]`,
 * Avro's `"default"`), a value in Python's parentheses (`SECRET_KEY = ('…'` then `'…')`); a token
 * split by ABAP's `&&`, Jinja's and D's `~` or Smalltalk's `,`, or appended in the next statement
 * (`+=`, PHP's `.=`, Tcl's `append`). 59: recovery words with no name (a line alone, a string
 * literal) only when they are a BIP-39 mnemonic: English words, checksum right. 60: a name whose
 * last word is a credential's abbreviation in capitals (`GITHUB_PAT`, `WIFI_PSK`, `API_TKN`,
 * `DB_CREDS`), dune's and `.sexp` lists (`(env-vars (API_TOKEN …))`), a Lisp's dotted pair
 * (`(password . "…")`) and quoted symbol (`(hash 'api-key "…")`); Python's literals side by side
 * on two lines joined only inside brackets; a redaction over several lines keeps its lines (a
 * marker on each); the ninth sweep's forms: a code host's `pat` in lower or camel case
 * (`github_pat`, `githubPat`), Julia's `raw"…"` and `secret_token!("…")`, Scala's `s"…"`, Perl's
 * `q{…}`, `qq(…)` and `$ENV{…} = '…'` / `// '…'`, Lua's `[[…]]`, Haskell's `setEnv "…" "…"`,
 * .NET's `Configuration["Jwt:Key"] ?? "…"` (any object's, by a `Section:Key` path). 61: the
 * tenth sweep's forms: a function named for a secret whose body returns a literal (Go's `func
 * Password() string { return "…" }`, Rust's, Kotlin's, Swift's, C's, PHP's, Java's, Ruby's,
 * Python's, Erlang's `password() -> "…".`, Clojure's `(defn api-key [] "…")`), a token split over
 * a list's literals whose first is short (`SECRET = ["ab"` then `"…"]`), Swift's `#"…"#`, C++'s
 * `R"(…)"` and Ruby's `%q(…)`, Erlang's `-define(SECRET, "…")`, a release's `{cookie, "…"}` and a
 * `-setcookie` of letters and digits, CMake's `set(ENV{API_TOKEN} …)`, aero's `#or [#env X "…"]`
 * and `#profile {…}`, Salt's `pillar.get('x:password', '…')`, Rust's `option_env!("…")` fallbacks,
 * a password name's `_confirmation` (`password_confirmation`), Kotlin's `"password" to "…"`,
 * Swift's `set("…", forKey: "apiToken")`, Ruby's `dig(…, :secret_key) || "…"`, a Lisp's `(or
 * (System/getenv "…") "…")` and `(System/setProperty "…" "…")`, Erlang's `get_env(app, name,
 * "…")`, libcurl's `CURLOPT_PASSWORD, "…"`, `mysql_real_connect`'s fourth argument, reqwest's
 * `.bearer_auth("…")`, Rust's `String::from("…")`.
 */
export const SECRET_RULES_VERSION = 77;

import {
  BASE64_RUN,
  fewCharacters,
  isPlaceholder,
  LONG_PAIR_VALUE,
  LONG_QUOTED,
  LONG_TOKEN,
  LONG_UNQUOTED,
  looksGenerated,
  runEnd,
  type SecretMatch,
  type SecretShape,
  type TextHints,
  TOKEN_RUN,
} from "./_secret_rules_common.ts";
import {
  CONTINUED,
  HINT_GATE,
  PAIR_GATE,
  PREFIX_OR_BACKSLASH,
  textHints,
  TOKEN_GATE,
} from "./_secret_rules_hints.ts";
import {
  ENV_PASSWORD_NAME,
  findNamedPasswords,
  findNamedTokens,
  findNamedValues,
  MAP_VALUE,
  NAME_WORD,
  NAMED_PASSWORD,
  NAMED_TOKEN,
  NAMED_TOKEN_NAME_END,
  NAMED_VALUE,
  namesOf,
  PASSWORD_NAME_END,
  passwordLike,
  PLACEHOLDER_WORD,
  QUERY_NAME_END,
  REFERENCE,
  TOKEN_PASSWORD,
} from "./_secret_rules_names.ts";
import {
  findListTokens,
  findPairs,
  findSchemaDefaults,
  findSyntaxPairs,
  LIST_ITEM,
  PAIR_FORMS,
} from "./_secret_rules_pairs.ts";
import {
  BASE64_PEM,
  encodedEntries,
  findK8sSecretData,
  findPem,
  isBase64PrivateKey,
  jsonEncodedEntries,
  K8S_DATA,
  K8S_ENTRY,
  K8S_JSON_DATA,
  K8S_SECRET_KIND,
  PEM_BEGIN,
  PEM_BODY,
  PEM_END,
  YAML_DOCUMENT_END,
} from "./_secret_rules_blocks.ts";
import { findUrlPasswords, URL_PASSWORD } from "./_secret_rules_urls.ts";
import { pythonBrackets } from "./_secret_rules_python.ts";
import { wrapJoints } from "./_secret_rules_split.ts";
import { pieceJoints } from "./_secret_rules_pieces.ts";
import { findStubMatchers } from "./_secret_rules_stubs.ts";
import { findByteListKeys } from "./_secret_rules_byte_lists.ts";
import { searchOnlyKey } from "./_secret_rules_search_keys.ts";
import {
  API_PATH_TOKEN,
  CONSOLE_PASSWORD,
  DEVICE_CALL,
  deviceCallKey,
  findConsolePasswords,
  findLocalKeys,
  TOKEN_USERNAME,
  tokenInName,
} from "./_secret_rules_devices.ts";
import { findCodeCookies } from "./_secret_rules_code_cookies.ts";
import { findEncodedAuth } from "./_secret_rules_encoded_auth.ts";
import { complexKeyEdits } from "./_secret_rules_complex_keys.ts";
import { findRandomKeys, KEY_VALUE } from "./_secret_rules_keys.ts";
import { findKeyingNames } from "./_secret_rules_key_names.ts";
import {
  CRYPT_HASH,
  findCryptHashes,
  findLdapHashes,
  findPutty,
  PUTTY_BEGIN,
  PUTTY_END,
} from "./_secret_rules_hashes.ts";
import { ATTRIBUTES, CLOSING, findElementSecrets } from "./_secret_rules_elements.ts";
import { BASIC_VALUE, findBareBasic } from "./_secret_rules_basic.ts";
import { findKeyFile } from "./_secret_rules_key_file.ts";
import { findTerraformRandom, findTerraformStateValues } from "./_secret_rules_terraform.ts";
import {
  CHAIN_KEY,
  findChainKeys,
  findKeypairFile,
  findSignSecretKey,
  OPENVPN_KEY,
  SIGN_SECRET_KEY,
  XML_RSA_PRIVATE,
} from "./_secret_rules_key_formats.ts";
import {
  ANSWER_FILE_VALUE,
  BUNDLE_CREDENTIALS,
  findAdminPasswords,
  INSECURE_PASSWORD,
  MNEMONIC,
  NET_USER,
  RECOVERY_WORDS,
  SEVEN_ZIP_OPTION,
  UNSEAL_KEY,
  WIFI_PSK,
} from "./_secret_rules_admin.ts";
import {
  BYTES_LITERAL,
  CARGO_LOGIN,
  CMDKEY_PASS,
  CONDA_TOKEN,
  CONSUL_ENCRYPT,
  findServiceSecrets,
  HAR_PAIR,
  HEADER_COOKIE,
  IPSEC_SECRET,
  SCHTASKS_RP,
  WIF_KEY,
} from "./_secret_rules_services.ts";
import { findJwkPrivate, JWK_PRIVATE } from "./_secret_rules_jwk.ts";
import { findOptionDefaults } from "./_secret_rules_options.ts";
import {
  CREDENTIAL_CALL,
  findCredentialCalls,
  HASH_CALL,
  JWT_CALL,
  POSITIONAL_CALL,
  SETTER_AT,
} from "./_secret_rules_calls.ts";
import { BRACE_DEFAULT, FALLBACK_AFTER, findSecretDefaults } from "./_secret_rules_defaults.ts";
import { findLetterPasswords, LETTERS_PASSWORD, NOT_A_PASSWORD } from "./_secret_rules_letters.ts";
import { apartLines, declaredLines } from "./_secret_rules_decls.ts";
import { DOTENV_VAULT_KEY, PROVIDER_TOKENS } from "./_secret_rules_tokens.ts";
import { PREFIX_GATE, PREFIXED_TOKENS } from "./_secret_rules_prefixed.ts";
import {
  findNewRelicLicenses,
  findPsexecPasswords,
  findSonarLogins,
  PSEXEC_OPTION,
  SONAR_LOGIN,
} from "./_secret_rules_tools.ts";
import {
  AWS_CONFIGURE,
  awsKeyLike,
  commandBefore,
  CURL_COOKIE,
  findCurlCookies,
  findLongOptions,
  findStdinPasswords,
  findToolPasswords,
  LONG_OPTION,
  TOOL_OPTION,
} from "./_secret_rules_cli.ts";
import {
  findClientKeys,
  findPositionalPasswords,
  findUserTokens,
  USER_TOKEN,
} from "./_secret_rules_positional.ts";
import { DEVICE_SECRET, findFileFormatSecrets } from "./_secret_rules_files.ts";
import { findForeignPasswords, OTHER_SCRIPTS, WORD_AT_END } from "./_secret_rules_words.ts";
import {
  markEscapes,
  plainLiterals,
  plainTypography,
  tokenEscapes,
} from "./_secret_rules_escapes.ts";
import {
  afterDecoded,
  crossesEdit,
  type Edit,
  editText,
  sourceEnd,
  sourceStart,
} from "./_secret_rules_edits.ts";
import { BEARER_TOKEN, findBareBearers } from "./_secret_rules_bearer.ts";
import { findSqlRowSecrets } from "./_secret_rules_sql.ts";
import {
  FACEBOOK_RUN,
  FACEBOOK_TOKEN,
  facebookLike,
  findComposerTokens,
  findDevopsTokens,
} from "./_secret_rules_hosts.ts";
import {
  DISCORD_CALL,
  findDiscordCalls,
  findDsnPasswords,
  findOracleCallPasswords,
  ORACLE_CALL,
  signatureLike,
  SIGNED_URL,
} from "./_secret_rules_dsn.ts";
import {
  DSL_PASSWORD,
  findCommandPasswords,
  findPgpassPasswords,
  IDENTIFIED_BY,
  MYSQL_OPTION,
  MYSQLADMIN_PASSWORD,
  PGPASS_LINE,
  PGPASS_PASSWORD,
  PGPASS_QUOTED_PASSWORD,
  REDIS_OPTION,
  SET_PASSWORD,
  SQL_PASSWORD,
  SSHPASS_OPTION,
} from "./_secret_rules_commands.ts";

export type { NameSpots, SecretMatch, SecretShape, TextHints } from "./_secret_rules_common.ts";
export { isPlaceholder } from "./_secret_rules_common.ts";
export { textHints, TOKEN_GATE } from "./_secret_rules_hints.ts";
export { NAMED_VALUE, NAMED_VALUE_SPEC, nameSpots } from "./_secret_rules_names.ts";

/**
 * Oracle's `user/password@database`: after a JDBC URL's `jdbc:oracle:thin:`, or after
 * `sqlplus` and its options (`sqlplus -S scott/…@orcl`), a user, `/`, the password (group `v`, 3+
 * characters) and `@`. `sqlplus / as sysdba` names no user.
 */
const ORACLE_CONNECT =
  /(?:jdbc:oracle:thin:|(?<![A-Za-z0-9_-])sqlplus(?:\.exe)?(?:[ \t]{1,16}-[A-Za-z]{1,16}){0,4}[ \t]{1,16}["']?)[A-Za-z0-9_$#.]{1,64}\/(?<v>[^\s@/"'`]{3,128})(?=@)/g;

/** Oracle's `exp`, `imp`, `expdp`, `impdp` and `sqlldr` given `user/password@database`. */
const ORACLE_TOOL =
  /(?<![\w.-])(?:exp|imp|expdp|impdp|sqlldr)(?:\.exe)?[ \t]{1,16}["']?[A-Za-z0-9_$#.]{1,64}\/(?<v>[^\s@/"'`]{3,128})(?=@)/g;

/** lftp, whose `-u` takes `user,password`. */
const LFTP_COMMAND = /(?:^|[^\w.-])lftp(?:\.exe)?[ \t]/;

/** A password logged beside its user: `(u'user', p'…')` (group `v`). */
const LOGGED_PAIR = /\(u'[^'\r\n]{0,128}',[ \t]{0,4}p'(?<v>[^'\r\n]{1,256})'\)/dg;
/** A log, by its path (`app.log`, `logs/…`, `mqtt.log.1`, `journal.txt`). */
const LOG_PATH = /\.log(?:\.[0-9]{1,3})?$|(?:^|[\/\\])(?:logs?|journal)[\/\\.]/i;

/**
 * The passwords a log writes beside their user (`(u'iot', p'…')`), in a log alone (by `path`):
 * a search of every text for the pair's `, p'` cost more than the logs it finds.
 */
function findLoggedPasswords(
  text: string,
  _hints?: TextHints,
  path?: string,
): Array<{ start: number; end: number }> {
  if (!path || !LOG_PATH.test(path) || !text.includes(", p'")) return [];
  LOGGED_PAIR.lastIndex = 0;
  return [...text.matchAll(LOGGED_PAIR)].flatMap((m) => {
    const v = m.groups!.v;
    if (isPlaceholder(v) || REFERENCE.test(v)) return [];
    const [start, end] = m.indices!.groups!.v;
    return [{ start, end }];
  });
}

/** A proxy's `basicauth.users` list's first `user:password` (group `v`: the password). */
const BASICAUTH_USERS =
  /basic[Aa]uth\.users["']?[ \t]{0,4}[=:][ \t]{0,4}["']?[^\s:,"'$]{1,64}:(?<v>[^\s,"'$]{6,256})/dg;
/** Files that hold containers' labels and proxies' routes: YAML, TOML, JSON, `.env`, Dockerfiles. */
const LABELS_FILE =
  /\.(?:ya?ml|toml|json|env)$|(?:^|[\/\\])(?:Dockerfile|Containerfile)[\w.-]{0,32}$/i;

/**
 * The passwords of Traefik's `basicauth.users=user:…` written in the clear (not a crypt hash,
 * which `password-hash` reads), in files of labels and routes alone (by `path`: a search of every
 * text for the word cost more than the files it finds).
 */
function findBasicauthUsers(
  text: string,
  _hints?: TextHints,
  path?: string,
): Array<{ start: number; end: number }> {
  if (!path || !LABELS_FILE.test(path) || !text.includes("uth.users")) return [];
  BASICAUTH_USERS.lastIndex = 0;
  return [...text.matchAll(BASICAUTH_USERS)].flatMap((m) => {
    if (!passwordLike(m.groups!.v, true)) return [];
    const [start, end] = m.indices!.groups!.v;
    return [{ start, end }];
  });
}

/** A curl command, whose short options may be joined (`-fsu`). */
const CURL_BEFORE = /(?:^|[^\w.-])curl(?:\.exe)?[ \t]/;

/** A git command (or its `push`, named in a test's title), whose `-u` is no user. */
const GIT_COMMAND = /(?:^|[^\w.-])(?:git(?:\.exe)?|push)[ \t]/;

/**
 * A one-dash password option after a blank (PowerShell's parameters, keytool's options, Erlang's
 * `-setcookie`), a blank and its value (group `v`): quoted up to its quote, else up to a blank.
 */
const DASH_OPTION =
  /-(?:[Pp]assword|PlainPassword|[Pp]asswd|Pass|Secret|ClientSecret|Token|ApiKey|storepass|keypass|srcstorepass|deststorepass|srckeypass|destkeypass|setcookie)(?<=(?:^|\s)-[A-Za-z]{4,13})[ \t]{1,4}["']?(?<v>(?<=["'])[^"'`\r\n]{6,256}(?=["'])|[^\s"'`]{6,4096})/g;

/**
 * A UUID, or letters and digits mixed as a generated key mixes them: not a name of code with a
 * digit at its end (`useFetchWithRetries2`), nor words and numbers.
 */
function webhookToken(part: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(part) ||
    looksGenerated(part);
}

/**
 * The rule table, in the order that names merged findings: a rule earlier
 * in the list names a value two rules find at the same place.
 */
export const SECRET_SHAPES: SecretShape[] = [
  {
    id: "private-key",
    gate: "-",
    label: "private-key",
    kind: "PEM private key blocks (also JSON with `\\n` escapes and YAML block scalars)",
    hints: ["PRIVATE KEY"],
    find: findPem,
  },
  {
    id: "base64-private-key",
    label: "private-key",
    kind: "PEM private key blocks in base64 (`LS0tLS1CRUdJTi…`, a Kubernetes Secret's `tls.key`)",
    // (six characters: a text's `includes` of a hint of 7+ costs up to twice one of 6 or fewer)
    hints: ["LS0tLS"],
    pattern: BASE64_PEM,
    run: BASE64_RUN,
    accept: isBase64PrivateKey,
  },
  {
    id: "jwk-private-key",
    label: "private-key",
    kind: 'The private members of a JSON Web Key (`"d"`, RSA\'s `"p"`, `"q"`, `"dp"`, `"dq"`, ' +
      '`"qi"`, a symmetric key\'s `"k"`) in an object that holds a `"kty"`',
    hints: ["kty"],
    find: findJwkPrivate,
  },
  {
    id: "putty-private-key",
    gate: "-",
    label: "private-key",
    kind: "PuTTY private key files (`PuTTY-User-Key-File-3:` to `Private-MAC:`), redacted whole",
    hints: ["PuTTY-User-Key-File-"],
    find: findPutty,
  },
  {
    id: "openvpn-static-key",
    label: "private-key",
    kind: "An OpenVPN static key (`-----BEGIN OpenVPN Static key V1-----`, a `ta.key`)",
    hints: ["V1---"], // (from its `V`, rare in code: the family of `-` is not; 5 characters, not 7)
    pattern: OPENVPN_KEY,
  },
  {
    id: "sign-secret-key",
    label: "private-key",
    kind: "A minisign or signify secret key, after its `untrusted comment: … secret key` line",
    hints: [], // a key file starts with its comment: no search
    find: findSignSecretKey,
  },
  {
    id: "xml-rsa-private-key",
    label: "private-key",
    kind: "The private members of .NET's XML RSA key (`<P>`, `<Q>`, `<DP>`, `<DQ>`, " +
      "`<InverseQ>`, `<D>` in an `<RSAKeyValue>`; its `<Modulus>` and `<Exponent>` are public)",
    gate: "K", // (`textHints` finds `<RSAKeyValue>`)
    hints: [],
    pattern: XML_RSA_PRIVATE,
  },
  {
    id: "extended-private-key",
    gate: "x", // (`textHints` finds `xprv`)
    label: "private-key",
    kind: "A BIP 32 extended private key (`xprv…`, 111 base58 characters): a wallet's every key",
    hints: [],
    pattern: /(?<![A-Za-z0-9])xprv[1-9A-HJ-NP-Za-km-z]{107}(?![A-Za-z0-9])/g,
  },
  {
    id: "nostr-private-key",
    label: "private-key",
    kind: "A Nostr private key (`nsec1…`, 58 bech32 characters after it; `npub1…` is public)",
    // (a search of its own: from the `1` in the hint search, that search took twice as long)
    hints: ["nsec1"], // (bech32 in capitals, `NSEC1…`, is for QR codes: one hint, not two)
    pattern: /(?<![A-Za-z0-9])nsec1[02-9ac-hj-np-z]{58}/g,
    run: TOKEN_RUN,
  },
  {
    id: "keypair-file",
    label: "private-key",
    kind: "A keypair file alone: 64 numbers of 0 to 255 in a JSON array (Solana's `id.json`)",
    hints: [],
    find: findKeypairFile,
  },
  {
    id: "chain-private-key",
    label: "private-key",
    kind: "A chain's private key (`0x` and 64 hex digits) under a private key's, a signer's or " +
      'Hardhat\'s `accounts` name on its line (`PRIVATE_KEY=0x…`, `accounts: ["0x…"]`)',
    hints: [], // (found from each `0x`: a search of its own)
    find: findChainKeys,
  },
  ...PROVIDER_TOKENS,
  ...PREFIXED_TOKENS,
  {
    id: "password-hash",
    label: "password-hash",
    kind: "crypt(3) password hashes (`/etc/shadow`, `.htpasswd`, a user table): bcrypt `$2b$`, " +
      "SHA-crypt `$6$` `$5$`, MD5 `$1$` `$apr1$`, yescrypt `$y$`, Argon2 `$argon2id$`",
    hints: ["$"],
    find: findCryptHashes,
  },
  {
    id: "ldap-password-hash",
    label: "password-hash",
    kind: "LDAP-style password hashes (`.htpasswd`, `slapd.conf`, LDIF's `userPassword`): " +
      "`{SHA}`, `{SSHA}`, `{SHA256}`, `{SSHA512}`, `{MD5}`, `{SMD5}` and their base64",
    hints: ["{SHA", "{SSHA", "{MD5}", "{SMD5}"],
    find: findLdapHashes,
  },
  {
    id: "hex-secret",
    label: "hex-secret",
    kind: "A hex value of 32+ digits assigned to a secret-looking name (`API_SECRET=4dac…`)",
    hints: [":", "="],
    find: findNamedValues,
  },
  {
    id: "key-file",
    label: "key-file",
    kind: "A file that holds a key alone: 32, 64, 96 or 128 hex digits and nothing else " +
      "(Rails' `config/master.key` and `config/credentials/*.key`), unless its name says it " +
      "holds a checksum (`*.sha256`, `*.sha256sum`, `*.md5`, `*.sum`, `SHA256SUMS`, `checksums.txt`)",
    hints: [],
    find: findKeyFile,
  },
  {
    id: "terraform-random",
    label: "password",
    kind: "The value a Terraform state holds for a `random_password` (its `result`) and for a " +
      "`random_string` made with marks (its `result` and `id`, unless `special = false`)",
    gate: "r", // (`textHints` finds `"random_password"` and `"random_string"`)
    hints: [],
    find: findTerraformRandom,
  },
  {
    id: "code-cookie",
    label: "cookie",
    kind: "A session cookie that code sets: `setHeader('Set-Cookie', 'sid=…')`, nginx's " +
      "`add_header Set-Cookie \"…\"`, `res.cookie('name', '…')`, `set_cookie(…)`, `setcookie(…)`, " +
      '`new Cookie("JSESSIONID", "…")`, Go\'s `http.Cookie{Value: "…"}`, `cookies = {…}`',
    hints: [], // (the rule's own search for `ookie`)
    find: findCodeCookies,
  },
  {
    id: "console-password",
    label: "password",
    kind: "A device console's command that sets a password: Tasmota's `MqttPassword …`, " +
      "`WebPassword …`, `Password1 …`, alone on a line or in a `Backlog …; …` list",
    hints: [], // (from the name search's `passw` words)
    find: findConsolePasswords,
  },
  {
    id: "device-local-key",
    label: "private-key",
    kind: "A device's local key: Tuya's `local_key`/`localKey` (16 printable characters), and " +
      'a `"key"` beside a device\'s `"ip"` in tinytuya\'s device lists',
    hints: [], // (from the names' operators)
    find: findLocalKeys,
  },
  {
    id: "device-call-key",
    label: "private-key",
    kind: "A key or token given to a device's client after its IPv4 address " +
      '(`OutletDevice(id, "10.0.0.9", "…")`, `RoborockVacuum("10.0.0.11", "…")`)',
    gate: "d", // (`textHints` finds a quoted address before a `,`, from its first `.`)
    hints: [],
    pattern: DEVICE_CALL,
    accept: (value, text, start) => deviceCallKey(value, text, start),
  },
  {
    id: "api-path-token",
    label: "named-secret",
    kind: "A generated token in a URL's path after `/api/` (Philips Hue's " +
      "`http://bridge/api/<username>/lights`)",
    gate: "a", // (`textHints` finds `/api/` before a token's characters)
    hints: [],
    pattern: API_PATH_TOKEN,
    accept: (value) => tokenInName(value),
  },
  {
    id: "token-username",
    label: "named-secret",
    kind: "A user's name that is a generated token of 30 to 64 characters (Hue's bridge " +
      "`username`, which is its API key)",
    gate: "n", // (`textHints` finds a user's name's operator before a token's characters)
    hints: [],
    pattern: TOKEN_USERNAME,
    // (in a text that spells `username` or `Username` somewhere, as Hue's clients write it)
    accept: (value, text) => tokenInName(value) && text.includes("sername"),
  },
  {
    id: "byte-list-key",
    label: "private-key",
    kind: "A key written as a list of its 16 to 64 bytes under a key's name: zigbee2mqtt's " +
      "`network_key: [1, 2, …]` (or a YAML block of `- N`), `NETWORK_KEY = [0x5E, 0x3F, …]`",
    hints: [], // (from the names' operators)
    find: findByteListKeys,
  },
  {
    id: "terraform-state-value",
    label: "password",
    kind: "A value a Terraform state's file holds under an attribute that names nothing " +
      "(`value`, `secret_string`, `plaintext_value`: an application's password, a vault's " +
      "secret) that reads as a generated token or a password with marks",
    hints: [], // (a state's files only, by their path)
    find: findTerraformStateValues,
  },
  {
    id: "url-password",
    label: "basicauth",
    kind:
      "Password in a URL (`scheme://user:PASSWORD@host`; `database-connection-string` for databases)",
    hints: ["://"],
    find: findUrlPasswords,
  },
  {
    id: "named-token",
    label: "named-secret",
    kind:
      "A token assigned to a secret-looking name: AWS secret access key, JWT, `Bearer` token, " +
      "Azure client secret, Twilio auth token, or any random token of 20+ characters",
    hints: [":", "=", ">"],
    find: findNamedTokens,
  },
  {
    id: "k8s-secret-data",
    label: "kubernetes-secret",
    kind: "Every value of a Kubernetes Secret's `data` and `stringData` (YAML or JSON)",
    hints: ["Secret"],
    find: findK8sSecretData,
  },
  {
    id: "encoded-data",
    label: "encoded-secret",
    kind: "A base64 value of a YAML `data:` or `binaryData:` map (a ConfigMap, a Secret written " +
      "without its `kind`, a block scalar's lines too; a YAML template's; a JSON object's) whose " +
      "decoded text (decoded again when it is base64 itself) holds a secret, read by the whole " +
      "table as a file named by its key (`app.env`, `tls.key`)",
    hints: [], // (read in YAML and JSON files alone, by their name: see `findEncodedData`)
    find: findEncodedData,
  },
  {
    id: "user-option",
    gate: "u",
    label: "basicauth",
    kind: "The password of a `-u user:password` / `--user` / `--proxy-user` option (curl, wget, " +
      "httpie), and lftp's `-u user,password`",
    hints: ["-u", "--user", "--proxy-user"],
    pattern:
      /(?:-u|--user|--proxy-user)(?<=(?:^|\s)(?:-u|--user|--proxy-user))(?:[ \t]{1,4}|=)["']?[^\s:,"'$]{1,128}[:,](?<v>[^\s"']{6,65536})/g,
    // `-u redis://user:PASSWORD@host` gives a URL, whose password the URL rule judges; git's `-u`
    // (`git push -u origin a:b`) sets an upstream, and its `a:b` is a refspec; a `,` parts the user
    // and password in lftp's `-u` alone.
    accept: (value, text, start) =>
      !value.startsWith("//") && !REFERENCE.test(value) && !isPlaceholder(value) &&
      !GIT_COMMAND.test(commandBefore(text, start)) &&
      (text[start - 1] !== "," || LFTP_COMMAND.test(commandBefore(text, start))),
  },
  {
    id: "curl-short-user",
    label: "basicauth",
    kind: "The password of curl's `-u user:password` joined to other short options " +
      "(`curl -fsu admin:… URL`, `-ku`, `-sSu`)",
    gate: "j", // (`textHints` finds the joined options' `-`; the command is read at a match)
    hints: [],
    pattern: /-(?<=(?:^|\s)-)[A-Za-z]{1,8}u[ \t]{1,4}["']?[^\s:,"'$]{1,128}:(?<v>[^\s"']{6,1024})/g,
    accept: (value, text, start) =>
      !value.startsWith("//") && !REFERENCE.test(value) && !isPlaceholder(value) &&
      CURL_BEFORE.test(commandBefore(text, start)),
  },
  {
    id: "header-option-secret",
    gate: "t", // (`textHints` finds `-H` before a blank and `--header`: the tools' options)
    label: "named-secret",
    kind: "A generated token in a header a command line sends whose name ends in `-Key`, " +
      '`-Token` or `-Secret` (`curl -H "hue-application-key: …"`, `--header "X-Device-Token: …"`)',
    hints: [],
    pattern:
      /-(?<=[ \t]-)(?:H[ \t]{1,4}|-header(?:[ \t]{1,4}|=))["']?[A-Za-z0-9-]{0,64}-(?:[Kk]ey|KEY|[Tt]oken|TOKEN|[Ss]ecret|SECRET)[ \t]{0,4}:[ \t]{0,16}(?<v>[A-Za-z0-9_.~+\/=-]{16,1024})(?=["'\s]|$)/g,
    accept: (value) => !isPlaceholder(value) && (looksGenerated(value) || tokenInName(value)),
  },
  {
    id: "logged-user-password",
    label: "password",
    kind: "A password logged beside its user as `(u'user', p'…')`, in a log",
    hints: [], // (a log's line: in logs alone, by their path, then its `, p'`)
    find: findLoggedPasswords,
  },
  {
    id: "basicauth-users",
    label: "password",
    kind: "A password in a proxy's `user:password` list written in the clear " +
      "(Traefik's `basicauth.users=admin:…` label, not a crypt hash)",
    hints: [], // (in the files labels and routes are written in, by their path: see below)
    find: findBasicauthUsers,
  },
  {
    id: "user-token",
    gate: "u",
    label: "basicauth",
    kind: "A token given as a user with no password: `curl -u TOKEN: …`",
    hints: [], // (gated: `textHints` finds `-u` and `--user`)
    find: findUserTokens,
  },
  {
    id: "positional-password",
    label: "password",
    kind: "A password a command takes by position: `htpasswd -b file user …`, " +
      "`net use \\\\host\\share … /user:name`, `rabbitmqctl add_user name …`, " +
      "`composer config http-basic.host user …`",
    hints: [], // (each command gated by the text's hints: see `_secret_rules_positional.ts`)
    find: findPositionalPasswords,
  },
  {
    id: "client-api-key",
    label: "api-key",
    kind: 'An API key given by position to a known provider\'s client (`cohere.Client("…")`, ' +
      '`new Ably.Realtime("…")`, Segment\'s `analytics.load("…")`, `dropbox.Dropbox("sl.…")`) ' +
      "and Honeycomb's `x-honeycomb-team` header",
    gate: "(-", // (`textHints` finds the calls' `(` and the header's `-`)
    hints: [],
    find: findClientKeys,
  },
  {
    id: "azure-devops-pat",
    label: "azure-devops",
    kind: "Azure DevOps personal access tokens: 52 letters and digits under a `…_PAT` name or as " +
      "a URL's user before `dev.azure.com`, and the 84-character format (`…AZDO…`) anywhere",
    hints: [], // (gated by `_`, `@` and `A` in `findDevopsTokens`)
    find: findDevopsTokens,
  },
  {
    id: "facebook-access-token",
    gate: "A",
    label: "facebook",
    kind: "Facebook and Meta access tokens (`EAA…`, 90+ letters and digits)",
    hints: ["EAA"],
    pattern: FACEBOOK_TOKEN,
    run: FACEBOOK_RUN,
    accept: facebookLike,
  },
  {
    id: "composer-auth",
    label: "composer",
    kind: 'The tokens of Composer\'s `auth.json` (`"github-oauth": {"github.com": "…"}`, ' +
      "`gitlab-oauth`, `gitlab-token`, `bearer`) and of `composer config github-oauth.github.com …`",
    hints: [],
    find: findComposerTokens,
  },
  {
    id: "jenkins-secret",
    label: "jenkins",
    kind: "A Jenkins secret as `credentials.xml` and `config.xml` store it (`{AQAAABAAAA…}`: " +
      "encrypted with the instance's key, which sits beside it in `JENKINS_HOME`)",
    hints: ["{AQAAABAAAA"],
    pattern: /\{(?<v>AQAAABAAAA[A-Za-z0-9+/]{20,65536}={0,2})(?=\})/g,
  },
  {
    id: "django-secret-key",
    label: "django",
    kind:
      "A Django `SECRET_KEY` as `startproject` writes it (`django-insecure-` and 50 characters " +
      "of its alphabet, `%`, `$` and parentheses among them), whatever its name",
    hints: ["jango-"], // from `j`, rarer in code than `d`; six characters (a longer one costs more)
    pattern: /django-insecure-[a-z0-9!@#$%^&*(\-_=+)]{40,64}/g,
    run: /[A-Za-z0-9!@#$%^&*(\-_=+)]*/y,
    accept: (value) => !fewCharacters(value.slice(16)),
  },
  {
    id: "microsoft-teams-webhook",
    label: "microsoft-teams",
    kind: "The secret part of a Microsoft Teams incoming webhook's URL (after `/IncomingWebhook/`)",
    hints: ["/IncomingWebhook/"],
    pattern: new RegExp(
      "/IncomingWebhook/(?<v>[A-Za-z0-9]{32}/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-" +
        "[0-9a-f]{12}(?:/[A-Za-z0-9_-]{20,64})?)(?![A-Za-z0-9_-])",
      "g",
    ),
  },
  {
    id: "webhook-path-token",
    label: "webhook",
    kind:
      "The token of a chat's or automation's incoming webhook in its URL's path: Mattermost's " +
      "and Rocket.Chat's `/hooks/…`, Feishu's and Lark's `/hook/<uuid>`, IFTTT's `/with/key/…`, " +
      "Zapier's `/hooks/catch/<account>/<key>/`",
    // (`/hook` and `/with/`: short hints cost less than `/with/key/`; bench/README.md)
    hints: ["/hook", "/with/"],
    pattern:
      /\/(?:hooks?|with\/key)\/(?:catch\/[0-9]{4,12}\/)?(?<v>(?<=catch\/[0-9]{4,12}\/)[a-z0-9]{6,12}(?=\/|["'\s]|$)|[A-Za-z0-9_-]{20,64}(?:\/[A-Za-z0-9_-]{20,64})?(?![A-Za-z0-9_.\/-]))/g,
    accept: (value, text, start) =>
      // Zapier's catch hook: `/hooks/catch/<account>/<key>/`, a short key of letters and digits
      /\/catch\/[0-9]{4,12}\/$/.test(text.slice(Math.max(0, start - 20), start))
        ? /[0-9]/.test(value) && /[a-z]/.test(value)
        : value.split("/").every((part) =>
          webhookToken(part) ||
          // IFTTT's key: 22 characters of both cases, fewer digits than a generated key holds
          text.startsWith("/with/key/", start - 10) && /[A-Z]/.test(part) && /[a-z]/.test(part) &&
            !fewCharacters(part)
        ),
  },
  {
    id: "oracle-connect",
    label: "password",
    kind: "The password of Oracle's `user/password@database` after `jdbc:oracle:thin:` and after " +
      "`sqlplus`",
    // from rare first characters: `oracle:` and `sqlplus`, looked for from their common `o` and
    // `s`, cost many times more (bench/README.md)
    hints: [":thin:", "qlplus"],
    pattern: ORACLE_CONNECT,
    accept: (value) => !REFERENCE.test(value) && !isPlaceholder(value),
  },
  {
    id: "tool-password",
    gate: "t",
    label: "password",
    kind: "The password of a tool's one-dash option, after that tool: `docker login -p …` " +
      "(podman, buildah, skopeo, helm, oras, …), `mongosh -p …`, `sqlcmd -P …`, " +
      "`ldapsearch -w …`, `smbclient -U user%…`, openssl's `pass:…` and `enc -k …`",
    hints: [], // (gated: `textHints` looks for the options)
    find: findToolPasswords,
  },
  {
    id: "admin-password",
    label: "password",
    kind: "A password an administrator's command or a daemon's config takes: " +
      "`net user NAME … /add`, 7-Zip's `-p…`, HAProxy's `insecure-password …`, " +
      "an answer file's `<AdministratorPassword>` `<Value>`, Vault's `Unseal Key 1: …`, " +
      'a Wi-Fi `psk=…`, `BUNDLE_HOST__COM: "user:pass"`, recovery words under `MNEMONIC` ' +
      "(any case) or a seed phrase's name",
    hints: [], // (each of its patterns looked for only in a text with its own hint)
    find: findAdminPasswords,
  },
  {
    id: "service-secret",
    label: "password",
    kind: "A secret a service's tool or file takes with no secret word before it: " +
      "`cmdkey /pass:…`, `schtasks … /RP …`, `cargo login TOKEN`, a conda channel's `/t/TOKEN/`, " +
      "ipsec.secrets' `: PSK \"…\"` (`EAP`, `XAUTH`), Consul's gossip key (`encrypt`), " +
      "a Bitcoin key in wallet import format under a `WIF` name, a HAR's and an `.http` file's cookies",
    hints: [], // (each of its patterns looked for only in a text with its own hint)
    find: findServiceSecrets,
  },
  {
    id: "curl-cookie",
    gate: "t",
    label: "cookie",
    kind: "The session values of the cookies a curl command sends (`-b '…'`, `--cookie`, " +
      "`-H 'Cookie: …'` or `--header`, as a browser's \"copy as cURL\" writes them)",
    hints: [], // (gated: `textHints` looks for the options)
    find: findCurlCookies,
  },
  {
    id: "stdin-password",
    label: "password",
    kind: 'A password or token written into a pipe to a login that reads it (`echo "…" | docker ' +
      "login --password-stdin`, `… | gh auth login --with-token`, `… | az devops login`)",
    // (gated in `findStdinPasswords`: `textHints` finds `--password`, `--with-token`, `devops login`,
    // a search of its own a pipe into a reader; as a branch of the hint search, `|` and `<` cost
    // that search its quick skip: the stdlib's scan +25%)
    hints: [],
    find: findStdinPasswords,
  },
  {
    id: "aws-configure",
    gate: "_",
    label: "aws",
    kind: "An AWS secret access key or session token after its name and a blank " +
      "(`aws configure set aws_secret_access_key …`)",
    hints: ["aws_secret_access_key", "aws_session_token"],
    pattern: AWS_CONFIGURE,
    accept: awsKeyLike,
  },
  {
    id: "go-dsn",
    gate: "@",
    label: "database-connection-string",
    kind: "The password of a Go MySQL DSN (`user:password@tcp(host:3306)/db`)",
    hints: ["@tcp(", "@unix(", "@udp("], // (gated: `textHints` looks for them)
    find: findDsnPasswords,
  },
  {
    id: "oracle-tool",
    gate: "@",
    label: "password",
    kind: "The password of Oracle's `user/password@database` after its export and import tools " +
      "(`exp`, `imp`, `expdp`, `impdp`, `sqlldr`)",
    hints: [], // (gated: `textHints` looks behind each `@`)
    pattern: ORACLE_TOOL,
    accept: (value) => !REFERENCE.test(value) && !isPlaceholder(value),
  },
  {
    id: "oracle-call",
    gate: "(",
    label: "password",
    kind: "Oracle's `user/password@db` given to `cx_Oracle.connect(…)` or `oracledb.connect(…)`",
    hints: ["Oracle.connect(", "oracledb.connect("], // (gated: `textHints` looks from `(`)
    find: findOracleCallPasswords,
  },
  {
    id: "secret-default",
    label: "password",
    kind: "A secret's default: `${DB_PASSWORD:-…}`, Spring's `${db.password:…}`, " +
      '`os.getenv("API_KEY", "…")`, `env(\'DB_PASSWORD\', \'…\')`, `ENV.fetch("…") { "…" }`, ' +
      "`process.env.DB_PASSWORD || \"…\"`, `db_password | default('…')`, a Terraform " +
      '`variable "db_password"`\'s `default`',
    hints: [], // (found from the names' spots: see `_secret_rules_defaults.ts`)
    find: findSecretDefaults,
  },
  {
    id: "discord-call",
    gate: "(",
    label: "discord",
    kind: "A Discord bot's token given to its client (`client.run(\"…\")`, `client.login('…')`)",
    hints: [".run(", ".login(", ".start("], // (gated: `textHints` looks for them from `(`)
    find: findDiscordCalls,
  },
  {
    id: "signed-url",
    gate: "-gK",
    label: "signed-url",
    kind: "The signature or session token of a signed URL (`X-Amz-Signature=`, " +
      "`X-Amz-Security-Token=`, `X-Goog-Signature=`, CloudFront's `Signature=`, `sig=`)",
    hints: ["ignature=", "ecurity-", "sig="], // (gated)
    pattern: SIGNED_URL,
    accept: signatureLike,
  },
  {
    id: "password-option",
    gate: "o",
    label: "password",
    kind:
      "The value of a `--password`, `--token`, `--api-key` or `--secret` option written apart " +
      "(quoted, blanks and all), also with words before its own (`--db-password`, " +
      '`--client-secret`), `--oauth2-bearer`, and as the next item of a list (`"--password", ' +
      '"…"`, a YAML `- --password` then `- …`)',
    hints: ["--"],
    // What it matches (the hint test reads it); `find` searches inside a rejected quoted value.
    pattern: LONG_OPTION,
    find: findLongOptions,
  },
  {
    id: "dash-password-option",
    gate: "o",
    label: "password",
    kind:
      "The value of a one-dash password option: PowerShell's `-Password`, `-Secret`, `-Token`, " +
      "`-ApiKey` (`Connect-VIServer -Password …`), keytool's `-storepass` and `-keypass`, " +
      "Erlang's `-setcookie`",
    hints: ["-"],
    pattern: DASH_OPTION,
    // (an Erlang cookie is letters alone: 20 capitals, as `erl` writes `.erlang.cookie`; or a
    // password's letters and digits, `-setcookie hunter2correct`; a name of words, `-setcookie
    // project_name` or `my_cookie_1` in a template, is none)
    accept: (value, text, start) =>
      text.startsWith("setcookie", start - 10)
        ? /^[A-Z]{16,}$/.test(value) && !fewCharacters(value) || looksGenerated(value) ||
          passwordLike(value, true) && /[0-9]/.test(value) && /[A-Za-z]/.test(value) &&
            !/^[A-Za-z0-9]{1,32}(?:[_.-][A-Za-z0-9]{1,32}){1,8}$/.test(value)
        : passwordLike(value, true),
  },
  {
    id: "secure-string",
    label: "password",
    kind: "A password made a SecureString from plain text: " +
      '`ConvertTo-SecureString "…" -AsPlainText`, `ConvertTo-SecureString -AsPlainText "…"`',
    hints: ["Secure"], // (six characters: `ConvertTo-Secure` cost twice as much; bench/README.md)
    pattern:
      /ConvertTo-SecureString(?:[ \t]{1,4}-(?:String|AsPlainText|Force)){0,3}[ \t]{1,4}(?<q>["'])(?<v>[^"'\r\n]{4,256})(?=\k<q>(?:(?<=-AsPlainText[^\r\n]{6,512})|[^\r\n]{0,64}-AsPlainText))/g,
    accept: (value) => !REFERENCE.test(value) && !isPlaceholder(value),
  },
  {
    id: "named-password",
    label: "password",
    kind:
      "Any value of 6+ characters without blanks assigned to a name ending in a password word " +
      "(`DB_PASSWORD`, `passwd`, `pwd`, `passphrase`, `client_secret`, `SECRET_KEY`)",
    hints: [":", "=", ">"],
    find: findNamedPasswords,
  },
  {
    id: "random-key",
    label: "named-secret",
    kind:
      "A random value of printable characters (letters, digits, marks, a few blanks) assigned to " +
      "a name ending in `key` or `salt`: WordPress's `AUTH_KEY` … `NONCE_SALT`",
    hints: [":", "=", ">"],
    find: findRandomKeys,
  },
  {
    id: "keying-name",
    label: "named-secret",
    kind: "A generated value (32+ hex digits, or letters and digits mixed as a key generator " +
      "mixes them) under a name that means a secret with no secret word: a pepper (Devise's " +
      "`config.pepper`), a signer (Joken's `default_signer:`), a salt (Phoenix's `signing_salt:`)",
    hints: [],
    find: findKeyingNames,
  },
  {
    id: "command-password",
    label: "password",
    kind:
      "A password in a command or SQL: `mysql -pS3cret`, `sshpass -p S3cret`, `redis-cli -a S3cret`, " +
      "`mysqladmin … password S3cret`, Redis's `requirepass S3cret` and `masterauth S3cret`, " +
      "`IDENTIFIED BY 'S3cret'`, `PASSWORD 'S3cret'`, `SET PASSWORD FOR … = 'S3cret'`",
    hints: [],
    find: findCommandPasswords,
  },
  {
    id: "psexec-password",
    gate: "xX",
    label: "password",
    kind:
      "PsExec's password option (`psexec \\\\host -u admin -p S3cret cmd`, `PsExec64.exe`, PAExec)",
    hints: ["xec", "XEC"], // (gated: `textHints` looks for them)
    find: findPsexecPasswords,
  },
  {
    id: "sonar-login",
    gate: "g_",
    label: "sonar",
    kind:
      "A SonarQube token of 40 hex digits under `sonar.login` (`-Dsonar.login=…`, `SONAR_LOGIN`)",
    hints: ["sonar", "Sonar", "SONAR"], // (gated: `textHints` looks for `…login`)
    find: findSonarLogins,
  },
  {
    id: "newrelic-license",
    label: "newrelic",
    kind: "A New Relic license key: 36 lower-case letters and digits and `NRAL`, whatever its name",
    hints: ["NRAL"],
    find: findNewRelicLicenses,
  },
  {
    id: "pgpass-line",
    label: "password",
    kind:
      "The password of a `.pgpass` line (`hostname:port:database:username:password`), also quoted",
    hints: [":"],
    find: findPgpassPasswords,
  },
  {
    id: "name-value-pair",
    label: "named-secret",
    kind:
      "A secret whose name is written apart from it: `ENV NAME value`, `- name: …` / `value: …`, " +
      '`{"name": …, "value": …}`, `<add key="…" value="…"/>`, `.netrc`',
    hints: [],
    find: findPairs,
  },
  {
    id: "language-pair",
    label: "named-secret",
    kind: "A secret named in the syntax of its file's language: an Erlang tuple " +
      '(`{db_password, "…"}`, `{default_pass, <<"…">>}`), a Lisp\'s keyword (`:password "…"`), ' +
      'definition (`(def password "…")`, `(defvar *db-password* "…")`, `(setq api-key "…")`), ' +
      "binding or table entry, Tcl's `set` and `dict set`, ABAP's `TYPE … VALUE '…'`, " +
      "Smalltalk's `at: 'password' put: '…'`",
    hints: [], // (the file's path picks the syntax)
    find: findSyntaxPairs,
  },
  {
    id: "schema-default",
    label: "named-secret",
    kind: "A secret given as a schema's field's default: `string password = 1 [default = \"…\"]` " +
      '(Protocol Buffers), `{"name": "password", …, "default": "…"}` (Avro)',
    hints: ["default"],
    find: findSchemaDefaults,
  },
  {
    id: "list-token",
    label: "named-secret",
    kind: "The tokens of a list under a secret's name (`TOKEN_LIST = ['…', '…']`, " +
      '`"api_keys": ["…"]`, a YAML block sequence: `X-Api-Key:` then `- …`), each read as a ' +
      "value of that name",
    hints: [], // (from the names' operators: a `[` or a line's `- ` after one)
    find: findListTokens,
  },
  {
    id: "declared-value",
    label: "named-secret",
    kind: "A value declared with a type or declarator between its name and it (Go's " +
      '`const AdminPassword string = "…"`, C\'s `kSecret[] = "…"` and `#define API_KEY "…"`, ' +
      'Rust\'s `: &[u8] = b"…"`, the CDK\'s `SecretValue.unsafePlainText("…")`), read as `const NAME = "…"`',
    hints: [],
    find: findDeclaredValues,
  },
  {
    id: "letters-password",
    label: "password",
    kind: "A password of letters alone under a password name on a data file's line " +
      '(`"passphrase": "swordfish"`, `password: mongopass`, `<password>swordfish</password>`)',
    hints: [":", "=", ">"],
    find: findLetterPasswords,
  },
  {
    id: "sql-row-secret",
    label: "named-secret",
    kind: "A value of SQL's rows under a column named for a secret, by position: " +
      "`INSERT INTO t (…, secret) VALUES (…, '…')`, PostgreSQL's `COPY t (…) FROM stdin;` rows",
    hints: [], // (from the names' rests: a secret column's `,` or `)`)
    find: findSqlRowSecrets,
  },
  {
    id: "foreign-password",
    label: "password",
    kind: "A password under a name in another language than English (`senha`, `contraseña`, " +
      "`mot_de_passe`, `Kennwort`, `wachtwoord`, `hasło`, `пароль`, `密码`, `パスワード`, `비밀번호`, …)",
    hints: [], // (one pattern of its own)
    find: findForeignPasswords,
  },
  {
    id: "file-format-secret",
    label: "password",
    kind: "A secret that a file's format holds, read in its files only: a `.netrc`'s `password` " +
      "token, Subversion's `svn.simple` credentials, `AUTH` in `.rediscli_history`, an Ansible " +
      "literal piped to `password_hash`, a page's `**Password:** `…`` and `` `user` / `…` ``, " +
      "the first column of Kubernetes' `token.csv` and `basic_auth.csv`",
    hints: [], // (the file's path picks the format)
    find: findFileFormatSecrets,
  },
  {
    id: "credential-call",
    label: "password",
    kind: "The password passed by position to a call that takes credentials: " +
      '`HTTPBasicAuth("user", "…")`, `auth=("user", "…")`, `NetworkCredential("user", "…")`, ' +
      '`smtp.login("user", "…")`, `BasicAWSCredentials("AKIA…", "…")`, `DirectoryEntry(path, "user", "…")`, ' +
      '`new PDO(dsn, "user", "…")`, `mysqli_connect(host, "user", "…")`, `getConnection(url, "user", "…")`',
    hints: [], // the rule's own searches (see `_secret_rules_calls.ts`)
    find: findCredentialCalls,
  },
  {
    id: "option-default",
    label: "password",
    kind: "The default of an option or a parameter named for a secret: argparse's and click's " +
      '`"--password", default="…"`, Go\'s `flag.String("password", "…", …)`, commander\'s ' +
      '`.option("--api-key <key>", "…", "…")`, fish\'s `set -x DB_PASSWORD …`, a CloudFormation ' +
      "parameter's `Default:`, zod's `.default(\"…\")`, clap's `default_value = \"…\"` and .NET's " +
      '`[DefaultValue("…")]` before a field named for a secret, Go\'s ' +
      '`env:"DB_PASSWORD" envDefault:"…"`, a shell\'s `read PASSWORD <<< "…"`',
    hints: [], // the rule's own searches (see `_secret_rules_options.ts`)
    find: findOptionDefaults,
  },
  {
    id: "bare-bearer",
    label: "named-secret",
    kind: "A bearer token in a string or a list's item with no name before it: " +
      '`"Bearer …"` (`.header("Authorization", "Bearer …")`), a VCR cassette\'s `- Bearer …`',
    hints: [], // (from the names' search: each `Bearer` and a blank)
    find: findBareBearers,
  },
  {
    id: "encoded-auth",
    label: "basicauth",
    kind: 'A user and password given to a base64 encoder for Basic auth: `btoa("user:…")`, ' +
      "`Buffer.from('user:…').toString('base64')`, `b64encode(b\"user:…\")`, `EncodeToString`",
    gate: "(", // (`textHints` finds an encoder's `(` before a literal)
    hints: [],
    find: findEncodedAuth,
  },
  {
    id: "stub-matcher",
    label: "named-secret",
    kind: "A test stub's matcher of a header or a parameter under a secret's name: WireMock's " +
      '`"X-Api-Key": {"equalTo": "…"}` and `withHeader("X-Api-Key", equalTo("…"))`',
    hints: [], // (its files' words, in its files only)
    find: findStubMatchers,
  },
  {
    id: "element-secret",
    label: "password",
    kind: "The text of an XML element with attributes under a secret's name: FileZilla's " +
      '`<Pass encoding="base64">…</Pass>`, `<password type="x">…</password>`',
    hints: [], // the rule's own search for `</` (a hint would search the text twice)
    find: findElementSecrets,
  },
  {
    id: "bare-basic",
    label: "basicauth",
    kind: "`Basic <base64>` with no name around it, when the base64 decodes to `user:password`",
    hints: [], // the rule's own search for `Basic `
    find: findBareBasic,
  },
  {
    id: "secret",
    label: "secret",
    kind: "Any value of 8+ characters assigned to a password, token or API key name (prose only)",
    hints: [],
    prose: true,
    pattern:
      /\b[A-Za-z0-9_]{0,40}?(?:api[_-]?key|secret|token|password|passwd)[A-Za-z0-9_]{0,40}["']?\s{0,8}[:=]\s{0,8}["']?(?<v>(?=[^\s"'`]{0,256}[A-Za-z])[^\s"'`]{8,256})/gi,
  },
  DOTENV_VAULT_KEY,
];

/**
 * A `\` line continuation after a value's character, and the next line's indent; also as a JSON
 * string escapes it (`\\\n`: a notebook's cell, a value in JSON) and as it reads once blanks are
 * collapsed (`\ `: a Beads description; a shell's escaped blank is part of its word too).
 */
const JOINT = new RegExp(
  String.raw`(?<=${CONTINUED})(?:\\\r?\n|\\\\\\n|\\(?= ))[ \t]{0,64}(?=[^\s\\])`,
  "g",
);

/**
 * Between the two literals a value is split over: the first's closing quote, a concatenation
 * (`+`, PHP's `.`, VB's `&`; or none, Python's and C's literals side by side on the next line)
 * and the second's opening quote, before a value's character.
 */
const CONCAT =
  /\\?(["'])[ \t]{0,16}(?:[+.&][ \t]{0,16}(?:\r?\n[ \t]{0,64})?|\r?\n[ \t]{0,64}(?:[+.&][ \t]{0,16})?)\\?\1(?=[^\s"'\\])/y;
/**
 * An operator, maybe a `(` or a list's `[` (and a line's end after it: Python's `KEY = (` or `KEY
 * = [` then the literals side by side), and a literal's opening quote and its characters (1 to
 * 64, to where {@linkcode CONCAT} may start): the first part of a value split over literals.
 */
const FIRST_LITERAL =
  /(?::=|=>|=|:)[ \t]{0,16}(?:[(\[][ \t]{0,16}(?:\r?\n[ \t]{0,64})?)?\\?["'`][^\s"'`\\]{1,64}/y;
/** {@linkcode CONCAT} searched for: every joint of two literals. */
const CONCAT_SEARCH =
  /\\?(["'])[ \t]{0,16}(?:[+.&][ \t]{0,16}(?:\r?\n[ \t]{0,64})?|\r?\n[ \t]{0,64}(?:[+.&][ \t]{0,16})?)\\?\1(?=[^\s"'\\])/g;
/** A character of a token's piece in a literal. */
const PIECE_CHARACTER = /[A-Za-z0-9_+/=.:$-]/;
/** A token's piece at the start of a literal (sticky). */
const PIECE_AFTER = /[A-Za-z0-9_+/=.:$-]{0,4096}/y;

/**
 * The joints of two literals where the token gate or the prefix gate opens on the first one's
 * piece read with the second one's, at most 8 characters past the first one's end (a prefix cut
 * there: `"gh" + "p_…"`).
 */
function prefixConcatJoints(text: string, path?: string): Edit[] {
  const out: Edit[] = [];
  const joins = literalJoins(text, path);
  for (const m of text.matchAll(CONCAT_SEARCH)) {
    const at = m.index;
    if (!joins(m[0], at)) continue;
    let from = at;
    while (from > at - 256 && PIECE_CHARACTER.test(text[from - 1] ?? "")) from--;
    if (from === at) continue;
    PIECE_AFTER.lastIndex = at + m[0].length;
    const piece = text.slice(from, at) + PIECE_AFTER.exec(text)![0];
    const opens = [TOKEN_GATE, PREFIX_GATE].some((gate) => {
      gate.lastIndex = 0;
      const g = gate.exec(piece);
      return g !== null && g.index < at - from + 8;
    });
    if (opens) out.push({ index: at, length: m[0].length, text: "" });
  }
  return out;
}

/**
 * The files whose languages join string literals side by side on two lines with no operator
 * between (`"a"` then `"b"`): C, C++, Objective-C, D and Python. In others (R, JavaScript, Ruby,
 * Swift, …) the next line's literal is an expression of its own: read as the first one's rest,
 * its redaction took it and the line end before it (two lines of the document made one).
 */
const SIDE_BY_SIDE_FILE =
  /\.(?:c|h|cc|cpp|cxx|c\+\+|hpp|hh|hxx|inl|ipp|m|mm|d|py|pyi|pyw|pyx|pxd|pxi|ipynb)$/i;
/**
 * Python's files, whose literals side by side on two lines are joined only inside brackets
 * (`KEY = (` then `"…"` then `"…")`): outside, the next line's literal is a statement of its own
 * (`password = '…'` then a docstring's `'…'`), and its redaction took that line.
 */
const PYTHON_FILE = /\.(?:py|pyi|pyw|pyx|pxd|pxi)$/i;

/**
 * Whether a {@linkcode CONCAT} joint joins its literals in the file at `path` (none: any file),
 * as a test of each joint's place (a Python file's joint on two lines: inside brackets, asked in
 * ascending order of places).
 */
function literalJoins(text: string, path?: string): (joint: string, at: number) => boolean {
  const python = path !== undefined && PYTHON_FILE.test(path);
  const inside = python ? pythonBrackets(text) : undefined;
  const sideBySide = path === undefined || SIDE_BY_SIDE_FILE.test(path);
  return (joint, at) => {
    if (/[+.&]/.test(joint) || !/[\r\n]/.test(joint)) return true;
    return inside ? inside(at) : sideBySide;
  };
}

/** A JWT's characters (its parts and their dots), up to where its first literal ends. */
const JWT_RUN = /[A-Za-z0-9_.-]{0,8192}/y;

/**
 * Every regular expression the rules run over a whole text, by name: each shape's pattern (by
 * its id) and those the rules written as code use; and every other one they build with
 * `new RegExp` (tests of a name or a value). For the test that bounds what one attempt of each
 * can read (`tests/secrets/no_backtracking_test.ts`), which also reads the rules' modules for
 * their regular expression literals, wherever they are: one made with `new RegExp` must be here,
 * or the test names it.
 *
 * @example
 * ```ts
 * import { SCAN_PATTERNS } from "./secret_rules.ts";
 * Object.keys(SCAN_PATTERNS).includes("NAMED_PASSWORD"); // true
 * ```
 */
export const SCAN_PATTERNS: Record<string, RegExp> = {
  DEVICE_SECRET,
  CONSOLE_PASSWORD,
  WORD_AT_END,
  OTHER_SCRIPTS,
  BEARER_TOKEN,
  TOKEN_GATE,
  PREFIX_GATE,
  PREFIX_OR_BACKSLASH,
  HINT_GATE,
  NAMED_VALUE,
  MAP_VALUE,
  PEM_BEGIN,
  PEM_END,
  PEM_BODY,
  PUTTY_BEGIN,
  PUTTY_END,
  CRYPT_HASH,
  LONG_TOKEN,
  LONG_QUOTED,
  LONG_UNQUOTED,
  LONG_PAIR_VALUE,
  PAIR_GATE,
  NAMED_TOKEN,
  NAMED_PASSWORD,
  TOKEN_PASSWORD,
  NAME_WORD,
  KEY_VALUE,
  ...Object.fromEntries(PAIR_FORMS.map((f, i) => [`PAIR_FORMS[${i}]`, f.pattern])),
  URL_PASSWORD,
  MYSQL_OPTION,
  PGPASS_LINE,
  PGPASS_PASSWORD,
  PGPASS_QUOTED_PASSWORD,
  SSHPASS_OPTION,
  REDIS_OPTION,
  IDENTIFIED_BY,
  SQL_PASSWORD,
  SET_PASSWORD,
  DSL_PASSWORD,
  K8S_SECRET_KIND,
  YAML_DOCUMENT_END,
  K8S_DATA,
  K8S_ENTRY,
  K8S_JSON_DATA,
  CLOSING,
  ATTRIBUTES,
  LETTERS_PASSWORD,
  BASIC_VALUE,
  JWK_PRIVATE,
  ORACLE_CONNECT,
  CREDENTIAL_CALL,
  SETTER_AT,
  SIGN_SECRET_KEY,
  CHAIN_KEY,
  DASH_OPTION,
  LONG_OPTION,
  TOOL_OPTION,
  CURL_COOKIE,
  NET_USER,
  SEVEN_ZIP_OPTION,
  INSECURE_PASSWORD,
  ANSWER_FILE_VALUE,
  UNSEAL_KEY,
  BUNDLE_CREDENTIALS,
  MNEMONIC,
  RECOVERY_WORDS,
  WIFI_PSK,
  CMDKEY_PASS,
  SCHTASKS_RP,
  CARGO_LOGIN,
  CONDA_TOKEN,
  IPSEC_SECRET,
  CONSUL_ENCRYPT,
  WIF_KEY,
  HAR_PAIR,
  HEADER_COOKIE,
  BYTES_LITERAL,
  POSITIONAL_CALL,
  JWT_CALL,
  HASH_CALL,
  ORACLE_CALL,
  SIGNED_URL,
  AWS_CONFIGURE,
  DISCORD_CALL,
  PSEXEC_OPTION,
  SONAR_LOGIN,
  USER_TOKEN,
  JOINT,
  FACEBOOK_TOKEN,
  MYSQLADMIN_PASSWORD,
  CONCAT,
  JWT_RUN,
  BRACE_DEFAULT,
  FALLBACK_AFTER,
  LIST_ITEM,
  // tests of a name or a value the rules took (not run over a text)
  NOT_A_PASSWORD,
  QUERY_NAME_END,
  NAMED_TOKEN_NAME_END,
  ENV_PASSWORD_NAME,
  PASSWORD_NAME_END,
  PLACEHOLDER_WORD,
  REFERENCE,
  ...Object.fromEntries(SECRET_SHAPES.flatMap((s) => s.pattern ? [[s.id, s.pattern]] : [])),
};

/**
 * Every secret of `text` that the table finds (prose-only rules too with
 * `prose`), unsorted and possibly overlapping; `path`, the file's the text is, lets a rule
 * judge by it (a checksum file's digest is no key).
 *
 * @example
 * ```ts
 * import { findSecrets } from "./secret_rules.ts";
 * findSecrets('aws_access_key_id = "AKIAQWERTYUIOPASDFGH"');
 * // [{ start: 21, end: 41, rule: "aws" }]
 * ```
 */
export function findSecrets(
  text: string,
  options: { prose?: boolean; label?: (shape: SecretShape) => string; path?: string } = {},
): SecretMatch[] {
  // Typographic quotes and wide blanks read as the ASCII ones they stand for (a word processor's
  // `password: “…”`, a no-break space after a `:`), and OCaml's and Elixir's other literals as
  // quoted ones (`{|…|}`, `~s(…)`): every match's place is the same in the text.
  text = plainLiterals(plainTypography(text, options.path), options.path);
  const hints = textHints(text);
  const out = findEach(text, options, hints);
  // A value that a `\` line continuation splits (`API_TOKEN="abc\` then `def"`): the rules again
  // on the text with its continuations joined, for the values that cross one.
  if (hints.families.includes("\\")) {
    const joints = [...text.matchAll(JOINT)].map((m) => ({
      index: m.index,
      length: m[0].length,
      text: "",
    }));
    out.push(...joinedMatches(text, options, joints));
  }
  // A value split over two string literals (`"eyJ…" +` then `"…"`): the rules again with the
  // literals joined, where a value found or a JWT's head ends at one.
  const concats = concatJoints(text, out, hints, options.path);
  if (concats.length) out.push(...joinedMatches(text, options, concats));
  // A token in pieces under no hint (`"dop_v" + "1_…"`, `"…" .. "…"`): where a token crosses a
  // joint of its pieces read as one; and wrapped over lines (see `wrapsRead`).
  const pieces = pieceJoints(text, tokenAcross, wrapsRead(text, hints, options.path));
  if (pieces.length) {
    // (read with the joints found before: a token in three pieces may cross one of each)
    const at = new Set(pieces.map((j) => j.index));
    const all = [...pieces, ...concats.filter((j) => !at.has(j.index))];
    all.sort((a, b) => a.index - b.index);
    const apart = all.filter((j, k) => k === 0 || j.index >= all[k - 1].index + all[k - 1].length);
    out.push(...joinedMatches(text, options, apart));
  }
  out.push(...editedMatches(text, options, out, markEscapes(text, options.path)));
  out.push(...editedMatches(text, options, out, complexKeyEdits(text, options.path)));
  // A token written with escapes (`https:\/\/discord.com\/api\/webhooks\/…` in PHP's JSON,
  // `%2F` in a URL, `\u002d`): the rules again with them decoded, for the values that hold one;
  // in a text where the hint search found one (family `E`: a search of its own cost 3% of a scan).
  const escapes = hints.families.includes("E") ? tokenEscapes(text) : [];
  if (escapes.length) out.push(...joinedMatches(text, options, escapes));
  out.push(...wrappedMatches(text, options, out, hints));
  if (text.includes("&")) trimEntityEnds(text, out);
  // A Sealed Secret's values are sealed for one cluster's key: safe to commit, its point.
  // (its values' shape first: a search of every text for its kind cost 2% of a scan)
  const sealed = (m: SecretMatch) =>
    m.end - m.start > 200 && text.startsWith("Ag", m.start) &&
    SEALED_VALUE.test(text.slice(m.start, m.end));
  if (out.some(sealed) && text.includes("SealedSecret")) return out.filter((m) => !sealed(m));
  // A search-only key (Algolia's, DocSearch's) is made for the browser: public by design.
  if (out.length && SEARCH_WORD.test(text)) {
    return out.filter((m) => !searchOnlyKey(text, m.start, m.end));
  }
  return out;
}

/** Notes, logs and prose by their name: where a token is wrapped over lines with no hint left. */
const PROSE_PATH = /\.(?:txt|text|md|markdown|mdx|rst|adoc|org|log|eml|out)$/i;

/**
 * Whether a text's line ends are read as joints of a token wrapped over lines: in a text with a
 * token's hint, and in a note, a log or prose by its name (`PROSE_PATH`), where a token pasted
 * and wrapped has no hint left of its own (`…key is ghp_` then the rest). Code's line ends are
 * not read so without a hint: all of them cost a scan of the stdlib 4 to 8% more.
 */
function wrapsRead(text: string, hints: TextHints, path?: string): boolean {
  return hints.families.replace(NOT_PREFIXES, "") !== "" ||
    (path !== undefined && PROSE_PATH.test(path)) || holdsAny(text, ungatedTokenHints());
}

/**
 * Whether the rules find a token in `piece` (a token's pieces read as one) across one of `cuts`
 * (where its joints were).
 */
function tokenAcross(piece: string, cuts: number[]): boolean {
  const hints = textHints(piece);
  // (a gated token's family, or an ungated one's hint: most pieces hold neither, and are not read)
  if (hints.families.replace(NOT_PREFIXES, "") === "" && !holdsAny(piece, ungatedTokenHints())) {
    return false;
  }
  const across = findEach(piece, { tokens: true }, hints).filter((m) =>
    cuts.some((c) => m.start < c && c < m.end)
  );
  // (a token found whole before a cut that its rule's run reads on past, into the next line's
  // `NAME=` or the next literal, is no token in pieces: it is the text's own match)
  return across.some((m) =>
    cuts.some((c) =>
      m.start < c && c < m.end &&
      !findEach(piece.slice(0, c), { tokens: true }, textHints(piece.slice(0, c))).some((w) =>
        w.start === m.start && w.end === c
      )
    )
  );
}

let ungatedHints: string[] | undefined;

/** The hints of the tokens' shapes that have no gate (`nsec1`), once. */
function ungatedTokenHints(): string[] {
  return ungatedHints ??= SECRET_SHAPES.filter((s) => isToken(s) && !s.gate).flatMap((s) =>
    s.hints
  );
}

/** The words a search-only key's name or config holds (`SEARCH_API_KEY`, `indexName`). */
const SEARCH_WORD = /earch|EARCH|ndexName|ndex_name/;

/**
 * The matches of the rules on `text` read with `edits` made (escapes of quotes and operators
 * decoded: `{&quot;apiKey&quot;:&quot;…&quot;}`, `password\u003d…`, `password%3D…`; YAML's
 * complex keys made plain: `? password` then `: …`), put back where they are in `text`: those
 * that are not the text's own matches (`found`) again.
 */
function editedMatches(
  text: string,
  options: FindOptions,
  found: SecretMatch[],
  edits: Edit[],
): SecretMatch[] {
  if (!edits.length) return [];
  const view = editText(text, edits);
  const out: SecretMatch[] = [];
  // (a match where no edit is is the text's own, at the same place: one set, not a search of
  // `found` per match, which a HAR of many tokens would make quadratic)
  const seen = new Set(found.map((f) => `${f.start}:${f.end}:${f.rule}`));
  for (const m of findEach(view.text, options, textHints(view.text))) {
    const start = sourceStart(view, m.start);
    const end = sourceEnd(view, m.end);
    if (!seen.has(`${start}:${end}:${m.rule}`)) out.push({ ...m, start, end });
  }
  return out;
}

/**
 * The hint families that are no token's prefix: options (`u`, `o`), tools (`t`), names (`p`, `c`,
 * `r`, `i`, `N`, `e`), a `\` continuation, a UNC path, escapes, an array's `.join`, the rare rules'
 * hints (`d`, `j`, `D`, `a`, `n`; see `textHints`). A text of these alone is not searched for wraps (three in four of the stdlib's
 * texts with a family hold no prefix).
 */
const NOT_PREFIXES = /[uotpcriNe\\UE(djDan]/g;

/** What the rules read a text for; `tokens`: only the shapes of tokens (see `isToken`). */
interface FindOptions {
  prose?: boolean;
  label?: (shape: SecretShape) => string;
  path?: string;
  tokens?: boolean;
}

/**
 * The tokens wrapped over lines (see `wrapJoints`): the token rules again with those line ends
 * removed; after the matches' ends in every text, and from a line's piece in a text where the
 * token gate found a prefix (a search of every line end of every text cost 8% of a scan).
 */
function wrappedMatches(
  text: string,
  options: FindOptions,
  found: SecretMatch[],
  hints: TextHints,
): SecretMatch[] {
  const search = hints.families.replace(NOT_PREFIXES, "") !== "";
  const joints = wrapJoints(text, found.map((m) => m.end), [TOKEN_GATE, PREFIX_GATE], search);
  return joints.length ? joinedMatches(text, { ...options, tokens: true }, joints) : [];
}

/** A character reference at a value's end, whose `;` the value stopped before (`…&amp`). */
const ENTITY_END = /&(?:amp|quot|apos|lt|gt|nbsp|#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6})$/;

/**
 * Ends `out`'s matches before a character reference their `;` cut in two (`password=…&amp;next=1`
 * in HTML's and XML's links): the reference is the page's escape of a separator, not the value's,
 * and a half of it left beside the placeholder (`;next=1`) is no escape at all.
 */
function trimEntityEnds(text: string, out: SecretMatch[]): void {
  for (const m of out) {
    if (text[m.end] !== ";") continue;
    const tail = ENTITY_END.exec(text.slice(Math.max(m.start, m.end - 10), m.end));
    if (tail && m.end - tail[0].length > m.start) m.end -= tail[0].length;
  }
}

/** A value that Bitnami's `kubeseal` sealed: base64 of its version byte (`Ag…`), long. */
const SEALED_VALUE = /^Ag[A-Za-z0-9+/]{200,}={0,2}$/;

/**
 * The joints of values split over two string literals ({@linkcode CONCAT}): after each match
 * `found` ends, and after the run of each JWT's head (`eyJ`) in a text whose hints found one.
 */
function concatJoints(
  text: string,
  found: SecretMatch[],
  hints: TextHints,
  path?: string,
): Edit[] {
  const ends = found.map((m) => m.end);
  // A first literal too short to be found (`apiKey = '0Uah' + '…'`): its end, after a name's
  // operator.
  for (const at of namesOf(text, hints).operators) {
    FIRST_LITERAL.lastIndex = at;
    const m = FIRST_LITERAL.exec(text);
    if (m) ends.push(at + m[0].length);
  }
  if (hints.families.includes("J")) {
    // (the next head looked for after the run: one inside it is the same run's)
    for (let at = text.indexOf("eyJ"); at >= 0;) {
      const end = runEnd(JWT_RUN, text, at);
      ends.push(end);
      at = text.indexOf("eyJ", Math.max(end, at + 3));
    }
  }
  const joints: Edit[] = [];
  const joins = literalJoins(text, path);
  for (const end of [...new Set(ends)].sort((a, b) => a - b)) {
    CONCAT.lastIndex = end;
    const m = CONCAT.exec(text);
    if (m && joins(m[0], end)) joints.push({ index: end, length: m[0].length, text: "" });
  }
  // A token's piece in each literal (`"ghp_AbC" + "dEf…"`, written so to keep it from scanners):
  // in a text with a token's prefix, where the gates open on the pieces read as one.
  if (hints.families.replace(NOT_PREFIXES, "") !== "") {
    const at = new Set(joints.map((j) => j.index));
    joints.push(...prefixConcatJoints(text, path).filter((j) => !at.has(j.index)));
    joints.sort((a, b) => a.index - b.index);
  }
  // (`textHints` finds an array's `].join("")` as family `(`)
  if (!hints.families.includes("(") || !text.includes(".join(")) return joints;
  return [...joints, ...arrayJoinJoints(text)].sort((a, b) => a.index - b.index);
}

/** An array's literal (group `v`, after the `[` or a `,` and blanks), from where `y` is set. */
const ARRAY_LITERAL = /[ \t\r\n]{0,64}(["'])(?<v>[^"'\\\r\n]{1,512})\1[ \t\r\n]{0,64}(?<e>[,\]])/dy;

/**
 * The joints of arrays of 2 to 64 literals joined with nothing between (`["xoxb-80", "21-…"]
 * .join("")`, a value split to pass a scanner): each quote, `,` and quote between two literals.
 */
function arrayJoinJoints(text: string): Edit[] {
  const joints: Edit[] = [];
  for (let at = text.indexOf(".join("); at >= 0; at = text.indexOf(".join(", at + 6)) {
    if (!/^\.join\((?:""|'')\)/.test(text.slice(at, at + 10)) || text[at - 1] !== "]") continue;
    const from = text.lastIndexOf("[", at);
    if (from < 0 || at - from > 40_000) continue;
    const ends: Array<[number, number]> = []; // each literal's inside: start and end
    let closed = false;
    ARRAY_LITERAL.lastIndex = from + 1;
    for (let m = ARRAY_LITERAL.exec(text); m && ends.length < 64; m = ARRAY_LITERAL.exec(text)) {
      ends.push(m.indices!.groups!.v!);
      closed = m.groups!.e === "]";
      if (closed) break;
    }
    // the array's literals alone in it, its `]` just before the `.join`
    if (ends.length < 2 || !closed || ARRAY_LITERAL.lastIndex !== at) continue;
    for (let k = 1; k < ends.length; k++) {
      joints.push({ index: ends[k - 1][1], length: ends[k][0] - ends[k - 1][1], text: "" });
    }
  }
  return joints;
}

/**
 * The matches of the rules in `text` with its joints `found` removed (`\` line continuations,
 * the quotes and `+` between two literals) or decoded (an escape, `%2F`, and its `text`, `/`) that
 * cross one, spanning the original text (the `\`, the line end and the indent within; the whole
 * escape). The rules read the lines around each run of joints (the line before, for a name
 * written there), not the whole text again.
 */
function joinedMatches(text: string, options: FindOptions, found: Edit[]): SecretMatch[] {
  const out: SecretMatch[] = [];
  for (let i = 0; i < found.length;) {
    const { from, last, to } = jointWindow(text, found, i);
    const view = editText(text, found.slice(i, last + 1), from, to);
    for (const m of findEach(view.text, options, textHints(view.text))) {
      // (or starts right after a decoded escape: `%3DAKIA…` had no boundary before its `A`)
      if (!crossesEdit(view, m.start, m.end) && !afterDecoded(view, m.start)) continue;
      out.push({ start: sourceStart(view, m.start), end: sourceEnd(view, m.end), rule: m.rule });
    }
    i = last + 1;
  }
  return out;
}

/**
 * The window of joints from `found[i]` on: from the line before the first joint's line to the
 * line after the last joint's line, whole (a value's name may stand far before its joint: a 3 KB
 * base64 key before its `\`), over a run of joints 2 KB apart at most or inside the window so
 * far: joints far apart on one long line are one window, read once (a window each read the whole
 * line again for each). `last` is the run's last joint.
 */
function jointWindow(
  text: string,
  found: Array<{ index: number; length: number }>,
  i: number,
): { from: number; last: number; to: number } {
  const from = lineStart(text, lineStart(text, found[i].index) - 1);
  let last = i;
  let lastLineEnd = lineEnd(text, found[i].index + found[i].length);
  let to = lineEnd(text, lastLineEnd + 1);
  while (last + 1 < found.length) {
    const next = found[last + 1];
    if (next.index - found[last].index >= 2048 && next.index >= to) break;
    last++;
    const end = next.index + next.length;
    // (each line's end looked for once: from the next line on, not again from each joint)
    if (end <= lastLineEnd) continue;
    if (end <= to) lastLineEnd = to;
    else lastLineEnd = lineEnd(text, end);
    to = lineEnd(text, Math.min(lastLineEnd + 1, text.length));
  }
  return { from, last, to };
}

/** Where the line that holds `at` starts (0 before the text). */
function lineStart(text: string, at: number): number {
  return at <= 0 ? 0 : text.lastIndexOf("\n", at - 1) + 1;
}

/** Where the line that holds `at` ends (its `\n`, or the text's end). */
function lineEnd(text: string, at: number): number {
  const end = text.indexOf("\n", at);
  return end < 0 ? text.length : end;
}

/** Whether {@linkcode findEncodedData} is reading a decoded value (a value in it is not decoded again). */
let readingDecoded = false;

/**
 * The base64 values of a YAML file's `data:` and `binaryData:` maps ({@linkcode encodedEntries})
 * whose decoded text holds a secret, each redacted whole: the decoded text (printable, not a
 * binary file's bytes) read by the whole table as a file named by the value's key, so that an
 * `app.env` is read as a `.env` and a `tls.key` as a key.
 */
function findEncodedData(
  text: string,
  _hints?: TextHints,
  path?: string,
): Array<{ start: number; end: number }> {
  if (readingDecoded || !path) return [];
  const yaml = YAML_FILE.test(path) && text.includes("ata:");
  const json = !yaml && /\.json$/i.test(path) && text.includes('ata"');
  if (!yaml && !json) return [];
  const out: Array<{ start: number; end: number }> = [];
  readingDecoded = true;
  try {
    for (const entry of yaml ? encodedEntries(text) : jsonEncodedEntries(text)) {
      const name = entry.key.replace(/[^A-Za-z0-9_.-]/g, "_") || "value";
      // base64 of base64 (a value encoded twice): each decoding read, three at most
      let decoded = decodedText(entry.encoded);
      for (let depth = 0; decoded !== undefined && depth < 3; depth++) {
        if (findSecrets(decoded, { path: name }).length) {
          out.push(entry);
          break;
        }
        const again = decoded.trim();
        decoded = BASE64_TEXT.test(again) ? decodedText(again.replace(/[\r\n]/g, "")) : undefined;
      }
    }
  } finally {
    readingDecoded = false;
  }
  return out;
}

/**
 * The text that base64 `encoded` holds: its bytes read as UTF-8 (a BOM dropped), or nothing for
 * invalid base64, bytes that are not UTF-8, or a control character of a binary file's.
 */
function decodedText(encoded: string): string | undefined {
  let binary: string;
  try {
    binary = atob(encoded);
  } catch {
    return undefined;
  }
  // (ASCII bytes are their own text: no copy and no decoder for them, as in many small values)
  let decoded = binary;
  if (NOT_ASCII.test(binary)) {
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    try {
      decoded = UTF8.decode(bytes);
    } catch {
      return undefined;
    }
  }
  // deno-lint-ignore no-control-regex
  if (!/^[^\x00-\x08\x0b\x0c\x0e-\x1f\x7f]{8,}$/.test(decoded)) return undefined;
  return decoded;
}

/** A byte that is not ASCII. */
const NOT_ASCII = /[\u0080-\uffff]/;
/** A strict UTF-8 decoder (bytes that are not UTF-8 throw). */
const UTF8 = new TextDecoder("utf-8", { fatal: true });
/** Base64 alone, maybe wrapped over lines (a value encoded twice, once decoded). */
const BASE64_TEXT = /^[A-Za-z0-9+/\r\n]{16,199000}={0,2}$/;
/** A YAML file, or a YAML template (`.yaml.tpl`, `.yml.j2`, `.yaml.gotmpl`). */
const YAML_FILE = /\.ya?ml(?:\.(?:tpl|tmpl|j2|jinja2?|gotmpl))?$/i;

/** Whether {@linkcode findDeclaredValues} is reading its declarations' lines (no rule reads them twice). */
let readingDeclared = false;

/**
 * The values of declarations with a type or declarator before them ({@linkcode declaredLines}):
 * each line read as `const NAME = …` by the whole table, its matches inside the value kept.
 */
function findDeclaredValues(
  text: string,
  hints?: TextHints,
  path?: string,
): Array<{ start: number; end: number; rule?: string }> {
  if (readingDeclared) return [];
  const out: Array<{ start: number; end: number; rule?: string }> = [];
  const lines = declaredLines(text, hints);
  if (path) lines.push(...apartLines(text, path));
  if (!lines.length) return out;
  readingDeclared = true;
  try {
    for (const { line, from, at } of lines) {
      for (const m of findEach(line, { path }, textHints(line))) {
        if (m.start >= from) {
          out.push({ start: m.start - from + at, end: m.end - from + at, rule: m.rule });
        }
      }
    }
  } finally {
    readingDeclared = false;
  }
  return out;
}

/**
 * Whether a shape is a token's, known by its start: one with a run, or a pattern with hints
 * that reads no name's value (Twilio's SIDs, whose rule's code adds the secret quoted after one).
 */
function isToken(shape: SecretShape): boolean {
  return shape.run !== undefined ||
    (shape.pattern !== undefined && shape.hints.length > 0 &&
      !shape.pattern.source.includes("(?<v>"));
}

/** Every secret of `text` that the table finds, with its hints. */
function findEach(
  text: string,
  options: FindOptions,
  hints: TextHints,
): SecretMatch[] {
  const out: SecretMatch[] = [];
  for (const shape of SECRET_SHAPES) {
    if ((shape.prose && !options.prose) || (options.tokens && !isToken(shape))) continue;
    if (shape.gate) {
      if (!gateOpen(shape.gate, hints.families)) continue;
    } // A gated rule runs on its family's texts: its own hints would cost a search each.
    else if (shape.hints.length && !holdsAny(text, shape.hints)) continue;
    const label = options.label?.(shape) ?? shape.label;
    if (shape.find) {
      for (const f of shape.find(text, hints, options.path)) {
        // A rule written as code may name its matches (`aws`, `jwt`, `key-map`, …).
        const rule = f.rule ?? label;
        if (f.end > f.start && !onlyPlaceholders(text, f.start, f.end)) {
          out.push({ start: f.start, end: f.end, rule });
        }
      }
      continue;
    }
    if (shape.run) matchRuns(text, shape, label, out);
    else matchEach(text, shape, label, out);
  }
  return out;
}

/**
 * Each shape's pattern as it is searched: with the `d` flag when it has a group `v`, whose place
 * is then read from the match's indices. A pattern may read past its value (a closing quote, as
 * `aws_secret_access_key "…"`): a place counted back from the match's end cut the value's first
 * character and took the quote.
 */
const INDEXED = new WeakMap<RegExp, RegExp>();
function indexed(pattern: RegExp): RegExp {
  let out = INDEXED.get(pattern);
  if (!out) {
    const plain = pattern.hasIndices || !pattern.source.includes("(?<v>");
    out = plain ? pattern : new RegExp(pattern.source, pattern.flags + "d");
    INDEXED.set(pattern, out);
  }
  return out;
}

/** Where a match's value is: its group `v` (by the match's indices), or the whole match. */
function valueAt(m: RegExpExecArray | RegExpMatchArray): [number, number] | undefined {
  const at = m.indices?.groups?.v;
  if (at) return at[1] > at[0] ? [at[0], at[1]] : undefined;
  return m[0] && m.groups?.v === undefined ? [m.index!, m.index! + m[0].length] : undefined;
}

/** The matches of a shape's pattern (group `v`, or the whole match) that it accepts. */
function matchEach(text: string, shape: SecretShape, label: string, out: SecretMatch[]): void {
  const pattern = indexed(shape.pattern!);
  pattern.lastIndex = 0;
  for (const m of text.matchAll(pattern)) {
    const at = valueAt(m);
    if (!at) continue;
    const [start, end] = at;
    const value = text.slice(start, end);
    if (shape.accept && !shape.accept(value, text, start, end)) continue;
    if (onlyPlaceholders(text, start, end)) continue;
    out.push({ start, end, rule: label });
  }
}

/**
 * The matches of a token's shape, each to the end of its run (the shape's `run`): the search goes
 * on after the run, so a long run is read once, not again from each match inside it.
 */
function matchRuns(text: string, shape: SecretShape, label: string, out: SecretMatch[]): void {
  const pattern = indexed(shape.pattern!);
  pattern.lastIndex = 0;
  for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
    const at = valueAt(m);
    if (!at) {
      pattern.lastIndex = m.index + 1; // (an empty match would be found again there)
      continue;
    }
    const start = at[0];
    let end = at[1];
    const value = text.slice(start, end);
    if (shape.accept && !shape.accept(value, text, start, end)) continue;
    // (a run that may not stand, as a base64 blob's `+`, `/` or `=` after it: no match)
    shape.run!.lastIndex = end;
    const run = shape.run!.exec(text);
    if (!run) continue;
    const to = end + run[0].length;
    if (to > end && shape.longer && !shape.longer(value)) continue;
    end = to;
    pattern.lastIndex = Math.max(pattern.lastIndex, end);
    if (!onlyPlaceholders(text, start, end)) out.push({ start, end, rule: label });
  }
}

/** Whether `text` holds one of `hints` (a loop, no closure: run for each rule on each text). */
function holdsAny(text: string, hints: string[]): boolean {
  for (let i = 0; i < hints.length; i++) if (text.includes(hints[i])) return true;
  return false;
}

/**
 * slop's own placeholders (`[REDACTED:kubernetes-secret]`), with blanks between, in a key block's
 * armour or not (`-----BEGIN RSA PRIVATE KEY-----`): no secret.
 */
const PLACEHOLDERS_ONLY =
  /^\s*(?:-----BEGIN [A-Z0-9 ]{1,64}-----\s*)?(?:\[REDACTED:[\w.-]{1,64}\]\s*)+(?:-----END [A-Z0-9 ]{1,64}-----\s*)?$/;

/** slop's placeholder, after blanks, where a span starts (sticky: set `lastIndex`). */
const PLACEHOLDER_AT = /[ \t]{0,64}\[REDACTED:[\w.-]{1,64}\]/y;

/**
 * Whether `start` falls inside one of slop's placeholders: a rule read its name as a value (a URL's
 * `user:[REDACTED:…]@host` scanned again took `REDACTED` for the user and the rest for the
 * password). Looks back no further than a placeholder is long.
 */
function insidePlaceholder(text: string, start: number): boolean {
  const from = Math.max(0, start - 76);
  const at = text.slice(from, start).lastIndexOf("[REDACTED:");
  if (at < 0) return false;
  PLACEHOLDER_AT.lastIndex = from + at;
  return PLACEHOLDER_AT.test(text) && PLACEHOLDER_AT.lastIndex > start;
}

/**
 * Whether `text` from `start` to `end` is slop's own placeholders alone, or starts with one: a
 * redacted text (an output pasted into a project, a block scanned again) scanned again finds
 * nothing. The rules that take every value of a block (a Kubernetes Secret's `data`, a key block)
 * took the placeholders, and `--fail-on-secret` failed on such a file; a rule that reads an
 * unquoted value up to a blank took the placeholder and the pairs after it as one value
 * (`api-key=[REDACTED:password]&content-type=application%2Fjson`), while the value there was
 * redacted already. Only a span that starts with a blank, `[` or `-` is looked at.
 */
function onlyPlaceholders(text: string, start: number, end: number): boolean {
  if (insidePlaceholder(text, start)) return true;
  const first = text.charCodeAt(start);
  if (first !== 91 && first !== 32 && first !== 9 && !(first < 32 || first === 45)) return false;
  PLACEHOLDER_AT.lastIndex = start;
  if (first !== 45 && PLACEHOLDER_AT.test(text) && PLACEHOLDER_AT.lastIndex <= end) return true;
  return end - start < 65_536 && PLACEHOLDERS_ONLY.test(text.slice(start, end));
}

/**
 * Whether a text whose hints' families are `families` holds one of `gate`'s: a loop over a few
 * characters, no array or closure (run for each of 110 gated rules on every text).
 */
function gateOpen(gate: string, families: string): boolean {
  for (let i = 0; i < gate.length; i++) if (families.includes(gate[i])) return true;
  return false;
}

/**
 * Replace matches in `text` by `[REDACTED:<rule>]` (overlapping matches
 * merged: the earliest, then the longest, then the first found names the
 * merge); the findings give the 1-based line of each and its rule, never
 * the value.
 *
 * @example
 * ```ts
 * import { applyRedactions } from "./secret_rules.ts";
 * applyRedactions("a\nkey=XYZ", [{ start: 6, end: 9, rule: "k" }]);
 * // { text: "a\nkey=[REDACTED:k]", findings: [{ line: 2, rule: "k" }] }
 * ```
 */
export function applyRedactions(
  text: string,
  matches: SecretMatch[],
): { text: string; findings: Array<{ line: number; rule: string }> } {
  if (!matches.length) return { text, findings: [] };
  matches.sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: SecretMatch[] = [];
  for (const m of matches) {
    const last = merged[merged.length - 1];
    if (last && m.start < last.end) last.end = Math.max(last.end, m.end);
    else merged.push({ ...m });
  }
  let out = "";
  let at = 0;
  let line = 1;
  const findings: Array<{ line: number; rule: string }> = [];
  for (const m of merged) {
    line += countLineEnds(text, at, m.start);
    findings.push({ line, rule: m.rule });
    const ends = countLineEnds(text, m.start, m.end);
    const marker = `[REDACTED:${m.rule}]`;
    out += text.slice(at, m.start) +
      (ends ? markedLines(text.slice(m.start, m.end), marker) : marker);
    line += ends;
    at = m.end;
  }
  return { text: out + text.slice(at), findings };
}

/** A line end as {@linkcode countLineEnds} counts one (`\r\n` one). */
const LINE_END = /\r\n|[\n\v\f\r\x85\u2028\u2029]/;
/**
 * What a value's line starts with that is not the value: its indent, a YAML list's `- `, an
 * operator and a quote.
 */
const LEADING_GLUE = /^[ \t]{0,256}(?:-[ \t]{1,16})?(?:[+.&][ \t]{0,16}(?=\\?["'`]))?(?:\\?["'`])?/;
/** What a value's line ends with that is not the value: a quote and an operator, a `\` or `,`, blanks. */
const TRAILING_GLUE = /(?:\\?["'`][ \t]{0,16}(?:[+.&,][ \t]{0,16})?|[ \t]{0,16}[\\,]|[ \t]{1,16})$/;

/**
 * A redacted span that held line ends: each of its lines replaced by `marker`, with the line end
 * kept, so the document keeps its lines (a private key of 27 lines is 27 lines of markers, and
 * the line numbers of everything after it stay those of the file). On each line the indent, the
 * quotes and the joining operator around the value's piece stay (`"…" +` then `"…"`); a blank
 * line stays blank.
 */
function markedLines(span: string, marker: string): string {
  const pieces = span.split(new RegExp(`(${LINE_END.source})`));
  let marked = false;
  for (let i = 0; i < pieces.length; i += 2) {
    const piece = pieces[i];
    const lead = i > 0 ? LEADING_GLUE.exec(piece)![0] : "";
    const rest = piece.slice(lead.length);
    // (read in the line's last 40 characters, what the glue can be at most)
    const trail = i < pieces.length - 1 ? TRAILING_GLUE.exec(rest.slice(-40))?.[0] ?? "" : "";
    const core = rest.slice(0, rest.length - trail.length);
    if (core === "" && (marked || i < pieces.length - 1)) {
      pieces[i] = lead + trail;
      continue;
    }
    pieces[i] = lead + marker + trail;
    marked = true;
  }
  return pieces.join("");
}

/**
 * Line ends in `text` from `from` to `to`, as a finding's line counts them: those the rules read
 * as lines, `\n`, a `\r` not followed by `\n` (old Mac and CR-only files; `\r\n` counts once),
 * NEL, the line and paragraph separators (U+2028, U+2029), a form feed and a vertical tab. Reads
 * that span only, and the character after a `\r`.
 *
 * @example
 * ```ts
 * import { countLineEnds } from "./secret_rules.ts";
 * countLineEnds("a\r\nb\rc\nd\u2028e", 0, 10); // 4
 * ```
 */
export function countLineEnds(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 11 || c === 12 || c === 0x85 || c === 0x2028 || c === 0x2029) n++;
    else if (c === 13 && text.charCodeAt(i + 1) !== 10) n++;
  }
  return n;
}
