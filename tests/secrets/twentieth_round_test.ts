// The twentieth leak hunt: a quoted name's value as the next literal (SQL rows, calls' pairs),
// SQL rows under secret columns, Algolia's clients' keys by position, `AUTH` typed at a
// `redis-cli` prompt in a page, passwords named in other languages, YAML parameters' defaults and
// XML name/value pairs, make's `?=`, lower case names glued to `pass`, mail tools' files and
// `.conf` directives, services' authorization schemes, YAML block sequences, `--creds`, one-letter
// options with `=`, key setters, a string literal's prefix, a JWT after a percent-escape, a
// template's literal, literals side by side after `(`, Zapier's hooks, `user:password` under an
// `auth` name, Riot's and Asana's tokens; and the look-alikes that stay.
import { kept, redactsValue } from "./_redacts.ts";

const PW = "Qx7vLm2Rk9!Tz";
const TOKEN = "Xk29fjQ02aLpZ8wq7Rt5Ym3nB4";
const HEX32 = "dacfe86fa5a428f26a26c67cc2947b1b";

Deno.test("a quoted name's value as the next literal", async () => {
  await redactsValue(
    `INSERT INTO settings (name, value) VALUES ('mail_password', '${PW}');\n`,
    PW,
    "dump.sql",
  );
  await redactsValue(`INSERT INTO wp_options VALUES (301,'smtp_pass','${PW}','yes');\n`, PW);
  await redactsValue(`user_pref("mail.smtpserver.smtp1.password", "${PW}");\n`, PW, "prefs.js");
  await redactsValue(
    `        password("env.DB_PASSWORD", "${PW}", display = ParameterDisplay.HIDDEN)\n`,
    PW,
    ".teamcity/settings.kts",
  );
  await redactsValue(`conf.put("api_token", "${TOKEN}");\n`, TOKEN, "A.java");
});

Deno.test("a quoted name before words, code or a label stays", async () => {
  await kept(`t("password", "Password")\n`, "a.js");
  await kept(`labels = {"api_key": "API key", "token": "Token"}\n`, "a.py");
  await kept(`conf.put("password", password);\n`, "A.java");
  await kept(`i18n("password_hint", "At least 8 characters")\n`, "a.js");
  await kept(`SELECT PASSWORD('${PW}')\n`.replace(PW, "x"), "a.sql");
});

Deno.test("SQL rows under a column named for a secret", async () => {
  await redactsValue(
    `INSERT INTO \`oauth_clients\` (\`id\`, \`name\`, \`secret\`) VALUES (1,'web','${TOKEN}');\n`,
    TOKEN,
    "dump.sql",
  );
  await redactsValue(
    `insert into api_keys (id, label, api_key)\nvalues\n  (1, 'ci', 'other'),\n  (2, 'web', '${TOKEN}');\n`,
    TOKEN,
    "seed.sql",
  );
  await redactsValue(
    `COPY public.api_keys (id, name, key) FROM stdin;\n1\tci\t${TOKEN}\n\\.\n`,
    TOKEN,
    "dump.sql",
  );
});

Deno.test("SQL rows of names, hashes and nulls stay", async () => {
  await kept(`INSERT INTO users (id, email, password) VALUES (1,'a@b.c',NULL);\n`, "dump.sql");
  await kept(`INSERT INTO t (id, token) VALUES (1, 'refresh'), (2, 'access');\n`, "dump.sql");
  await kept(`COPY public.users (id, password) FROM stdin;\n1\t\\N\n\\.\n`, "dump.sql");
  await kept(`INSERT INTO tags (id, name) VALUES (1, '${TOKEN}');\n`, "dump.sql");
});

