// The twenty-second leak hunt: tables of columns under a secret's header (Markdown, Confluence,
// reST, AsciiDoc, HTML, CSV), credentials bare in prose and in code's comments, pipes through
// `tee` and `\` continuations, here-strings into secret stores, seed words with no name, base64 of
// base64 and JSON data maps, template defaults, Objective-C's `@"…"`, credential files named for a
// login, text typed into a password field by browser tests; and the look-alikes that stay.
import { kept, redactsValue } from "./_redacts.ts";

const PW = "Qx7vLm2Rk9!Tz";
const TOKEN = "Xk29fjQ02aLpZ8wq7Rt5Ym3nB4";
// (a BIP-39 mnemonic: its last word holds the checksum)
const SEED = "canvas dolphin eagle anchor bamboo cluster denial bridge agent almost basket account";

Deno.test("a table's column under a secret's header", async () => {
  await redactsValue(
    `| Host | Login | Password |\n|---|---|---|\n| db | app | ${PW} |\n`,
    PW,
    "a.md",
  );
  await redactsValue(`user | pass | role\n:-- | :-- | --\nbob | ${PW} | dev\n`, PW, "NOTES.md");
  await redactsValue(`||Login||Kennwort||\n|ops|${PW}|\n`, PW, "wiki/page.txt");
  await redactsValue(
    `+------+---------------+\n| User | Password      |\n+======+===============+\n| ops  | ${PW} |\n`,
    PW,
    "docs/a.rst",
  );
  await redactsValue(
    `.. list-table::\n   :header-rows: 1\n\n   * - Login\n     - Password\n   * - ops\n     - ${PW}\n`,
    PW,
    "docs/b.rst",
  );
  await redactsValue(`[cols="1,1"]\n|===\n|Login |Password\n\n|ops\n|${PW}\n|===\n`, PW, "a.adoc");
  await redactsValue(
    `<table>\n<tr><th>Login</th><th>Password</th></tr>\n<tr><td>ops</td><td><code>${PW}</code></td></tr>\n</table>\n`,
    PW,
    "docs/a.html",
  );
  await redactsValue(`email;api_token;plan\nops@acme.dev;${TOKEN};pro\n`, TOKEN, "seed/a.csv");
  await redactsValue(`"login","password"\n"ops","${PW}"\n`, PW, "fixtures/a.csv");
});

Deno.test("a table of a secret's name, type, policy or stand-in stays", async () => {
  await kept(`| Password | Type |\n|---|---|\n| admin | string |\n`, "docs/a.md");
  await kept(`| Secret name | Used by |\n|---|---|\n| DB_PASSWORD | api |\n`, "docs/a.md");
  await kept(`| User | Password |\n|---|---|\n| admin | (in the vault) |\n`, "docs/a.md");
  await kept(`| User | Password |\n|---|---|\n| admin | <your-password> |\n`, "docs/a.md");
  await kept(`| Token | Lifetime |\n|---|---|\n| refresh token | 30 days |\n`, "docs/a.md");
  await kept(`id,password_changed_at\n1,2026-01-15T10:00:00Z\n`, "fixtures/a.csv");
  await kept(`a | b\n---|---\nx | y\n`, "README.md");
});

Deno.test("credentials bare in prose and in code's comments", async () => {
  await redactsValue(`Then log in as admin/${PW} on the console.\n`, PW, "README.md");
  await redactsValue(`The default creds are root:${PW}.\n`, PW, "docs/a.md");
  await redactsValue(`Username is \`ops\` and password is \`${PW}\`.\n`, PW, "docs/a.md");
  await redactsValue(`Use key id \`AKIDEXAMPLE\` and secret \`${TOKEN}\`.\n`, TOKEN, "docs/a.md");
  await redactsValue(`Test account: qa_bot / ${PW}\n`, PW, "docs/a.txt");
  await redactsValue(`// login: admin / ${PW}\nconst x = 1;\n`, PW, "src/a.ts");
  await redactsValue(`x = 1  # default creds admin:${PW}\n`, PW, "app/a.py");
  await redactsValue(`/*\n * staging: ops / ${PW} (login)\n */\nint x;\n`, PW, "src/a.c");
  await redactsValue(`<!-- root:${PW} -->\n<div></div>\n`, PW, "index.html");
  await redactsValue(`; admin password was ${PW}\n[server]\n`, PW, "app.ini");
  await redactsValue(`-- admin/${PW}\nlocal x = 1\n`, PW, "init.lua");
});

Deno.test("paths, times, images and words in prose and comments stay", async () => {
  await kept(`Log in at http://localhost:8080/admin/login first.\n`, "README.md");
  await kept(`Login uses a client/server protocol over TCP/IP.\n`, "README.md");
  await kept(`// login: opens the session read/write for the user\n`, "src/a.ts");
  await kept(`# user: node, image node:18-alpine3.19\nFROM node:18-alpine3.19\n`, "Dockerfile");
  await kept(`// admin/settings/Users2.tsx holds the login form\n`, "src/a.ts");
  await kept(`# login at 10:30:00 as admin\n`, "app/a.py");
  await kept(`// password must match [A-Za-z0-9]{12,}\n`, "src/a.ts");
});

