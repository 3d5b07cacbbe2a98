import assert from "node:assert/strict";
import { redactText } from "../../pipeline/secrets.ts";

/** Code and prose around password names that holds no password: each must stay as written. */
const LEFT_ALONE: Array<[string, string]> = [
  ["a.py", "self.username, self.password = credentials\n"],
  ["b.ts", "url.password = this.#internals.password;\nconst value = url ? url.password : x;\n"],
  ["c.ts", "await got({password: 'new-password'});\nclientKeyPassword: 'randomPassword',\n"],
  ["d.json", '{"password": "Password", "confirmPassword": "Confirm password"}\n'],
  ["e.css", ".input-password:focus-visible { outline: none; }\n"],
  ["f.py", 'raise TypeError("pwd: expected bytes, got %s" % type(pwd).__name__)\n'],
  ["g.ts", "interface A {\n  secret: boolean;\n  password: string;\n}\n"],
  ["h.py", "def f(password: Optional[str] = None, secret: SecretStr = None): ...\n"],
  ["i.py", 'password_hash = "$2b$12$abcdefghijklmnopqrstuv"\nsecret_name = "tls-cert-prod"\n'],
  ["j.yaml", "env:\n  - name: DB_PASSWORD\n    valueFrom:\n      secretKeyRef:\n        key: pw\n"],
  ["Dockerfile", "ENV PASSWORD_FILE /run/secrets/db\nENV API_TOKEN ${API_TOKEN}\n"],
  ["k.md", "The password combination.\nSet `password = os.environ['PW']` first.\n"],
  ["l.yaml", "spec:\n  secretName: tls-cert\n  password: {{ .Values.password }}\n"],
  ["m.env", "DB_PASSWORD=${DB_PASSWORD}\nAPI_KEY=$API_KEY\nSECRET_KEY=%(secret)s\n"],
  // A documentation's stand-in of words that holds the name's word (the Postgres image's docs):
  // kept on purpose, see docs/secrets.md.
  ["n.env", "POSTGRES_PASSWORD=mysecretpassword\n"],
  ["o.yaml", "db:\n  password: supersecretpassword\n"],
  // Code inside a JSON string (escaped newlines), and a pattern's source.
  ["n.json", '["const apiKey = config.secrets.apiKey2024;\\nconst key = 1;\\n"]\n'],
  ["o.ts", 'const HINTS = [{ rule: "npm", source: "_authToken=|npm_|x-oauth-basic" }];\n'],
  // `pass` inside a word, a comparison, markup's text after an attribute.
  ["p.py", "bypass = 'Tr0ub4dor3'\ncompass_key = 'N45W12x9'\nif password == 'abcdef1':\n"],
  ["q.html", '<td class="api_key">abc_def</td>\n<label for="password">Password</label>\n'],
  // Number literals of code under a `pass` name (a WebGL constant, a count).
  ["r.ts", "readonly STENCIL_PASS_DEPTH_PASS: 0x0B96;\nconst max_pass = 100000;\n"],
  // Elements with attributes: markup, references; a tool's name over references and commands.
  ["s.html", '<input type="password" name="pw">\n<label class="x">Password</label>\n'],
  ["s.xml", '<Password encrypted="true">${DB_PASS}</Password>\n<token a="1">abc</token>\n'],
  ["s.yml", "env:\n  GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}\n  SSHPASS: $DEPLOY_PW\n"],
  ["s.sh", 'sshpass -p "$PW" ssh host\nNPM_TOKEN="NPM_TOKEN"\nsshpass = which("sshpass")\n'],
  // Letters under a password name: stand-ins, labels, rules, code (calls, members, comparisons)
  [
    "u.yaml",
    'password: password\npasswordLabel: "Password"\npwd: changeme\n"password": "Kennwort"\n',
  ],
  ["v.json", '{"password": "required", "dbPassword": "dbpassword", "pass": "SECRET"}\n'],
  [
    "w.py",
    'password = get_password()\nconnect(password="swordfish")\nself.zip.pwd = "python"\n' +
    'if password == "swordfish":\npassword:mongopass\n',
  ],
  ["x.ts", "const o = {\n  password: hashedPassword,\n  password: secret\n};\n"],
  // `Basic` and base64 that is not `user:password`, or is a stand-in (`user:pass`, `test:test`)
  ["t.md", "Basic Auth\nBasic dXNlcjpwYXNz and Basic dGVzdDp0ZXN0\nBasic aGVsbG8gd29ybGQ=\n"],
  // `PASS` glued to a word that is one (`BYPASS`); member accesses; words and names as keys
  ["y.env", "BYPASS=enabled1x\nCOMPASS=N45W12x9\ntoken: config.secrets.apiKey2024\n"],
  ["y.yml", "token: s.accessTokenFromReply\nsecret: self.settings.signingSecretValue\n"],
  [
    "z.env",
    "HEROKU_API_KEY='sampleHerokuKey'\napi_key: \"getJSDocReturnTagValue\"\n" +
    "secret: abcdefghijklmnopqrstuvwxyz\nx = {apiKey: kXqPzRtWvBnMlYhGfDsa}\n",
  ],
  // a public JWK; Oracle with no user, with references; calls that pass names, stand-ins, formats
  [
    "jwks.json",
    '{"keys": [{"kty": "RSA", "kid": "k1Q2w3E4r5T6y7U8", "n": "0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFb", "e": "AQAB"}]}\n',
  ],
  ["o.sh", "sqlplus / as sysdba\nsqlplus $DB_USER/$DB_PASS@orcl\n"],
  [
    "p.ps1",
    'Connect-VIServer "$e" -User "$u" -Password "$password"\nls -Token\n' +
    "$s = ConvertTo-SecureString -String $env:PW -AsPlainText -Force\n",
  ],
  ["c.py", 'server.login(user, password)\nsmtp.login("me", "%s")\nauth = ("user", "pass")\n'],
];

