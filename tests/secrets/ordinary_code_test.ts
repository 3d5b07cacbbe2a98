import assert from "node:assert/strict";
import { redactText } from "../../pipeline/secrets.ts";
import { prng } from "../_helpers.ts";

/** Code that reads, declares or describes a secret, and placeholders: none of it is a value. */
const ORDINARY: Array<[string, string]> = [
  ["a.py", 'password = os.environ["DB_PASSWORD"]\ntoken = request.headers.get("X-Token")\n'],
  [
    "a.ts",
    "const token: string = process.env.GITHUB_TOKEN ?? '';\ninterface A { token: string }\n",
  ],
  ["b.ts", "const apiKey = config.secrets.apiKeyForProduction2024;\nconst key = cacheKey(file);\n"],
  [
    ".env",
    "OPENAI_API_KEY=your-api-key-here\nAWS_SECRET_ACCESS_KEY=${AWS_SECRET}\nTOKEN=<secret>\n",
  ],
  ["c.yaml", "password: changeme\napi_key: xxxxxxxxxxxxxxxxxxxxxxxx\nsecret: '****************'\n"],
  [
    "d.py",
    'URL = "postgres://user:pass@localhost/db"\nDSN = f"mysql://{user}:{password}@{host}/x"\n',
  ],
  [
    "e.py",
    'fmt = "%s://%s:%s@%s" % (scheme, user, password, host)\nurl = "http://u:p@example.com"\n',
  ],
  [
    "package-lock.json",
    '{"node_modules/eslint-visitor-keys": {"version": "3.4.3", "license": "Apache-2.0",\n"integrity": "sha512-wpc+LXeiyiisxPlEkUzU6svyS1frIO3Mgxj1fdy7Pm8Ygzguax2N3Fa/D/ag1WqbOprdI+uY6wMUl8/a2G+iag=="}}\n',
  ],
  ["f.py", 'KEYWORDS = {"if": "keyword if", "def": "function definition"}\n'],
  ["g.md", "Set `Authorization: Bearer <token>` and pass `--token $GITHUB_TOKEN`.\n"],
  // Zeros of a key's length in a sample config and a Go test (benbjohnson/wtf's README, server
  // tests): hex of one digit is no key.
  [
    "README.md",
    `[http]\nblock-key = "${"0".repeat(64)}"\nclient-secret = "${"0".repeat(40)}"\n`,
  ],
  ["server_test.go", `const (\n\tTestGitHubClientSecret = "${"0".repeat(40)}"\n)\n`],
];

Deno.test("redactText() leaves code that reads a secret, declarations and placeholders alone", async () => {
  for (const [path, text] of ORDINARY) {
    const result = await redactText(text, path);
    assert.deepEqual(result.findings, [], `${path}: ${result.text}`);
  }
});

/**
 * Lines of real code (redis, curl, imgui, express) that read a secret from somewhere under a
 * secret's name: a member access (`->`, `.`, `&`), a call that goes on to the next line, a
 * ternary's branch, a name that ends a statement, label text, a lockfile's version.
 */
const REAL_CODE: Array<[string, string]> = [
  [
    "helloworld.c",
    "    RedisModuleKey *key = RedisModule_OpenKey(ctx,argv[1],REDISMODULE_READ|REDISMODULE_WRITE);\n" +
    "    RedisModuleKey *srckey = RedisModule_OpenKey(ctx,argv[1],\n        REDISMODULE_READ|REDISMODULE_WRITE);\n",
  ],
  [
    "sentinel.c",
    "        auth_pass = ri->auth_pass;\n        auth_pass = ri->master->auth_pass;\n",
  ],
  [
    "tls.c",
    "    const char *key_file_pass = client ? ctx_config->client_key_file_pass : ctx_config->server_key_file_pass;\n",
  ],
  ["login.ejs", '<p><label for="password">Password:</label>\n'],
  ["http_digest.c", "    tmp_pass = &data->req.hd_proxy_auth;\n    pw = &fallback;\n"],
  ["lib1588.c", "  const char *proxyuserpwd = libtest_arg4;\n"],
  ["main.cpp", "    info.RenderPass = wd->RenderPass;\n"],
  // A call whose argument is a literal going on to the next lines (grpc-go's
  // `unmarshal_eds_test.go`: ten such map entries under `"test-key"`), and Rust's.
  [
    "unmarshal_eds_test.go",
    '\t\t\t\t\t\t\t"test-key": testutils.MarshalAny(t, &v3corepb.Address{\n' +
    '\t\t\t\t\t\t\t"other-key": proto.Clone(&v3corepb.SocketAddress{\n',
  ],
  ["lib.rs", "    let api_key = Config::builder(ctx, &mut Settings3 {\n"],
  ["yarn.lock", '"registry@^1.0.0":\n  dependencies:\n    verdaccio-htpasswd: 13.0.0-next-8.29\n'],
];