Deno.test("Algolia's clients given the key by position", async () => {
  await redactsValue(
    `SearchClient client = DefaultSearchClient.create("CSLWDIRO4A", "${HEX32}");\n`,
    HEX32,
    "Search.java",
  );
  await redactsValue(
    `val client = SearchClient(ApplicationID("DPN5LAE7G7"), APIKey("${HEX32}"))\n`,
    HEX32,
    "Search.kt",
  );
  await redactsValue(`var client = new SearchClient("3MD6IKZMVA", "${HEX32}");\n`, HEX32, "S.cs");
  await redactsValue(`client := search.NewClient("ZB3YTYSTTD", "${HEX32}")\n`, HEX32, "s.go");
  await redactsValue(
    `client = Algolia::Search::Client.create('YZF6FVLWOG', '${HEX32}')\n`,
    HEX32,
    "s.rb",
  );
  await redactsValue(
    `$client = Algolia\\AlgoliaSearch\\SearchClient::create('7OISNH3P3Q', '${HEX32}');\n`,
    HEX32,
    "s.php",
  );
});

Deno.test("Algolia's clients given stand-ins or variables stay", async () => {
  await kept(`client = SearchClient.create("YourApplicationID", "YourAdminAPIKey")\n`, "a.py");
  await kept(`client = SearchClient.create(APP_ID, API_KEY)\n`, "a.py");
  await kept(`c = new SearchClient("https://x.search.windows.net", "idx", cred);\n`, "a.cs");
});

Deno.test("AUTH typed at a redis-cli prompt in a page", async () => {
  await redactsValue("```\n127.0.0.1:6379> AUTH " + PW + "\nOK\n```\n", PW, "docs/redis.md");
  await redactsValue(`    redis 127.0.0.1:6379> AUTH default ${PW}\n`, PW, "README.md");
  await redactsValue(`   localhost:6380[2]> auth "${PW}"\n`, PW, "docs/cache.rst");
  await redactsValue(`redis:6379> AUTH TigerRiverStone\n`, "TigerRiverStone", "notes.txt");
});

Deno.test("a redis-cli prompt's stand-ins and other commands stay", async () => {
  await kept("127.0.0.1:6379> AUTH <password>\nOK\n", "docs/redis.md");
  await kept("127.0.0.1:6379> AUTH $REDIS_PASSWORD\n", "docs/redis.md");
  await kept(`127.0.0.1:6379> SET session:42 ${HEX32}\n`, "docs/redis.md");
  await kept("127.0.0.1:6379> AUTH " + PW + "\n", "redis.conf.example");
});

Deno.test("passwords named in other languages", async () => {
  await redactsValue(`SENHA_BANCO = "${PW}"\n`, PW, "config.py");
  await redactsValue(`$contraseña = "${PW}";\n`, PW, "conexion.php");
  await redactsValue(`[base]\nmot_de_passe = ${PW}\n`, PW, "config.ini");
  await redactsValue(`Логин: admin, пароль: ${PW}\n`, PW, "README.md");
  await redactsValue(`数据库密码：${PW}\n`, PW, "配置.md");
  await redactsValue(`パスワード: ${PW}\n`, PW, "設定.txt");
  await redactsValue(`비밀번호 = "${PW}"\n`, PW, "a.yml");
  await redactsValue(`dbWachtwoord: "${PW}"\n`, PW, "a.yml");
  await redactsValue(`Kennwort=${PW}\n`, PW, ".env");
});

Deno.test("other languages' password words before words, stand-ins and labels stay", async () => {
  await kept(`senha = "segredo"\n`, "a.py");
  await kept(`Passwort: <Ihr Passwort>\n`, "README.de.md");
  await kept(`<input type="password" id="senha" name="senha">\n`, "form.html");
  await kept(`contraseña = os.environ["DB_PASS"]\n`, "a.py");
  await kept(`mysenha = "${PW}"\n`.replace(PW, "abc"), "a.py");
});

Deno.test("references, secrets' files, periodic vectors and sealed values stay", async () => {
  await kept(
    `{"DbPassword": "@Microsoft.KeyVault(SecretUri=https://kv.vault.azure.net/secrets/db/)"}\n`,
    "appsettings.json",
  );
  await kept(`secretGenerator:\n- name: db\n  files:\n  - password=secrets/db-password.txt\n`);
  await kept(`ssl_key_password_file: certs/tls.key\n`, "a.yml");
  await kept(`Key  = 0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b\n`, "tests/vectors/hmac.txt");
  await kept(`SLACK_BOT_TOKEN=xoxb-your-token-here\n`, ".env.example");
  await kept(
    `kind: SealedSecret\nspec:\n  encryptedData:\n    password: AgB${"x7Qk".repeat(80)}\n`,
    "sealed.yaml",
  );
});