Deno.test("a password name over code, types, references and stand-ins finds nothing", async () => {
  for (const [path, text] of LEFT_ALONE) {
    const result = await redactText(text, path);
    assert.deepEqual(result.findings, [], `${path}: ${result.text}`);
  }
});

Deno.test("a value under a password name is redacted whatever its shape, only the value", async () => {
  const cases: Array<[string, string, string]> = [
    [".env", "DB_PASSWORD=hunter2hunter2\n", "DB_PASSWORD=[REDACTED:password]\n"],
    // Passwords that hold the marks of code: a `;` ending a config line, a `-` or `->` between
    // words with digits mixed into their letters, a key's `(` and `,` (not read as code)
    ["my.cnf", "[client]\npassword = S3cret9x;\n", "[client]\npassword = [REDACTED:password];\n"],
    [
      ".env",
      "DB_PASSWORD=Summer-2024.x\nAPI_PASSWORD=P4ss->w0rd9\n",
      "DB_PASSWORD=[REDACTED:password]\nAPI_PASSWORD=[REDACTED:password]\n",
    ],
    [
      "c.env",
      "SECURE_AUTH_KEY=Ab3dEf(gh1,jK2lM[n0]pQ|rS4tU*vW5xY,zA6bC!dE7fG.hI8jK\n",
      "SECURE_AUTH_KEY=[REDACTED:named-secret]\n",
    ],
    ["a.yaml", "db:\n  password: S3cr3t!pw\n", "db:\n  password: [REDACTED:password]\n"],
    ["a.py", 'connect(password="correct-horse-9")\n', 'connect(password="[REDACTED:password]")\n'],
    ["a.ts", "const apiKey = `my-key-2024`;\n", "const apiKey = `[REDACTED:password]`;\n"],
    ["a.xml", "<password>pa55word!</password>\n", "<password>[REDACTED:password]</password>\n"],
    ["a.ini", "[db]\nsecret_key = Xy9_abcdef\n", "[db]\nsecret_key = [REDACTED:password]\n"],
    [
      "a.sh",
      'export PGPASSWORD="S3cr3t Passw0rd two"\n',
      'export PGPASSWORD="[REDACTED:password]"\n',
    ],
    [
      ".netrc",
      "machine h login me password pa55-word\n",
      "machine h login me password [REDACTED:password]\n",
    ],
    // base64 of `user:password` with a blank in the password, after `Basic` under a name
    [
      "zap.yml",
      'ZAP_AUTH_HEADER_VALUE: "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ=="\n',
      'ZAP_AUTH_HEADER_VALUE: "Basic [REDACTED:basicauth]"\n',
    ],
    // `pass` as a name's word, a plural, an element's text with no digit, `=` and `>` inside,
    // another quote inside (a WordPress salt's backtick)
    [
      "b.json",
      '{"pass": "hunter22", "dbPass": "x9y8z7w6"}\n',
      '{"pass": "[REDACTED:password]", "dbPass": "[REDACTED:password]"}\n',
    ],
    [".bashrc", "export MLAB_PASS='password123'\n", "export MLAB_PASS='[REDACTED:password]'\n"],
    [
      "b.xml",
      "<o2_passwords>Hardcoded1</o2_passwords>\n",
      "<o2_passwords>[REDACTED:password]</o2_passwords>\n",
    ],
    [
      "c.xml",
      "<apikey>YXNkZmZmZmZm_HARDcoded</apikey>\n",
      "<apikey>[REDACTED:password]</apikey>\n",
    ],
    [
      "settings.py",
      "SECRET_KEY = 'zh!=!gq(w^_t[>R29954x'\n",
      "SECRET_KEY = '[REDACTED:password]'\n",
    ],
    [
      "wp.php",
      "define('AUTH_SECRET', 'a1`b\"c>d=e f');\n",
      "define('AUTH_SECRET', '[REDACTED:password]');\n",
    ],
    // an element with attributes (FileZilla's base64 password), a tool's environment name
    [
      "recentservers.xml",
      '<User>root</User>\n<Pass encoding="base64">aHVudGVyMjI=</Pass>\n',
      '<User>root</User>\n<Pass encoding="base64">[REDACTED:password]</Pass>\n',
    ],
    [
      "d.xml",
      "<password type='x' a=\"b\">S3cr3tPw9</password>\n",
      "<password type='x' a=\"b\">[REDACTED:password]</password>\n",
    ],
    [
      "app.config",
      '<add key="DbPassword" value="S3cr3t9x" />\n<add name="Main" connectionString="Server=db;Password=S3cr3t9x;" />\n',
      '<add key="DbPassword" value="[REDACTED:password]" />\n<add name="Main" connectionString="Server=db;Password=[REDACTED:password];" />\n',
    ],
    [
      ".env",
      "SSHPASS=S3cr3t9x\nREDISCLI_AUTH=S3cr3t9x\nAWS_SESSION_TOKEN=S3cr3t9x\nnpm_token: 'S3cr3t9x'\n",
      "SSHPASS=[REDACTED:password]\nREDISCLI_AUTH=[REDACTED:password]\n" +
      "AWS_SESSION_TOKEN=[REDACTED:password]\nnpm_token: '[REDACTED:password]'\n",
    ],
    // letters alone under a password name, on a data file's line
    [
      "f.json",
      '{"passphrase": "swordfish", "userPassword" : "mongopass"}\n',
      '{"passphrase": "[REDACTED:password]", "userPassword" : "[REDACTED:password]"}\n',
    ],
    [
      "f.yaml",
      "db:\n  password: mongopass\n  pass: 'hunter'  # old\n",
      "db:\n  password: [REDACTED:password]\n  pass: '[REDACTED:password]'  # old\n",
    ],
    [
      "f.properties",
      "spring.datasource.password=swordfish\n[db]\nDB_PASSWORD = swordfish\n",
      "spring.datasource.password=[REDACTED:password]\n[db]\nDB_PASSWORD = [REDACTED:password]\n",
    ],
    [
      "f.xml",
      "<password>swordfish</password>\n<DB_PASSWORD>justForTesting</DB_PASSWORD>\n",
      "<password>[REDACTED:password]</password>\n<DB_PASSWORD>[REDACTED:password]</DB_PASSWORD>\n",
    ],
    // `Basic <base64>` with no name around it: base64 of `user:password`
    [
      "e.txt",
      `replacement=Basic ${btoa("alice:s3cret-pw")}\n# Basic ${btoa("bob:open sesame")}\n`,
      "replacement=Basic [REDACTED:basicauth]\n# Basic [REDACTED:basicauth]\n",
    ],
    // lower case `basic` too, with no name around it
    [
      "e.sh",
      `curl -H "authorization: basic ${btoa("alice:s3cret-pw")}" https://x\n`,
      'curl -H "authorization: basic [REDACTED:basicauth]" https://x\n',
    ],
    // `pw` as a name's word, `PASS` glued to an environment variable's name
    [
      "g.env",
      "SMBPASS=S3cr3t9x\nLDAP_BIND_PW=S3cr3t9x\nENV MAIL_PW S3cr3t9x\nldapPw: 'S3cr3t9x'\n",
      "SMBPASS=[REDACTED:password]\nLDAP_BIND_PW=[REDACTED:password]\n" +
      "ENV MAIL_PW [REDACTED:password]\nldapPw: '[REDACTED:password]'\n",
    ],
    // tokens whose prefix ends in `.`: they read as a member of code
    [
      "h.env",
      "VAULT_TOKEN=s.Z4bTMtngfLeQ18AqVoBBkUAOD1\nBOOTSTRAP_TOKEN: be8dfd.da8a689a46edc282\n",
      "VAULT_TOKEN=[REDACTED:hashicorp-vault]\nBOOTSTRAP_TOKEN: [REDACTED:kubernetes-token]\n",
    ],
    // random letters under a key's name, quoted or on a data line
    [
      "i.env",
      "API_TOKEN=kXqPzRtWvBnMlYhGfDsa\ntoken: kXqPzRtWvBnMlYhGfDsa\n",
      "API_TOKEN=[REDACTED:named-secret]\ntoken: [REDACTED:named-secret]\n",
    ],
    // every private member of a JWK, in JSON and in a JSON string; its public ones stay
    [
      "k.json",
      '{"kty":"RSA","n":"0vx7agoebGcQSuuPiLJX","e":"AQAB","d":"X4cTteJY_gn4FYPsXB8rdX",' +
      '"p":"83i-7IvMGXoMXCskv73TKr","q":"3dfOR9cuYq-0S-mkFLzgIt","dp":"G4sPXkc6Ya9y8oJW9_ILj4",' +
      '"dq":"s9lAH9fggBsoFR8Oac2R_E","qi":"GyM_p6JrXySiz1toFgKbWV"}\n' +
      '{"jwk": "{\\"kty\\":\\"oct\\",\\"k\\":\\"AyM1SysPpbyDfgZld3umj1qzKObwVMkoqQ\\"}"}\n',
      '{"kty":"RSA","n":"0vx7agoebGcQSuuPiLJX","e":"AQAB","d":"[REDACTED:private-key]",' +
      '"p":"[REDACTED:private-key]","q":"[REDACTED:private-key]","dp":"[REDACTED:private-key]",' +
      '"dq":"[REDACTED:private-key]","qi":"[REDACTED:private-key]"}\n' +
      '{"jwk": "{\\"kty\\":\\"oct\\",\\"k\\":\\"[REDACTED:private-key]\\"}"}\n',
    ],
    // connection strings in the forms the drivers take (found before rules version 10: kept so)
    [
      "o.properties",
      "a=jdbc:mysql://db:3306/app?user=root&password=S3cr3tPw9x\n" +
      "b=jdbc:sqlserver://db:1433;databaseName=app;user=sa;password=S3cr3tPw9x;\n" +
      'c = "Driver={ODBC Driver 17};Server=db;Uid=sa;Pwd=S3cr3tPw9x;"\n' +
      "d=mongodb+srv://admin:S3cr3tPw9x@cluster0.abcd.mongodb.net/test\n" +
      "e=redis://:S3cr3tPw9x@cache:6379/0\nf=amqps://guest:S3cr3tPw9x@rabbit:5671/vhost\n",
      "a=jdbc:mysql://db:3306/app?user=root&password=[REDACTED:password]\n" +
      "b=jdbc:sqlserver://db:1433;databaseName=app;user=sa;password=[REDACTED:password];\n" +
      'c = "Driver={ODBC Driver 17};Server=db;Uid=sa;Pwd=[REDACTED:password];"\n' +
      "d=mongodb+srv://admin:[REDACTED:database-connection-string]@cluster0.abcd.mongodb.net/test\n" +
      "e=redis://:[REDACTED:database-connection-string]@cache:6379/0\n" +
      "f=amqps://guest:[REDACTED:database-connection-string]@rabbit:5671/vhost\n",
    ],
    // a connection string's next key after an unquoted password is no part of it: it stays
    [
      "p.cs",
      'var c = "Server=db;Database=app;User Id=sa;Password=S3cr3tPw9x;Encrypt=true";\n' +
      "DB=Host=db;Pwd=S3cr3tPw9x;Database=app\nPASSWORD=S3cr;3tPw9x\n",
      'var c = "Server=db;Database=app;User Id=sa;Password=[REDACTED:password];Encrypt=true";\n' +
      "DB=Host=db;Pwd=[REDACTED:password];Database=app\nPASSWORD=[REDACTED:password]\n",
    ],
    // Okta's `SSWS` scheme, WireGuard's preshared key
    [
      "n.txt",
      "Authorization: SSWS 00QCjAl4MlV-WPXM-Zk2Q9pLr-0HmjFx-vbGua\n" +
      "PresharedKey = uRsfsZ2Ts1rach4Zv3hhwcx6wa5fuIo2u3w7sa+7j81=\n",
      "Authorization: SSWS [REDACTED:bearer]\nPresharedKey = [REDACTED:named-secret]\n",
    ],
    // one-dash password options, a SecureString made from plain text
    [
      "m.ps1",
      "Connect-VIServer vc1 -User admin -Password VMware1!\nkeytool -storepass 'S3cret Ks9'\n" +
      '$s = ConvertTo-SecureString "P@ssw0rd2024" -AsPlainText -Force\n',
      "Connect-VIServer vc1 -User admin -Password [REDACTED:password]\n" +
      "keytool -storepass '[REDACTED:password]'\n" +
      '$s = ConvertTo-SecureString "[REDACTED:password]" -AsPlainText -Force\n',
    ],
    // Oracle's user/password@, a Jenkins secret, a Teams webhook, a credentials call's password
    [
      "l.txt",
      "url=jdbc:oracle:thin:scott/Tig3rPassw0rd@db:1521/ORCL\nsqlplus -S scott/Tig3rPassw0rd@ORCL\n" +
      "<password>{AQAAABAAAAAQwpqG5Ne0nDBxd1Q+gI9e8b3Ny0lD1zjzBmr0RW0F6Jc=}</password>\n" +
      "https://x.webhook.office.com/webhookb2/a@b/IncomingWebhook/1bf66ccbb8e745e791fa6e6de0cf465b/" +
      "43614f3a-1dde-4c3b-8e4a-0a1b2c3d4e5f\n" +
      'entry = DirectoryEntry("LDAP://dc", "corp\\\\admin", "Rrhh1234x")\n',
      "url=jdbc:oracle:thin:scott/[REDACTED:password]@db:1521/ORCL\n" +
      "sqlplus -S scott/[REDACTED:password]@ORCL\n<password>{[REDACTED:jenkins]}</password>\n" +
      "https://x.webhook.office.com/webhookb2/a@b/IncomingWebhook/[REDACTED:microsoft-teams]\n" +
      'entry = DirectoryEntry("LDAP://dc", "corp\\\\admin", "[REDACTED:password]")\n',
    ],
  ];
  for (const [path, text, expected] of cases) {
    assert.equal((await redactText(text, path)).text, expected, path);
  }
});