/** Code under a secret's name, one template per language: `{N}` the name, `{M}` a member's name. */
const CODE_TEMPLATES: Array<[string, string]> = [
  [
    "a.c",
    "const char *{N} = conn->cfg->{M};\n{N} = &state->opts.{M};\n{N} = c ? a->{M} : b->{M};\n",
  ],
  ["b.c", "Key *{N} = Open_Key(ctx, argv[2],\n    MODE_READ | MODE_WRITE);\n{N} = arg_{M}7;\n"],
  ["c.cpp", "auto {N} = std::nullopt;\n{N} = self->{M}.get();\n"],
  ["d.go", "var {N} *C.char = C.CString(x)\n{N} := cfg.Auth.{M}\n"],
  [
    "e.rs",
    "struct A {\n    {N}: Option<String>,\n    {M}: Box<dyn Fn()>,\n    api_key: HashMap<String, Vec<u8>>,\n}\n",
  ],
  ["f.ts", "const {N} = cond ? user.{M} : fallback{M}2;\nconst x = y ? z : this.store.{M};\n"],
  ["g.php", "${N} = $this->config->{M};\n"],
  ["h.ejs", '<label for="{N}">Password:</label>\n<label for="{M}">API key:</label>\n'],
  ["i.pl", "  label_for {N} => 'Password (optional, 7-500 characters)';\n"],
  ["Makefile", "git-credential-lib{N}: git-credential-lib{N}.o\n"],
];
const SECRET_NAMES = ["password", "auth_pass", "api_key", "secret_key", "key", "passwd", "token"];
const MEMBERS = ["password", "authPass", "keyFilePass", "secretKey", "master_pwd", "apiToken"];

Deno.test("redactText() keeps code under a secret's name: members, calls, ternaries, types, labels", async () => {
  for (const [path, text] of REAL_CODE) {
    const result = await redactText(text, path);
    assert.equal(result.text, text, path);
  }
  const random = prng(9);
  const pick = (words: string[]) => words[Math.floor(random() * words.length)];
  for (let i = 0; i < 4; i++) {
    for (const [path, template] of CODE_TEMPLATES) {
      const text = template.replaceAll("{N}", pick(SECRET_NAMES)).replaceAll("{M}", pick(MEMBERS));
      const result = await redactText(text, path);
      assert.equal(result.text, text, path);
    }
  }
});

/**
 * A path of names joined by `::` after a type named `…Key` (denoland/deno's `ext/crypto` and
 * `ext/node_crypto`: 60 of its 67 `named-secret` findings), and the same in C++ and PHP: the
 * first colon of `::` is no operator, so the rest of the line is no value.
 */
const PATHS_OF_NAMES: Array<[string, string]> = [
  [
    "decrypt.rs",
    "  let unbound_key = UnboundKey::new(&CHACHA20_POLY1305, key_bytes)\n" +
    "    .map_err(|_| DecryptError::Failed)?;\n",
  ],
  ["keys.rs", "      EcPrivateKey::Secp256k1(key) => Ok(key.to_jwk()),\n"],
  ["lib.rs", "        elliptic_curve::SecretKey::<k256::Secp256k1>::random(&mut rng);\n"],
  ["key.cpp", "auto k = SecretKey::fromBytes(&buf[0], 32, KeyMode::kStrict);\n"],
  ["key.php", "  $key = CryptoKey::loadFromAsciiSafeString($keyAscii, 42);\n"],
];

Deno.test("redactText() keeps a path of names joined by `::` after a key's name", async () => {
  for (const [path, text] of PATHS_OF_NAMES) {
    const result = await redactText(text, path);
    assert.equal(result.text, text, path);
  }
  // The same value after a `:` of its own is still a key.
  const wordpress = "AUTH_KEY: MW1pxMctoyA(>M%0Vl 2(#o0|2$cB+K|.G$hB~4Juw@]:(5;oVUl<<W3^e_R-fg\n";
  assert.equal(
    (await redactText(wordpress, "wp.yaml")).text,
    "AUTH_KEY: [REDACTED:named-secret]\n",
  );
});