Deno.test("a YAML parameter's default and an XML parameter's value, apart from the name", async () => {
  await redactsValue(
    `parameters:\n  heroku-api-key:\n    type: string\n    default: "${TOKEN}"\n`,
    TOKEN,
    ".circleci/config.yml",
  );
  await redactsValue(
    `on:\n  workflow_dispatch:\n    inputs:\n      api_token:\n        description: token\n        default: ${TOKEN}\n`,
    TOKEN,
    ".github/workflows/x.yml",
  );
  await redactsValue(
    `<hudson.model.StringParameterDefinition>\n  <name>API_TOKEN</name>\n  <defaultValue>${TOKEN}</defaultValue>\n`,
    TOKEN,
    "jobs/deploy/config.xml",
  );
  await redactsValue(
    `<property>\n  <name>fs.s3a.secret.key</name>\n  <value>${TOKEN}</value>\n</property>\n`,
    TOKEN,
    "core-site.xml",
  );
});

Deno.test("defaults of other parameters and references stay", async () => {
  await kept(`parameters:\n  region:\n    type: string\n    default: ${TOKEN}\n`, "a.yml");
  await kept(`inputs:\n  api_token:\n    default: \${{ secrets.API_TOKEN }}\n`, "a.yml");
  await kept(`<name>API_TOKEN</name>\n<defaultValue></defaultValue>\n`, "config.xml");
});

Deno.test("make's ?= default under a secret's name", async () => {
  await redactsValue(`REGISTRY_PASSWORD ?= ${PW}\n`, PW, "Makefile");
  await redactsValue(`API_TOKEN ?= ${TOKEN} # local only\n`, TOKEN, "Makefile");
  await kept(`REGISTRY_PASSWORD ?= $(shell cat .pw)\nAPI_TOKEN ?=\n`, "Makefile");
});

Deno.test("lower case names glued to pass", async () => {
  await redactsValue(`[db]\ndbpass = ${PW}\n`, PW, "app.ini");
  await redactsValue(`remotepass = ${PW}\n`, PW, ".offlineimaprc");
  await redactsValue(`rootpass = "${PW}"\n`, PW, "a.py");
  await kept(`bypass = "${PW}"\ncompass = "${PW}"\nrenderpass = "${PW}"\n`, "a.py");
});

Deno.test("mail tools' files and .conf directives", async () => {
  await redactsValue(`*.mailgun.org:postmaster@mg.acme.io:${PW}\n`, PW, "exim4/passwd.client");
  await redactsValue(`AuthInfo:smtp.acme.io "U:relay" "P:${PW}" "M:PLAIN"\n`, PW, "mail/authinfo");
  await redactsValue(`IMAPAccount work\nHost imap.acme.io\nPass ${PW}\n`, PW, ".mbsyncrc");
  await redactsValue(`  splunk_token ${TOKEN}\n`, TOKEN, "fluent.conf");
  await redactsValue(`ldap_default_authtok = ${PW}\n`, PW, "sssd.conf");
  await kept(`PassCmd "pass show mail"\n`, ".mbsyncrc");
  await kept(
    `  ssl_certificate_key /etc/ssl/private/site.key;\n  auth_token_header X-Token;\n`,
    "nginx.conf",
  );
});

Deno.test("services' authorization schemes", async () => {
  const uuid = "04a68075-5beb-1e71-d791-caa13c0f09ff";
  await redactsValue(`curl -H "Authorization: Splunk ${uuid}" https://splunk:8088\n`, uuid, "a.sh");
  await redactsValue(`curl -H "Authorization: ApiKey ${TOKEN}" https://es\n`, TOKEN, "a.sh");
  await redactsValue(`headers = {"Authorization": "GenieKey ${TOKEN}"}\n`, TOKEN, "a.py");
  await kept(`Authorization: Splunk <hec-token>\n`, "README.md");
});