Deno.test("pipes through tee and continuations, here-strings into secret stores", async () => {
  await redactsValue(`echo "${TOKEN}" | tee out.txt | gh secret set NPM_TOKEN\n`, TOKEN, "a.sh");
  await redactsValue(`echo -n '${PW}' |\\\n  base64 -w0\n`, PW, "a.sh");
  await redactsValue(`printf '%s' "${TOKEN}" \\\n  | wrangler secret put KEY\n`, TOKEN, "a.sh");
  await redactsValue(
    `echo "${PW}" | \\\n  kubectl create secret generic db --from-file=p=/dev/stdin\n`,
    PW,
    "a.sh",
  );
  await redactsValue(`echo -n "${PW}" | vault kv put secret/db password=-\n`, PW, "a.sh");
  await redactsValue(`gh secret set API_TOKEN <<< "${TOKEN}"\n`, TOKEN, "a.sh");
  await redactsValue(`echo ${PW} | sudo -S true\n`, PW, "a.sh");
});

Deno.test("references piped or given as here-strings stay", async () => {
  await kept(`echo "$NPM_TOKEN" | tee /dev/null | gh secret set NPM_TOKEN\n`, "a.sh");
  await kept(`cat config/app.yaml |\\\n  base64 -w0\n`, "a.sh");
  await kept(`gh secret set API_TOKEN <<< "$API_TOKEN"\n`, "a.sh");
});

Deno.test("seed words with no name", async () => {
  await redactsValue(`provider = new HDWalletProvider("${SEED}", rpc);\n`, SEED, "truffle.js");
  await redactsValue(`let phrase = "${SEED}";\n`, SEED, "src/w.rs");
  await redactsValue(`Restore it with:\n\n\`\`\`\n${SEED}\n\`\`\`\n`, SEED, "README.md");
  await redactsValue(`${SEED}\n`, SEED, "wallet/backup.txt");
});

Deno.test("sentences and Hardhat's stand-in stay", async () => {
  const sentence = "quick brown foxes jump over the lazy dogs again and again every day";
  await kept(`const s = "${sentence}";\n`, "a.js");
  await kept(`${sentence}\n`, "notes.txt");
  const hardhat = "test test test test test test test test test test test junk";
  await kept(`const m = "${hardhat}";\n`, "a.js");
});

Deno.test("base64 of base64 and JSON data maps are read decoded", async () => {
  const twice = btoa(btoa(`password: ${PW}\n`));
  await redactsValue(`kind: ConfigMap\ndata:\n  creds: ${twice}\n`, twice, "k8s/cm.yaml");
  const env = btoa(`DB_PASSWORD=${PW}\n`);
  await redactsValue(
    `{"kind":"ConfigMap","binaryData":{"app.env":"${env}"}}\n`,
    env,
    "k8s/cm.json",
  );
  await redactsValue(`data:\n  app.env: ${env}\n`, env, "deploy/cm.yaml.tpl");
});

Deno.test("base64 of public text twice, and JSON maps of plain values, stay", async () => {
  await kept(
    `kind: ConfigMap\ndata:\n  conf: ${btoa(btoa("listen 8080\nworkers 4\n"))}\n`,
    "a.yaml",
  );
  await kept(
    `{"kind":"ConfigMap","data":{"LOG_LEVEL":"info","conf":"${btoa("port 80\n")}"}}\n`,
    "a.json",
  );
});

Deno.test("template defaults, Objective-C's strings, login files, typed passwords", async () => {
  await redactsValue(
    `  value: {{ .Values.auth.password | default "${PW}" | quote }}\n`,
    PW,
    "t/d.yaml",
  );
  await redactsValue(`key = "{{ keyOrDefault "svc/token" "${TOKEN}" }}"\n`, TOKEN, "a.ctmpl");
  await redactsValue(`#define kClientSecret @"${TOKEN}"\n`, TOKEN, "Keys.h");
  await redactsValue(`vpnuser\n${PW}\n`, PW, "vpn/auth.txt");
  await redactsValue(`sensor:${PW}\n`, PW, "mosquitto/passwords.txt");
  await redactsValue(`await page.fill('input[name="password"]', '${PW}');\n`, PW, "e2e/a.spec.ts");
  await redactsValue(`cy.get('#password').type('${PW}')\n`, PW, "cypress/e2e/a.cy.js");
  await redactsValue(`driver.find_element(By.NAME, "password").send_keys("${PW}")\n`, PW, "t.py");
  await redactsValue(`fill_in 'Password', with: '${PW}'\n`, PW, "spec/a_spec.rb");
});

Deno.test("template defaults of settings, references typed, other files stay", async () => {
  await kept(`  image: {{ .Values.image | default "nginx:1.27" }}\n`, "t/d.yaml");
  await kept(`await page.fill('#password', process.env.E2E_PASSWORD);\n`, "e2e/a.spec.ts");
  await kept(`await page.fill('#username', 'alice.smith');\n`, "e2e/a.spec.ts");
  await kept(`root:x:0:0:root:/root:/bin/bash\n`, "etc/passwd");
  await kept(`#define kAppName @"Acme Notes"\n`, "Keys.h");
});

Deno.test("what the mirrors' audit found the first versions redacted stays", async () => {
  await kept(
    `  {{- $k := (.Values.statsd.mappingConfigMapKey | default "statsd.mappingConf") }}\n`,
    "t/c.yaml",
  );
  await kept(`// login: send Accept: application/vnd.shadcn.v1+json;q=0.9\n`, "src/a.ts");
  await kept(`/* login: class="hover:opacity-75 user:user-1000" */\n`, "src/a.css");
  await kept(`# login: see t1011-use-helpers and babel-7-8-compat/gmock_link2_test.cc\n`, "t/a.sh");
  await kept(`<!-- account --><p style="color:#00796b">Reset password</p>\n`, "email/reset.html");
  await kept(
    `msgid "x"\nmsgstr "laporkan bahwa kami hanya punya object yang bisa dicapai dari objek ini"\n`,
    "po/id.po",
  );
});
