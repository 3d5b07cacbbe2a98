// The twenty-first leak hunt: Rust's byte arrays and lazy cells, a table's row (HTML, a notebook's
// output, Markdown), a literal piped into base64 or a secret store, base64 in a YAML data map
// read decoded, credentials bare in prose and SQL comments, a printed struct's `Password:…`,
// Fly.io's `FlyV1`, a token before `@host`, Erlang's binaries, seed words under a seed's name,
// server directives' `Authorization`, Hurl's `[BasicAuth]`, cookie jars, Postman's API key auth,
// Envoy's inline secret, `MapNetworkDrive`, crypt hashes with `$$`; and the look-alikes that stay.
import { kept, redactsValue } from "./_redacts.ts";

const PW = "Qx7vLm2Rk9!Tz";
const TOKEN = "Xk29fjQ02aLpZ8wq7Rt5Ym3nB4";

Deno.test("Rust's byte arrays and lazy cells", async () => {
  await redactsValue(`const SIGNING_KEY: [u8; 26] = *b"${TOKEN}";\n`, TOKEN, "src/sign.rs");
  await redactsValue(`static HMAC_SECRET: &[u8; 26] = b"${TOKEN}";\n`, TOKEN, "src/a.rs");
  await redactsValue(
    `static API_TOKEN: Lazy<String> = Lazy::new(|| "${TOKEN}".to_string());\n`,
    TOKEN,
    "src/a.rs",
  );
  await redactsValue(
    `static DB_PASSWORD: once_cell::sync::Lazy<&str> = once_cell::sync::Lazy::new(|| "${PW}");\n`,
    PW,
    "src/a.rs",
  );
  await redactsValue(
    `pub static JWT_SECRET: LazyLock<String> = LazyLock::new(|| String::from("${TOKEN}"));\n`,
    TOKEN,
    "src/a.rs",
  );
  await redactsValue(`pub const ADMIN_PASSWORD: &'static str =\n    "${PW}";\n`, PW, "src/a.rs");
});

Deno.test("Rust's lazy cells of code and public bytes stay", async () => {
  await kept(`const MAGIC: [u8; 8] = *b"SQLite f";\n`, "src/a.rs");
  await kept(
    `static TOKEN_RE: Lazy<Regex> = Lazy::new(|| Regex::new(r"^[A-Za-z0-9_]{32,64}$").unwrap());\n`,
    "src/a.rs",
  );
  await kept(
    `static API_KEY: LazyLock<String> = LazyLock::new(|| std::env::var("API_KEY").unwrap());\n`,
    "src/a.rs",
  );
});

Deno.test("a table's row: a secret's name, then its value", async () => {
  await redactsValue(
    `"<tr><td>AWS_SECRET_ACCESS_KEY</td><td>${TOKEN}</td></tr>\\n"\n`,
    TOKEN,
    "analysis.ipynb",
  );
  await redactsValue(
    `"<td>OPENAI_API_KEY</td>\\n",\n       "<td>${TOKEN}</td>\\n"\n`,
    TOKEN,
    "a.ipynb",
  );
  await redactsValue(`<tr><th>DB_PASSWORD</th><td>${PW}</td></tr>\n`, PW, "accounts.html");
  await redactsValue(`| DB_PASSWORD | \`${PW}\` | postgres |\n`, PW, "docs/env.md");
});

Deno.test("a table's row of a type, a word or a name stays", async () => {
  await kept(
    "| `administratorLoginPassword` | `securestring` | Yes | The login's password. |\n",
    "README.md",
  );
  await kept("| API_KEY | Your API key from the dashboard |\n", "README.md");
  await kept("<tr><td>AWS_REGION</td><td>eu-west-1</td></tr>\n", "report.html");
});

Deno.test("a literal piped into base64 or a secret store", async () => {
  await redactsValue(`echo -n '${PW}' | base64\n`, PW, "docs/k8s.md");
  await redactsValue(`printf '%s' '${PW}' | base64 -w0\n`, PW, "README.md");
  await redactsValue(`echo -n "${TOKEN}" | openssl base64\n`, TOKEN, "docs/k8s.md");
  await redactsValue(`    $ base64 <<< '${PW}'\n`, PW, "docs/setup.md");
  await redactsValue(`echo ${PW}| runas /user:CORP\\admin "cmd /c whoami"\n`, PW, "a.cmd");
  await redactsValue(`echo "${TOKEN}" | wrangler secret put API_KEY\n`, TOKEN, "deploy.sh");
  await redactsValue(`printf '${PW}' | vercel env add DATABASE_PASSWORD production\n`, PW);
  await redactsValue(`printf "${PW}" | docker secret create db_password -\n`, PW, "swarm.sh");
});

Deno.test("a name, a word or a reference piped into base64 stays", async () => {
  await kept(`echo -n 'admin' | base64\n`, "docs/k8s.md");
  await kept(`echo -n 'my-app' | base64\n`, "docs/k8s.md");
  await kept(`echo -n "$DB_PASSWORD" | base64\n`, "docs/k8s.md");
  await kept(`echo -n '<your-password>' | base64\n`, "docs/k8s.md");
  await kept(`runas /user:CORP\\admin "cmd /c whoami"\n`, "a.cmd");
});