Deno.test("a YAML block sequence's tokens under a secret's name", async () => {
  await redactsValue(`    headers:\n      X-Api-Key:\n      - ${TOKEN}\n`, TOKEN, "cassette.yaml");
  await redactsValue(`api_keys:\n  - ${TOKEN}\n`, TOKEN, "a.yml");
  await kept(`keys:\n  - id\n  - name\n`, "a.yml");
  await kept(`secret_names:\n  - db-password\n  - api-token\n`, "a.yml");
});

Deno.test("--creds user:password and one-letter options with =", async () => {
  await redactsValue(`skopeo copy docker://a docker://b --dest-creds ci:${PW}\n`, PW, "a.sh");
  await redactsValue(`podman login --creds "ci:${PW}" quay.io\n`, PW, "a.sh");
  await redactsValue(`docker login -u="acme+ci" -p="${TOKEN}" quay.io\n`, TOKEN, "a.sh");
  await kept(`podman login --creds "$USER:$PASS" quay.io\nmkdir -p=x\n`, "a.sh");
});

Deno.test("setters of a key, a token or a secret", async () => {
  await redactsValue(`$mollie->setApiKey("live_${TOKEN}");\n`, `live_${TOKEN}`, "a.php");
  await redactsValue(`b.withAccessToken("${TOKEN}");\n`, TOKEN, "A.java");
  await redactsValue(`cfg.setClientSecret('${TOKEN}')\n`, TOKEN, "a.js");
  await kept(`b.setApiKey(apiKey); c.setToken(""); d.setSecret("secret");\n`, "A.java");
});

Deno.test("Riot's and Asana's tokens", async () => {
  const riot = "RGAPI-a4606766-45c3-fc89-7a8e-6185bfb3381d";
  await redactsValue(`watcher = LolWatcher("${riot}")\n`, riot, "a.py");
  const asana = `2/1271276944233481/4488697404795191:${HEX32}`;
  await redactsValue(`ASANA_TOKEN=${asana}\n`, asana, ".env");
  const old = `1/1271276944233481:${HEX32}`;
  await redactsValue(`client = asana.Client.access_token("${old}")\n`, old, "a.py");
  await kept(`see https://example.com/1/1271276944233481:${HEX32}\n`, "a.md");
});

Deno.test("a string literal's prefix before its quote", async () => {
  await redactsValue(`static NSString * const kAPISecret = @"${TOKEN}";\n`, TOKEN, "Keys.m");
  await redactsValue(`var dbPassword = @"${PW}";\n`, PW, "A.cs");
  await redactsValue(`API_SECRET = r"${TOKEN}"\n`, TOKEN, "a.py");
  await redactsValue(`auto apiSecret = L"${TOKEN}";\n`, TOKEN, "a.cpp");
  await redactsValue(`let api_secret = r#"${TOKEN}"#;\n`, TOKEN, "a.rs");
  await kept(`password = f"{prefix}{suffix}"\ntoken = rfoo\n`, "a.py");
});

Deno.test("a JWT after a percent-escape", async () => {
  const jwt = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJWR05sWGZWNnp3In0." +
    "VPcCTB7mAHjr6_VjntJVRX-l_y9Rs8guUHILiwQW";
  await redactsValue(`GET /ws?authorization=Bearer%20${jwt} 101\n`, jwt, "proxy.log");
  await redactsValue(`?id_token%3D${jwt}&x=1\n`, jwt, "a.log");
});

Deno.test("a template's literal under a secret's key", async () => {
  await redactsValue(`  api-key: {{ "${TOKEN}" | b64enc | quote }}\n`, TOKEN, "templates/s.yaml");
  await redactsValue(`  password: {{ b64enc "${PW}" }}\n`, PW, "templates/_s.tpl");
  await redactsValue(`db_password: "{{ '${PW}' | b64encode }}"\n`, PW, "vars.yml");
  await kept(
    `  name: {{ "nginx-${TOKEN}" | quote }}\n  password: {{ .Values.password | b64enc }}\n` +
      `  token: {{ "changeme" | b64enc }}\n`,
    "templates/s.yaml",
  );
});