Deno.test("a short token (8 to 15 characters) under a token's or key's name is redacted", async () => {
  // Values made here (not real tokens): letters and digits mixed as a generator mixes them.
  const found: Array<[string, string, string]> = [
    ["a.env", "SLACK_TOKEN=4f9a8b7c6d\nAPP_KEY=9fK2xQ7mZ1\n", "SLACK_TOKEN=T\nAPP_KEY=T\n"],
    [
      "b.yaml",
      "bot:\n  token: a8Kx29fPq\n  signing_key: 'Xk29fPq3Lm'\n",
      "bot:\n  token: T\n  signing_key: 'T'\n",
    ],
    [
      "c.json",
      '{"token": "Ab3dE5gH9jK", "accessKey": "q7W2e9R4t1"}\n',
      '{"token": "T", "accessKey": "T"}\n',
    ],
    [
      "d.py",
      'TOKEN = "Ab3dE5gH9jK"\nclient = Client(token="k2Mz7Qw4")\n',
      'TOKEN = "T"\nclient = Client(token="T")\n',
    ],
    ["e.xml", "<token>Ab3dE5gH9jK</token>\n", "<token>T</token>\n"],
  ];
  for (const [path, text, expected] of found) {
    const redacted = (await redactText(text, path)).text;
    assert.equal(redacted.replaceAll("[REDACTED:named-secret]", "T"), expected, path);
  }
  // Words and numbers joined, code, a public key, a reference, a value too short or too long
  // for the rule, letters with one digit: not tokens.
  const kept = [
    "cache_key: v1-linux\nsort_key: name_2024\ntoken: OAuth2Token\n",
    'access_key = "py3-11-arm64"\npublic_key: "Ab3dE5gH9jK"\nsecret: "deadbeef"\n',
    'token = getToken(a1)\ntoken: abc12345\nkey = "F12"\ntoken: $TOKEN_2\n',
    "const token = tokens[12];\nnextPageToken: CAUQAA\nroute_key: user2id\n",
  ];
  for (const text of kept) assert.deepEqual((await redactText(text, "x.yaml")).findings, [], text);
});