Deno.test("redactText() keeps public keys and maps under words that only start with a secret's", async () => {
  const random = prng(11);
  const hex = (n: number) =>
    Array.from({ length: n }, () => "0123456789abcdef"[Math.floor(random() * 16)]).join("");
  const point = "04" + hex(128);
  const spki = "3059301306072a8648ce3d020106082a8648ce3d03010703420004" + hex(128);
  const kept = [
    `DISCORD_PUBLIC_KEY=${hex(64)}\n`,
    `"publicKey": "${point}",\n`,
    `public_key_hex = "${hex(64)}"\n`,
    `"keyDer" : "${spki}",\n`,
    `"key" : {\n  "curve" : "secp256r1",\n  "type" : "EcPublicKey",\n  "wx" : "${hex(64)}"\n},\n`,
    `"keyv": {\n  "version": "3.1.0",\n  "resolved": "https://registry.npmjs.org/keyv/-/keyv-3.1.0.tgz",\n  "integrity": "sha512-${
      hex(40)
    }"\n},\n`,
    `"keyboard": {"layout": "qwerty-${hex(12)}"}\n`,
  ];
  for (const text of kept) assert.equal((await redactText(text, "a.json")).text, text);
  // The same values under a private or a key's name are still redacted.
  const secret = hex(64);
  const redacted = [
    `"privateKey": "${secret}",\n`,
    `"private_key_der": "308187020100301306072a8648ce3d020106082a8648ce3d030107046d306b0201010420${secret}"\n`,
    `"api_keys": {"prod": "${secret}"}\n`,
  ];
  for (const text of redacted) {
    assert.ok(!(await redactText(text, "a.json")).text.includes(secret.slice(0, 12)), text);
  }
});

/**
 * A shell test compares a variable's expansion with a word (`test "$linkmode,$pass" =
 * "lib,link"`, libtool): `=` there is a comparison, as `==` is elsewhere, not an assignment. A
 * shell assignment has no blank around its `=`, and `$pass = "…"` outside a test is PHP's or
 * Perl's assignment: both stay redacted.
 */
const SHELL_TESTS = [
  'if test "$linkmode,${N}" = "{V}"; then\n  :\nfi\n',
  'if [ "${N}" = "{V}" ]; then :; fi\n',
  "[[ ${N} = {V} ]] && echo same\n",
  'elif [ "$mode" = lib ] && [ "x${N}" = "x{V}" ]; then\n',
  'test -n "$a" -a "${N}" = \'{V}\' || exit 1\n',
  '    while test "${N}" = "{V}"; do shift; done\n',
];
const SHELL_ASSIGNMENTS = [
  '{N}="{V}"\n',
  "export {N}={V}\n",
  '[ -z "${N}" ] && {N}="{V}"\n',
  '${N} = "{V}";\n',
  'if ($ok) { ${N} = "{V}"; }\n',
];

Deno.test("redactText() keeps a shell test's comparison of a secret's variable with a word, and redacts its assignments", async () => {
  const random = prng(11);
  const pick = (words: string[]) => words[Math.floor(random() * words.length)];
  const names = ["pass", "PASSWORD", "db_pass", "passwd", "SECRET", "api_key", "pwd"];
  const values = ["lib,link", "hunter2x9", "S3cr3t!pw", "prog,scan,x"];
  for (let i = 0; i < 6; i++) {
    const fill = (form: string) => {
      const name = pick(names);
      return form.replaceAll("{N}", name).replaceAll("{V}", pick(values));
    };
    for (const form of SHELL_TESTS) {
      const text = fill(form);
      assert.equal((await redactText(text, "ltmain.sh")).text, text);
    }
    for (const form of SHELL_ASSIGNMENTS) {
      const text = fill(form);
      const result = await redactText(text, "a.sh");
      assert.equal(result.findings.length, 1, `${text}${result.text}`);
    }
  }
});