Deno.test("base64 in a YAML data map is read decoded", async () => {
  const env = btoa(`DB_HOST=db\nDB_PASSWORD=${PW}\n`);
  await redactsValue(`data:\n  app.env: ${env}\n`, env, "deploy/app.yaml");
  await redactsValue(`kind: ConfigMap\nbinaryData:\n  app.env: ${env}\n`, env, "cm.yaml");
  const key = btoa(
    "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC" + TOKEN +
      "\n-----END PRIVATE KEY-----\n",
  );
  const wrapped = key.match(/.{1,60}/g)!.join("\n    ");
  await redactsValue(`data:\n  tls.key: >-\n    ${wrapped}\n`, wrapped, "secret.yaml");
});

Deno.test("base64 of a picture, a public config or a certificate stays", async () => {
  await kept(
    "binaryData:\n  logo.png: iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==\n",
    "cm.yaml",
  );
  await kept(`data:\n  app.conf: ${btoa("listen 8080\nworkers 4\n")}\n`, "cm.yaml");
  const cert = btoa("-----BEGIN CERTIFICATE-----\nMIIB" + TOKEN + "\n-----END CERTIFICATE-----\n");
  await kept(`    certificate-authority-data: ${cert}\n`, ".kube/config");
});

Deno.test("credentials bare in prose and SQL comments", async () => {
  await redactsValue(`-- admin login: admin / ${PW}\nCREATE TABLE t (id int);\n`, PW, "a.sql");
  await redactsValue(`/* default user: root, password ${PW} */\n`, PW, "seed.sql");
  await redactsValue(`The default login is admin / ${PW}.\n`, PW, "docs/setup.md");
});

Deno.test("prose about passwords stays", async () => {
  await kept(`-- admin login: see docs/runbook.md for the password\n`, "a.sql");
  await kept(`-- password: bcrypt hash of the user's password\n`, "a.sql");
  await kept(
    `docker run -e KEYCLOAK_ADMIN_PASSWORD=password quay.io/keycloak/keycloak:20.0.2\n`,
    "readme.adoc",
  );
  await kept(`  <input name=pass type=password size=10>\n`, "MANUAL.md");
  await kept(`Passwords hashed with sha256 / PBKDF2-SHA256 are stored.\n`, "notes.md");
});

Deno.test("a printed struct's Password:value", async () => {
  await redactsValue(
    `config: {Host:db Port:5432 User:app Password:${PW} SSLMode:disable}\n`,
    PW,
    "debug.log",
  );
  await kept(`function f(password:string) {}\n`, "a.ts");
  await kept(`t={radio:!0,checkbox:!0,password:!0,image:!0}\n`, "jquery.min.js");
  await kept("POSTGRES_PASSWORD: ${POSTGRES_PASSWORD:-}\n", "compose.yml");
});

Deno.test("tokens in more wrappers", async () => {
  const fly = "fm2_" + TOKEN + TOKEN;
  await redactsValue(`      FLY_API_TOKEN: FlyV1 ${fly}\n`, fly, "ci.yml");
  await redactsValue(`export DENO_AUTH_TOKENS=${TOKEN}@deno.land\n`, TOKEN, ".envrc");
  const hex = "cb80e82fb2dc5e42acaa9c97db9247dc";
  await redactsValue(
    `{'$repos', #{<<"hexpm:acme">> => #{api_key => <<"${hex}">>}}}.\n`,
    hex,
    "hex.config",
  );
  const words =
    "legal winner thank year wave sausage worth useful legal winner thank yellow canyon ripple";
  await redactsValue(`WALLET_SEED="${words}"\n`, words, ".env");
});

Deno.test("server directives, request files, cookie jars and inline secrets", async () => {
  await redactsValue(
    `    proxy_set_header Authorization "Bearer ${TOKEN}";\n`,
    TOKEN,
    "nginx.conf",
  );
  await redactsValue(`tls {\n  dns cloudflare ${TOKEN}\n}\n`, TOKEN, "Caddyfile");
  await redactsValue(`GET https://api.acme.dev/me\n[BasicAuth]\nbob: ${PW}\n`, PW, "a.hurl");
  await redactsValue(
    `.acme.dev\tTRUE\t/\tTRUE\t0\tsessionid\t${TOKEN}\n`,
    TOKEN,
    "cookies.txt",
  );
  await redactsValue(
    `"apikey": [{"key": "value", "value": "${TOKEN}", "type": "string"}, {"key": "key", "value": "X-Api-Key"}]\n`,
    TOKEN,
    "a.postman_collection.json",
  );
  await redactsValue(
    `        generic_secret:\n          secret:\n            inline_string: "${TOKEN}"\n`,
    TOKEN,
    "envoy.yaml",
  );
  await redactsValue(
    `objNetwork.MapNetworkDrive "Z:", "\\\\srv\\share", False, "CORP\\bob", "${PW}"\n`,
    PW,
    "map.vbs",
  );
  const hash = "$$apr1$$H6uskkkW$$IgXLP6ewTrSuBkTrqE8wj/";
  await redactsValue(
    `      - "traefik.http.middlewares.auth.basicauth.users=bob:${hash}"\n`,
    hash,
    "docker-compose.yml",
  );
});

Deno.test("references, words and stand-ins in those places stay", async () => {
  await kept(`proxy_set_header Authorization $http_authorization;\n`, "nginx.conf");
  await kept(`tls {\n  dns cloudflare {env.CF_API_TOKEN}\n}\n`, "Caddyfile");
  await kept(`.acme.dev\tTRUE\t/\tFALSE\t0\tconsent\taccepted\n`, "cookies.txt");
  await kept("Account SID: `AC00000000000000000000000000000000`\n", "docs/sms.md");
});