Deno.test("literals side by side after KEY = (", async () => {
  const key = "sk-proj-DJde-zri6ooaqqtM_II3s4FfiJf4QOz7cE91rfOlZc0dZUf-";
  const text = `API_KEY = (\n    "${key.slice(0, 20)}"\n    "${key.slice(20)}"\n)\n`;
  const { redactText } = await import("../../pipeline/_scan.ts");
  const out = (await redactText(text, "client.py")).text;
  for (let i = 0; i + 12 <= key.length; i++) {
    if (out.includes(key.slice(i, i + 12))) throw new Error(`${key.slice(i, i + 12)} in ${out}`);
  }
});

Deno.test("Zapier's catch hooks and user:password under an auth name", async () => {
  await redactsValue(
    `{"onSignup": "https://hooks.zapier.com/hooks/catch/8737252/38cwewb/"}\n`,
    "38cwewb",
    "hooks.json",
  );
  await redactsValue(`cloud.auth: "elastic:${PW}"\n`, PW, "filebeat.yml");
  await redactsValue(`basic_auth = admin:${PW}\n`, PW, "app.conf");
  await kept(`https://hooks.zapier.com/hooks/catch/8737252/abcdefg/\n`, "a.md");
  await kept(`auth: "localhost:8080"\nproxy_auth = "user:\${PROXY_PASS}"\n`, "a.yml");
});

Deno.test("what the mirrors' audit found the first versions redacted stays", async () => {
  // lists and calls of names (ansible's keycloak modules, proton_pass lookups, koel's TOTP test)
  await kept(
    `required_one_of=([["token", "auth_password", "auth_client_id", "auth_client_secret"]])\n`,
    "a.py",
  );
  await kept(`msg: "{{ lookup('community.general.proton_pass', 'my_host', 'x') }}"\n`, "a.yml");
  await kept(`$this->totp->expects('verifyCode')->with('SECRET', '123456');\n`, "T.php");
  await kept(`Volt::route('forgot-password', 'pages.auth.forgot-password');\n`, "auth.php");
  // npm's `minipass` in lockfiles, a camel case name that starts like `hasło`
  await kept(`        "minipass": "^5.0.0 || ^6.0.2 || ^7.0.0"\n`, "package-lock.json");
  await kept(`  dependencies:\n    minipass: "npm:^7.0.3"\n`, "yarn.lock");
  await kept(`$hasLockfileDisabled = !$composer->getConfig()->has('lock');\n`, "Bump.php");
  // a raw string's regular expression, prose and words after an `auth` name
  await kept(`    cl_pw = r'([0-9a-f]{64})'\n`, "cloudant.py");
  await kept("// Basic Auth :ref:`configuration overview <config_basic_auth>`.\n", "a.proto");
  await kept(
    `  @grant_types ~w(urn:ietf:params:oauth:grant-type:device_code refresh_token)\n`,
    "a.ex",
  );
  // sourcehut's `secrets:` name stored secrets by UUID; a seed's password hashes
  await kept(`secrets:\n  - 01ad357c-3214-4f73-bb7e-2441e440cc51\n`, ".builds/manual.yml");
  await kept(
    `INSERT INTO user (username, password)\nVALUES\n  ('test', 'pbkdf2:sha256:50000$TCI4GzcX$0de171a4f4dac32e3364c7ddc7c14f3e');\n`,
    "data.sql",
  );
});

Deno.test("a lockfile's dependency specs under auth and pass names stay", async () => {
  await kept(`  dependencies:\n    oauth: "npm:0.10.x"\n    pgpass: "npm:1.0.5"\n`, "yarn.lock");
  await kept(`    dbpass: "workspace:^"\n`, "pnpm-lock.yaml");
});