Deno.test("redactText() keeps the code between two string literals that a password's quotes seem to enclose", async () => {
  // HeidiSQL's Pascal and its kin: `'…'+expr+'…'` read as a quoted value `+expr+` (the literals'
  // inner quotes taken for the value's), so the expression was redacted as a password.
  const code: Array<[string, string]> = [
    ["a.pas", `      QuotedPassword := '"'+Parameters.Password+'"';\n`],
    ["b.pas", `      'Password='+QuotedPassword+';'+\n`],
    ["c.pas", `  Query('SET PASSWORD=PASSWORD('+EscapeString(Dialog.editPassword.Text)+')');\n`],
    ["d.php", `$sql = 'SET PASSWORD = PASSWORD(' . $db->quote($pw) . ')';\n`],
    ["e.py", `q = 'ALTER USER u IDENTIFIED BY ' + quote(pw) + ';'\n`],
    ["f.sql", `EXECUTE 'ALTER ROLE x PASSWORD ' || quote_literal(pw) || ';';\n`],
  ];
  for (const [path, text] of code) {
    const result = await redactText(text, path);
    assert.deepEqual(result.findings, [], `${path}: ${result.text}`);
  }
  // The values themselves, and a value that holds such a sign inside, are still found.
  for (
    const text of [
      `SET PASSWORD = PASSWORD('Zq7+wK2p');\n`,
      `q = "ALTER USER u IDENTIFIED BY 'Zq7+wK2p&x'"\n`,
      `password = '+Zq7wK2p9'\n`,
      `password = '+Zq7wK2p9+'\n`,
    ]
  ) {
    assert.equal((await redactText(text, "x.py")).findings.length, 1, text);
  }
});

Deno.test("redactText() keeps a struct literal's or initializer's field given a name of code", async () => {
  // grpc-go's examples/features/authz/client/main.go: a field of a struct literal, an object
  // initializer or a call's labelled argument given a variable, a member or a call is code.
  const code: Array<[string, string]> = [
    ["main.go", "\toath2Token := oauth2.Token{AccessToken: tokenBase64}\n"],
    [
      "a.go",
      "\tc := Config{Secret: secretFromEnv(), Token: tok, Password: storedCred2}\n",
    ],
    [
      "b.go",
      "\tc := &Config{\n\t\tPassword: storedCred2,\n\t\tSecret:   secretFromEnv(),\n" +
      "\t\tToken:    tokenBase64,\n\t}\n",
    ],
    ["a.rs", "let c = Config { password: stored_cred2, token: token_base64 };\n"],
    ["a.swift", "let c = Config(password: userCred2, token: tokenBase64)\n"],
    ["a.cs", "var c = new Config { Password = storedCred2, Secret = SecretFromEnv() };\n"],
    ["b.cs", "var c = new Config\n{\n    Secret = storedCred2,\n    Token = tokenBase64\n};\n"],
  ];
  for (const [path, text] of code) {
    const result = await redactText(text, path);
    assert.deepEqual(result.findings, [], `${path}: ${result.text}`);
  }
  // The same shapes with a value that is a secret are still found: quoted, a password's mix of
  // letters and digits unquoted, a YAML line or flow map, a shell function's assignment.
  for (
    const [path, text] of [
      [
        "c.go",
        '\ttok := oauth2.Token{AccessToken: "ya29.a0AfH6SMBx3kQ9zL2mN8pR7tV4wY1cE5gJ0hK"}\n',
      ],
      ["d.go", '\tc := Config{Password: "tokenBase64"}\n'],
      ["e.go", "\tc := Config{Password: S3cret9x}\n"],
      ["a.yaml", "db:\n  password: storedCred2\n"],
      ["a.env", "DB_PASSWORD=storedCred2\n"],
      ["b.yaml", "db: {password: storedCred2}\n"],
      ["a.sh", "setup() {\n  DB_PASSWORD=storedCred2\n}\n"],
    ]
  ) {
    assert.equal((await redactText(text, path)).findings.length, 1, `${path}: ${text}`);
  }
});

Deno.test("redactText() keeps a map's names and values of words under a key's name", async () => {
  // grpc-go's authz/rbac_translator_test.go: a test case named "missing header key" holds a
  // JSON policy whose `"name": "allow_policy_1"` the key-map rule took for a key.
  const text = '\t\t"missing header key": {\n\t\t\tauthzPolicy: `{\n\t\t\t\t"name": "authz",\n' +
    '\t\t\t\t"allow_rules": [{\n\t\t\t\t\t"name": "allow_policy_1",\n' +
    '\t\t\t\t\t"request": {"path": "path_foo_2024"}\n\t\t\t\t}]\n\t\t\t}`,\n\t\t},\n';
  const result = await redactText(text, "rbac_translator_test.go");
  assert.deepEqual(result.findings, [], result.text);
  // A map of keys still has its keys found, a key of words and digits joined by `_` too.
  const keys = 'LLM_API_KEY_MAP={"name": "prodKeys2024", "together": "abcdefgh12", ' +
    '"openai": "k3x_Qz9pW2_vB7mR4tY8"}\n';
  assert.deepEqual(
    (await redactText(keys, "a.env")).findings.map((f) => f.rule),
    ["key-map", "key-map"],
  );
});

Deno.test("redactText() keeps an anonymous login's password, and redacts a user's", async () => {
  // An anonymous FTP login gives an e-mail address or `-anonymous@` by convention (Net::FTP's and
  // ftplib's documented examples): no secret, in Python's `.login(` and Perl's `->login(` alike.
  const kept = [
    ["fetch.py", "ftp.login('anonymous', '-anonymous@')\n"],
    ["fetch.pl", "$ftp->login(\"anonymous\",'-anonymous@') or die;\n"],
    ["Fetch.pm", "$ftp->login('ftp', 'me@my.host') or die;\n"],
  ];
  for (const [path, text] of kept) assert.equal((await redactText(text, path)).text, text, path);
  const { text } = await redactText("$ftp->login('alice', '-S3cr3t@pw') or die;\n", "fetch.pl");
  assert.equal(text, "$ftp->login('alice', '[REDACTED:password]') or die;\n");
});

// vim/vim (2026-12): its manuals' lines that start with the word "key" ("Shift\nkey pressed, and
// ...") were redacted as a device config's `key SECRET` directive, and netrw's Vim script
// variables (`let s:netrw_passwd= g:netrw_passwd`) as passwords.
Deno.test("redactText() keeps prose lines that start with a secret's word, and Vim script's scoped variables", async () => {
  const kept: Array<[string, string]> = [
    ["runtime/doc/intro.txt", "     key pressed, and the 'selectmode' option contains \"key\"\n"],
    ["runtime/doc/mbyte.txt", "key inputs, you cannot input 'j', 'k', or almost all of keys.\n"],
    ["doc/gui.txt", "use the left mouse button, while keeping the Shift\nkey pressed.\n"],
    ["notes.txt", "secret sauce, they say, is patience.\npassword resets, twice a year.\n"],
    [
      "autoload/netrw.vim",
      "let s:netrw_hup[host].passwd = s:netrw_passwd\nlet s:netrw_passwd= g:netrw_passwd\n",
    ],
  ];
  for (const [path, text] of kept) {
    assert.deepEqual((await redactText(text, path)).findings, [], path);
  }
  // The same places with a password in them are still redacted.
  const redacted: Array<[string, string]> = [
    ["router.txt", "username admin password 0 Xk9#fj2Lq\nkey 7 0822455D0A16\n"],
    ["autoload/netrw.vim", "let g:netrw_passwd = 'Xk9fjw3Lq'\n"],
  ];
  for (const [path, text] of redacted) {
    const { text: out } = await redactText(text, path);
    assert.doesNotMatch(out, /Xk9|0822455D0A16/, path);
  }
});

/**
 * A statement of code on the line after a label that reads as a key's name (junegunn/fzf's
 * header parser: `case "x-api-key":` then `apiKey = strings.TrimSpace(pair[1])`): the key rules
 * read a YAML key's value on the next line, and the statement is code, not a value. A random key
 * there is still one.
 */
Deno.test("redactText() keeps an assignment of code on the line after a label that reads as a key", async () => {
  const labels = ['case "x-api-key":', "case 'secret_key':", 'when "api-key":', "api_key:"];
  const statements = [
    "apiKey = strings.TrimSpace(pair[1])",
    "key := strings.TrimPrefix(value, prefix)[0]",
    "secretKey += parts[1].trim()",
    "self.key = headers.get(name).strip()",
  ];
  for (const label of labels) {
    for (const statement of statements) {
      const text = `switch name {\n\t${label}\n\t\t${statement}\n}\n`;
      const result = await redactText(text, "parse.go");
      assert.equal(result.text, text, text);
    }
    const key = "MW1pxMctoyA(>M%0Vl 2(#o0|2$cB+K|.G$hB~4Juw@]:(5;oVUl<<W3^e_R-fg";
    const secret = await redactText(`${label}\n  ${key}\n`, "keys.yaml");
    assert.ok(!secret.text.includes(key), secret.text);
  }
});
