/**
 * The leak hunts' probe: 3,063 credentials in the shapes real repositories hold them. The tenth
 * hunt's 139 (commands that take a password by position, service tokens, dotenv variants, YAML
 * anchors and block scalars, TOML multi-line strings, escaped JSON, notebooks, shell history,
 * Dockerfiles, Kubernetes Secrets, tfvars, `.npmrc`, `.pypirc`, `.netrc`, `.pgpass`, git's
 * credential store, key blocks with CRLF or an indent, JWTs split over lines) and the eleventh's
 * 91 from other ecosystems (a Secret's `data:`, Spring, .NET, PHP, Rails, Go, Terraform, Ansible,
 * Docker, GitHub Actions, Helm, Jenkins, SQL, JDBC and broker URLs, PuTTY and OpenSSH keys in
 * JSON or flattened, GCP service accounts, keys in notebook outputs), the twelfth's 128 and the
 * thirteenth's 156 (calls given a password by position, admin commands, daemons' configs, request
 * collections, key formats, newer token formats), the fifteenth's 131 (Elixir, Erlang, Clojure,
 * Nix, Dhall, Perl, R, Lua, HCL tools' configs, JWT signing calls, secrets' fallbacks, webhook and
 * signed URLs, more databases' URIs, rarer key armor, commands given a secret by position or a
 * tool's own option), the sixteenth's 51 (admins' and config formats' secrets: SNMP, kickstart,
 * preseed, automatic logon, Sentinel, HAProxy, mail clients, game servers, LDAP binds, cloud-init,
 * Windows' and Samba's tools), the eighteenth's 158 (infrastructure stacks, mobile builds' settings,
 * constants of Go, Rust, C, Swift and Kotlin, SQL's users in more dialects, drivers' connection
 * strings, values that formats write apart from their names, credentials in Markdown, clients'
 * rarer history and credential files, more providers' keys), the twentieth's 262 (CI files of
 * many vendors, infrastructure files, mobile configs, notebooks, histories, logs and dumps, test
 * fixtures, SQL dumps, mail configs, rarer URIs, oddly wrapped keys, more providers, names in other
 * languages, Algolia's clients, `AUTH` at a `redis-cli` prompt), the twenty-first's 242 (Rust's
 * byte arrays and lazy cells, tables' rows, pipes into base64, base64 data maps, languages' and
 * package managers' configs, clouds' CLIs' caches, deploy platforms, observability agents, identity
 * servers, request collections, signed URLs, cookie jars, logs, wallets, providers' newer keys),
 * the twenty-second's 229 (tables of columns, credentials in prose and comments, seed words with
 * no name, base64 of base64, flow maps, JSON data maps, templated YAML, pipes through `tee` and
 * `\` continuations, CI and compose files, tfvars, clients' credential files, notebook outputs,
 * mobile configs, connection strings, browser tests), the twenty-third's 297 (config languages,
 * daemons' files, data tools' files, SQL's stored logins, shells' and REPLs' histories, debug
 * dumps, Apple's and Android's builds, Renovate and CI files, keys in base64 of their armor and in
 * code literals, providers' newer prefixes, request collections), the twenty-fourth's 511 (names
 * in other languages, wrappers and encodings: CRLF, a BOM, tabs, typographic quotes, no-break
 * spaces, JSON in JSON, HTML entities, URL and quoted-printable encodings, minified lines; values
 * written apart from their names, Terraform state, notebooks, HAR and Postman files, registries'
 * clients, clouds' SDK files, mobile and IDE configs, CMS settings, network devices, drivers'
 * connection strings, logs, SQL dumps, request fixtures, comments, automation tools), the
 * twenty-fifth's 45 (the classes of the twenty-fourth's leaks in more shapes: Basic auth encoded in
 * code, YAML's complex keys, cookies set in captures, credentials constructors, Nostr's keys, tools'
 * `-t` tokens, stubs' matchers, `key = …` in comments, other scripts' words in code files), the twenty-sixth's 293 (Terraform
 * state of more resources, clouds' credential caches, kubeconfig's exec and auth-provider, registries'
 * client configs, IoT and home-automation configs, logs, notebook outputs, code that sets cookies
 * and headers, passwords named in other languages in code files, drivers' connection strings, CI
 * secrets in odd places, fixtures), the twenty-seventh's 306 (IaC, CI configs, notebooks' outputs
 * printed apart from their names and DataFrames' secret columns, logs, IoT and home-automation
 * configs (Tasmota, Tuya, Hue, ESPHome, miio), mobile apps' configs, SQL dumps, shell histories,
 * Dockerfiles, Kubernetes, .env variants, languages' configs, test fixtures, passwords named in
 * other languages in code files), each scanned as a build scans it
 * (`redactText`), and counted a leak when a 12-character piece of its value is left. Values are
 * made from a fixed seed; nothing here is a live credential. Prints each leak and the count, then the values that must stay and are redacted.
 *
 * ```sh
 * deno run -A bench/leak_probe.ts                                # this tree's scanner
 * deno run -A bench/leak_probe.ts /work/main/pipeline/_scan.ts   # another tree's
 * ```
 *
 * @module
 */

const scanPath = Deno.args[0] ?? "../pipeline/_scan.ts";
const { redactText } = await import(new URL(scanPath, import.meta.url).href);
let s = 12345;
const rnd = () => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648);
const A = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const ch = (al: string, n: number) => {
  let o = "";
  for (let i = 0; i < n; i++) o += al[Math.floor(rnd() * al.length)];
  return o;
};
const mixed = (n: number) => {
  for (;;) {
    const v = ch(A, n);
    if (/\d/.test(v) && /[a-z]/.test(v) && /[A-Z]/.test(v)) return v;
  }
};
const pw = () => mixed(10) + "!" + ch(A, 3);
const b32 = "abcdefghijklmnopqrstuvwxyz234567";
const ado = () => ch(b32, 52);
const eaa = () => "EAA" + ch(A, 3) + "ZC" + ch(A, 150);
const hex = (n: number) => ch("0123456789abcdef", n);
const b64 = (n: number) => ch(A + "+/", n);
const ghp = () => "ghp_" + ch(A, 36);
const discord = () =>
  "M" + ch("TQNz", 1) + ch(A, 22) + "." + ch(A + "_-", 6) + "." + ch(A + "_-", 38);
const jwt = () =>
  "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9." +
  btoa(JSON.stringify({ sub: ch(A, 10), iat: 1700000000 })).replace(/=+$/, "") + "." +
  ch(A + "_-", 43);
const uuid = () => [8, 4, 4, 4, 12].map((n) => hex(n)).join("-");
const fnkey = () => ch(A + "_-", 54) + "==";
const samples: Array<[string, string, string, string]> = [];
const add = (name: string, path: string, text: (v: string) => string, v: string) =>
  samples.push([name, path, text(v), v]);
// known leaks
add("htpasswd -b", "setup.sh", (v) => `htpasswd -b /etc/nginx/.htpasswd admin ${v}\n`, pw());
add("htpasswd -bc", "setup.sh", (v) => `htpasswd -bc .htpasswd admin '${v}'\n`, pw());
add("htpasswd -Bbn", "Dockerfile", (v) => `RUN htpasswd -Bbn user "${v}" > /auth/htpasswd\n`, pw());
add("net use", "map.bat", (v) => `net use \\\\fileserver\\share /user:CORP\\bob ${v}\n`, pw());
add(
  "net use Z:",
  "map.bat",
  (v) => `net use Z: \\\\fs01\\data ${v} /user:bob /persistent:no\n`,
  pw(),
);
add("net use quoted", "map.cmd", (v) => `net use \\\\host\\c$ /user:administrator "${v}"\n`, pw());
add("rabbitmqctl", "init.sh", (v) => `rabbitmqctl add_user app ${v}\n`, pw());
add("rabbitmqctl change", "init.sh", (v) => `rabbitmqctl change_password admin '${v}'\n`, pw());
add(
  "curl -u token:",
  "api.sh",
  (v) => `curl -u ${v}: https://api.example.com/v1/charges\n`,
  "sk_" + ch(A, 30),
);
add("curl -u hex:", "api.sh", (v) => `curl -s -u "${v}:" https://api.example.com\n`, hex(40));
add("curl --user tok:", "api.sh", (v) => `curl --user ${v}: https://x.example.com\n`, mixed(32));
add(
  "ado url",
  "ci.yml",
  (v) => `  - git clone https://build:${v}@dev.azure.com/org/proj/_git/repo\n`,
  ado(),
);
add(
  "ado url user-less",
  "ci.yml",
  (v) => `git remote add origin https://${v}@dev.azure.com/org/proj/_git/repo\n`,
  ado(),
);
add("ado env", ".env", (v) => `AZURE_DEVOPS_EXT_PAT=${v}\n`, ado());
add("ado export", "ci.sh", (v) => `export AZURE_DEVOPS_EXT_PAT="${v}"\n`, ado());
add("ado _PAT", "cfg.yml", (v) => `ado_pat: ${v}\n`, ado());
add("ado SYSTEM_ACCESSTOKEN", "p.yml", (v) => `SYSTEM_ACCESSTOKEN: ${v}\n`, ado());
add("ado pat json", "s.json", (v) => `{"personalAccessToken": "${v}"}\n`, ado());
add(
  "?code=",
  "README.md",
  (v) => `curl "https://myapp.azurewebsites.net/api/HttpTrigger?code=${v}"\n`,
  fnkey(),
);
add(
  "&code=",
  "test.http",
  (v) => `GET https://fn.azurewebsites.net/api/run?name=x&code=${v}\n`,
  fnkey(),
);
add("?key=", "app.js", (v) => `fetch("https://api.example.com/v2/data?key=${v}&q=1")\n`, mixed(32));
add(
  "&key=",
  "app.py",
  (v) => `URL = "https://maps.example.com/geo?address=x&key=${v}"\n`,
  mixed(39),
);
add(
  "&access_token=",
  "app.py",
  (v) => `r = get("https://graph.facebook.com/me?fields=id&access_token=${v}")\n`,
  eaa(),
);
add("?access_token= short", "x.sh", (v) => `curl https://api.x.com/u?access_token=${v}\n`, hex(40));
add("?api_key=", "x.md", (v) => `https://api.example.com/v1?api_key=${v}\n`, mixed(30));
add("?token=", "x.md", (v) => `wss://stream.example.com/ws?token=${v}\n`, mixed(30));
add("EAA bare", "fb.py", (v) => `FacebookAdsApi.init(access_token="${v}")\n`, eaa());
add("EAA bare2", "fb.js", (v) => `const t = '${v}';\n`, eaa());
add("EAA under name", "fb.env", (v) => `FB_ACCESS_TOKEN=${v}\n`, eaa());
add("EAA in json", "fb.json", (v) => `{"page": {"token": "${v}"}}\n`, eaa());
add(
  "composer http-basic",
  "auth.json",
  (v) =>
    `{\n    "http-basic": {\n        "repo.example.org": {\n            "username": "bob",\n            "password": "${v}"\n        }\n    }\n}\n`,
  pw(),
);
add(
  "composer http-basic letters",
  "auth.json",
  (v) => `{"http-basic": {"repo.example.org": {"username": "bob", "password": "${v}"}}}\n`,
  ch("abcdefghijkmnpqrstuvwxyz", 12),
);
add(
  "composer github-oauth",
  "auth.json",
  (v) => `{\n    "github-oauth": {\n        "github.com": "${v}"\n    }\n}\n`,
  hex(40),
);
add(
  "composer gitlab-token",
  "auth.json",
  (v) => `{\n    "gitlab-token": {\n        "gitlab.example.org": "${v}"\n    }\n}\n`,
  mixed(20),
);
add(
  "composer bearer",
  "auth.json",
  (v) => `{\n    "bearer": {\n        "repo.example.org": "${v}"\n    }\n}\n`,
  mixed(32),
);
add(
  "composer gitlab-oauth",
  "auth.json",
  (v) => `{"gitlab-oauth": {"gitlab.com": "${v}"}}\n`,
  hex(64),
);
add(
  "composer bitbucket",
  "auth.json",
  (v) =>
    `{"bitbucket-oauth": {"bitbucket.org": {"consumer-key": "abc", "consumer-secret": "${v}"}}}\n`,
  mixed(32),
);
add(
  "COMPOSER_AUTH",
  "ci.yml",
  (v) => `  COMPOSER_AUTH: '{"github-oauth": {"github.com": "${v}"}}'\n`,
  hex(40),
);
add(
  "composer config cli",
  "ci.sh",
  (v) => `composer config --global github-oauth.github.com ${v}\n`,
  hex(40),
);
add(
  "composer config http-basic",
  "ci.sh",
  (v) => `composer config http-basic.repo.example.org bob ${v}\n`,
  pw(),
);
add(
  "backslash continuation inside",
  "a.sh",
  (v) => `export API_TOKEN="${v.slice(0, 20)}\\\n${v.slice(20)}"\n`,
  mixed(40),
);
add(
  "backslash continuation py",
  "a.py",
  (v) => `API_KEY = "${v.slice(0, 20)}\\\n${v.slice(20)}"\n`,
  mixed(40),
);
add("discord env", ".env", (v) => `DISCORD_TOKEN=${v}\n`, discord());
add("discord bare", "bot.js", (v) => `const token = "${v}";\n`, discord());
add("discord json", "config.json", (v) => `{"token": "${v}", "prefix": "!"}\n`, discord());
add("discord bare var", "bot.py", (v) => `bot_token = '${v}'\n`, discord());
add("discord bare other", "bot.py", (v) => `TOKEN_LIST = ['${v}']\n`, discord());
// new adversarial shapes
add("dotenv export spaced", ".env", (v) => `export  SECRET_TOKEN = ${v}\n`, mixed(32));
add("dotenv colon", ".env", (v) => `API_KEY: ${v}\n`, mixed(32));
add(
  "dotenv multiline quoted",
  ".env",
  (v) => `PRIVATE_KEY="-----BEGIN RSA PRIVATE KEY-----\n${v}\n-----END RSA PRIVATE KEY-----"\n`,
  b64(64),
);
add(
  "yaml anchor",
  "a.yml",
  (v) => `defaults: &defaults\n  password: &pw ${v}\nprod:\n  <<: *defaults\n`,
  pw(),
);
add("yaml anchor2", "a.yml", (v) => `x-creds: &creds\n  DB_PASSWORD: "${v}"\n`, pw());
add("yaml |", "a.yml", (v) => `api_token: |\n  ${v}\n`, mixed(32));
add("yaml >-", "a.yml", (v) => `api_token: >-\n  ${v}\n`, mixed(32));
add("yaml |2-", "a.yml", (v) => `secret: |2-\n    ${v}\n`, pw());
add("yaml >  folded pw", "a.yml", (v) => `  password: >\n    ${v}\n`, pw());
add("toml multi basic", "a.toml", (v) => `api_key = """\n${v}"""\n`, mixed(32));
add("toml multi literal", "a.toml", (v) => `password = '''${v}'''\n`, pw());
add("toml multi literal nl", "a.toml", (v) => `token = '''\n${v}\n'''\n`, mixed(32));
add("json escaped quotes", "a.json", (v) => `{"config": "{\\"password\\": \\"${v}\\"}"}\n`, pw());
add(
  "json escaped quotes token",
  "a.json",
  (v) => `{"env": "{\\"api_key\\":\\"${v}\\"}"}\n`,
  mixed(32),
);
add(
  "json double escaped",
  "a.json",
  (v) => `"{\\\\\\"password\\\\\\": \\\\\\"${v}\\\\\\"}"\n`,
  pw(),
);
add(
  "ipynb output token",
  "a.ipynb",
  (v) =>
    JSON.stringify(
      {
        cells: [{
          cell_type: "code",
          source: ["print(os.environ['OPENAI_API_KEY'])"],
          outputs: [{ output_type: "stream", name: "stdout", text: [v + "\n"] }],
        }],
      },
      null,
      1,
    ),
  "sk-proj-" + ch(A, 40) + "T3BlbkFJ" + ch(A, 40),
);
add(
  "ipynb output dict",
  "a.ipynb",
  (v) =>
    JSON.stringify(
      {
        cells: [{
          cell_type: "code",
          source: ["creds"],
          outputs: [{
            output_type: "execute_result",
            data: { "text/plain": ["{'user': 'bob', 'password': '" + v + "'}"] },
          }],
        }],
      },
      null,
      1,
    ),
  pw(),
);
add(
  "ipynb source",
  "a.ipynb",
  (v) =>
    JSON.stringify(
      {
        cells: [{ cell_type: "code", source: ["client = Client(\n", `    api_key="${v}"\n`, ")"] }],
      },
      null,
      1,
    ),
  mixed(32),
);
add(
  "ipynb output env repr",
  "a.ipynb",
  (v) =>
    JSON.stringify({
      cells: [{ outputs: [{ text: ["environ({'HOME': '/root', 'DB_PASSWORD': '" + v + "'})"] }] }],
    }),
  pw(),
);
add("bash history mysql", ".bash_history", (v) => `ls\nmysql -u root -p${v} prod\n`, pw());
add("bash history export", ".bash_history", (v) => `export GITHUB_TOKEN=${v}\n`, ghp());
add(
  "bash history curl header",
  ".bash_history",
  (v) => `curl -H "X-Api-Key: ${v}" https://x\n`,
  mixed(32),
);
add("zsh history", ".zsh_history", (v) => `: 1700000000:0;export OPENAI_API_KEY=${v}\n`, mixed(48));
add(
  "history curl -H auth token",
  ".bash_history",
  (v) => `curl -H "Authorization: token ${v}" https://api.github.com\n`,
  hex(40),
);
add("history psql url", ".bash_history", (v) => `psql postgresql://app:${v}@db:5432/app\n`, pw());
add("Dockerfile ARG", "Dockerfile", (v) => `ARG NPM_TOKEN=${v}\n`, mixed(36));
add("Dockerfile ENV space", "Dockerfile", (v) => `ENV DB_PASSWORD ${v}\n`, pw());
add(
  "Dockerfile ENV multi",
  "Dockerfile",
  (v) => `ENV APP_ENV=prod \\\n    DB_PASSWORD=${v} \\\n    PORT=80\n`,
  pw(),
);
add(
  "k8s stringData",
  "s.yaml",
  (v) =>
    `apiVersion: v1\nkind: Secret\nmetadata:\n  name: x\nstringData:\n  config.yaml: |\n    host: db\n    auth: ${v}\n`,
  mixed(20),
);
add(
  "k8s stringData plain",
  "s.yaml",
  (v) => `kind: Secret\nstringData:\n  connection: ${v}\n`,
  mixed(20),
);
add("k8s data b64", "s.yaml", (v) => `kind: Secret\ndata:\n  token: ${v}\n`, btoa(mixed(24)));
add("tfvars", "prod.tfvars", (v) => `db_password = "${v}"\n`, pw());
add(
  "tfvars map",
  "prod.auto.tfvars",
  (v) => `credentials = {\n  client_secret = "${v}"\n}\n`,
  mixed(34),
);
add("tfvars token", "terraform.tfvars", (v) => `cloudflare_api_token = "${v}"\n`, mixed(40));
add(
  "npmrc authToken",
  ".npmrc",
  (v) => `//registry.npmjs.org/:_authToken=${v}\n`,
  "npm_" + ch(A, 36),
);
add("npmrc authToken uuid", ".npmrc", (v) => `//npm.pkg.github.com/:_authToken=${v}\n`, uuid());
add("npmrc _password", ".npmrc", (v) => `//reg.example/:_password=${v}\n`, btoa(pw()));
add(
  "pypirc",
  ".pypirc",
  (v) => `[pypi]\nusername = __token__\npassword = ${v}\n`,
  "pypi-" + ch(A, 60),
);
add(
  "pypirc pw",
  ".pypirc",
  (v) =>
    `[testpypi]\nrepository = https://test.pypi.org/legacy/\nusername = bob\npassword = ${v}\n`,
  pw(),
);
add("netrc", ".netrc", (v) => `machine api.example.com login bob password ${v}\n`, pw());
add(
  "netrc multi",
  ".netrc",
  (v) => `machine api.example.com\n  login bob\n  password ${v}\n`,
  pw(),
);
add(
  "netrc letters",
  ".netrc",
  (v) => `machine api.heroku.com\n  login me@x.com\n  password ${v}\n`,
  uuid(),
);
add("pgpass", ".pgpass", (v) => `db.example.com:5432:app:app:${v}\n`, pw());
add("git credentials", ".git-credentials", (v) => `https://bob:${v}@github.com\n`, ghp());
add(
  "git credentials x-access",
  ".git-credentials",
  (v) => `https://x-access-token:${v}@github.com\n`,
  "ghs_" + ch(A, 36),
);
add("git credentials pw", ".git-credentials", (v) => `https://bob:${v}@gitlab.example.com\n`, pw());
add(
  "ssh key crlf",
  "id",
  (v) => `-----BEGIN OPENSSH PRIVATE KEY-----\r\n${v}\r\n-----END OPENSSH PRIVATE KEY-----\r\n`,
  b64(70),
);
add(
  "ssh key indented",
  "x.yml",
  (v) =>
    `key: |\n      -----BEGIN OPENSSH PRIVATE KEY-----\n      ${v}\n      -----END OPENSSH PRIVATE KEY-----\n`,
  b64(70),
);
add(
  "pgp key indented tabs",
  "x.txt",
  (v) =>
    `\t-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n\t${v}\n\t=abcd\n\t-----END PGP PRIVATE KEY BLOCK-----\n`,
  b64(64),
);
add(
  "jwt split",
  "a.js",
  (v) => `const token = "${v.slice(0, 40)}" +\n  "${v.slice(40)}";\n`,
  jwt(),
);
add(
  "jwt split py",
  "a.py",
  (v) => `TOKEN = ("${v.slice(0, 40)}"\n         "${v.slice(40)}")\n`,
  jwt(),
);
add("jwt bare", "a.txt", (v) => `curl -H "Authorization: Bearer ${v}"\n`, jwt());
add("jwt bare no name", "a.md", (v) => `Use ${v} to sign in\n`, jwt());
add(
  "base64 wrapped key",
  "a.txt",
  (v) => `key: ${v}\n`,
  btoa("-----BEGIN PRIVATE KEY-----\n" + b64(64) + "\n-----END PRIVATE KEY-----\n"),
);
add(
  "git credential helper store",
  "cred",
  (v) => `protocol=https\nhost=github.com\nusername=bob\npassword=${v}\n`,
  ghp(),
);
add(
  "docker config auth",
  "config.json",
  (v) => `{"auths": {"https://index.docker.io/v1/": {"auth": "${v}"}}}\n`,
  btoa("bob:" + pw()),
);
add("sshpass", "d.sh", (v) => `sshpass -p '${v}' ssh root@host\n`, pw());
add("mysql env", "d.sh", (v) => `MYSQL_PWD=${v} mysql -u root\n`, pw());
add(
  "winrm",
  "d.ps1",
  (v) =>
    `$cred = New-Object PSCredential("admin", (ConvertTo-SecureString "${v}" -AsPlainText -Force))\n`,
  pw(),
);
add(
  "az login -p",
  "d.sh",
  (v) => `az login --service-principal -u http://app -p ${v} --tenant t\n`,
  mixed(34),
);
add(
  "az devops login",
  "d.sh",
  (v) => `echo ${v} | az devops login --organization https://dev.azure.com/org\n`,
  ado(),
);
add("gh auth", "d.sh", (v) => `echo ${v} | gh auth login --with-token\n`, ghp());
add("heroku", "d.sh", (v) => `HEROKU_API_KEY=${v} heroku apps\n`, uuid());
add("smtp url", "a.env", (v) => `MAIL_URL=smtp://bob:${v}@smtp.example.com:587\n`, pw());
add("redis url", "a.env", (v) => `REDIS_URL=redis://:${v}@cache:6379/0\n`, pw());
add("x-api-key header yaml", "a.yaml", (v) => `headers:\n  X-API-Key: ${v}\n`, mixed(32));
add(
  "authorization header json",
  "a.json",
  (v) => `{"headers": {"Authorization": "Bearer ${v}"}}\n`,
  mixed(40),
);
add("wget password", "a.sh", (v) => `wget --user=bob --password=${v} https://x\n`, pw());
add("ftp url", "a.sh", (v) => `ftp://bob:${v}@ftp.example.com/file\n`, pw());
add("psql PGPASSWORD", "a.sh", (v) => `PGPASSWORD=${v} psql -h db -U app\n`, pw());
add("java props", "a.properties", (v) => `spring.mail.password=${v}\n`, pw());
add("xml password attr", "a.xml", (v) => `<connection user="bob" password="${v}"/>\n`, pw());
add("gradle", "gradle.properties", (v) => `ossrhPassword=${v}\n`, pw());
add("hcl provider", "main.tf", (v) => `provider "github" {\n  token = "${v}"\n}\n`, ghp());
add("hcl tfvars ado", "main.tfvars", (v) => `azure_devops_pat = "${v}"\n`, ado());
add(
  "git config extraheader",
  "ci.sh",
  (v) => `git -c http.extraheader="AUTHORIZATION: basic ${v}" clone x\n`,
  btoa(":" + ado()),
);
add(
  "git config extraheader bearer",
  "ci.sh",
  (v) => `git config http.https://dev.azure.com/.extraheader "AUTHORIZATION: bearer ${v}"\n`,
  ado(),
);
add(
  "sendgrid",
  "a.py",
  (v) => `sg = SendGridAPIClient('${v}')\n`,
  "SG." + ch(A, 22) + "." + ch(A, 43),
);
add(
  "stripe url",
  "a.sh",
  (v) => `curl https://api.stripe.com/v1/charges -u ${v}:\n`,
  "sk_live_" + ch(A, 24),
);
add("twilio positional", "a.py", (v) => `client = Client("AC${hex(32)}", "${v}")\n`, hex(32));
add(
  "slack-bot in yaml multiline",
  "a.yml",
  (v) => `token: >\n  ${v}\n`,
  "xoxb-" + ch("0123456789", 12) + "-" + ch("0123456789", 12) + "-" + ch(A, 24),
);
add(
  "pem escaped CRLF json",
  "a.json",
  (v) => `{"key": "-----BEGIN PRIVATE KEY-----\\r\\n${v}\\r\\n-----END PRIVATE KEY-----\\r\\n"}\n`,
  b64(64),
);
add(
  "pem two dashes indent",
  "a.yml",
  (v) => `    -----BEGIN EC PRIVATE KEY-----\n    ${v}\n    -----END EC PRIVATE KEY-----\n`,
  b64(64),
);
add("env password with quote-escape", ".env", (v) => `DB_PASSWORD="${v}\\"x"\n`, pw());
add("ini passwd", "my.cnf", (v) => `[client]\nuser=root\npassword=${v}\n`, pw());
add("dsn in code", "a.go", (v) => `dsn := "host=db user=app password=${v} dbname=app"\n`, pw());
add(
  "url key in md link",
  "a.md",
  (v) => `[map](https://maps.googleapis.com/maps/api/staticmap?center=x&key=${v})\n`,
  mixed(39),
);
add(
  "mongodb srv",
  "a.env",
  (v) => `MONGO_URI=mongodb+srv://bob:${v}@cluster0.x.mongodb.net/db\n`,
  pw(),
);
add(
  "AzureWebJobsStorage",
  "local.settings.json",
  (v) =>
    `{"Values": {"AzureWebJobsStorage": "DefaultEndpointsProtocol=https;AccountName=x;AccountKey=${v};EndpointSuffix=core.windows.net"}}\n`,
  b64(86) + "==",
);
add("function key header", "a.http", (v) => `x-functions-key: ${v}\n`, fnkey());
add(
  "function key json",
  "a.json",
  (v) => `{"masterKey": {"name": "master", "value": "${v}"}}\n`,
  fnkey(),
);
add("shell read heredoc", "a.sh", (v) => `cat > .env <<EOF\nAPI_SECRET=${v}\nEOF\n`, mixed(32));
// the eleventh session's round: other ecosystems' real shapes, written before reading the rules
const ppkLines = (n: number) => Array.from({ length: n }, () => b64(64)).join("\n");
add(
  "k8s data password b64",
  "secret.yaml",
  (v) =>
    `apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ntype: Opaque\ndata:\n  username: YWRtaW4=\n  password: ${v}\n`,
  btoa(pw()),
);
add(
  "k8s dockerconfigjson",
  "regcred.yaml",
  (v) =>
    `apiVersion: v1\nkind: Secret\ntype: kubernetes.io/dockerconfigjson\ndata:\n  .dockerconfigjson: ${v}\n`,
  btoa(JSON.stringify({ auths: { "ghcr.io": { username: "bob", password: pw() } } })),
);
add(
  "k8s data url b64",
  "secret.yaml",
  (v) => `kind: Secret\ndata:\n  DATABASE_URL: ${v}\n`,
  btoa(`postgres://app:${pw()}@db:5432/app`),
);
add(
  "kubeconfig token",
  "kubeconfig",
  (v) => `users:\n- name: ci\n  user:\n    token: ${v}\n`,
  mixed(40),
);
add(
  "kubeconfig client-key-data",
  "kubeconfig",
  (v) => `users:\n- name: admin\n  user:\n    client-key-data: ${v}\n`,
  btoa("-----BEGIN RSA PRIVATE KEY-----\n" + b64(64) + "\n-----END RSA PRIVATE KEY-----\n"),
);
add(
  "properties datasource",
  "application.properties",
  (v) => `spring.datasource.url=jdbc:postgresql://db:5432/app\nspring.datasource.password=${v}\n`,
  pw(),
);
add("properties colon", "app.properties", (v) => `mail.smtp.password: ${v}\n`, pw());
add("properties spaced", "db.properties", (v) => `db.password = ${v}\n`, pw());
add(
  "properties keystore",
  "ssl.properties",
  (v) => `javax.net.ssl.keyStorePassword=${v}\n`,
  pw(),
);
add(
  "properties placeholder default",
  "application.properties",
  (v) => `spring.datasource.password=\${DB_PASSWORD:${v}}\n`,
  pw(),
);
add(
  "spring yml datasource",
  "application.yml",
  (v) =>
    `spring:\n  datasource:\n    url: jdbc:mysql://db:3306/app\n    username: app\n    password: ${v}\n`,
  pw(),
);
add(
  "spring yml oauth client-secret",
  "application.yml",
  (v) =>
    `spring:\n  security:\n    oauth2:\n      client:\n        registration:\n          github:\n            client-id: Iv1.0a1b2c3d4e5f6a7b\n            client-secret: ${v}\n`,
  hex(40),
);
add(
  "spring yml jwt secret",
  "application.yml",
  (v) => `jwt:\n  secret: ${v}\n  expiration: 86400\n`,
  b64(64),
);
add(
  "appsettings conn string",
  "appsettings.json",
  (v) =>
    `{\n  "ConnectionStrings": {\n    "DefaultConnection": "Server=tcp:app.database.windows.net,1433;Initial Catalog=app;User ID=app;Password=${v};Encrypt=True;"\n  }\n}\n`,
  pw(),
);
add(
  "appsettings Pwd",
  "appsettings.Development.json",
  (v) => `{"ConnectionStrings": {"Db": "Driver={ODBC Driver 18};Server=db;Uid=sa;Pwd=${v};"}}\n`,
  pw(),
);
add(
  "appsettings jwt key",
  "appsettings.json",
  (v) => `{\n  "Jwt": {\n    "Key": "${v}",\n    "Issuer": "app"\n  }\n}\n`,
  mixed(48),
);
add(
  "dotnet user secrets",
  "secrets.json",
  (v) => `{\n  "Authentication:Google:ClientSecret": "${v}"\n}\n`,
  "GOCSPX-" + ch(A + "_-", 28),
);
add(
  "web.config connectionString",
  "web.config",
  (v) =>
    `<connectionStrings>\n  <add name="Db" connectionString="Data Source=db;Initial Catalog=app;User Id=sa;Password=${v};" providerName="System.Data.SqlClient" />\n</connectionStrings>\n`,
  pw(),
);
add(
  "web.config appSettings",
  "web.config",
  (v) => `<appSettings>\n  <add key="StripeSecretKey" value="${v}" />\n</appSettings>\n`,
  mixed(40),
);
add(
  "web.config machineKey",
  "web.config",
  (v) =>
    `<machineKey validationKey="${v}" decryptionKey="${
      hex(48).toUpperCase()
    }" validation="SHA1" decryption="AES" />\n`,
  hex(128).toUpperCase(),
);
add(
  "php laravel array",
  "config/database.php",
  (v) =>
    `        'mysql' => [\n            'username' => 'forge',\n            'password' => '${v}',\n`,
  pw(),
);
add(
  "php codeigniter",
  "database.php",
  (v) => `$db['default']['password'] = '${v}';\n`,
  pw(),
);
add("php config smtp_pass", "email.php", (v) => `$config['smtp_pass'] = "${v}";\n`, pw());
add(
  "php pdo positional",
  "db.php",
  (v) => `$pdo = new PDO('mysql:host=db;dbname=app', 'app', '${v}');\n`,
  pw(),
);
add(
  "php mysqli positional",
  "db.php",
  (v) => `$conn = mysqli_connect("localhost", "root", "${v}", "app");\n`,
  pw(),
);
add(
  "ruby hash rocket",
  "config.rb",
  (v) => `ActiveRecord::Base.establish_connection(:adapter => "mysql2", :password => "${v}")\n`,
  pw(),
);
add(
  "ruby smtp_settings",
  "production.rb",
  (v) => `config.action_mailer.smtp_settings = {\n  user_name: 'apikey',\n  password: '${v}',\n}\n`,
  "SG." + ch(A, 22) + "." + ch(A, 43),
);
add(
  "rails credentials",
  "credentials.yml",
  (v) =>
    `aws:\n  access_key_id: AKIA${
      ch("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16)
    }\n  secret_access_key: ${v}\n`,
  ch(A + "+/", 40),
);
add(
  "rails secret_key_base",
  "credentials.yml",
  (v) => `# aws:\nsecret_key_base: ${v}\n`,
  hex(128),
);
add("rails master.key", "config/master.key", (v) => `${v}\n`, hex(32));
add(
  "rails database.yml",
  "config/database.yml",
  (v) => `production:\n  adapter: postgresql\n  database: app\n  username: app\n  password: ${v}\n`,
  pw(),
);
add(
  "go struct password",
  "main.go",
  (v) => `cfg := Config{\n\tUsername: "admin",\n\tPassword: "${v}",\n}\n`,
  pw(),
);
add(
  "go oauth2 config",
  "auth.go",
  (v) =>
    `conf := &oauth2.Config{ClientID: "1234.apps.googleusercontent.com", ClientSecret: "${v}", Scopes: []string{"email"}}\n`,
  "GOCSPX-" + ch(A + "_-", 28),
);
add(
  "go struct APIKey",
  "client.go",
  (v) => `c := api.NewClient(api.Options{\n\tAPIKey:  "${v}",\n\tTimeout: 5,\n})\n`,
  mixed(32),
);
add(
  "go setenv aws",
  "main_test.go",
  (v) => `os.Setenv("AWS_SECRET_ACCESS_KEY", "${v}")\n`,
  ch(A + "+/", 40),
);
add(
  "terraform variable default",
  "variables.tf",
  (v) => `variable "db_password" {\n  type    = string\n  default = "${v}"\n}\n`,
  pw(),
);
add(
  "terraform variable default sensitive",
  "variables.tf",
  (v) =>
    `variable "api_token" {\n  description = "API token"\n  default     = "${v}"\n  sensitive   = true\n}\n`,
  mixed(40),
);
add(
  "terraform aws provider",
  "main.tf",
  (v) =>
    `provider "aws" {\n  region     = "us-east-1"\n  access_key = "AKIA${
      ch("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16)
    }"\n  secret_key = "${v}"\n}\n`,
  ch(A + "+/", 40),
);
add(
  "ansible inventory ini",
  "inventory",
  (v) => `[web]\nweb1 ansible_host=10.0.0.5 ansible_user=root ansible_password=${v}\n`,
  pw(),
);
add(
  "ansible become pass yml",
  "group_vars/all.yml",
  (v) => `ansible_become_pass: ${v}\n`,
  pw(),
);
add(
  "ansible mysql_user task",
  "tasks/main.yml",
  (v) =>
    `- name: Create user\n  mysql_user:\n    name: app\n    password: "${v}"\n    priv: "*.*:ALL"\n`,
  pw(),
);
add(
  "ansible vault_ var",
  "group_vars/vault.yml",
  (v) => `vault_db_password: "${v}"\n`,
  pw(),
);
add(
  "docker build-arg",
  "build.sh",
  (v) => `docker build --build-arg NPM_TOKEN=${v} -t app .\n`,
  "npm_" + ch(A, 36),
);
add(
  "docker build-arg pw",
  "build.sh",
  (v) => `docker build --build-arg DB_PASSWORD="${v}" .\n`,
  pw(),
);
add(
  "docker login -p",
  "deploy.sh",
  (v) => `docker login -u bob -p ${v} registry.example.com\n`,
  pw(),
);
add(
  "docker login --password",
  "deploy.sh",
  (v) => `docker login --username bob --password '${v}' ghcr.io\n`,
  ghp(),
);
add(
  "echo | docker login --password-stdin",
  "deploy.sh",
  (v) => `echo "${v}" | docker login ghcr.io -u bob --password-stdin\n`,
  ghp(),
);
add(
  "docker run -e",
  "run.sh",
  (v) => `docker run -d -e POSTGRES_PASSWORD=${v} -p 5432:5432 postgres:16\n`,
  pw(),
);
add(
  "compose environment list",
  "docker-compose.yml",
  (v) => `services:\n  db:\n    environment:\n      - MYSQL_ROOT_PASSWORD=${v}\n`,
  pw(),
);
add(
  "gha env",
  ".github/workflows/ci.yml",
  (v) => `jobs:\n  test:\n    env:\n      SONAR_TOKEN: ${v}\n`,
  hex(40),
);
add(
  "gha login-action with",
  ".github/workflows/ci.yml",
  (v) =>
    `      - uses: docker/login-action@v3\n        with:\n          username: bob\n          password: ${v}\n`,
  "dckr_pat_" + ch(A + "_-", 27),
);
add(
  "gha run npmrc",
  ".github/workflows/release.yml",
  (v) => `      - run: echo "//registry.npmjs.org/:_authToken=${v}" > ~/.npmrc\n`,
  "npm_" + ch(A, 36),
);
add(
  "helm values postgres",
  "values.yaml",
  (v) => `postgresql:\n  auth:\n    postgresPassword: ${v}\n    database: app\n`,
  pw(),
);
add(
  "helm values redis",
  "values.yaml",
  (v) => `redis:\n  auth:\n    enabled: true\n    password: "${v}"\n`,
  pw(),
);
add(
  "helm --set",
  "deploy.sh",
  (v) => `helm upgrade --install app ./chart --set postgresql.auth.password=${v}\n`,
  pw(),
);
add(
  "helm --set adminPassword",
  "deploy.sh",
  (v) => `helm install grafana grafana/grafana --set adminPassword='${v}'\n`,
  pw(),
);
add(
  "jenkinsfile environment",
  "Jenkinsfile",
  (v) => `pipeline {\n  environment {\n    DOCKER_PASS = '${v}'\n  }\n}\n`,
  pw(),
);
add(
  "jenkinsfile sh curl -u",
  "Jenkinsfile",
  (v) => `        sh "curl -u admin:${v} -X POST http://jenkins.local/job/x/build"\n`,
  hex(34),
);
add(
  "jenkinsfile withCredentials echo",
  "Jenkinsfile",
  (v) =>
    `withCredentials([string(credentialsId: 'tok', variable: 'T')]) {\n  sh 'echo ${v} | docker login -u bob --password-stdin'\n}\n`,
  pw(),
);
add(
  "sql create user identified by",
  "init.sql",
  (v) => `CREATE USER 'app'@'%' IDENTIFIED BY '${v}';\n`,
  pw(),
);
add(
  "sql alter user with password",
  "init.sql",
  (v) => `ALTER USER app WITH PASSWORD '${v}';\n`,
  pw(),
);
add("sql create role login", "init.sql", (v) => `CREATE ROLE app LOGIN PASSWORD '${v}';\n`, pw());
add(
  "sql server create login",
  "init.sql",
  (v) => `CREATE LOGIN app WITH PASSWORD = '${v}', CHECK_POLICY = OFF;\n`,
  pw(),
);
add(
  "sql oracle unquoted",
  "init.sql",
  (v) => `CREATE USER app IDENTIFIED BY ${v};\n`,
  mixed(14),
);
add("mysql -pSECRET", "backup.sh", (v) => `mysql -uroot -p${v} app < dump.sql\n`, pw());
add(
  "mysqldump --password=",
  "backup.sh",
  (v) => `mysqldump -u root --password=${v} --all-databases > all.sql\n`,
  pw(),
);
add("mysqladmin password", "setup.sh", (v) => `mysqladmin -u root password '${v}'\n`, pw());
add(
  "PGPASSWORD export",
  "backup.sh",
  (v) => `export PGPASSWORD='${v}'\npg_dump -h db -U app app > app.sql\n`,
  pw(),
);
add(
  "PGPASSWORD compose",
  "docker-compose.yml",
  (v) => `    environment:\n      PGPASSWORD: ${v}\n`,
  pw(),
);
add(
  "jdbc mysql password=",
  "app.properties",
  (v) => `db.url=jdbc:mysql://db:3306/app?user=app&password=${v}&useSSL=false\n`,
  pw(),
);
add(
  "jdbc sqlserver password=",
  "app.conf",
  (v) => `url = "jdbc:sqlserver://db:1433;databaseName=app;user=sa;password=${v};"\n`,
  pw(),
);
add(
  "jdbc oracle thin",
  "app.properties",
  (v) => `jdbc.url=jdbc:oracle:thin:app/${v}@db:1521/ORCL\n`,
  mixed(14),
);
add(
  "jdbc postgres password=",
  "Main.java",
  (v) => `String url = "jdbc:postgresql://db/app?user=app&password=${v}";\n`,
  pw(),
);
add(
  "mongodb replica url",
  "config.js",
  (v) =>
    `const uri = "mongodb://admin:${v}@mongo1:27017,mongo2:27017/app?replicaSet=rs0&authSource=admin";\n`,
  pw(),
);
add(
  "rediss url",
  "settings.py",
  (v) => `CACHE_URL = "rediss://default:${v}@redis.example.com:6380/0"\n`,
  mixed(32),
);
add(
  "amqp url",
  "celery.py",
  (v) => `broker_url = 'amqp://app:${v}@rabbit:5672/vhost'\n`,
  pw(),
);
add(
  "amqps url env",
  ".env.production",
  (v) => `CLOUDAMQP_URL=amqps://abcdefgh:${v}@rattlesnake.rmq.cloudamqp.com/abcdefgh\n`,
  ch(A + "_-", 32),
);
add(
  "redis.conf requirepass",
  "redis.conf",
  (v) => `bind 0.0.0.0\nrequirepass ${v}\nmasterauth ${v}\n`,
  pw(),
);
add(
  "ppk v3",
  "deploy.ppk",
  (v) =>
    `PuTTY-User-Key-File-3: ssh-rsa\nEncryption: none\nComment: rsa-key-20240101\nPublic-Lines: 2\n${
      ppkLines(2)
    }\nPrivate-Lines: 3\n${b64(64)}\n${v}\n${b64(20)}\nPrivate-MAC: ${hex(64)}\n`,
  b64(64),
);
add(
  "ppk in yaml block",
  "vars.yml",
  (v) =>
    `deploy_key: |\n  PuTTY-User-Key-File-2: ssh-rsa\n  Encryption: none\n  Comment: imported\n  Public-Lines: 1\n  ${
      b64(64)
    }\n  Private-Lines: 2\n  ${v}\n  ${b64(30)}\n  Private-MAC: ${hex(40)}\n`,
  b64(64),
);
add(
  "openssh key in json",
  "deploy.json",
  (v) =>
    JSON.stringify({
      host: "x",
      ssh_private_key: `-----BEGIN OPENSSH PRIVATE KEY-----\n${
        b64(70)
      }\n${v}\n-----END OPENSSH PRIVATE KEY-----\n`,
    }),
  b64(70),
);
add(
  "openssh key flattened spaces",
  ".env",
  (v) =>
    `SSH_KEY="-----BEGIN OPENSSH PRIVATE KEY----- ${
      b64(70)
    } ${v} -----END OPENSSH PRIVATE KEY-----"\n`,
  b64(70),
);
add(
  "rsa key in hcl escapes",
  "main.tf",
  (v) =>
    `  private_key = "-----BEGIN RSA PRIVATE KEY-----\\n${v}\\n${
      b64(64)
    }\\n-----END RSA PRIVATE KEY-----\\n"\n`,
  b64(64),
);
add(
  "gcp sa json pretty",
  "sa.json",
  (v) =>
    JSON.stringify(
      {
        type: "service_account",
        project_id: "my-proj",
        private_key_id: hex(40),
        private_key: `-----BEGIN PRIVATE KEY-----\n${v}\n${b64(64)}\n-----END PRIVATE KEY-----\n`,
        client_email: "ci@my-proj.iam.gserviceaccount.com",
        client_id: "1" + ch("0123456789", 20),
        token_uri: "https://oauth2.googleapis.com/token",
      },
      null,
      2,
    ),
  b64(64),
);
add(
  "gcp sa json in env",
  ".env",
  (v) =>
    `GOOGLE_CREDENTIALS='{"type":"service_account","project_id":"p","private_key":"-----BEGIN PRIVATE KEY-----\\n${v}\\n-----END PRIVATE KEY-----\\n","client_email":"a@p.iam.gserviceaccount.com"}'\n`,
  b64(64),
);
add(
  "gcp sa json escaped in yaml",
  "ci.yml",
  (v) =>
    `  GCP_SA_KEY: "{\\"type\\": \\"service_account\\", \\"private_key\\": \\"-----BEGIN PRIVATE KEY-----\\\\n${v}\\\\n-----END PRIVATE KEY-----\\\\n\\"}"\n`,
  b64(64),
);
add(
  "ipynb output private key lines",
  "keys.ipynb",
  (v) =>
    JSON.stringify(
      {
        cells: [{
          cell_type: "code",
          source: ["print(open('id_rsa').read())"],
          outputs: [{
            output_type: "stream",
            name: "stdout",
            text: [
              "-----BEGIN RSA PRIVATE KEY-----\n",
              b64(64) + "\n",
              v + "\n",
              "-----END RSA PRIVATE KEY-----\n",
            ],
          }],
        }],
      },
      null,
      1,
    ),
  b64(64),
);
add(
  "ipynb output key repr",
  "keys.ipynb",
  (v) =>
    JSON.stringify({
      cells: [{
        outputs: [{
          data: {
            "text/plain": [
              `'-----BEGIN EC PRIVATE KEY-----\\n${v}\\n-----END EC PRIVATE KEY-----\\n'`,
            ],
          },
        }],
      }],
    }),
  b64(64),
);
add(
  "maven settings.xml",
  "settings.xml",
  (v) =>
    `<servers>\n  <server>\n    <id>ossrh</id>\n    <username>bob</username>\n    <password>${v}</password>\n  </server>\n</servers>\n`,
  pw(),
);
add(
  "gradle kts credentials",
  "build.gradle.kts",
  (v) => `credentials {\n    username = "bob"\n    password = "${v}"\n}\n`,
  pw(),
);
add(
  "sqlalchemy url",
  "config.py",
  (v) => `SQLALCHEMY_DATABASE_URI = "mysql+pymysql://app:${v}@db/app"\n`,
  pw(),
);
// The twelfth hunt's samples (written before reading the rules): package managers' and clouds'
// credential files, providers' tokens in the files that hold them, deploy configs, code's
// connection strings, URLs of many schemes, and the eleventh hunt's leftovers as classes.
const b64of = (t: string) => btoa(t);
const up = (n: number) => ch("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", n);
const lowdig = (n: number) => ch("abcdefghijklmnopqrstuvwxyz0123456789", n);
const words = ["river", "stone", "maple", "cloud", "tiger", "amber", "pluto", "frost"];
const npm = () => "npm_" + ch(A, 36);
const pemBody = () => b64(64) + "\n" + b64(64);
add(".npmrc scoped npm_", ".npmrc", (v) => `//registry.npmjs.org/:_authToken=${v}\n`, npm());
add(
  ".npmrc github registry",
  ".npmrc",
  (v) => `@acme:registry=https://npm.pkg.github.com\n//npm.pkg.github.com/:_authToken=${v}\n`,
  ghp(),
);
add(".npmrc _auth", ".npmrc", (v) => `_auth=${v}\nalways-auth=true\n`, b64of("bob:" + pw()));
add(
  ".npmrc _auth scoped",
  ".npmrc",
  (v) => `//nexus.corp/repository/npm/:_auth="${v}"\n`,
  b64of("ci:" + pw()),
);
add(
  ".yarnrc.yml npmAuthToken",
  ".yarnrc.yml",
  (v) =>
    `npmScopes:\n  acme:\n    npmAuthToken: ${v}\n    npmRegistryServer: "https://npm.acme.io"\n`,
  mixed(40),
);
add(
  ".pypirc token",
  ".pypirc",
  (v) => `[pypi]\n  username = __token__\n  password = ${v}\n`,
  "pypi-AgEIcHlwaS5vcmc" + ch(A + "_-", 120),
);
add(
  ".pypirc testpypi pw",
  ".pypirc",
  (v) => `[testpypi]\nrepository = https://test.pypi.org/legacy/\nusername = bob\npassword: ${v}\n`,
  pw(),
);
add(
  "pip.conf index-url",
  "pip.conf",
  (v) => `[global]\nindex-url = https://deploy:${v}@pypi.corp.example/simple\n`,
  pw(),
);
add(
  "pip extra-index-url gitlab token",
  "pip.conf",
  (v) =>
    `[global]\nextra-index-url = https://__token__:${v}@gitlab.com/api/v4/projects/42/packages/pypi/simple\n`,
  "glpat-" + ch(A + "_-", 20),
);
add(
  "requirements git+https token",
  "requirements.txt",
  (v) =>
    `requests==2.31.0\ngit+https://${v}@github.com/acme/private-lib.git@v1.2#egg=private-lib\n`,
  ghp(),
);
add(
  "requirements --index-url",
  "requirements.txt",
  (v) => `--index-url https://ci:${v}@artifactory.corp/api/pypi/pypi/simple\nflask\n`,
  pw(),
);
add(
  ".netrc heroku one line",
  ".netrc",
  (v) => `machine api.heroku.com login bob@example.com password ${v}\n`,
  uuid(),
);
add(
  ".netrc multi line",
  ".netrc",
  (v) => `machine github.com\n  login bob\n  password ${v}\n`,
  ghp(),
);
add(
  "docker config.json auth",
  "config.json",
  (v) =>
    `{\n  "auths": {\n    "https://index.docker.io/v1/": {\n      "auth": "${v}"\n    }\n  }\n}\n`,
  b64of("bob:" + pw()),
);
add(
  "docker config.json identitytoken",
  "config.json",
  (v) =>
    `{"auths":{"myregistry.azurecr.io":{"auth":"MDAwMDAwMDAtMDAwMC0wMDAwLTAwMDAtMDAwMDAwMDAwMDAwOg==","identitytoken":"${v}"}}}\n`,
  jwt(),
);
add(
  "kubeconfig client-key-data",
  "kubeconfig",
  (v) =>
    `users:\n- name: admin\n  user:\n    client-certificate-data: Y2VydGlmaWNhdGU=\n    client-key-data: ${v}\n`,
  b64of(`-----BEGIN RSA PRIVATE KEY-----\n${pemBody()}\n-----END RSA PRIVATE KEY-----\n`),
);
add(
  "kubeconfig token jwt",
  ".kube/config",
  (v) => `users:\n- name: sa\n  user:\n    token: ${v}\n`,
  jwt(),
);
add(
  "kubeconfig bootstrap token",
  ".kube/config",
  (v) => `users:\n- name: tls-bootstrap-token-user\n  user:\n    token: ${v}\n`,
  lowdig(6) + "." + lowdig(16),
);
add(
  "kubeadm join --token",
  "join.sh",
  (v) =>
    `kubeadm join 10.0.0.1:6443 --token ${v} --discovery-token-ca-cert-hash sha256:${hex(64)}\n`,
  lowdig(6) + "." + lowdig(16),
);
add(
  "aws credentials file",
  "credentials",
  (v) =>
    `[default]\naws_access_key_id = AKIA${
      up(16)
    }\naws_secret_access_key = ${v}\nregion = us-east-1\n`,
  ch(A + "+/", 40),
);
add(
  "aws credentials session token",
  "credentials",
  (v) => `[tmp]\naws_session_token = ${v}\n`,
  "IQoJb3JpZ2luX2Vj" + ch(A + "+/", 300),
);
add(
  "aws sso cache json",
  "cache.json",
  (v) =>
    `{"startUrl": "https://acme.awsapps.com/start", "region": "us-east-1", "accessToken": "${v}", "expiresAt": "2026-11-30T10:00:00Z"}\n`,
  "aoa" + ch(A, 180) + ":" + ch(A + "+/", 60),
);
add(
  "aws sts assume-role output",
  "creds.json",
  (v) =>
    `{\n    "Credentials": {\n        "AccessKeyId": "ASIA${
      up(16)
    }",\n        "SecretAccessKey": "${v}",\n        "SessionToken": "FwoGZXIvYXdzE${
      ch(A, 200)
    }"\n    }\n}\n`,
  ch(A + "+/", 40),
);
add(
  "gcp adc authorized_user",
  "application_default_credentials.json",
  (v) =>
    `{\n  "client_id": "764086051850-6qr4p6gpi6hn506pt8ejuq83di341hur.apps.googleusercontent.com",\n  "client_secret": "d-FL95Q19q7MQmFpd7hHD0Ty",\n  "refresh_token": "${v}",\n  "type": "authorized_user"\n}\n`,
  "1//0" + ch(A + "_-", 100),
);
add(
  "azure storage conn string",
  "appsettings.json",
  (v) =>
    `{"ConnectionStrings": {"Storage": "DefaultEndpointsProtocol=https;AccountName=acmestore;AccountKey=${v};EndpointSuffix=core.windows.net"}}\n`,
  b64(86) + "==",
);
add(
  "azure sas url",
  "upload.py",
  (v) =>
    `URL = "https://acme.blob.core.windows.net/c/f.zip?sv=2022-11-02&ss=b&srt=o&sp=r&se=2026-12-31T00:00:00Z&st=2026-01-01T00:00:00Z&spr=https&sig=${v}"\n`,
  encodeURIComponent(b64(43) + "="),
);
add(
  "azure service bus",
  "local.settings.json",
  (v) =>
    `{"Values": {"ServiceBusConnection": "Endpoint=sb://acme.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=${v}"}}\n`,
  b64(43) + "=",
);
add(
  "azure cosmos",
  "Program.cs",
  (v) =>
    `var client = new CosmosClient("AccountEndpoint=https://acme.documents.azure.com:443/;AccountKey=${v};");\n`,
  b64(86) + "==",
);
add(
  "azure event hub yaml",
  "values.yaml",
  (v) =>
    `eventhub:\n  connectionString: "Endpoint=sb://hub.servicebus.windows.net/;SharedAccessKeyName=send;SharedAccessKey=${v};EntityPath=events"\n`,
  b64(43) + "=",
);
add(
  "firebase config",
  "firebase.js",
  (v) =>
    `const firebaseConfig = {\n  apiKey: "${v}",\n  authDomain: "acme.firebaseapp.com",\n  projectId: "acme",\n};\n`,
  "AIza" + ch(A + "_-", 35),
);
add(
  "sentry dsn with secret",
  "settings.py",
  (v) => `SENTRY_DSN = "https://${hex(32)}:${v}@sentry.io/123456"\n`,
  hex(32),
);
add(
  "slack webhook yaml",
  "alertmanager.yml",
  (v) => `receivers:\n- name: slack\n  slack_configs:\n  - api_url: ${v}\n`,
  "https://hooks.slack.com/services/T" + up(8) + "/B" + up(10) + "/" + ch(A, 24),
);
add(
  "slack workflow webhook",
  "notify.sh",
  (v) => `curl -X POST -d '{"text":"hi"}' ${v}\n`,
  "https://hooks.slack.com/triggers/T" + up(8) + "/" + ch("0123456789", 13) + "/" + hex(32),
);
add(
  "discordapp webhook",
  ".github/workflows/notify.yml",
  (v) => `      - run: curl -H "Content-Type: application/json" -d '{}' ${v}\n`,
  "https://discordapp.com/api/webhooks/" + ch("0123456789", 18) + "/" + ch(A + "_-", 68),
);
add("stripe restricted", ".env", (v) => `STRIPE_RESTRICTED_KEY=${v}\n`, "rk_live_" + ch(A, 99));
add(
  "stripe webhook secret",
  "config.ts",
  (v) => `export const webhookSecret = "${v}";\n`,
  "whsec_" + ch(A, 32),
);
add(
  "sendgrid in python",
  "mail.py",
  (v) => `sg = SendGridAPIClient("${v}")\n`,
  "SG." + ch(A + "_-", 22) + "." + ch(A + "_-", 43),
);
add(
  "mailgun new key",
  ".env",
  (v) => `MAILGUN_API_KEY=${v}\n`,
  hex(32) + "-" + hex(8) + "-" + hex(8),
);
add(
  "twilio api secret",
  ".env",
  (v) => `TWILIO_API_KEY=SK${hex(32)}\nTWILIO_API_SECRET=${v}\n`,
  ch(A, 32),
);
add(
  "twilio auth token json",
  "config.json",
  (v) => `{"twilio": {"accountSid": "AC${hex(32)}", "authToken": "${v}"}}\n`,
  hex(32),
);
add(
  "shopify shpat",
  "shopify.rb",
  (v) => `ShopifyAPI::Context.setup(api_key: "k", api_secret_key: "s", access_token: "${v}")\n`,
  "shpat_" + hex(32),
);
add("shopify shpss bare", "notes.txt", (v) => `secret is ${v}\n`, "shpss_" + hex(32));
add(
  "atlassian token curl -u",
  "jira.sh",
  (v) => `curl -u bob@acme.com:${v} https://acme.atlassian.net/rest/api/3/issue/X-1\n`,
  "ATATT3xFfGF0" + ch(A + "_-", 170) + "=" + hex(8).toUpperCase(),
);
add(
  "atlassian token yaml",
  "config.yml",
  (v) => `jira:\n  email: bob@acme.com\n  api_token: ${v}\n`,
  "ATATT3xFfGF0" + ch(A + "_-", 170) + "=" + hex(8).toUpperCase(),
);
add(
  "gitlab pat",
  ".gitlab-ci.yml",
  (v) => `variables:\n  GL_TOKEN: ${v}\n`,
  "glpat-" + ch(A + "_-", 20),
);
add(
  "gitlab runner token",
  "config.toml",
  (v) => `[[runners]]\n  name = "r1"\n  url = "https://gitlab.com/"\n  token = "${v}"\n`,
  "glrt-" + ch(A + "_-", 20),
);
add(
  "gitlab trigger token",
  "trigger.sh",
  (v) =>
    `curl -X POST -F token=${v} -F ref=main https://gitlab.com/api/v4/projects/1/trigger/pipeline\n`,
  "glptt-" + hex(40),
);
add(
  "gitlab deploy token",
  "Dockerfile",
  (v) => `RUN git clone https://gitlab+deploy-token-1:${v}@gitlab.com/acme/app.git\n`,
  "gldt-" + ch(A + "_-", 20),
);
add(
  "gitlab registration token",
  "register.sh",
  (v) => `gitlab-runner register --url https://gitlab.com --registration-token ${v}\n`,
  "GR1348941" + ch(A + "_-", 20),
);
add(
  "npm token env",
  ".github/workflows/publish.yml",
  (v) => `    env:\n      NODE_AUTH_TOKEN: ${v}\n`,
  npm(),
);
add(
  "pypi token twine",
  "release.sh",
  (v) => `twine upload -u __token__ -p ${v} dist/*\n`,
  "pypi-AgEIcHlwaS5vcmc" + ch(A + "_-", 120),
);
add(
  "huggingface login",
  "train.ipynb",
  (v) =>
    JSON.stringify({
      cells: [{
        cell_type: "code",
        source: [`from huggingface_hub import login\n`, `login("${v}")`],
      }],
    }),
  "hf_" + ch(A, 34),
);
add(
  "openai proj key python",
  "app.py",
  (v) => `client = OpenAI(api_key="${v}")\n`,
  "sk-proj-" + ch(A + "_-", 156),
);
add("openai svcacct", ".env", (v) => `OPENAI_KEY=${v}\n`, "sk-svcacct-" + ch(A + "_-", 156));
add(
  "anthropic key ts",
  "client.ts",
  (v) => `const anthropic = new Anthropic({ apiKey: '${v}' });\n`,
  "sk-ant-api03-" + ch(A + "_-", 93) + "AA",
);
add(
  "anthropic admin",
  "admin.sh",
  (v) => `curl -H "x-api-key: ${v}" https://api.anthropic.com/v1/organizations/users\n`,
  "sk-ant-admin01-" + ch(A + "_-", 93) + "AA",
);
add(
  "databrickscfg",
  ".databrickscfg",
  (v) => `[DEFAULT]\nhost = https://adb-1.azuredatabricks.net\ntoken = ${v}\n`,
  "dapi" + hex(32),
);
add("databricks env", ".env", (v) => `DATABRICKS_TOKEN=${v}\n`, "dapi" + hex(32) + "-2");
add(
  "supabase service role jwt",
  ".env.local",
  (v) => `NEXT_PUBLIC_SUPABASE_URL=https://x.supabase.co\nSUPABASE_SERVICE_ROLE_KEY=${v}\n`,
  jwt(),
);
add(
  "supabase sb_secret",
  "config.ts",
  (v) => `createClient(url, "${v}")\n`,
  "sb_secret_" + ch(A + "_-", 31),
);
add("vault hvs", ".envrc", (v) => `export VAULT_TOKEN=${v}\n`, "hvs." + ch(A + "_-", 90));
add(
  "vault legacy s.",
  "vault.hcl",
  (v) => `vault {\n  address = "https://vault:8200"\n  token = "${v}"\n}\n`,
  "s." + ch(A, 24),
);
add(
  "age secret key file",
  "keys.txt",
  (v) =>
    `# created: 2026-01-01T00:00:00Z\n# public key: age1${
      ch("qpzry9x8gf2tvdw0s3jn54khce6mua7l", 58)
    }\n${v}\n`,
  "AGE-SECRET-KEY-1" + ch("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58),
);
add(
  "pgp private block yaml",
  "ci.yml",
  (v) =>
    `gpg_key: |\n  -----BEGIN PGP PRIVATE KEY BLOCK-----\n\n  ${v}\n  ${b64(64)}\n  =${
      ch(A, 4)
    }\n  -----END PGP PRIVATE KEY BLOCK-----\n`,
  b64(64),
);
add(
  "ssh key yaml block",
  "group_vars/all.yml",
  (v) =>
    `deploy_key: |\n    -----BEGIN OPENSSH PRIVATE KEY-----\n    b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n    ${v}\n    -----END OPENSSH PRIVATE KEY-----\n`,
  b64(70),
);
add(
  "ssh key in github actions with",
  ".github/workflows/deploy.yml",
  (v) =>
    `      - uses: webfactory/ssh-agent@v0.9.0\n        with:\n          ssh-private-key: |\n            -----BEGIN OPENSSH PRIVATE KEY-----\n            ${v}\n            -----END OPENSSH PRIVATE KEY-----\n`,
  b64(70),
);
add(
  "jupyter server url token",
  "run.ipynb",
  (v) =>
    JSON.stringify({
      cells: [{
        outputs: [{
          name: "stderr",
          text: [
            `    Or copy and paste one of these URLs:\n`,
            `        http://127.0.0.1:8888/lab?token=${v}\n`,
          ],
        }],
      }],
    }),
  hex(48),
);
add(
  "jupyter output env dump",
  "debug.ipynb",
  (v) =>
    JSON.stringify({
      cells: [{
        outputs: [{
          output_type: "stream",
          text: [`environ({'HOME': '/root', 'OPENAI_API_KEY': '${v}'})\n`],
        }],
      }],
    }),
  "sk-proj-" + ch(A + "_-", 100),
);
add(".env stripe live", ".env", (v) => `STRIPE_SECRET_KEY=${v}\n`, "sk_live_" + ch(A, 99));
add(".env mixed quoting", ".env", (v) => `SESSION_SECRET='${v}' # rotate monthly\n`, pw());
add(
  "tfstate password",
  "terraform.tfstate",
  (v) =>
    `{\n  "resources": [{\n    "type": "aws_db_instance",\n    "instances": [{\n      "attributes": {\n        "password": "${v}",\n        "username": "admin"\n      }\n    }]\n  }]\n}\n`,
  pw(),
);
add(
  "tfstate iam secret",
  "terraform.tfstate",
  (v) =>
    `        "attributes": {\n          "id": "AKIA${
      up(16)
    }",\n          "secret": "${v}",\n          "ses_smtp_password_v4": "B${
      ch(A, 43)
    }"\n        }\n`,
  ch(A + "+/", 40),
);
add(
  "tfstate private_key_pem",
  "terraform.tfstate",
  (v) =>
    `          "private_key_pem": "-----BEGIN RSA PRIVATE KEY-----\\n${v}\\n-----END RSA PRIVATE KEY-----\\n",\n`,
  b64(64),
);
add(
  "tfstate random_password result",
  "terraform.tfstate",
  (v) =>
    `      "type": "random_password",\n      "instances": [{"attributes": {"length": 16, "result": "${v}", "special": true}}]\n`,
  ch(A + "!#$%&*()-_=+[]{}<>:?", 16),
);
add(
  "helm values nested password",
  "values.yaml",
  (v) => `postgresql:\n  auth:\n    username: app\n    postgresPassword: ${v}\n    database: app\n`,
  pw(),
);
add(
  "helm values redis",
  "values.yaml",
  (v) => `redis:\n  enabled: true\n  auth:\n    password: "${v}"\n`,
  pw(),
);
add(
  "k8s stringData",
  "secret.yaml",
  (v) => `apiVersion: v1\nkind: Secret\nmetadata:\n  name: api\nstringData:\n  api-token: ${v}\n`,
  mixed(32),
);
add(
  "k8s data b64 of plain key",
  "secret.yaml",
  (v) => `apiVersion: v1\nkind: Secret\ntype: Opaque\ndata:\n  DB_PASS: ${v}\n`,
  b64of(pw()),
);
add(
  "actions with password literal",
  ".github/workflows/ci.yml",
  (v) =>
    `      - uses: docker/login-action@v3\n        with:\n          username: bob\n          password: ${v}\n`,
  pw(),
);
add(
  "actions with token literal",
  ".github/workflows/ci.yml",
  (v) => `      - uses: actions/checkout@v4\n        with:\n          token: ${v}\n`,
  ghp(),
);
add(
  "ansible become password",
  "inventory.ini",
  (v) => `[web]\nweb1 ansible_host=10.0.0.5 ansible_user=deploy ansible_become_password=${v}\n`,
  pw(),
);
add("ansible ssh pass yaml", "host_vars/db.yml", (v) => `ansible_ssh_pass: "${v}"\n`, pw());
add(
  "spring keystore password",
  "application.properties",
  (v) => `server.ssl.key-store=classpath:keystore.p12\nserver.ssl.key-store-password=${v}\n`,
  pw(),
);
add(
  "android signing groovy",
  "app/build.gradle",
  (v) =>
    `    signingConfigs {\n        release {\n            storeFile file("release.jks")\n            storePassword "${v}"\n            keyAlias "release"\n            keyPassword "${v}"\n        }\n    }\n`,
  pw(),
);
add(
  "keystore.properties",
  "keystore.properties",
  (v) => `storePassword=${v}\nkeyPassword=${v}\nkeyAlias=upload\n`,
  pw(),
);
add(
  "csharp sql conn",
  "Db.cs",
  (v) =>
    `var cs = "Server=tcp:acme.database.windows.net,1433;Initial Catalog=app;User ID=sa;Password=${v};Encrypt=True;";\n`,
  pw(),
);
add(
  "java jdbc postgres positional",
  "Db.java",
  (v) =>
    `Connection c = DriverManager.getConnection("jdbc:postgresql://db:5432/app", "app", "${v}");\n`,
  pw(),
);
add(
  "go libpq keyword dsn",
  "db.go",
  (v) =>
    `db, err := sql.Open("postgres", "host=db user=app password=${v} dbname=app sslmode=disable")\n`,
  pw(),
);
add(
  "python psycopg2 dsn",
  "db.py",
  (v) => `conn = psycopg2.connect("dbname=app user=app password=${v} host=db")\n`,
  pw(),
);
add(
  "python redis password kw",
  "cache.py",
  (v) => `r = redis.Redis(host="cache", port=6379, password="${v}")\n`,
  pw(),
);
add(
  "go mongo uri",
  "main.go",
  (v) =>
    `client, _ := mongo.Connect(ctx, options.Client().ApplyURI("mongodb+srv://app:${v}@cluster0.abcde.mongodb.net/?retryWrites=true"))\n`,
  pw(),
);
add(
  "curl -u user:pass",
  "deploy.sh",
  (v) => `curl -u admin:${v} -X POST https://ci.example.com/job/build\n`,
  pw(),
);
add(
  "curl --user quoted",
  "deploy.sh",
  (v) => `curl --user "deploy:${v}" https://nexus.example.com/repository/raw/\n`,
  pw(),
);
add(
  "wget --http-password",
  "fetch.sh",
  (v) => `wget --http-user=bob --http-password=${v} https://files.example.com/a.tgz\n`,
  pw(),
);
add(
  "amqp url",
  "celeryconfig.py",
  (v) => `broker_url = "amqp://worker:${v}@rabbit:5672//"\n`,
  pw(),
);
add("redis empty user url", ".env", (v) => `REDIS_URL=redis://:${v}@cache:6379/0\n`, pw());
add(
  "ldap url",
  "ldap.conf",
  (v) => `uri ldaps://cn=admin,dc=acme,dc=com:${v}@ldap.acme.com\n`,
  pw(),
);
add(
  "sftp url",
  "sync.py",
  (v) => `REMOTE = "sftp://backup:${v}@backup.example.com:22/srv/backups"\n`,
  pw(),
);
add(
  "smtps url",
  "mailer.yml",
  (v) => `mailer:\n  dsn: smtps://noreply@acme.com:${v}@smtp.gmail.com:465\n`,
  pw(),
);
add("mssql url", "config.ts", (v) => `const url = "mssql://sa:${v}@sql:1433/app";\n`, pw());
add(
  "nats url",
  "docker-compose.yml",
  (v) => `    command: ["--url", "nats://app:${v}@nats:4222"]\n`,
  pw(),
);
add(
  "kafka sasl jaas",
  "client.properties",
  (v) =>
    `sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="app" password="${v}";\n`,
  pw(),
);
add(
  "docker login stdin literal",
  "push.sh",
  (v) => `echo '${v}' | docker login -u bob --password-stdin registry.example.com\n`,
  pw(),
);
add(
  "docker login stdin printf",
  "push.sh",
  (v) => `printf '%s' "${v}" | docker login ghcr.io -u bob --password-stdin\n`,
  ghp().replace("ghp_", "gh" + "o_"),
);
add(
  "helm registry login stdin",
  "release.sh",
  (v) => `echo "${v}" | helm registry login registry.acme.io --username bob --password-stdin\n`,
  pw(),
);
add(
  "gh auth with-token literal",
  "setup.sh",
  (v) => `echo ${v} | gh auth login --with-token\n`,
  "github_pat_" + ch(A + "_", 82),
);
add(
  "az devops login PAT piped",
  "setup.ps1",
  (v) => `"${v}" | az devops login --org https://dev.azure.com/acme\n`,
  ado(),
);
add(
  "az login sp password",
  "deploy.sh",
  (v) => `az login --service-principal -u ${uuid()} -p ${v} --tenant ${uuid()}\n`,
  ch(A + "~._-", 40),
);
add(
  "json escaped twice",
  "fixtures.json",
  (v) => `{"body": "{\\"config\\": \\"{\\\\\\"password\\\\\\":\\\\\\"${v}\\\\\\"}\\"}"}\n`,
  pw(),
);
add(
  "json escaped twice token",
  "events.json",
  (v) => `{"detail": "{\\"payload\\":\\"{\\\\\\"api_key\\\\\\": \\\\\\"${v}\\\\\\"}\\"}"}\n`,
  mixed(32),
);
add(
  "concat short first part",
  "config.py",
  (v) => `DB_PASSWORD = "${v.slice(0, 3)}" + "${v.slice(3)}"\n`,
  pw(),
);
add(
  "concat short first part js",
  "config.js",
  (v) => `const apiKey = '${v.slice(0, 4)}' + '${v.slice(4)}';\n`,
  mixed(32),
);
add(
  "short ?code= azure function",
  "call.sh",
  (v) => `curl "https://acme-fn.azurewebsites.net/api/Hook?code=${v}"\n`,
  mixed(14),
);
add(
  "short &token=",
  "links.md",
  (v) => `[report](https://reports.acme.io/view?id=7&token=${v})\n`,
  mixed(12),
);
add(
  "short ?sig=",
  "assets.json",
  (v) => `{"url": "https://cdn.acme.io/a.png?exp=1700000000&sig=${v}"}\n`,
  mixed(16),
);
add(
  "rails credentials production.key",
  "config/credentials/production.key",
  (v) => `${v}\n`,
  hex(32),
);
add("rails master.key no newline", "config/master.key", (v) => v, hex(32));
add(
  "appsettings Jwt Key",
  "appsettings.Production.json",
  (v) =>
    `{\n  "Logging": {"LogLevel": {"Default": "Information"}},\n  "JwtSettings": {\n    "Key": "${v}",\n    "Issuer": "acme"\n  }\n}\n`,
  mixed(40),
);
add(
  "appsettings SendGrid Key inline",
  "appsettings.json",
  (v) => `{"SendGrid": {"Key": "${v}", "From": "no-reply@acme.com"}}\n`,
  mixed(32),
);
add(
  "yaml nested jwt key",
  "application.yml",
  (v) => `jwt:\n  key: ${v}\n  expiration: 3600\n`,
  mixed(40),
);
add("yaml nested Stripe Secret", "config.yml", (v) => `stripe:\n  secret: ${v}\n`, mixed(24));
add(
  "appsettings Token nested",
  "appsettings.json",
  (v) => `{\n  "Telegram": {\n    "Token": "${v}"\n  }\n}\n`,
  mixed(35),
);
add(
  "passphrase words with test",
  "config.json",
  (v) => `{"passphrase": "${v}"}\n`,
  "greatestriverstone",
);
add("password words contest", "settings.yml", (v) => `password: ${v}\n`, "contestwinners");
add("password testament", ".env", (v) => `DB_PASSWORD=${v}\n`, "oldtestamentmaple");
add(
  "passphrase words joined",
  "config.toml",
  (v) => `passphrase = "${v}"\n`,
  words.slice(0, 4).join("-"),
);
add(
  "java keystore jks props",
  "gradle.properties",
  (v) => `RELEASE_STORE_PASSWORD=${v}\nRELEASE_KEY_PASSWORD=${v}\n`,
  pw(),
);
add("php env laravel mail", ".env", (v) => `MAIL_PASSWORD=${v}\n`, lowdig(16));

// The thirteenth hunt's samples (written before reading the rules): the twelfth's two leftovers
// in other languages' shapes, credentials given to calls by position, admin tools' command lines,
// servers' and daemons' config files, more clients' credential files, request collections (.http,
// Postman, HAR), key formats not yet probed, and providers' newer token formats.
const digits = (n: number) => ch("0123456789", n);
const b58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
add(
  "jdbc postgres getConnection var url",
  "Repo.java",
  (v) => `    conn = DriverManager.getConnection(url, "postgres", "${v}");\n`,
  pw(),
);
add(
  "kotlin getConnection",
  "Db.kt",
  (v) => `val conn = DriverManager.getConnection(dbUrl, "app", "${v}")\n`,
  pw(),
);
add(
  "java getConnection split lines",
  "Db.java",
  (v) =>
    `        return DriverManager.getConnection(\n                JDBC_URL,\n                "admin",\n                "${v}");\n`,
  pw(),
);
add(
  "psycopg2 connect kw password",
  "etl.py",
  (v) =>
    `conn = psycopg2.connect(host="db", dbname="app", user="etl", password="${v}", port=5432)\n`,
  pw(),
);
add(
  "pymssql positional",
  "report.py",
  (v) => `conn = pymssql.connect("sql01", "report", "${v}", "sales")\n`,
  pw(),
);
add(
  "go sql.Open mysql dsn",
  "store.go",
  (v) => `db, err := sql.Open("mysql", "root:${v}@tcp(127.0.0.1:3306)/shop?parseTime=true")\n`,
  pw(),
);
add(
  "go sqlx pgx url dsn",
  "store.go",
  (v) => `db := sqlx.MustConnect("pgx", "postgres://app:${v}@db:5432/app?sslmode=disable")\n`,
  pw(),
);
add(
  "dotnet new SqlConnection",
  "Repo.cs",
  (v) =>
    `using var conn = new SqlConnection("Data Source=sql01;Initial Catalog=Shop;User Id=shop;Password=${v};");\n`,
  pw(),
);
add(
  "dotnet NpgsqlConnection",
  "Repo.cs",
  (v) => `var conn = new NpgsqlConnection("Host=db;Username=app;Password=${v};Database=app");\n`,
  pw(),
);
add(
  "tfstate random_password json pretty",
  "terraform.tfstate",
  (v) =>
    `    {\n      "mode": "managed",\n      "type": "random_password",\n      "name": "db",\n      "provider": "provider[\\"registry.terraform.io/hashicorp/random\\"]",\n      "instances": [\n        {\n          "schema_version": 3,\n          "attributes": {\n            "bcrypt_hash": "$2a$10$${
      ch(A + "./", 53)
    }",\n            "id": "none",\n            "length": 24,\n            "lower": true,\n            "result": "${v}",\n            "special": true\n          },\n          "sensitive_attributes": []\n        }\n      ]\n    },\n`,
  ch(A + "!#$%&*()-_=+[]{}<>:?", 24),
);
add(
  "tfstate random_string special",
  "terraform.tfstate",
  (v) =>
    `      "type": "random_string",\n      "name": "api_secret",\n      "instances": [\n        {\n          "attributes": {\n            "id": "${v}",\n            "length": 32,\n            "result": "${v}",\n            "special": true\n          }\n        }\n      ]\n`,
  ch(A + "!#$%&*()-_=+", 32),
);
add(
  "tfstate tls_private_key pretty",
  "terraform.tfstate",
  (v) =>
    `      "type": "tls_private_key",\n      "instances": [\n        {\n          "attributes": {\n            "algorithm": "ED25519",\n            "private_key_openssh": "-----BEGIN OPENSSH PRIVATE KEY-----\\n${v}\\n-----END OPENSSH PRIVATE KEY-----\\n",\n            "private_key_pem": "-----BEGIN PRIVATE KEY-----\\n${v}\\n-----END PRIVATE KEY-----\\n"\n          }\n        }\n      ]\n`,
  b64(64) + "\\n" + b64(20),
);
add(
  "requests auth tuple",
  "client.py",
  (v) => `resp = requests.get(url, auth=("api", "${v}"), timeout=10)\n`,
  pw(),
);
add(
  "HTTPBasicAuth positional",
  "client.py",
  (v) => `session.auth = HTTPBasicAuth("svc-reporting", "${v}")\n`,
  pw(),
);
add(
  "smtplib login gmail app password",
  "notify.py",
  (v) => `server.login("alerts@acme.com", "${v}")\n`,
  [0, 1, 2, 3].map(() => ch("abcdefghijklmnopqrstuvwxyz", 4)).join(" "),
);
add(
  "ftplib login",
  "upload.py",
  (v) => `ftp = FTP("ftp.acme.com")\nftp.login("uploader", "${v}")\n`,
  pw(),
);
add(
  "sequelize positional",
  "db.js",
  (v) => `const sequelize = new Sequelize("shop", "shop_user", "${v}", { dialect: "mysql" });\n`,
  pw(),
);
add(
  "nodemailer auth pass",
  "mailer.js",
  (v) =>
    `const transporter = nodemailer.createTransport({\n  host: "smtp.acme.com",\n  auth: { user: "no-reply@acme.com", pass: "${v}" },\n});\n`,
  pw(),
);
add(
  "java PasswordAuthentication",
  "Mailer.java",
  (v) => `        return new PasswordAuthentication("mailer@acme.com", "${v}".toCharArray());\n`,
  pw(),
);
add(
  "java setPassword",
  "DataSourceConfig.java",
  (v) => `        ds.setUsername("app");\n        ds.setPassword("${v}");\n`,
  pw(),
);
add(
  "java System.setProperty keyStorePassword",
  "Main.java",
  (v) => `System.setProperty("javax.net.ssl.keyStorePassword", "${v}");\n`,
  pw(),
);
add(
  "csharp NetworkCredential",
  "Mail.cs",
  (v) => `client.Credentials = new NetworkCredential("mailer", "${v}");\n`,
  pw(),
);
add(
  "go smtp.PlainAuth",
  "mail.go",
  (v) => `auth := smtp.PlainAuth("", "alerts@acme.com", "${v}", "smtp.acme.com")\n`,
  pw(),
);
add(
  "go ssh.Password",
  "deploy.go",
  (v) => `Auth: []ssh.AuthMethod{ssh.Password("${v}")},\n`,
  pw(),
);
add(
  "rust builder password",
  "db.rs",
  (v) =>
    `let opts = PgConnectOptions::new().host("db").username("app").password("${v}").database("app");\n`,
  pw(),
);
add(
  "rust reqwest basic_auth",
  "client.rs",
  (v) => `let resp = client.get(url).basic_auth("api", Some("${v}")).send().await?;\n`,
  pw(),
);
add(
  "phpmailer Password property",
  "mail.php",
  (v) => `$mail->Username = 'alerts@acme.com';\n$mail->Password = '${v}';\n`,
  pw(),
);
add(
  "ruby Net::SMTP positional",
  "mailer.rb",
  (v) => `Net::SMTP.start("smtp.acme.com", 587, "acme.com", "alerts", "${v}", :plain) do |smtp|\n`,
  pw(),
);
add(
  "flask secret_key bytes",
  "app.py",
  (v) => `app.secret_key = b'${v}'\n`,
  '_5#y2L\\"F4Q8z\\n\\xec]/' + ch(A, 12),
);
add(
  "flask config SECRET_KEY subscript",
  "app.py",
  (v) => `app.config["SECRET_KEY"] = "${v}"\n`,
  hex(48),
);
add(
  "django SECRET_KEY punctuation",
  "settings.py",
  (v) => `SECRET_KEY = '${v}'\n`,
  ch("abcdefghijklmnopqrstuvwxyz0123456789!@#%^&*(-_=+)", 50),
);
add(
  "os.environ.setdefault literal",
  "manage.py",
  (v) => `os.environ.setdefault("STRIPE_API_KEY", "${v}")\n`,
  "sk_live_" + ch(A, 24),
);
add(
  "powershell ConvertTo-SecureString",
  "deploy.ps1",
  (v) => `$secpass = ConvertTo-SecureString "${v}" -AsPlainText -Force\n`,
  pw(),
);
add(
  "powershell ConvertTo-SecureString -String",
  "deploy.ps1",
  (v) => `$pw = ConvertTo-SecureString -String '${v}' -AsPlainText -Force\n`,
  pw(),
);
add(
  "cmdkey /pass:",
  "map.cmd",
  (v) => `cmdkey /add:fileserver /user:CORP\\svc /pass:${v}\n`,
  pw(),
);
add("net user add", "setup.cmd", (v) => `net user deploy ${v} /add /y\n`, pw());
add(
  "schtasks /RP",
  "setup.cmd",
  (v) => `schtasks /Create /TN Backup /TR backup.cmd /SC DAILY /RU CORP\\svc /RP ${v}\n`,
  pw(),
);
add(
  "unattend.xml AdministratorPassword",
  "autounattend.xml",
  (v) =>
    `<UserAccounts>\n  <AdministratorPassword>\n    <Value>${v}</Value>\n    <PlainText>true</PlainText>\n  </AdministratorPassword>\n</UserAccounts>\n`,
  pw(),
);
add(
  "openssl -pass pass:",
  "encrypt.sh",
  (v) => `openssl enc -aes-256-cbc -salt -in db.sql -out db.sql.enc -pass pass:${v}\n`,
  pw(),
);
add(
  "openssl pkcs12 -passout",
  "certs.sh",
  (v) => `openssl pkcs12 -export -in cert.pem -inkey key.pem -out cert.p12 -passout pass:${v}\n`,
  pw(),
);
add("zip -P", "backup.sh", (v) => `zip -r -P ${v} backup.zip data/\n`, pw());
add("7z -p", "backup.sh", (v) => `7z a -p${v} -mhe=on backup.7z data/\n`, pw());
add("redis-cli -a", "flush.sh", (v) => `redis-cli -h cache -a ${v} FLUSHALL\n`, pw());
add(
  "ldapsearch -w",
  "ldap.sh",
  (v) => `ldapsearch -x -H ldap://dc01 -D "cn=admin,dc=acme,dc=com" -w ${v} -b "dc=acme,dc=com"\n`,
  pw(),
);
add("smbclient -U user%pass", "fetch.sh", (v) => `smbclient //fs01/share -U bob%${v}\n`, pw());
add(
  "mount cifs password=",
  "mount.sh",
  (v) => `mount -t cifs //fs01/data /mnt/data -o username=bob,password=${v},vers=3.0\n`,
  pw(),
);
add(
  "fstab cifs password=",
  "fstab",
  (v) => `//fs01/data  /mnt/data  cifs  username=bob,password=${v},uid=1000  0  0\n`,
  pw(),
);
add(
  "sqlplus user/pass@",
  "export.sh",
  (v) => `sqlplus -s system/${v}@//db01:1521/ORCLPDB1 @report.sql\n`,
  pw(),
);
add(
  "mc alias set positional",
  "minio.sh",
  (v) => `mc alias set prod https://minio.acme.com:9000 AKIA${up(16)} ${v}\n`,
  ch(A + "+/", 40),
);
add(
  "aws configure set secret",
  "setup.sh",
  (v) => `aws configure set aws_secret_access_key ${v} --profile prod\n`,
  ch(A + "+/", 40),
);
add(
  "kubectl from-literal",
  "deploy.sh",
  (v) =>
    `kubectl create secret generic db --from-literal=username=app --from-literal=password=${v}\n`,
  pw(),
);
add(
  "kubectl docker-password",
  "deploy.sh",
  (v) =>
    `kubectl create secret docker-registry regcred --docker-server=ghcr.io --docker-username=bob --docker-password=${v}\n`,
  ghp(),
);
add(
  "vault kv put",
  "seed.sh",
  (v) => `vault kv put secret/app/db username=app password=${v}\n`,
  pw(),
);
add(
  "heroku config:set",
  "deploy.sh",
  (v) => `heroku config:set SENDGRID_API_KEY=${v} -a acme-prod\n`,
  "SG." + ch(A + "_-", 22) + "." + ch(A + "_-", 43),
);
add(
  "gh secret set --body",
  "setup.sh",
  (v) => `gh secret set NPM_TOKEN --body "${v}"\n`,
  npm(),
);
add("cargo login positional", "release.sh", (v) => `cargo login ${v}\n`, "cio" + ch(A, 32));
add(
  "poetry config pypi-token",
  "release.sh",
  (v) => `poetry config pypi-token.pypi ${v}\n`,
  "pypi-AgEIcHlwaS5vcmc" + ch(A + "_-", 100),
);
add(
  "npm config set authToken",
  "ci.sh",
  (v) => `npm config set //registry.npmjs.org/:_authToken ${v}\n`,
  npm(),
);
add(
  "keytool -storepass",
  "keystore.sh",
  (v) =>
    `keytool -genkeypair -alias app -keyalg RSA -keystore app.jks -storepass ${v} -keypass ${v}\n`,
  pw(),
);
add(
  "wp-config DB_PASSWORD",
  "wp-config.php",
  (v) => `define( 'DB_USER', 'wp' );\ndefine( 'DB_PASSWORD', '${v}' );\n`,
  pw(),
);
add(
  "wp-config AUTH_KEY salt",
  "wp-config.php",
  (v) => `define('AUTH_KEY',         '${v}');\n`,
  ch(A + "!@#$%^&*()-_[]{}<>~`+=,.;:/?|", 64),
);
add(
  "laravel APP_KEY",
  ".env",
  (v) => `APP_NAME=Shop\nAPP_ENV=production\nAPP_KEY=base64:${v}\n`,
  b64(43) + "=",
);
add(
  ".my.cnf client password",
  ".my.cnf",
  (v) => `[client]\nuser = backup\npassword = "${v}"\nhost = db01\n`,
  pw(),
);
add(
  "cargo credentials.toml",
  ".cargo/credentials.toml",
  (v) => `[registry]\ntoken = "${v}"\n`,
  "cio" + ch(A, 32),
);
add(
  ".gem/credentials",
  ".gem/credentials",
  (v) => `---\n:rubygems_api_key: ${v}\n`,
  "rubygems_" + hex(48),
);
add(
  "bundle config gems host",
  ".bundle/config",
  (v) => `---\nBUNDLE_GEMS__CONTRIBSYS__COM: "${v}"\n`,
  hex(8) + ":" + hex(8),
);
add(
  "gradle.properties ossrhPassword",
  "gradle.properties",
  (v) => `ossrhUsername=bob\nossrhPassword=${v}\nsigning.keyId=${hex(8).toUpperCase()}\n`,
  pw(),
);
add(
  "gradle.properties signing.password",
  "gradle.properties",
  (v) => `signing.keyId=${hex(8).toUpperCase()}\nsigning.password=${v}\n`,
  pw(),
);
add(
  "gradle.properties mavenCentralPassword",
  "gradle.properties",
  (v) => `mavenCentralUsername=${lowdig(8)}\nmavenCentralPassword=${v}\n`,
  mixed(44),
);
add(
  "nuget.config ClearTextPassword",
  "nuget.config",
  (v) =>
    `<packageSourceCredentials>\n  <github>\n    <add key="Username" value="bob" />\n    <add key="ClearTextPassword" value="${v}" />\n  </github>\n</packageSourceCredentials>\n`,
  ghp(),
);
add(
  "gh hosts.yml oauth_token",
  ".config/gh/hosts.yml",
  (v) => `github.com:\n    user: bob\n    oauth_token: ${v}\n    git_protocol: https\n`,
  "gho_" + ch(A, 36),
);
add(
  "hub config oauth_token",
  ".config/hub",
  (v) => `github.com:\n- user: bob\n  oauth_token: ${v}\n  protocol: https\n`,
  hex(40),
);
add(
  ".s3cfg secret_key",
  ".s3cfg",
  (v) => `[default]\naccess_key = AKIA${up(16)}\nsecret_key = ${v}\n`,
  ch(A + "+/", 40),
);
add(
  "rclone.conf secret_access_key",
  "rclone.conf",
  (v) =>
    `[s3]\ntype = s3\nprovider = AWS\naccess_key_id = AKIA${up(16)}\nsecret_access_key = ${v}\n`,
  ch(A + "+/", 40),
);
add(
  "rclone.conf obscured pass",
  "rclone.conf",
  (v) => `[sftp-backup]\ntype = sftp\nhost = backup.acme.com\nuser = bob\npass = ${v}\n`,
  ch(A + "_-", 46),
);
add(
  ".boto",
  ".boto",
  (v) => `[Credentials]\naws_access_key_id = AKIA${up(16)}\naws_secret_access_key = ${v}\n`,
  ch(A + "+/", 40),
);
add(
  "condarc token channel",
  ".condarc",
  (v) => `channels:\n  - https://conda.anaconda.org/t/${v}/acme\n  - conda-forge\n`,
  "ac-" + lowdig(32),
);
add(
  "terraform credentials.tfrc.json",
  ".terraform.d/credentials.tfrc.json",
  (v) => `{\n  "credentials": {\n    "app.terraform.io": {\n      "token": "${v}"\n    }\n  }\n}\n`,
  ch(A, 14) + ".atlasv1." + ch(A, 67),
);
add(
  "terraformrc credentials block",
  ".terraformrc",
  (v) => `credentials "app.terraform.io" {\n  token = "${v}"\n}\n`,
  ch(A, 14) + ".atlasv1." + ch(A, 67),
);
add(
  "filezilla sitemanager base64 pass",
  "sitemanager.xml",
  (v) =>
    `<Server>\n  <Host>ftp.acme.com</Host>\n  <User>bob</User>\n  <Pass encoding="base64">${v}</Pass>\n</Server>\n`,
  b64of(pw()),
);
add(
  "wpa_supplicant psk",
  "wpa_supplicant.conf",
  (v) => `network={\n    ssid="AcmeCorp"\n    psk="${v}"\n    key_mgmt=WPA-PSK\n}\n`,
  pw(),
);
add(
  "hostapd wpa_passphrase",
  "hostapd.conf",
  (v) => `ssid=AcmeGuest\nwpa=2\nwpa_passphrase=${v}\n`,
  pw(),
);
add(
  "networkmanager psk",
  "AcmeCorp.nmconnection",
  (v) => `[wifi-security]\nkey-mgmt=wpa-psk\npsk=${v}\n`,
  pw(),
);
add(
  "ipsec.secrets PSK",
  "ipsec.secrets",
  (v) => `: PSK "${v}"\n`,
  mixed(32),
);
add(
  "wireguard PrivateKey",
  "wg0.conf",
  (v) => `[Interface]\nAddress = 10.8.0.1/24\nListenPort = 51820\nPrivateKey = ${v}\n`,
  b64(42) + "A=",
);
add(
  "openvpn static key",
  "ta.key",
  (v) =>
    `#\n# 2048 bit OpenVPN static key\n#\n-----BEGIN OpenVPN Static key V1-----\n${v}\n-----END OpenVPN Static key V1-----\n`,
  Array.from({ length: 16 }, () => hex(32)).join("\n"),
);
add(
  "consul gossip encrypt",
  "consul.hcl",
  (v) => `datacenter = "dc1"\nencrypt = "${v}"\n`,
  b64(43) + "=",
);
add(
  "vault operator init output",
  "init.txt",
  (v) => `Unseal Key 1: ${v}\nUnseal Key 2: ${b64(44)}\n\nInitial Root Token: hvs.${ch(A, 24)}\n`,
  b64(44),
);
add(
  "airflow fernet_key",
  "airflow.cfg",
  (v) => `[core]\nexecutor = LocalExecutor\nfernet_key = ${v}\n`,
  ch(A + "_-", 43) + "=",
);
add(
  "grafana.ini secret_key",
  "grafana.ini",
  (v) => `[security]\nadmin_user = admin\nsecret_key = ${v}\n`,
  mixed(20),
);
add(
  "logstash password =>",
  "logstash.conf",
  (v) =>
    `output {\n  elasticsearch {\n    hosts => ["https://es:9200"]\n    user => "logstash_writer"\n    password => "${v}"\n  }\n}\n`,
  pw(),
);
add(
  "filebeat dotted yaml password",
  "filebeat.yml",
  (v) => `output.elasticsearch.username: "elastic"\noutput.elasticsearch.password: "${v}"\n`,
  pw(),
);
add(
  "haproxy insecure-password",
  "haproxy.cfg",
  (v) => `userlist admins\n    user admin insecure-password ${v}\n`,
  pw(),
);
add(
  "nginx proxy_set_header Basic",
  "nginx.conf",
  (v) => `        proxy_set_header Authorization "Basic ${v}";\n`,
  b64of("svc:" + pw()),
);
add(
  "tomcat server.xml keystorePass",
  "server.xml",
  (v) =>
    `<Connector port="8443" protocol="HTTP/1.1" SSLEnabled="true" keystoreFile="conf/app.jks" keystorePass="${v}" />\n`,
  pw(),
);
add(
  ".http file Basic",
  "api.http",
  (v) =>
    `GET https://api.acme.com/v1/orders\nAuthorization: Basic ${v}\nAccept: application/json\n`,
  b64of("ops:" + pw()),
);
add(
  ".http file variable",
  "requests.http",
  (v) =>
    `@baseUrl = https://api.acme.com\n@apiKey = ${v}\n\nGET {{baseUrl}}/items\nX-Api-Key: {{apiKey}}\n`,
  mixed(32),
);
add(
  "Proxy-Authorization Basic",
  "proxy.txt",
  (v) => `CONNECT api.acme.com:443 HTTP/1.1\nProxy-Authorization: Basic ${v}\n`,
  b64of("proxy:" + pw()),
);
add(
  "postman basic auth array",
  "Acme.postman_collection.json",
  (v) =>
    `"auth": {\n  "type": "basic",\n  "basic": [\n    {\n      "key": "password",\n      "value": "${v}",\n      "type": "string"\n    },\n    {\n      "key": "username",\n      "value": "ops",\n      "type": "string"\n    }\n  ]\n}\n`,
  pw(),
);
add(
  "postman environment api_key",
  "prod.postman_environment.json",
  (v) =>
    `"values": [\n  {\n    "key": "api_key",\n    "value": "${v}",\n    "type": "secret",\n    "enabled": true\n  }\n]\n`,
  mixed(32),
);
add(
  "postman bearer token",
  "Acme.postman_collection.json",
  (v) =>
    `"auth": {"type": "bearer", "bearer": [{"key": "token", "value": "${v}", "type": "string"}]}\n`,
  mixed(40),
);
add(
  "har Authorization header",
  "session.har",
  (v) =>
    `          "headers": [\n            {\n              "name": "Authorization",\n              "value": "Bearer ${v}"\n            },\n`,
  mixed(48),
);
add(
  "har Cookie header",
  "session.har",
  (v) =>
    `            {\n              "name": "Cookie",\n              "value": "_ga=GA1.2.1; sessionid=${v}"\n            },\n`,
  lowdig(32),
);
add(
  "har cookies array",
  "session.har",
  (v) => `"cookies": [{"name": "session", "value": "${v}", "httpOnly": true}]\n`,
  ch(A + "-_", 64),
);
add(
  "curl -b cookie",
  "repro.sh",
  (v) => `curl 'https://app.acme.com/api/me' -b 'sessionid=${v}; csrftoken=abc'\n`,
  lowdig(32),
);
add(
  "curl -H Cookie",
  "repro.sh",
  (v) => `curl 'https://app.acme.com/api/me' -H 'Cookie: connect.sid=s%3A${v}'\n`,
  ch(A + "-_", 32) + "." + ch(A + "+/", 43),
);
add(
  "notebook %env magic",
  "train.ipynb",
  (v) => `   "source": [\n    "%env OPENAI_API_KEY=${v}\\n",\n    "import openai"\n   ]\n`,
  "sk-proj-" + ch(A + "_-", 100),
);
add(
  "notebook os.environ assign",
  "train.ipynb",
  (v) => `    "os.environ[\\"WANDB_API_KEY\\"] = \\"${v}\\"\\n",\n`,
  hex(40),
);
add(
  "telegram bot token",
  "bot.py",
  (v) => `bot = telebot.TeleBot("${v}")\n`,
  digits(10) + ":AA" + ch(A + "_-", 33),
);
add(
  "teams incoming webhook",
  "notify.ps1",
  (v) =>
    `$uri = "https://acme.webhook.office.com/webhookb2/${uuid()}@${uuid()}/IncomingWebhook/${v}"\n`,
  hex(32) + "/" + uuid(),
);
add(
  "google chat webhook",
  "alert.sh",
  (v) =>
    `curl -X POST 'https://chat.googleapis.com/v1/spaces/AAAA${ch(A, 7)}/messages?key=AIzaSy${
      ch(A, 33)
    }&token=${v}' -d @msg.json\n`,
  ch(A + "_-", 43) + "%3D",
);
add("mailchimp key", "newsletter.js", (v) => `const mailchimpKey = "${v}";\n`, hex(32) + "-us21");
add(
  "postmark server token header",
  "mail.http",
  (v) => `POST https://api.postmarkapp.com/email\nX-Postmark-Server-Token: ${v}\n`,
  uuid(),
);
add("groq key", "llm.py", (v) => `client = Groq(api_key="${v}")\n`, "gsk_" + ch(A, 52));
add("replicate token", ".env", (v) => `REPLICATE_API_TOKEN=${v}\n`, "r8_" + ch(A, 37));
add("perplexity key", "search.ts", (v) => `const pplx = "${v}";\n`, "pplx-" + ch(A, 48));
add("xai key", "grok.py", (v) => `XAI = "${v}"\n`, "xai-" + ch(A, 80));
add(
  "openrouter key",
  "config.ts",
  (v) => `  headers: { Authorization: "Bearer ${v}" },\n`,
  "sk-or-v1-" + hex(64),
);
add(
  "github fine-grained bare",
  "notes.txt",
  (v) => `${v}\n`,
  "github_pat_" + ch(A, 22) + "_" + ch(A, 59),
);
add(
  "linear api key",
  "sync.ts",
  (v) => `const linear = new LinearClient({ apiKey: "${v}" });\n`,
  "lin_api_" + ch(A, 40),
);
add(
  "notion ntn token",
  "notion.py",
  (v) => `notion = Client(auth="${v}")\n`,
  "ntn_" + digits(11) + ch(A, 35),
);
add("digitalocean dop_v1", "doctl.sh", (v) => `doctl auth init -t ${v}\n`, "dop_v1_" + hex(64));
add(
  "tailscale auth key",
  "up.sh",
  (v) => `tailscale up --authkey=${v}\n`,
  "tskey-auth-" + ch(A, 17) + "-" + ch(A, 33),
);
add("newrelic NRAK", "newrelic.yml", (v) => `  api_key: ${v}\n`, "NRAK-" + up(27));
add(
  "grafana glsa",
  "provision.sh",
  (v) => `export GRAFANA_TOKEN=${v}\n`,
  "glsa_" + ch(A, 32) + "_" + hex(8),
);
add(
  "postman PMAK",
  "newman.sh",
  (v) => `newman run "https://api.getpostman.com/collections/1?apikey=${v}"\n`,
  "PMAK-" + hex(24) + "-" + hex(34),
);
add(
  "okta SSWS header",
  "okta.sh",
  (v) => `curl -H "Authorization: SSWS ${v}" https://acme.okta.com/api/v1/users\n`,
  "00" + ch(A + "_-", 40),
);
add(
  "dockerhub dckr_pat",
  "push.sh",
  (v) => `echo ${v} | docker login -u bob --password-stdin\n`,
  "dckr_pat_" + ch(A + "_-", 27),
);
add(
  "sonarqube squ token",
  "sonar-project.properties",
  (v) => `sonar.login=${v}\n`,
  "squ_" + hex(40),
);
add("pulumi token", ".env", (v) => `PULUMI_ACCESS_TOKEN=${v}\n`, "pul-" + hex(40));
add(
  "doppler service token",
  "run.sh",
  (v) => `doppler run --token ${v} -- npm start\n`,
  "dp.st.prd." + ch(A, 40),
);
add(
  "figma token",
  "export.ts",
  (v) => `headers: { "X-Figma-Token": "${v}" },\n`,
  "figd_" + ch(A + "_-", 40),
);
add(
  "mapbox secret sk.",
  "tiles.py",
  (v) => `MAPBOX_TOKEN = "${v}"\n`,
  "sk.eyJ1IjoiYWNtZSIsImEiOiJ" + ch(A, 20) + "." + ch(A + "_-", 22),
);
add(
  "azure client secret Q~",
  "appsettings.json",
  (v) => `  "AzureAd": { "ClientId": "${uuid()}", "ClientSecret": "${v}" }\n`,
  ch(A, 3) + "8Q~" + ch(A + "_.-~", 34),
);
add(
  "azure openai api-key header",
  "chat.http",
  (v) =>
    `POST https://acme.openai.azure.com/openai/deployments/gpt4/chat/completions?api-version=2024-02-01\napi-key: ${v}\n`,
  hex(32),
);
add(
  "datadog DD_API_KEY compose",
  "docker-compose.yml",
  (v) => `    environment:\n      - DD_API_KEY=${v}\n      - DD_SITE=datadoghq.eu\n`,
  hex(32),
);
add(
  "snyk token uuid",
  ".github/workflows/snyk.yml",
  (v) => `        env:\n          SNYK_TOKEN: ${v}\n`,
  uuid(),
);
add(
  "dotnet xml rsa private key",
  "key.xml",
  (v) =>
    `<RSAKeyValue><Modulus>${b64(172)}</Modulus><Exponent>AQAB</Exponent><P>${v}</P><Q>${
      b64(86)
    }</Q><DP>${b64(86)}</DP><DQ>${b64(86)}</DQ><InverseQ>${b64(86)}</InverseQ><D>${
      b64(172)
    }</D></RSAKeyValue>\n`,
  b64(86),
);
add(
  "java string-concat pem",
  "Keys.java",
  (v) =>
    `    static final String KEY = "-----BEGIN PRIVATE KEY-----\\n" +\n        "${v}\\n" +\n        "${
      b64(64)
    }\\n" +\n        "-----END PRIVATE KEY-----";\n`,
  b64(64),
);
add(
  "ec private key pem",
  "ec.pem",
  (v) => `-----BEGIN EC PRIVATE KEY-----\n${v}\n-----END EC PRIVATE KEY-----\n`,
  "MHcCAQEEI" + b64(55) + "\n" + b64(64) + "\n" + b64(48),
);
add(
  "encrypted pem proc-type",
  "server.key",
  (v) =>
    `-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-256-CBC,${
      hex(32).toUpperCase()
    }\n\n${v}\n-----END RSA PRIVATE KEY-----\n`,
  b64(64) + "\n" + b64(64),
);
add(
  "minisign secret key",
  "minisign.key",
  (v) => `untrusted comment: minisign encrypted secret key\n${v}\n`,
  "RWRTY0Iy" + b64(204),
);
add(
  "solana keypair json",
  "id.json",
  (v) => `${v}\n`,
  "[" + Array.from({ length: 64 }, () => Math.floor(rnd() * 256)).join(",") + "]",
);
add("ethereum private key env", ".env", (v) => `DEPLOYER_PRIVATE_KEY=${v}\n`, "0x" + hex(64));
add(
  "hardhat accounts array",
  "hardhat.config.js",
  (v) => `    sepolia: {\n      url: RPC_URL,\n      accounts: ["${v}"],\n    },\n`,
  "0x" + hex(64),
);
add(
  "bip39 mnemonic",
  ".env",
  (v) => `MNEMONIC="${v}"\n`,
  [
    "abandon",
    "zebra",
    "orbit",
    "velvet",
    "canal",
    "wisdom",
    "harbor",
    "ripple",
    "fossil",
    "gadget",
    "lunar",
    "tunnel",
  ].join(" "),
);
add("bitcoin WIF", "wallet.py", (v) => `WIF = "${v}"\n`, "L" + ch(b58, 51));
add(
  "gae app.yaml env_variables",
  "app.yaml",
  (v) => `runtime: python312\nenv_variables:\n  STRIPE_SECRET: "${v}"\n`,
  "sk_live_" + ch(A, 24),
);
add(
  "netlify.toml build environment",
  "netlify.toml",
  (v) => `[build.environment]\n  NODE_VERSION = "20"\n  CONTENTFUL_TOKEN = "${v}"\n`,
  ch(A + "_-", 43),
);
add(
  "wrangler vars token",
  "wrangler.toml",
  (v) => `[vars]\nENVIRONMENT = "production"\nAPI_TOKEN = "${v}"\n`,
  mixed(40),
);
add(
  "vscode launch env",
  ".vscode/launch.json",
  (v) =>
    `      "env": {\n        "DATABASE_URL": "postgres://app:${v}@localhost:5432/app"\n      }\n`,
  pw(),
);
add(
  "serverless environment",
  "serverless.yml",
  (v) => `provider:\n  name: aws\n  environment:\n    GITHUB_TOKEN: ${v}\n`,
  ghp(),
);
add(
  "circleci environment",
  ".circleci/config.yml",
  (v) =>
    `    docker:\n      - image: cimg/node:20.0\n        auth:\n          username: bob\n          password: ${v}\n`,
  pw(),
);
add(
  "log line password=",
  "app.log",
  (v) =>
    `2026-11-30 07:12:44 INFO db: connecting host=db01 user=app password=${v} sslmode=require\n`,
  pw(),
);
add(
  "python repr dict in log",
  "worker.log",
  (v) => `DEBUG settings: {'host': 'smtp.acme.com', 'port': 587, 'password': '${v}'}\n`,
  pw(),
);
add(
  "markdown table key",
  "SETUP.md",
  (v) => `| Service | Key |\n| ------- | --- |\n| OpenAI  | \`${v}\` |\n`,
  "sk-proj-" + ch(A + "_-", 100),
);

// fourteenth round: the thirteenth's leftovers in more shapes of each class
add(
  "cmdkey /generic quoted",
  "creds.cmd",
  (v) => `CMDKEY /generic:TERMSRV/app01 /user:"CORP\\svc" /pass:"${v}"\n`,
  pw(),
);
add(
  "schtasks /rp lower",
  "task.ps1",
  (v) => `schtasks /create /tn "Nightly" /tr C:\\job.cmd /sc daily /ru svc /rp "${v}" /f\n`,
  pw(),
);
add(
  "cargo login registry",
  ".github/workflows/publish.yml",
  (v) => `      - run: cargo login --registry acme ${v}\n`,
  "cio" + ch(A, 32),
);
add(
  "mc config host add",
  "minio.sh",
  (v) => `mc config host add s3 https://s3.acme.com AKIA${up(16)} ${v} --api S3v4\n`,
  ch(A, 40),
);
add(
  "conda config channel token",
  "ci.sh",
  (v) => `conda config --add channels https://repo.anaconda.cloud/t/${v}/acme-private\n`,
  "ac-" + ch("abcdefghijklmnopqrstuvwxyz0123456789", 32),
);
add(
  "ipsec.secrets EAP",
  "ipsec.secrets",
  (v) => `# roadwarrior\ncarol@strongswan.org : EAP "${v}"\n`,
  pw(),
);
add(
  "ipsec.secrets PSK ids",
  "ipsec.secrets",
  (v) => `@moon.strongswan.org @sun.strongswan.org : PSK 0s${v}\n`,
  b64(40) + "==",
);
add(
  "consul json encrypt",
  "consul.json",
  (v) => `{\n  "server": true,\n  "encrypt": "${v}",\n  "bootstrap_expect": 3\n}\n`,
  b64(43) + "=",
);
add(
  "consul agent -encrypt",
  "start.sh",
  (v) => `consul agent -server -encrypt=${v} -data-dir=/opt/consul\n`,
  b64(43) + "=",
);
add(
  "rust basic_auth variable user",
  "src/client.rs",
  (v) => `    .basic_auth(&self.username, Some("${v}"))\n`,
  pw(),
);
add(
  "rust basic_auth over lines",
  "src/main.rs",
  (v) =>
    `let req = ureq_client\n    .get(&url)\n    .basic_auth(\n        "deploy",\n        Some("${v}"),\n    );\n`,
  pw(),
);
add(
  "ruby smtp start single quotes",
  "config/initializers/mail.rb",
  (v) => `smtp.start('acme.com', 'alerts@acme.com', '${v}', :login)\n`,
  pw(),
);
add(
  "ruby Net::SMTP.new start",
  "notify.rb",
  (v) =>
    `Net::SMTP.new('smtp.gmail.com', 587).start('gmail.com', 'me@gmail.com', "${v}", :login) { |s| s.send_message(msg, from, to) }\n`,
  pw(),
);
add(
  "python bytes double quoted escapes",
  "settings.py",
  (v) => `SECRET_KEY = b"${v}"\n`,
  "\\x8f\\x1d" + ch(A, 6) + "\\xe2\\x91" + ch(A, 8) + "\\x00",
);
add(
  "http file Cookie header",
  "requests/api.http",
  (v) =>
    `GET https://app.acme.com/api/me\nAccept: application/json\nCookie: theme=dark; session=${v}\n`,
  ch(A + "_-", 40),
);
add(
  "har cookies over lines",
  "trace.har",
  (v) =>
    `          "cookies": [\n            {\n              "name": "JSESSIONID",\n              "value": "${v}",\n              "path": "/"\n            }\n          ],\n`,
  hex(32).toUpperCase(),
);
add(
  "har Cookie header lower",
  "session.har",
  (v) => `{"name": "cookie", "value": "csrftoken=${ch(A, 32)}; sessionid=${v}"}\n`,
  ch("abcdefghijklmnopqrstuvwxyz0123456789", 32),
);
add(
  "query token with %2B and %3D",
  "notify.sh",
  (v) => `curl "https://hooks.acme.com/notify?channel=ops&access_token=${v}"\n`,
  ch(A, 20) + "%2B" + ch(A, 20) + "%3D%3D",
);
add(
  "bitcoin WIF uncompressed",
  "keys.yaml",
  (v) => `wif: ${v}\n`,
  "5" + ch("HJK", 1) + ch(b58, 49),
);
add(
  "bitcoin WIF testnet",
  "test_wallet.js",
  (v) => `const privateKeyWif = "${v}";\n`,
  "c" + ch("NPQRSTUVW", 1) + ch(b58, 50),
);
add(
  "hardhat mnemonic lower",
  "hardhat.config.ts",
  (v) => `    goerli: {\n      url: RPC,\n      accounts: { mnemonic: "${v}" },\n    },\n`,
  [
    "legal",
    "winner",
    "thank",
    "year",
    "wave",
    "sausage",
    "worth",
    "useful",
    "legal",
    "winner",
    "thank",
    "yellow",
  ].join(" "),
);
add(
  "seed phrase python",
  "wallet.py",
  (v) => `seed_phrase = '${v}'\n`,
  [
    "crane",
    "puzzle",
    "sugar",
    "bronze",
    "vivid",
    "orchard",
    "melt",
    "cabin",
    "plastic",
    "tribe",
    "omit",
    "delay",
  ].join(" "),
);
add("NET USER upper", "provision.bat", (v) => `NET USER backup ${v} /ADD /EXPIRES:NEVER\n`, pw());
add("Net User mixed", "setup.ps1", (v) => `Net User "svc_sql" "${v}" /add /passwordchg:no\n`, pw());

/** Values that must stay: the samples a user wants to read (what slop keeps on purpose). */
const keeps: Array<[string, string, string, string]> = [];
const keep = (name: string, path: string, text: string, value: string) =>
  keeps.push([name, path, text, value]);
const sha = hex(40);
keep("git sha", "CHANGELOG.md", `Fixed in commit ${sha}.\n`, sha);
const integ = "sha512-" + b64(86) + "==";
keep("lockfile integrity", "package-lock.json", `      "integrity": "${integ}",\n`, integ);
const u1 = uuid();
keep("request id uuid", "log.json", `{"requestId": "${u1}", "status": 200}\n`, u1);
keep("placeholder <your-key>", "README.md", `OPENAI_API_KEY=<your-api-key>\n`, "<your-api-key>");
// Not here: `sk_live_xxxx…` in an `.env.example`. The oldest prefix rules (GitHub, AWS, Stripe)
// still redact their prefix and a run of `x`: the reader loses only that a stand-in stood there,
// and a rule that let a prefix and one repeated character pass would have to judge every one of
// their matches (see bench/README.md, twelfth session).
keep("changeme", "values.yaml", `auth:\n  password: changeme\n`, "changeme");
keep("env example empty", ".env.example", `DB_PASSWORD=\nAPI_KEY=your-key-here\n`, "your-key-here");
keep(
  "github secrets ref",
  ".github/workflows/ci.yml",
  `          password: \${{ secrets.DOCKERHUB_TOKEN }}\n`,
  "${{ secrets.DOCKERHUB_TOKEN }}",
);
keep(
  "jinja vault ref",
  "vars.yml",
  `db_password: "{{ vault_db_password }}"\n`,
  "{{ vault_db_password }}",
);
const digest = "sha256:" + hex(64);
keep("image digest", "deploy.yaml", `        image: nginx@${digest}\n`, digest);
keep("kubeadm ca cert hash", "join.md", `--discovery-token-ca-cert-hash ${digest}\n`, digest);
const sops = "ENC[AES256_GCM,data:" + b64(32) + ",iv:" + b64(43) + "=,tag:" + b64(22) +
  "==,type:str]";
keep("sops encrypted value", "secrets.enc.yaml", `db_password: ${sops}\n`, sops);
const sshpub = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI" + b64(43) + " bob@laptop";
keep("ssh public key", "authorized_keys", `${sshpub}\n`, sshpub);
const gclient = "764086051850-" + lowdig(32) + ".apps.googleusercontent.com";
keep("google client id", "auth.ts", `const clientId = "${gclient}";\n`, gclient);
keep("token type", "oauth.json", `{"token_type": "Bearer", "expires_in": 3600}\n`, "Bearer");
keep("password masked", "docs.md", `password: "********"\n`, "********");
const etag = hex(32);
keep("etag md5", "cache.json", `{"ETag": "\\"${etag}\\"", "Key": "uploads/a.png"}\n`, etag);
const s3key = "uploads/2026/11/" + uuid() + ".png";
keep("S3 object key", "upload.json", `{"Bucket": "acme", "Key": "${s3key}"}\n`, s3key);
keep(
  "password field label",
  "i18n/en.json",
  `{"password": "Password", "passphrase": "Passphrase"}\n`,
  "Passphrase",
);
keep("test stand-in", "test_auth.py", `PASSWORD = "testpassword"\n`, "testpassword");
keep(
  "cache key",
  "ci.yml",
  `      key: \${{ runner.os }}-node-\${{ hashFiles('**/package-lock.json') }}\n`,
  "hashFiles",
);
const pk = "pk_live_" + ch(A, 24);
keep("stripe publishable", "checkout.js", `const stripe = Stripe("${pk}");\n`, pk);
// The thirteenth hunt's values that must stay: checksum sidecars and lists, lockfiles' hashes,
// public keys and certificates, encrypted values, placeholders, addresses and hashes of chains.
const sum256 = hex(64);
keep(
  ".sha256 sidecar",
  "slop-linux-x64.tar.gz.sha256",
  `${sum256}  slop-linux-x64.tar.gz\n`,
  sum256,
);
const sum256b = hex(64);
keep(".sha256 sidecar bare", "dist/app.zip.sha256", `${sum256b}\n`, sum256b);
const sum1 = hex(40);
keep(".sha1 sidecar", "release.jar.sha1", `${sum1}\n`, sum1);
const md5 = hex(32);
keep(".md5 sidecar", "image.iso.md5", `${md5}  image.iso\n`, md5);
const sum512 = hex(128);
keep(".sha512 sidecar", "pkg.tgz.sha512", `${sum512} *pkg.tgz\n`, sum512);
const sums = [hex(64), hex(64), hex(64)];
keep(
  "SHA256SUMS",
  "SHA256SUMS",
  `${sums[0]}  app-linux-amd64\n${sums[1]}  app-darwin-arm64\n${sums[2]}  app-windows-amd64.exe\n`,
  sums[1],
);
const csum = hex(64);
keep("checksums.txt", "checksums.txt", `${csum}  tool_1.2.3_linux_amd64.tar.gz\n`, csum);
const gosum = "h1:" + b64(43) + "=";
keep("go.sum", "go.sum", `golang.org/x/text v0.14.0 ${gosum}\n`, gosum);
const bsum = hex(64);
keep("*.sum file", "release.sum", `${bsum}\n`, bsum);
const cargoSum = hex(64);
keep(
  "Cargo.lock checksum",
  "Cargo.lock",
  `[[package]]\nname = "serde"\nversion = "1.0.200"\nsource = "registry+https://github.com/rust-lang/crates.io-index"\nchecksum = "${cargoSum}"\n`,
  cargoSum,
);
const poetryHash = "sha256:" + hex(64);
keep(
  "poetry.lock hash",
  "poetry.lock",
  `files = [\n    {file = "requests-2.31.0-py3-none-any.whl", hash = "${poetryHash}"},\n]\n`,
  poetryHash,
);
const reqHash = "sha256:" + hex(64);
keep(
  "requirements --hash",
  "requirements.txt",
  `requests==2.31.0 \\\n    --hash=${reqHash}\n`,
  reqHash,
);
const narHash = "sha256-" + b64(43) + "=";
keep("flake.lock narHash", "flake.lock", `        "narHash": "${narHash}",\n`, narHash);
const yarnInteg = "sha512-" + b64(86) + "==";
keep(
  "yarn.lock integrity",
  "yarn.lock",
  `lodash@^4.17.21:\n  version "4.17.21"\n  resolved "https://registry.yarnpkg.com/lodash/-/lodash-4.17.21.tgz"\n  integrity ${yarnInteg}\n`,
  yarnInteg,
);
const tfh1 = "h1:" + b64(43) + "=";
keep(
  "terraform lock hcl",
  ".terraform.lock.hcl",
  `  hashes = [\n    "${tfh1}",\n    "zh:${hex(64)}",\n  ]\n`,
  tfh1,
);
const sri = "sha384-" + b64(64);
keep(
  "html SRI",
  "index.html",
  `<script src="https://cdn.acme.com/x.js" integrity="${sri}" crossorigin="anonymous"></script>\n`,
  sri,
);
const lfs = hex(64);
keep(
  "git lfs pointer",
  "model.bin",
  `version https://git-lfs.github.com/spec/v1\noid sha256:${lfs}\nsize 1048576\n`,
  lfs,
);
const podSum = hex(40);
keep("Podfile.lock checksums", "Podfile.lock", `SPEC CHECKSUMS:\n  Alamofire: ${podSum}\n`, podSum);
const verif = hex(64);
keep(
  "gradle verification-metadata",
  "gradle/verification-metadata.xml",
  `<artifact name="guava-33.0.0-jre.jar">\n   <sha256 value="${verif}" origin="Generated by Gradle"/>\n</artifact>\n`,
  verif,
);
const pngB64 = "iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAYAAAAf8/9h" + b64(120);
keep(
  "base64 image",
  "style.css",
  `.icon { background: url(data:image/png;base64,${pngB64}); }\n`,
  pngB64,
);
const cert = b64(64);
keep(
  "certificate pem",
  "ca.crt",
  `-----BEGIN CERTIFICATE-----\n${cert}\n${b64(64)}\n-----END CERTIFICATE-----\n`,
  cert,
);
const pub = b64(64);
keep(
  "public key pem",
  "jwt.pub",
  `-----BEGIN PUBLIC KEY-----\n${pub}\n${b64(20)}\n-----END PUBLIC KEY-----\n`,
  pub,
);
const pgpPub = b64(64);
keep(
  "pgp public key block",
  "KEYS",
  `-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n${pgpPub}\n=${
    b64(4)
  }\n-----END PGP PUBLIC KEY BLOCK-----\n`,
  pgpPub,
);
const hostKey = "AAAAC3NzaC1lZDI1NTE5AAAAI" + b64(43);
keep("known_hosts", "known_hosts", `github.com ssh-ed25519 ${hostKey}\n`, hostKey);
const wgPub = b64(43) + "=";
keep(
  "wireguard PublicKey",
  "wg0.conf",
  `[Peer]\nPublicKey = ${wgPub}\nAllowedIPs = 10.8.0.2/32\n`,
  wgPub,
);
const jwksN = ch(A + "_-", 342);
keep(
  "jwks public",
  "jwks.json",
  `{"keys": [{"kty": "RSA", "kid": "k1", "use": "sig", "e": "AQAB", "n": "${jwksN}"}]}\n`,
  jwksN,
);
const travis = b64(340) + "=";
keep("travis secure", ".travis.yml", `env:\n  global:\n    - secure: "${travis}"\n`, travis);
const vaultHex = hex(80);
keep(
  "ansible vault inline",
  "group_vars/all.yml",
  `db_password: !vault |\n          $ANSIBLE_VAULT;1.1;AES256\n          ${vaultHex}\n`,
  vaultHex,
);
keep(
  "env var reference",
  "docker-compose.yml",
  `      POSTGRES_PASSWORD: \${POSTGRES_PASSWORD}\n`,
  "${POSTGRES_PASSWORD}",
);
keep(
  "python format placeholder",
  "alembic.ini",
  `sqlalchemy.url = postgresql://%(DB_USER)s:%(DB_PASS)s@db/app\n`,
  "%(DB_PASS)s",
);
keep(
  "xxxx placeholder",
  ".env.example",
  `SENDGRID_API_KEY=xxxxxxxxxxxxxxxxxxxxxxxx\n`,
  "xxxxxxxxxxxxxxxxxxxxxxxx",
);
keep("REPLACE_ME placeholder", "values.yaml", `apiToken: <REPLACE_ME>\n`, "<REPLACE_ME>");
keep("your-token placeholder", "README.md", `export GITHUB_TOKEN=<your-token>\n`, "<your-token>");
keep("angle placeholder password", "docs/setup.md", `mysql -u root -p'<password>'\n`, "<password>");
const ethAddr = "0x" + hex(40);
keep(
  "ethereum address",
  "deploy.json",
  `{"contract": "${ethAddr}", "network": "sepolia"}\n`,
  ethAddr,
);
const txHash = "0x" + hex(64);
keep(
  "transaction hash",
  "receipt.json",
  `{"transactionHash": "${txHash}", "status": "0x1"}\n`,
  txHash,
);
const guid = uuid().toUpperCase();
keep("csproj ProjectGuid", "App.csproj", `<ProjectGuid>{${guid}}</ProjectGuid>\n`, guid);
const sentryPub = hex(32);
keep(
  "sentry public dsn",
  "sentry.client.config.ts",
  `Sentry.init({ dsn: "https://${sentryPub}@o450123.ingest.sentry.io/5501234" });\n`,
  sentryPub,
);
const mapboxPub = "pk.eyJ1IjoiYWNtZSIsImEiOiJ" + ch(A, 20) + "." + ch(A + "_-", 22);
keep("mapbox public pk.", "map.js", `mapboxgl.accessToken = "${mapboxPub}";\n`, mapboxPub);
const recaptcha = "6Lc" + ch(A + "_-", 37);
keep(
  "recaptcha site key",
  "form.html",
  `<div class="g-recaptcha" data-sitekey="${recaptcha}"></div>\n`,
  recaptcha,
);
keep(
  "keytool default changeit",
  "README.md",
  `keytool -list -keystore cacerts -storepass changeit\n`,
  "changeit",
);
const srcmap = b64(200);
keep(
  "source map data url",
  "bundle.js",
  `//# sourceMappingURL=data:application/json;base64,${srcmap}\n`,
  srcmap,
);
const denoInteg = hex(64);
keep(
  "deno.lock integrity",
  "deno.lock",
  `    "@std/path@1.0.8": {\n      "integrity": "${denoInteg}"\n    },\n`,
  denoInteg,
);
// fourteenth round: the values next to the thirteenth's leftovers that must stay
keep(
  "cmdkey list",
  "creds.cmd",
  `cmdkey /add:server01 /user:mikedan /pass\n`,
  "/user:mikedan /pass",
);
keep(
  "cmdkey env pass",
  "creds.cmd",
  `cmdkey /add:%HOST% /user:%USER% /pass:%PASSWORD%\n`,
  "%PASSWORD%",
);
keep(
  "schtasks prompt",
  "task.cmd",
  `schtasks /create /tn Job /tr job.cmd /sc daily /ru CORP\\svc /rp *\n`,
  "/rp *",
);
keep(
  "cargo login env",
  "publish.sh",
  `cargo login "$CARGO_REGISTRY_TOKEN"\n`,
  "$CARGO_REGISTRY_TOKEN",
);
keep(
  "mc alias env",
  "minio.sh",
  `mc alias set myminio "$MINIO_URL" "$MINIO_ACCESS_KEY" "$MINIO_SECRET_KEY"\n`,
  "$MINIO_SECRET_KEY",
);
keep(
  "discourse topic url",
  "README.md",
  `See https://discuss.python.org/t/pep-703-making-the-global-interpreter-lock-optional-in-cpython/30319\n`,
  "pep-703-making-the-global-interpreter-lock-optional-in-cpython",
);
keep(
  "conda placeholder token",
  ".condarc",
  `channels:\n  - https://conda.anaconda.org/t/<TOKEN>/acme\n`,
  "<TOKEN>",
);
keep("ipsec.secrets RSA file", "ipsec.secrets", `: RSA moonKey.pem\n`, "moonKey.pem");
keep(
  "ipsec.secrets comment",
  "ipsec.secrets",
  `# : PSK "secret"  (see ipsec.secrets(5))\n`,
  "ipsec.secrets(5)",
);
keep(
  "consul encrypt template",
  "consul.hcl",
  `encrypt = "{{ consul_gossip_key }}"\n`,
  "{{ consul_gossip_key }}",
);
keep(
  "consul encrypt_verify",
  "consul.hcl",
  `encrypt_verify_incoming = true\n`,
  "encrypt_verify_incoming = true",
);
keep(
  "rust basic_auth variable",
  "src/client.rs",
  `    .basic_auth(&self.username, Some(&self.password))\n`,
  "Some(&self.password)",
);
keep(
  "ruby smtp env password",
  "mailer.rb",
  `Net::SMTP.start(host, 587, 'acme.com', user, ENV['SMTP_PASSWORD'], :login)\n`,
  "ENV['SMTP_PASSWORD']",
);
keep(
  "python png magic bytes",
  "png.py",
  `PNG_SIGNATURE = b"\\x89PNG\\r\\n\\x1a\\n"\n`,
  "\\x89PNG\\r\\n\\x1a\\n",
);
keep(
  "har Accept header",
  "trace.har",
  `{"name": "Accept", "value": "text/html,application/xhtml+xml,application/xml;q=0.9"}\n`,
  "text/html,application/xhtml+xml,application/xml;q=0.9",
);
keep("har cookie flag", "trace.har", `{"name": "Cookie", "value": "theme=dark"}\n`, "theme=dark");
keep(
  "query %3D not a token",
  "search.md",
  `https://www.google.com/search?q=a%3Db+c%3Dd\n`,
  "a%3Db+c%3Dd",
);
const btcAddr = "1" + ch(b58, 33);
keep("bitcoin address", "donate.md", `BTC: ${btcAddr}\n`, btcAddr);
const ipfsCid = "Qm" + ch(b58, 44);
keep("ipfs cid", "nft.json", `{"image": "ipfs://${ipfsCid}"}\n`, ipfsCid);
keep(
  "mnemonic from env",
  "hardhat.config.js",
  `accounts: { mnemonic: process.env.MNEMONIC },\n`,
  "process.env.MNEMONIC",
);
keep("net user domain", "audit.bat", `NET USER %USERNAME% /DOMAIN\n`, "%USERNAME% /DOMAIN");
// fifteenth round: credentials in shapes and ecosystems the rounds before did not write (Elixir,
// Erlang, Clojure, Nix, Dhall, Perl, R, Lua, HCL tools, JWT signing calls, env fallbacks, webhook
// and signed URLs, more database URIs, rarer key armor, commands given a secret by position)
const lower = (n: number) => ch("abcdefghijklmnopqrstuvwxyz", n);
const upper = (n: number) => ch("ABCDEFGHIJKLMNOPQRSTUVWXYZ", n);
add(
  "elixir repo password",
  "config/dev.exs",
  (v) =>
    `config :shop, Shop.Repo,\n  username: "shop",\n  password: "${v}",\n  hostname: "localhost",\n  database: "shop_dev"\n`,
  pw(),
);
add(
  "phoenix secret_key_base",
  "config/prod.exs",
  (v) =>
    `config :shop, ShopWeb.Endpoint,\n  url: [host: "shop.example.com"],\n  secret_key_base: "${v}"\n`,
  b64(64),
);
add(
  "elixir ex_aws secret",
  "config/runtime.exs",
  (v) =>
    `config :ex_aws,\n  access_key_id: "AKIA${
      up(16)
    }",\n  secret_access_key: "${v}",\n  region: "eu-west-1"\n`,
  b64(40),
);
add(
  "elixir guardian secret_key",
  "config/config.exs",
  (v) => `config :shop, Shop.Guardian, issuer: "shop", secret_key: "${v}"\n`,
  b64(64),
);
add(
  "elixir mailgun api_key",
  "config/prod.exs",
  (v) =>
    `config :shop, Shop.Mailer,\n  adapter: Bamboo.MailgunAdapter,\n  api_key: "${v}",\n  domain: "mg.example.com"\n`,
  "key-" + hex(32),
);
add(
  "elixir joken default_signer",
  "config/config.exs",
  (v) => `config :joken, default_signer: "${v}"\n`,
  mixed(48),
);
add(
  "erlang sys.config db_password",
  "config/sys.config",
  (v) => `[{shop, [{db_host, "db.internal"}, {db_password, "${v}"}]}].\n`,
  pw(),
);
add(
  "rabbitmq.config default_pass binary",
  "rabbitmq.config",
  (v) => `[{rabbit, [{default_user, <<"admin">>}, {default_pass, <<"${v}">>}]}].\n`,
  pw(),
);
add("erlang cookie file", ".erlang.cookie", (v) => `${v}`, upper(20));
add(
  "vm.args setcookie",
  "rel/vm.args",
  (v) => `-name shop@127.0.0.1\n-setcookie ${v}\n`,
  upper(20),
);
add(
  "clojure edn password",
  "resources/config.edn",
  (v) => `{:db {:dbtype "postgresql" :dbname "shop" :user "shop" :password "${v}"}}\n`,
  pw(),
);
add(
  "clojure edn jwt-secret",
  "resources/config.edn",
  (v) => `{:port 3000\n :jwt-secret "${v}"}\n`,
  mixed(40),
);
add(
  "clojure profiles aws-secret-key",
  "profiles.clj",
  (v) => `{:dev {:env {:aws-access-key "AKIA${up(16)}" :aws-secret-key "${v}"}}}\n`,
  b64(40),
);
add(
  "leiningen repository password",
  "project.clj",
  (v) =>
    `  :repositories [["releases" {:url "https://repo.example.com/releases" :username "deploy" :password "${v}"}]]\n`,
  pw(),
);
add(
  "nix initialPassword",
  "configuration.nix",
  (v) => `  users.users.alice = {\n    isNormalUser = true;\n    initialPassword = "${v}";\n  };\n`,
  pw(),
);
add(
  "nix grafana admin_password",
  "configuration.nix",
  (v) => `  services.grafana.settings.security.admin_password = "${v}";\n`,
  pw(),
);
add(
  "nix wireless psk",
  "configuration.nix",
  (v) => `  networking.wireless.networks."HomeNet".psk = "${v}";\n`,
  pw(),
);
add(
  "nix environment variable token",
  "flake.nix",
  (v) => `  environment.variables.GITLAB_TOKEN = "${v}";\n`,
  "glpat-" + ch(A + "_-", 20),
);
add(
  "dhall let password",
  "config.dhall",
  (v) => `let password = "${v}"\nin  { user = "shop", password }\n`,
  pw(),
);
add("dhall apiToken", "secrets.dhall", (v) => `{ apiToken = "${v}", region = "eu" }\n`, mixed(40));
add(
  "nomad env block",
  "jobs/shop.nomad",
  (v) => `      env {\n        DB_USER     = "shop"\n        DB_PASSWORD = "${v}"\n      }\n`,
  pw(),
);
add(
  "terragrunt inputs",
  "terragrunt.hcl",
  (v) => `inputs = {\n  db_username = "admin"\n  db_password = "${v}"\n}\n`,
  pw(),
);
add(
  "packer locals winrm",
  "windows.pkr.hcl",
  (v) => `locals {\n  winrm_pass = "${v}"\n}\n`,
  pw(),
);
add(
  "jenkins casc string secret",
  "jenkins.yaml",
  (v) =>
    `credentials:\n  system:\n    domainCredentials:\n      - credentials:\n          - string:\n              id: slack-token\n              secret: "${v}"\n`,
  mixed(40),
);
add(
  "jenkinsfile git url with creds",
  "Jenkinsfile",
  (v) => `        git url: 'https://deploy:${v}@git.example.com/acme/shop.git', branch: 'main'\n`,
  pw(),
);
add(
  "gha add-mask literal",
  ".github/workflows/ci.yml",
  (v) => `      - run: echo "::add-mask::${v}"\n`,
  mixed(32),
);
add(
  "gha services postgres env",
  ".github/workflows/ci.yml",
  (v) =>
    `    services:\n      postgres:\n        image: postgres:16\n        env:\n          POSTGRES_PASSWORD: ${v}\n`,
  pw(),
);
add(
  "gha ssh-action password",
  ".github/workflows/deploy.yml",
  (v) =>
    `      - uses: appleboy/ssh-action@v1\n        with:\n          host: 203.0.113.7\n          username: deploy\n          password: ${v}\n`,
  pw(),
);
add(
  "k8s env name value",
  "deployment.yaml",
  (v) => `        env:\n          - name: DB_PASSWORD\n            value: "${v}"\n`,
  pw(),
);
add(
  "k8s env name value token",
  "deployment.yaml",
  (v) => `        env:\n        - name: STRIPE_KEY\n          value: ${v}\n`,
  "rk_live_" + ch(A, 24),
);
add(
  "k8s configmap properties",
  "configmap.yaml",
  (v) =>
    `data:\n  application.properties: |\n    spring.datasource.url=jdbc:postgresql://db:5432/shop\n    spring.datasource.password=${v}\n`,
  pw(),
);
add(
  "compose healthcheck mysqladmin",
  "docker-compose.yml",
  (v) =>
    `    healthcheck:\n      test: ["CMD", "mysqladmin", "ping", "-h", "localhost", "-uroot", "-p${v}"]\n`,
  pw(),
);
add(
  "ansible postgresql_user inline",
  "roles/db/tasks/main.yml",
  (v) => `- postgresql_user: db=shop name=shop password=${v} priv=ALL\n`,
  pw(),
);
add(
  "ansible htpasswd module",
  "roles/web/tasks/main.yml",
  (v) => `- htpasswd:\n    path: /etc/nginx/passwdfile\n    name: janedoe\n    password: '${v}'\n`,
  pw(),
);
add("ansible .vault_pass file", ".vault_pass", (v) => `${v}\n`, mixed(32));
add("php define API_SECRET", "config.php", (v) => `define('API_SECRET', '${v}');\n`, mixed(32));
add("php define SMTP_PASS", "config.php", (v) => `define("SMTP_PASS", "${v}");\n`, pw());
add("php config array pass", "config.inc.php", (v) => `$config['db']['pass'] = '${v}';\n`, pw());
add(
  "php mysql_connect",
  "db.php",
  (v) => `$link = mysql_connect('localhost', 'root', '${v}');\n`,
  pw(),
);
add(
  "php pg_connect dsn",
  "db.php",
  (v) => `$conn = pg_connect("host=localhost dbname=shop user=shop password=${v}");\n`,
  pw(),
);
add(
  "perl DBI connect",
  "lib/Shop/DB.pm",
  (v) =>
    `my $dbh = DBI->connect("DBI:mysql:database=shop;host=localhost", "root", "${v}", { RaiseError => 1 });\n`,
  pw(),
);
add(
  "perl ftp login",
  "upload.pl",
  (v) => `$ftp->login("deploy", "${v}") or die "Cannot login ", $ftp->message;\n`,
  pw(),
);
add(
  "perl hash password",
  "conf.pl",
  (v) => `my %cfg = (user => 'shop', password => '${v}');\n`,
  pw(),
);
add(
  "r dbConnect password",
  "analysis.R",
  (v) =>
    `con <- dbConnect(RPostgres::Postgres(), dbname = "shop", host = "db", user = "analyst", password = "${v}")\n`,
  pw(),
);
add(
  "r odbc PWD",
  "report.R",
  (v) =>
    `con <- dbConnect(odbc::odbc(), Driver = "SQL Server", Server = "sql01", UID = "sa", PWD = "${v}")\n`,
  pw(),
);
add(
  "r Sys.setenv secret",
  ".Rprofile",
  (v) => `Sys.setenv(AWS_SECRET_ACCESS_KEY = "${v}")\n`,
  b64(40),
);
add("Renviron password", ".Renviron", (v) => `DB_PASSWORD=${v}\n`, pw());
add("lua local password", "config.lua", (v) => `local password = "${v}"\n`, pw());
add("openresty redis auth", "lua/cache.lua", (v) => `local ok, err = red:auth("${v}")\n`, pw());
add(
  "lua table pass",
  "conf/settings.lua",
  (v) => `return {\n  db = { user = "shop", pass = "${v}" },\n}\n`,
  pw(),
);
add(
  "powershell -AsPlainText first",
  "reset.ps1",
  (v) =>
    `Set-ADAccountPassword -Identity svc -NewPassword (ConvertTo-SecureString -AsPlainText "${v}" -Force)\n`,
  pw(),
);
add(
  "dotnet nuget push --api-key",
  "publish.ps1",
  (v) =>
    `dotnet nuget push bin/Release/*.nupkg --api-key ${v} --source https://api.nuget.org/v3/index.json\n`,
  "oy2" + lowdig(43),
);
add(
  "nuget push -ApiKey",
  "publish.cmd",
  (v) => `nuget push Shop.1.0.0.nupkg -ApiKey ${v} -Source https://api.nuget.org/v3/index.json\n`,
  "oy2" + lowdig(43),
);
add(
  "stackexchange redis config string",
  "appsettings.json",
  (v) =>
    `{\n  "Redis": "shop.redis.cache.windows.net:6380,password=${v},ssl=True,abortConnect=False"\n}\n`,
  b64(43) + "=",
);
add(
  "dotnet user-secrets set",
  "setup.sh",
  (v) => `dotnet user-secrets set "Authentication:Google:ClientSecret" "${v}"\n`,
  "GOCSPX-" + ch(A + "_-", 28),
);
add(
  "java trustStorePassword opt",
  "bin/setenv.sh",
  (v) =>
    `JAVA_OPTS="$JAVA_OPTS -Djavax.net.ssl.trustStore=/etc/ssl/shop.jks -Djavax.net.ssl.trustStorePassword=${v}"\n`,
  pw(),
);
add(
  "hibernate cfg property password",
  "src/main/resources/hibernate.cfg.xml",
  (v) => `    <property name="connection.password">${v}</property>\n`,
  pw(),
);
add(
  "persistence.xml property value",
  "META-INF/persistence.xml",
  (v) => `      <property name="javax.persistence.jdbc.password" value="${v}"/>\n`,
  pw(),
);
add(
  "java props.setProperty password",
  "Mailer.java",
  (v) => `        props.setProperty("mail.smtp.password", "${v}");\n`,
  pw(),
);
add(
  "rails secret_token",
  "config/initializers/secret_token.rb",
  (v) => `Shop::Application.config.secret_token = '${v}'\n`,
  hex(128),
);
add(
  "devise pepper",
  "config/initializers/devise.rb",
  (v) => `  config.pepper = '${v}'\n`,
  hex(128),
);
add(
  "js jwt.sign literal",
  "src/auth.js",
  (v) => `const token = jwt.sign({ id: user.id }, "${v}", { expiresIn: "1h" });\n`,
  mixed(32),
);
add(
  "python jwt.encode literal",
  "auth.py",
  (v) => `token = jwt.encode(payload, "${v}", algorithm="HS256")\n`,
  mixed(32),
);
add(
  "go SignedString literal",
  "auth.go",
  (v) => `	signed, err := token.SignedString([]byte("${v}"))\n`,
  mixed(32),
);
add(
  "java signWith literal",
  "JwtUtil.java",
  (v) => `                .signWith(SignatureAlgorithm.HS512, "${v}")\n`,
  mixed(48),
);
add(
  "js env fallback secret",
  "src/config.js",
  (v) => `const JWT_SECRET = process.env.JWT_SECRET || "${v}";\n`,
  mixed(32),
);
add(
  "python getenv default",
  "settings.py",
  (v) => `DB_PASSWORD = os.getenv("DB_PASSWORD", "${v}")\n`,
  pw(),
);
add(
  "python environ.get default",
  "settings.py",
  (v) => `SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "${v}")\n`,
  mixed(50),
);
add(
  "mattermost webhook",
  "notify.sh",
  (v) => `curl -X POST -d 'payload={"text": "done"}' https://chat.example.com/hooks/${v}\n`,
  lowdig(26),
);
add(
  "ifttt maker key",
  "trigger.py",
  (v) => `requests.post(f"https://maker.ifttt.com/trigger/door_open/with/key/${v}")\n`,
  ch(A + "_-", 22),
);
add(
  "feishu bot hook",
  "alert.py",
  (v) => `WEBHOOK = "https://open.feishu.cn/open-apis/bot/v2/hook/${v}"\n`,
  uuid(),
);
add(
  "wecom webhook key",
  "alert.sh",
  (v) =>
    `curl 'https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=${v}' -H 'Content-Type: application/json'\n`,
  uuid(),
);
add(
  "s3 presigned security token",
  "download.md",
  (v) =>
    `https://shop.s3.amazonaws.com/a.zip?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=ASIA${
      up(16)
    }%2F20261130%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20261130T000000Z&X-Amz-Expires=3600&X-Amz-Security-Token=${v}&X-Amz-Signature=${
      hex(64)
    }\n`,
  "IQoJb3JpZ2luX2Vj" + ch(A, 200),
);
add(
  "gcs signed url signature",
  "links.txt",
  (v) =>
    `https://storage.googleapis.com/shop/a.zip?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Credential=svc%40shop.iam.gserviceaccount.com%2F20261130%2Fauto%2Fstorage%2Fgoog4_request&X-Goog-Date=20261130T000000Z&X-Goog-Expires=900&X-Goog-SignedHeaders=host&X-Goog-Signature=${v}\n`,
  hex(512),
);
add(
  "cloudfront signed url",
  "links.txt",
  (v) =>
    `https://d111111abcdef8.cloudfront.net/video.mp4?Expires=1798761600&Signature=${v}&Key-Pair-Id=K2JCJMDEHXQW5F\n`,
  ch(A + "-_~", 172),
);
add(
  "neo4j uri",
  ".env",
  (v) => `NEO4J_URI=neo4j+s://neo4j:${v}@a1b2c3d4.databases.neo4j.io\n`,
  pw(),
);
add(
  "clickhouse uri",
  "config.py",
  (v) => `CH_URL = "clickhouse://default:${v}@ch.internal:9000/events"\n`,
  pw(),
);
add(
  "snowflake uri",
  "dbt/profiles.py",
  (v) =>
    `engine = create_engine("snowflake://etl:${v}@acme-xy12345/analytics/public?warehouse=wh")\n`,
  pw(),
);
add(
  "mqtt uri",
  "mqtt.js",
  (v) => `const client = mqtt.connect("mqtt://sensor:${v}@broker.local:1883");\n`,
  pw(),
);
add(
  "sqlserver go uri",
  "db.go",
  (v) => `	dsn := "sqlserver://sa:${v}@localhost:1433?database=shop"\n`,
  pw(),
);
add(
  "oracle sqlalchemy uri",
  "etl.py",
  (v) => `engine = create_engine("oracle+oracledb://scott:${v}@db:1521/?service_name=ORCLPDB1")\n`,
  pw(),
);
add(
  "ssh2 private key armor",
  "keys/id_ssh2",
  (v) =>
    `---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----\nComment: "rsa-key-20261130"\n${v}\n---- END SSH2 ENCRYPTED PRIVATE KEY ----\n`,
  b64(70) + "\n" + b64(70) + "\n" + b64(70),
);
add(
  "dsa private key",
  "keys/dsa.pem",
  (v) => `-----BEGIN DSA PRIVATE KEY-----\n${v}\n-----END DSA PRIVATE KEY-----\n`,
  pemBody(),
);
add(
  "encrypted pkcs8 in yaml",
  "values.yaml",
  (v) =>
    `tls:\n  key: |\n    -----BEGIN ENCRYPTED PRIVATE KEY-----\n    ${
      v.replace("\n", "\n    ")
    }\n    -----END ENCRYPTED PRIVATE KEY-----\n`,
  pemBody(),
);
add(
  "nebula private key",
  "nebula/host.key",
  (v) =>
    `-----BEGIN NEBULA X25519 PRIVATE KEY-----\n${v}\n-----END NEBULA X25519 PRIVATE KEY-----\n`,
  b64(43) + "=",
);
add(
  "signify secret key",
  "release.sec",
  (v) => `untrusted comment: signify secret key\n${v}\n`,
  "RWRCSwAAA" + b64(150),
);
add(
  "ovpn inline key",
  "client.ovpn",
  (v) => `<key>\n-----BEGIN PRIVATE KEY-----\n${v}\n-----END PRIVATE KEY-----\n</key>\n`,
  pemBody(),
);
add(
  "go raw string rsa key",
  "keys.go",
  (v) =>
    "const privKey = `-----BEGIN RSA PRIVATE KEY-----\n" + v + "\n-----END RSA PRIVATE KEY-----`\n",
  pemBody(),
);
// commands that take a secret by position or after a flag
add(
  "mc alias set s3",
  "backup.sh",
  (v) => `mc alias set s3 https://s3.amazonaws.com AKIA${up(16)} ${v} --api S3v4\n`,
  b64(40),
);
add(
  "mc alias set quoted",
  "minio.sh",
  (v) => `mc alias set local http://127.0.0.1:9000 admin '${v}'\n`,
  pw(),
);
add(
  "rclone config create pass",
  "setup.sh",
  (v) =>
    `rclone config create nas webdav url https://nas.example.com vendor other user bob pass ${v}\n`,
  pw(),
);
add(
  "helm repo add --password",
  "deploy.sh",
  (v) => `helm repo add --username admin --password ${v} private https://charts.example.com\n`,
  pw(),
);
add("mysqladmin -p attached", "setup.sh", (v) => `mysqladmin -uroot -p${v} create shop\n`, pw());
add(
  "sshpass -p attached",
  "deploy.sh",
  (v) => `sshpass -p${v} scp build.tgz deploy@10.0.0.5:/srv\n`,
  pw(),
);
add(
  "curl --proxy-user",
  "fetch.sh",
  (v) => `curl --proxy-user proxy:${v} -x http://proxy:3128 https://example.com\n`,
  pw(),
);
add(
  "lftp -u user,pass",
  "mirror.sh",
  (v) => `lftp -u deploy,${v} ftp.example.com -e "mirror -R dist /www; quit"\n`,
  pw(),
);
add(
  "svn --password",
  "checkout.sh",
  (v) => `svn checkout --username bob --password ${v} https://svn.example.com/repo/trunk\n`,
  pw(),
);
add(
  "sqlcmd -P",
  "init-db.sh",
  (v) => `/opt/mssql-tools/bin/sqlcmd -S localhost -U sa -P '${v}' -i init.sql\n`,
  pw(),
);
add(
  "ipmitool -P",
  "power.sh",
  (v) => `ipmitool -I lanplus -H 10.0.0.50 -U ADMIN -P ${v} chassis power status\n`,
  pw(),
);
add("chpasswd echo", "provision.sh", (v) => `echo "deploy:${v}" | chpasswd\n`, pw());
add("passwd --stdin", "provision.sh", (v) => `echo '${v}' | passwd --stdin root\n`, pw());
add(
  "nmcli wifi password",
  "wifi.sh",
  (v) => `nmcli dev wifi connect HomeNet password ${v}\n`,
  pw(),
);
add(
  "wpa_passphrase",
  "wifi.sh",
  (v) => `wpa_passphrase HomeNet ${v} >> /etc/wpa_supplicant.conf\n`,
  pw(),
);
add(
  "mosquitto_pub -P",
  "pub.sh",
  (v) => `mosquitto_pub -h broker -u sensor -P ${v} -t temp -m 21.5\n`,
  pw(),
);
add(
  "rabbitmqadmin -p",
  "queues.sh",
  (v) => `rabbitmqadmin -u admin -p ${v} declare queue name=jobs\n`,
  pw(),
);
add(
  "mongosh -p",
  "seed.sh",
  (v) => `mongosh --host db -u admin -p ${v} --authenticationDatabase admin seed.js\n`,
  pw(),
);
add(
  "cqlsh -p",
  "schema.sh",
  (v) => `cqlsh cassandra 9042 -u cassandra -p ${v} -f schema.cql\n`,
  pw(),
);
add(
  "plink -pw",
  "deploy.bat",
  (v) => `plink -ssh deploy@10.0.0.5 -pw ${v} "sudo systemctl restart shop"\n`,
  pw(),
);
add(
  "psexec -p",
  "remote.cmd",
  (v) => `psexec \\\\srv01 -u CORP\\admin -p ${v} cmd /c ipconfig\n`,
  pw(),
);
add(
  "xfreerdp /p:",
  "rdp.sh",
  (v) => `xfreerdp /v:10.0.0.7 /u:Administrator /p:${v} /cert:ignore\n`,
  pw(),
);
add(
  "mvn -Dpassword",
  "release.sh",
  (v) => `mvn deploy -Drepo.username=deploy -Drepo.password=${v}\n`,
  pw(),
);
add(
  "gradle -P password",
  "release.sh",
  (v) => `./gradlew publish -PsonatypeUsername=acme -PsonatypePassword=${v}\n`,
  pw(),
);
add(
  "sonar.login token",
  "ci.sh",
  (v) => `sonar-scanner -Dsonar.host.url=https://sonar.example.com -Dsonar.login=${v}\n`,
  hex(40),
);
add(
  "ngrok authtoken",
  "setup.sh",
  (v) => `ngrok config add-authtoken ${v}\n`,
  "2" + mixed(26) + "_" + mixed(21),
);
add(
  "firebase --token",
  "deploy.sh",
  (v) => `firebase deploy --only hosting --token "${v}"\n`,
  "1//0" + ch(A + "_-", 99),
);
add(
  "apksigner --ks-pass",
  "sign.sh",
  (v) => `apksigner sign --ks release.jks --ks-pass pass:${v} app.apk\n`,
  pw(),
);
add(
  "security unlock-keychain",
  "ci/ios.sh",
  (v) => `security unlock-keychain -p ${v} build.keychain\n`,
  pw(),
);
add(
  "security import -P",
  "ci/ios.sh",
  (v) => `security import dist.p12 -k build.keychain -P "${v}" -T /usr/bin/codesign\n`,
  pw(),
);
add(
  "altool app password",
  "ci/upload.sh",
  (v) => `xcrun altool --upload-app -f Shop.ipa -u dev@example.com -p ${v}\n`,
  [lower(4), lower(4), lower(4), lower(4)].join("-"),
);
add(
  "gpg --passphrase",
  "decrypt.sh",
  (v) => `gpg --batch --yes --passphrase '${v}' -d secrets.tgz.gpg | tar xz\n`,
  pw(),
);
add("ssh-keygen -N", "keys.sh", (v) => `ssh-keygen -t ed25519 -N '${v}' -f ~/.ssh/deploy\n`, pw());
add(
  "db2 connect using",
  "load.sh",
  (v) => `db2 connect to SAMPLE user db2inst1 using ${v}\n`,
  pw(),
);
add(
  "oracle exp user/pass",
  "export.sh",
  (v) => `exp system/${v}@ORCL file=full.dmp full=y\n`,
  pw(),
);
add(
  "kubectl set-credentials",
  "kube.sh",
  (v) => `kubectl config set-credentials admin --username=admin --password=${v}\n`,
  pw(),
);
add(
  "influx setup --password",
  "init.sh",
  (v) => `influx setup --username admin --password ${v} --org acme --bucket metrics --force\n`,
  pw(),
);
add(
  "az storage --account-key",
  "upload.sh",
  (v) => `az storage blob upload --account-name shop --account-key ${v} -c c -f a.zip\n`,
  b64(86) + "==",
);
add("expect send password", "login.exp", (v) => `expect "password:"\nsend "${v}\\r"\n`, pw());
add("unzip -P", "restore.sh", (v) => `unzip -P ${v} backup.zip -d /srv\n`, pw());
add(
  "ruby Net::SMTP.start vars",
  "lib/notify.rb",
  (v) => `Net::SMTP.start(smtp_host, 587, helo_domain, smtp_user, '${v}', :plain) do |smtp|\n`,
  pw(),
);
add(
  "ruby smtp.start keywords",
  "lib/notify.rb",
  (v) => `smtp.start(helo: 'example.com', user: 'mailer', secret: '${v}', authtype: :login)\n`,
  pw(),
);
add(
  "ruby ftp login",
  "upload.rb",
  (v) => `Net::FTP.open('ftp.example.com') { |ftp| ftp.login('deploy', '${v}') }\n`,
  pw(),
);
// fifteenth round: look-alikes that must stay
keep("python kwarg variable", "db.py", `conn = connect(host=h,user=u,password=pw_var)\n`, "pw_var");
keep("python kwarg call", "db.py", `conn = connect(user=u,password=get_pw())\n`, "get_pw()");
keep(
  "python kwarg attribute",
  "client.py",
  `c = Client(username=self.user,password=self.password)\n`,
  "self.password",
);
keep(
  "python kwarg subscript",
  "client.py",
  `login(user=cfg["user"],password=cfg["password"])\n`,
  `cfg["password"]`,
);
keep(
  "js jwt.sign env",
  "src/auth.js",
  `const token = jwt.sign(payload, process.env.JWT_SECRET);\n`,
  "process.env.JWT_SECRET",
);
keep(
  "python jwt.encode settings",
  "auth.py",
  `token = jwt.encode(payload, settings.SECRET_KEY, algorithm="HS256")\n`,
  "settings.SECRET_KEY",
);
keep(
  "python getenv empty default",
  "settings.py",
  `DB_PASSWORD = os.getenv("DB_PASSWORD", "")\n`,
  `os.getenv("DB_PASSWORD", "")`,
);
keep(
  "python getenv changeme",
  "settings.py",
  `DB_PASSWORD = os.getenv("DB_PASSWORD", "changeme")\n`,
  "changeme",
);
keep(
  "perl DBI vars",
  "lib/DB.pm",
  `my $dbh = DBI->connect($dsn, $user, $password, { RaiseError => 1 });\n`,
  "$password",
);
keep(
  "r dbConnect Sys.getenv",
  "analysis.R",
  `con <- dbConnect(RPostgres::Postgres(), password = Sys.getenv("PGPASSWORD"))\n`,
  `Sys.getenv("PGPASSWORD")`,
);
keep(
  "elixir get_env",
  "config/runtime.exs",
  `  password: System.get_env("DB_PASSWORD"),\n`,
  `System.get_env("DB_PASSWORD")`,
);
keep(
  "phoenix fetch_env",
  "config/runtime.exs",
  `  secret_key_base: System.fetch_env!("SECRET_KEY_BASE")\n`,
  `System.fetch_env!("SECRET_KEY_BASE")`,
);
keep(
  "nix passwordFile",
  "configuration.nix",
  `  services.postgresql.passwordFile = "/run/secrets/db";\n`,
  "/run/secrets/db",
);
const nixSri = "sha256-" + b64(43) + "=";
keep("nix fetchurl hash", "default.nix", `    hash = "${nixSri}";\n`, nixSri);
const nixB32 = "0" + ch("0123456789abcdfghijklmnpqrsvwxyz", 51);
keep("nix sha256 base32", "default.nix", `    sha256 = "${nixB32}";\n`, nixB32);
const nixRev = hex(40);
keep("nix rev", "default.nix", `    rev = "${nixRev}";\n`, nixRev);
keep("nix vendorHash", "default.nix", `  vendorHash = "${nixSri}";\n`, nixSri);
keep(
  "mc alias placeholders",
  "README.md",
  `mc alias set myminio https://minio.example.com ACCESS_KEY SECRET_KEY\n`,
  "ACCESS_KEY SECRET_KEY",
);
keep(
  "helm repo add public",
  "deploy.sh",
  `helm repo add bitnami https://charts.bitnami.com/bitnami\n`,
  "bitnami https://charts.bitnami.com/bitnami",
);
keep(
  "htpasswd prompt",
  "setup.sh",
  `htpasswd -B /etc/nginx/.htpasswd admin\n`,
  "/etc/nginx/.htpasswd admin",
);
keep(
  "sqlcmd env",
  "init-db.sh",
  `sqlcmd -S localhost -U sa -P "$SA_PASSWORD" -i init.sql\n`,
  "$SA_PASSWORD",
);
keep(
  "chpasswd vars",
  "provision.sh",
  `echo "$USER_NAME:$USER_PASS" | chpasswd\n`,
  "$USER_NAME:$USER_PASS",
);
keep(
  "unlock-keychain env",
  "ci/ios.sh",
  `security unlock-keychain -p "$KEYCHAIN_PASSWORD" build.keychain\n`,
  "$KEYCHAIN_PASSWORD",
);
keep(
  "persistence.xml placeholder",
  "META-INF/persistence.xml",
  `      <property name="javax.persistence.jdbc.password" value="\${db.password}"/>\n`,
  "${db.password}",
);
keep(
  "k8s env valueFrom",
  "deployment.yaml",
  `        - name: DB_PASSWORD\n          valueFrom:\n            secretKeyRef:\n              name: db\n              key: password\n`,
  "secretKeyRef",
);
keep(
  "k8s env plain value",
  "deployment.yaml",
  `        - name: LOG_LEVEL\n          value: "debug"\n`,
  "debug",
);
keep(
  "uuid namespace constant",
  "ids.py",
  `NAMESPACE_URL = uuid.UUID("6ba7b811-9dad-11d1-80b4-00c04fd430c8")\n`,
  "6ba7b811-9dad-11d1-80b4-00c04fd430c8",
);
keep(
  "wp-config placeholder salt",
  "wp-config-sample.php",
  `define( 'AUTH_KEY',         'put your unique phrase here' );\n`,
  "put your unique phrase here",
);
keep(
  "php define getenv",
  "config.php",
  `define('DB_PASSWORD', getenv('DB_PASSWORD'));\n`,
  "getenv('DB_PASSWORD')",
);
keep(
  "ssh-keygen empty passphrase",
  "keys.sh",
  `ssh-keygen -t ed25519 -N '' -f ~/.ssh/ci\n`,
  "-N '' -f ~/.ssh/ci",
);
keep(
  "gpg passphrase-fd",
  "decrypt.sh",
  `gpg --batch --passphrase-fd 0 -d secrets.gpg\n`,
  "--passphrase-fd 0",
);
keep(
  "dotnet nuget push env",
  "publish.sh",
  `dotnet nuget push *.nupkg --api-key $NUGET_API_KEY --source nuget.org\n`,
  "$NUGET_API_KEY",
);
keep(
  "lua getenv",
  "config.lua",
  `local password = os.getenv("DB_PASSWORD")\n`,
  `os.getenv("DB_PASSWORD")`,
);
keep(
  "rabbitmq guest default",
  "rabbitmq.config",
  `[{rabbit, [{loopback_users, [<<"guest">>]}]}].\n`,
  "guest",
);
keep(
  "s3 url no signature",
  "README.md",
  `https://shop.s3.amazonaws.com/a.zip?X-Amz-Algorithm=AWS4-HMAC-SHA256\n`,
  "AWS4-HMAC-SHA256",
);
keep(
  "go SignedString env",
  "auth.go",
  `	signed, err := token.SignedString([]byte(os.Getenv("JWT_SECRET")))\n`,
  `os.Getenv("JWT_SECRET")`,
);
keep(
  "python kwarg before another",
  "db.py",
  `conn = connect(user=u,password=pw,host=h)\n`,
  "pw,host=h",
);
keep(
  "python kwarg key and secret",
  "client.py",
  `client = Client(api_key=key,secret=secret_value)\n`,
  "key,secret=secret_value",
);
keep(
  "ssh-keygen subexpression",
  "New-Key.ps1",
  `$null = ssh-keygen -f generated -N (Get-Random -Maximum 99999)\n`,
  "(Get-Random",
);
keep(
  "setcookie template name",
  "erlang.mk",
  `-name project_name@127.0.0.1\n-setcookie project_name\n`,
  "project_name\n",
);
// sixteenth round (fourteenth session): classes the probe lacked, written before reading the rules
add(
  "snmpwalk community",
  "monitor.sh",
  (v) => `snmpwalk -v2c -c ${v} 10.0.0.1 system\n`,
  mixed(16),
);
add(
  "snmpwalk v3 auth",
  "monitor.sh",
  (v) => `snmpwalk -v3 -l authPriv -u monitor -a SHA -A ${v} -x AES -X privKey12 10.0.0.1\n`,
  pw(),
);
add("kickstart rootpw", "ks.cfg", (v) => `rootpw --plaintext ${v}\n`, pw());
add("kickstart user", "ks.cfg", (v) => `user --name=admin --password=${v} --groups=wheel\n`, pw());
add(
  "preseed root password",
  "preseed.cfg",
  (v) => `d-i passwd/root-password password ${v}\nd-i passwd/root-password-again password ${v}\n`,
  pw(),
);
add(
  "preseed user password",
  "preseed.cfg",
  (v) => `d-i passwd/user-password password ${v}\n`,
  pw(),
);
add(
  "winlogon DefaultPassword",
  "autologon.cmd",
  (v) =>
    `reg add "HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Winlogon" /v DefaultPassword /t REG_SZ /d ${v} /f\n`,
  pw(),
);
add(
  "mysql CHANGE MASTER",
  "replica.sql",
  (v) =>
    `CHANGE MASTER TO MASTER_HOST='db1', MASTER_USER='repl', MASTER_PASSWORD='${v}', MASTER_AUTO_POSITION=1;\n`,
  pw(),
);
add(
  "postgres user mapping",
  "fdw.sql",
  (v) => `CREATE USER MAPPING FOR app SERVER remote OPTIONS (user 'reader', password '${v}');\n`,
  pw(),
);
add(
  "postgres ALTER ROLE",
  "roles.sql",
  (v) => `ALTER ROLE app WITH LOGIN PASSWORD '${v}';\n`,
  pw(),
);
add(
  "sql master key",
  "keys.sql",
  (v) => `CREATE MASTER KEY ENCRYPTION BY PASSWORD = '${v}';\n`,
  pw(),
);
add(
  "redis sentinel auth-pass",
  "sentinel.conf",
  (v) => `sentinel monitor mymaster 10.0.0.5 6379 2\nsentinel auth-pass mymaster ${v}\n`,
  pw(),
);
add("haproxy stats auth", "haproxy.cfg", (v) => `    stats auth admin:${v}\n`, pw());
add(
  "haproxy userlist",
  "haproxy.cfg",
  (v) => `userlist admins\n    user ops insecure-password ${v}\n`,
  pw(),
);
add(
  "postfix sasl_passwd",
  "postfix/sasl_passwd",
  (v) => `[smtp.gmail.com]:587 alerts@example.com:${v}\n`,
  pw(),
);
add(
  "msmtprc password",
  ".msmtprc",
  (v) => `account default\nhost smtp.example.com\nuser bob\npassword ${v}\n`,
  pw(),
);
add("muttrc smtp_pass", ".muttrc", (v) => `set smtp_pass = "${v}"\n`, pw());
add(
  "fetchmailrc",
  ".fetchmailrc",
  (v) => `poll imap.example.com protocol IMAP user 'bob' there with password '${v}' is bob here\n`,
  pw(),
);
add("source rcon_password", "server.cfg", (v) => `rcon_password "${v}"\n`, pw());
add("source sv_password", "server.cfg", (v) => `sv_password "${v}"\n`, pw());
add(
  "php ldap_bind",
  "auth.php",
  (v) => `$ok = ldap_bind($ds, 'cn=admin,dc=example,dc=com', '${v}');\n`,
  pw(),
);
add("php ftp_login", "sync.php", (v) => `ftp_login($conn, 'deploy', '${v}');\n`, pw());
add(
  "python simple_bind_s",
  "ldap_auth.py",
  (v) => `conn.simple_bind_s("cn=admin,dc=example,dc=com", "${v}")\n`,
  pw(),
);
add(
  "python keyring set_password",
  "setup_creds.py",
  (v) => `keyring.set_password("deploy", "ci", "${v}")\n`,
  pw(),
);
add("vba Unprotect", "Module1.bas", (v) => `ActiveSheet.Unprotect Password:="${v}"\n`, pw());
add(
  "go ssh.Password",
  "ssh.go",
  (v) => `		Auth: []ssh.AuthMethod{ssh.Password("${v}")},\n`,
  pw(),
);
add(
  "terraform -var password",
  "deploy.sh",
  (v) => `terraform apply -auto-approve -var "db_password=${v}"\n`,
  pw(),
);
add(
  "systemd Environment",
  "app.service",
  (v) => `[Service]\nEnvironment="API_TOKEN=${v}"\nExecStart=/usr/bin/app\n`,
  mixed(32),
);
add(
  "dsadd -pwd",
  "users.cmd",
  (v) => `dsadd user "CN=svc,OU=Svc,DC=corp,DC=local" -pwd ${v} -mustchpwd no\n`,
  pw(),
);
add(
  "ktpass -pass",
  "keytab.cmd",
  (v) =>
    `ktpass -princ HTTP/web.corp.local@CORP.LOCAL -mapuser svc-web -pass ${v} -out web.keytab\n`,
  pw(),
);
add("x11vnc -passwd", "vnc.sh", (v) => `x11vnc -display :0 -passwd ${v} -forever\n`, pw());
add(
  "racadm -p",
  "idrac.sh",
  (v) => `racadm -r 10.0.0.9 -u root -p ${v} serveraction powercycle\n`,
  pw(),
);
add(
  "ftp -n heredoc user",
  "upload.sh",
  (v) => `ftp -n ftp.example.com <<EOF\nuser deploy ${v}\nbinary\nput build.tar\nbye\nEOF\n`,
  pw(),
);
add(
  "wmic /password:",
  "inventory.cmd",
  (v) => `wmic /node:10.0.0.4 /user:CORP\\admin /password:${v} os get caption\n`,
  pw(),
);
add(
  "sc.exe config password=",
  "service.cmd",
  (v) => `sc.exe config AppSvc obj= "CORP\\svc-app" password= "${v}"\n`,
  pw(),
);
add(
  "cloud-init plain_text_passwd",
  "user-data",
  (v) =>
    `#cloud-config\nusers:\n  - name: ops\n    plain_text_passwd: ${v}\n    lock_passwd: false\n`,
  pw(),
);
add(
  "cloud-init chpasswd list",
  "user-data",
  (v) => `#cloud-config\nchpasswd:\n  list: |\n    root:${v}\n  expire: false\n`,
  pw(),
);
add(
  "Connect-VIServer -Password",
  "vmware.ps1",
  (v) => `Connect-VIServer -Server vc01.corp.local -User admin@vsphere.local -Password '${v}'\n`,
  pw(),
);
add("httpie -a", "api.sh", (v) => `http -a admin:${v} POST https://api.example.com/items\n`, pw());
add(
  "git sendemail smtppass",
  ".gitconfig",
  (v) =>
    `[sendemail]\n\tsmtpserver = smtp.gmail.com\n\tsmtpuser = bob@example.com\n\tsmtppass = ${v}\n`,
  pw(),
);
add(
  "perforce P4PASSWD",
  ".p4config",
  (v) => `P4PORT=ssl:perforce:1666\nP4USER=bob\nP4PASSWD=${v}\n`,
  pw(),
);
add(
  "wpa_cli psk",
  "wifi.sh",
  (v) => `wpa_cli -i wlan0 set_network 0 psk '"${v}"'\n`,
  pw(),
);
add("iwconfig key s:", "wifi.sh", (v) => `iwconfig wlan0 essid HomeNet key s:${v}\n`, mixed(13));
add(
  "vncpasswd -f",
  "vnc.sh",
  (v) => `echo "${v}" | vncpasswd -f > ~/.vnc/passwd\n`,
  pw(),
);
add(
  "openssl -passin",
  "certs.sh",
  (v) => `openssl rsa -in server.key -passin pass:${v} -out server.nopass.key\n`,
  pw(),
);
add(
  "ssh-copy-id sshpass env",
  "provision.sh",
  (v) => `SSHPASS='${v}' sshpass -e ssh-copy-id ops@10.0.0.3\n`,
  pw(),
);
add(
  "ansible inventory ssh_pass",
  "inventory.ini",
  (v) => `[web]\n10.0.0.11 ansible_user=root ansible_ssh_pass=${v}\n`,
  pw(),
);
add(
  "net rpc -U",
  "samba.sh",
  (v) => `net rpc password bob -U admin%${v} -S dc01\n`,
  pw(),
);
add(
  "windows unattend AdministratorPassword",
  "autounattend.xml",
  (v) =>
    `<AdministratorPassword>\n  <Value>${v}</Value>\n  <PlainText>true</PlainText>\n</AdministratorPassword>\n`,
  pw(),
);
add(
  "runas savecred echo",
  "admin.cmd",
  (v) => `echo ${v}| runas /user:CORP\\admin "cmd /c whoami"\n`,
  pw(),
);
add(
  "supervisord http password",
  "supervisord.conf",
  (v) => `[inet_http_server]\nport=127.0.0.1:9001\nusername=admin\npassword=${v}\n`,
  pw(),
);
// sixteenth round: look-alikes that must stay
keep("snmp public community", "monitor.sh", `snmpwalk -v2c -c public 10.0.0.1 system\n`, "public");
keep("kickstart rootpw iscrypted", "ks.cfg", `rootpw --lock\n`, "--lock");
keep(
  "preseed password empty",
  "preseed.cfg",
  `d-i passwd/root-login boolean false\n`,
  "boolean false",
);
keep(
  "sql alter role no password",
  "roles.sql",
  `ALTER ROLE app WITH LOGIN CONNECTION LIMIT 10;\n`,
  "CONNECTION LIMIT 10",
);
keep(
  "haproxy stats uri",
  "haproxy.cfg",
  `    stats uri /haproxy?stats\n    stats refresh 10s\n`,
  "/haproxy?stats",
);
keep(
  "systemd Environment plain",
  "app.service",
  `[Service]\nEnvironment="LOG_FORMAT=json_compact_v2"\n`,
  "json_compact_v2",
);
keep(
  "add-mask of an expression",
  ".github/workflows/ci.yml",
  `      - run: echo "::add-mask::\${{ steps.token.outputs.value }}"\n`,
  "${{ steps.token.outputs.value }}",
);
keep(
  "add-mask of a variable",
  ".github/workflows/ci.yml",
  `      - run: echo "::add-mask::$TOKEN"\n`,
  "$TOKEN",
);
keep("redis auth variable", "lua/cache.lua", `local ok, err = red:auth(password)\n`, "password");
keep(
  "js auth call of a config",
  "src/client.js",
  `await client.auth(config.redisPassword);\n`,
  "config.redisPassword",
);
keep(
  "salt of a hash function",
  "hash.py",
  `digest = hashlib.pbkdf2_hmac("sha256", data, salt, 100000)\n`,
  "salt, 100000",
);
keep(
  "expect send of a command",
  "login.exp",
  `expect "$ "\nsend "uptime\\r"\n`,
  "uptime",
);
keep(
  "pepper env",
  "config/initializers/devise.rb",
  `  config.pepper = ENV["DEVISE_PEPPER"]\n`,
  `ENV["DEVISE_PEPPER"]`,
);
keep(
  "signer module",
  "config/config.exs",
  `config :joken, default_signer: MyApp.Signer\n`,
  "MyApp.Signer",
);
keep(
  "signing_salt short",
  "lib/my_app_web/endpoint.ex",
  `    signing_salt: "Jx8Tq2Lm"\n`,
  "Jx8Tq2Lm",
);
keep(
  "db2 connect no password",
  "db2.sh",
  `db2 connect to SAMPLE\n`,
  "SAMPLE",
);
keep(
  "ngrok http port",
  "tunnel.sh",
  `ngrok http 8080 --domain=app.ngrok.dev\n`,
  "app.ngrok.dev",
);
// The eighteenth hunt's samples (written before reading the rules): infrastructure stacks
// (Terraform, Pulumi, CDK, CloudFormation, ARM, Bicep), Ansible, Helm and Compose, mobile builds
// (Gradle's `buildConfigField`, signing configs, `.xcconfig`, `Info.plist`, fastlane), constants of
// Go, Rust, C, Swift and Kotlin (letters-alone passwords among them), SQL's users and roles in more
// dialects, drivers' connection strings (ODBC, ADO.NET, JDBC, URIs), YAML anchors and flow maps,
// TOML inline tables, INI sections named for secrets, credentials shown in Markdown and reST, clients'
// history and credential files in rarer formats, Dockerfiles, Secrets as JSON, and providers' keys.
const AZ = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const cap = (w: string) => w[0].toUpperCase() + w.slice(1);
const camel = () => [0, 1, 2].map(() => cap(words[Math.floor(rnd() * words.length)])).join("");
const lettersOnly = () => ch(AZ, 1) + ch(AZ.toLowerCase(), 5) + ch(AZ, 1) + ch(AZ.toLowerCase(), 6);
// Go, Rust, C, Swift, Kotlin and Java constants
add(
  "go const typed letters",
  "internal/seed/admin.go",
  (v) => `const AdminPassword string = "${v}"\n`,
  camel(),
);
add(
  "go const block",
  "internal/db/conn.go",
  (v) => `const (\n\tdbUser = "app"\n\tdbPass = "${v}"\n)\n`,
  pw(),
);
add("go var typed secret", "cmd/api/main.go", (v) => `var apiSecret string = "${v}"\n`, mixed(32));
add(
  "go map literal password",
  "config/defaults.go",
  (v) => `var defaults = map[string]string{"host": "db", "password": "${v}"}\n`,
  pw(),
);
add(
  "go mysql.Config Passwd",
  "store/mysql.go",
  (v) => `cfg := mysql.Config{\n\tUser:   "root",\n\tPasswd: "${v}",\n\tNet:    "tcp",\n}\n`,
  pw(),
);
add(
  "go redis.Options letters",
  "cache/redis.go",
  (v) => `rdb := redis.NewClient(&redis.Options{Addr: "localhost:6379", Password: "${v}"})\n`,
  lettersOnly(),
);
add(
  "rust const static str",
  "src/config.rs",
  (v) => `pub const API_TOKEN: &'static str = "${v}";\n`,
  mixed(40),
);
add(
  "rust static byte string",
  "src/auth.rs",
  (v) => `static SECRET_KEY: &[u8] = b"${v}";\n`,
  mixed(32),
);
add(
  "rust env unwrap_or default",
  "src/db.rs",
  (v) => `let pass = std::env::var("DB_PASS").unwrap_or_else(|_| "${v}".to_string());\n`,
  pw(),
);
add(
  "c define wifi letters",
  "src/secrets.h",
  (v) => `#define WIFI_SSID "HomeNet"\n#define WIFI_PASSWORD "${v}"\n`,
  camel(),
);
add(
  "c define mqtt pass",
  "include/config.h",
  (v) => `#define MQTT_USER "sensor"\n#define MQTT_PASS "${v}"\n`,
  pw(),
);
add("c define api key", "firmware/keys.h", (v) => `#define API_KEY "${v}"\n`, mixed(32));
add(
  "arduino const char password",
  "sketch/sketch.ino",
  (v) => `const char* ssid = "HomeNet";\nconst char* password = "${v}";\n`,
  camel(),
);
add(
  "c static const char array",
  "src/client.c",
  (v) => `static const char kClientSecret[] = "${v}";\n`,
  mixed(40),
);
add(
  "cpp constexpr auto token",
  "src/api.cpp",
  (v) => `constexpr auto kApiToken = "${v}";\n`,
  mixed(40),
);
add(
  "swift static let secret",
  "App/Secrets.swift",
  (v) => `enum Secrets {\n    static let clientSecret = "${v}"\n}\n`,
  mixed(32),
);
add(
  "swift private let typed letters",
  "App/Login.swift",
  (v) => `private let password: String = "${v}"\n`,
  camel(),
);
add(
  "kotlin const val secret",
  "app/src/main/java/com/x/Keys.kt",
  (v) => `const val API_SECRET = "${v}"\n`,
  mixed(32),
);
add(
  "kotlin val password letters",
  "app/src/main/java/com/x/Db.kt",
  (v) => `    val password = "${v}"\n`,
  camel(),
);
add(
  "java toCharArray password",
  "src/main/java/x/Vault.java",
  (v) => `char[] password = "${v}".toCharArray();\n`,
  pw(),
);
add(
  "spring @Value default",
  "src/main/java/x/DbConfig.java",
  (v) => `    @Value("\${db.password:${v}}")\n    private String password;\n`,
  pw(),
);
// ADO.NET, ODBC, OLE DB and JDBC strings
add(
  "odbc Pwd braces",
  "report.py",
  (v) =>
    `conn = pyodbc.connect("DRIVER={ODBC Driver 18 for SQL Server};SERVER=db;UID=sa;PWD={${v}}")\n`,
  pw(),
);
add(
  "ado oracle Password letters",
  "Data/Ora.cs",
  (v) => `var cs = "Data Source=ORCL;User Id=scott;Password=${v};";\n`,
  camel(),
);
add(
  "mysql connector pwd lower",
  "Db.cs",
  (v) => `const string Conn = "server=localhost;uid=root;pwd=${v};database=app";\n`,
  pw(),
);
add(
  "npgsql quoted password",
  "appsettings.Development.json",
  (v) => `  "Default": "Host=db;Username=app;Password='${v}';Database=app"\n`,
  pw(),
);
add(
  "oledb provider password",
  "legacy/conn.vbs",
  (v) => `cn.Open "Provider=SQLOLEDB;Data Source=db;User ID=sa;Password=${v};"\n`,
  pw(),
);
add(
  "jdbc mysql userinfo",
  "src/main/resources/application.properties",
  (v) => `spring.datasource.url=jdbc:mysql://app:${v}@db:3306/app\n`,
  pw(),
);
add(
  "jdbc sqlserver braces",
  "conf/db.properties",
  (v) => `url=jdbc:sqlserver://db:1433;databaseName=app;user=sa;password={${v}}\n`,
  pw(),
);
add(
  "jdbc db2 properties",
  "conf/db2.properties",
  (v) => `url=jdbc:db2://host:50000/SAMPLE:user=db2inst1;password=${v};\n`,
  pw(),
);
add(
  "jdbc snowflake query",
  "etl/conf.yaml",
  (v) => `jdbc: "jdbc:snowflake://acct.snowflakecomputing.com/?user=etl&password=${v}"\n`,
  pw(),
);
add(
  "jdbc clickhouse letters",
  "conf/ch.conf",
  (v) => `url = "jdbc:clickhouse://ch:8123/default?user=default&password=${v}"\n`,
  camel(),
);
// database URIs
add(
  "rediss empty user",
  "config/cache.yml",
  (v) => `url: rediss://:${v}@cache.example.com:6380/0\n`,
  pw(),
);
add(
  "mongodb srv percent-encoded",
  ".env",
  (v) => `MONGO_URI=mongodb+srv://app:${v}@cluster0.ab1cd.mongodb.net/?retryWrites=true\n`,
  mixed(8) + "%40" + mixed(8),
);
add(
  "postgresql+asyncpg url",
  "alembic.ini",
  (v) => `sqlalchemy.url = postgresql+asyncpg://app:${v}@db/app\n`,
  pw(),
);
add(
  "cockroachdb url",
  "deploy/env.sh",
  (v) => `export DATABASE_URL="cockroachdb://root:${v}@crdb:26257/defaultdb?sslmode=verify-full"\n`,
  pw(),
);
add(
  "elasticsearch url letters",
  "logstash/out.conf",
  (v) => `hosts => ["https://elastic:${v}@es.example.com:9200"]\n`,
  camel(),
);
add(
  "influxdb url",
  "telegraf.conf",
  (v) => `  urls = ["influxdb://admin:${v}@influx:8086/metrics"]\n`,
  pw(),
);
add(
  "mssql+pyodbc url",
  "settings.py",
  (v) => `ENGINE_URL = "mssql+pyodbc://sa:${v}@prod_dsn"\n`,
  pw(),
);
// SQL
add(
  "mysql identified with plugin",
  "init/01-users.sql",
  (v) => `CREATE USER 'app'@'%' IDENTIFIED WITH mysql_native_password BY '${v}';\n`,
  pw(),
);
add(
  "mysql alter user letters",
  "init/02.sql",
  (v) => `ALTER USER 'root'@'localhost' IDENTIFIED BY '${v}';\n`,
  camel(),
);
add(
  "mysql set password for",
  "reset.sql",
  (v) => `SET PASSWORD FOR 'app'@'%' = PASSWORD('${v}');\n`,
  pw(),
);
add(
  "mysql grant identified by",
  "grants.sql",
  (v) => `GRANT ALL PRIVILEGES ON app.* TO 'app'@'%' IDENTIFIED BY '${v}';\n`,
  pw(),
);
add(
  "mssql create login N''",
  "db/logins.sql",
  (v) => `CREATE LOGIN app_rw WITH PASSWORD = N'${v}', CHECK_POLICY = OFF;\n`,
  pw(),
);
add(
  "postgres encrypted password",
  "db/roles.sql",
  (v) => `CREATE ROLE reporting LOGIN ENCRYPTED PASSWORD '${v}';\n`,
  pw(),
);
add(
  "postgres alter role letters",
  "db/setup.sql",
  (v) => `ALTER ROLE postgres PASSWORD '${v}';\n`,
  camel(),
);
add(
  "oracle identified by quoted",
  "ora/users.sql",
  (v) => `CREATE USER app IDENTIFIED BY "${v}" DEFAULT TABLESPACE users;\n`,
  pw(),
);
add(
  "snowflake create user",
  "snow/users.sql",
  (v) => `CREATE USER etl PASSWORD = '${v}' DEFAULT_ROLE = loader;\n`,
  pw(),
);
add(
  "clickhouse sha256_password",
  "ch/users.sql",
  (v) => `CREATE USER app IDENTIFIED WITH sha256_password BY '${v}';\n`,
  pw(),
);
add(
  "mssql scoped credential secret",
  "db/ext.sql",
  (v) =>
    `CREATE DATABASE SCOPED CREDENTIAL blob WITH IDENTITY = 'SHARED ACCESS SIGNATURE', SECRET = '${v}';\n`,
  mixed(40),
);
add(
  "mysql federated server options",
  "db/fed.sql",
  (v) =>
    `CREATE SERVER s FOREIGN DATA WRAPPER mysql OPTIONS (HOST 'r', USER 'fed', PASSWORD '${v}');\n`,
  pw(),
);
// Terraform, Pulumi, CDK, CloudFormation, ARM, Bicep
add(
  "terraform master_password letters",
  "rds.tf",
  (v) =>
    `resource "aws_db_instance" "db" {\n  username        = "admin"\n  master_password = "${v}"\n}\n`,
  camel(),
);
add(
  "terraform admin_password",
  "vm.tf",
  (v) => `  admin_username = "azureuser"\n  admin_password = "${v}"\n`,
  pw(),
);
add(
  "terraform datadog hex keys",
  "providers.tf",
  (v) => `provider "datadog" {\n  api_key = "${v}"\n}\n`,
  hex(32),
);
add(
  "pulumi config namespaced secretKey",
  "Pulumi.dev.yaml",
  (v) => `config:\n  aws:region: us-east-1\n  aws:secretKey: ${v}\n`,
  mixed(40),
);
add(
  "pulumi config dbPassword letters",
  "Pulumi.prod.yaml",
  (v) => `config:\n  myapp:dbPassword: ${v}\n`,
  camel(),
);
add(
  "pulumi ts password arg",
  "index.ts",
  (v) => `const db = new aws.rds.Instance("db", { username: "app", password: "${v}" });\n`,
  pw(),
);
add(
  "cdk unsafePlainText",
  "lib/stack.ts",
  (v) => `masterUserPassword: SecretValue.unsafePlainText("${v}"),\n`,
  pw(),
);
add(
  "cdk plainText",
  "lib/db-stack.ts",
  (v) => `const pass = cdk.SecretValue.plainText('${v}');\n`,
  pw(),
);
add("pulumi Output.secret", "__main__.py", (v) => `db_pass = pulumi.Output.secret("${v}")\n`, pw());
add(
  "cloudformation MasterUserPassword",
  "template.yaml",
  (v) => `      MasterUsername: admin\n      MasterUserPassword: ${v}\n`,
  pw(),
);
add(
  "cloudformation NoEcho Default",
  "template.yml",
  (v) => `Parameters:\n  DBPassword:\n    Type: String\n    NoEcho: true\n    Default: ${v}\n`,
  camel(),
);
add(
  "bicep param default",
  "main.bicep",
  (v) => `@secure()\nparam adminPassword string = '${v}'\n`,
  pw(),
);
add(
  "arm parameters value",
  "azuredeploy.parameters.json",
  (v) => `    "adminPassword": {\n      "value": "${v}"\n    }\n`,
  pw(),
);
// Ansible, Helm, Compose
add(
  "ansible winrm password ini",
  "inventory/hosts",
  (v) => `win01 ansible_host=10.0.0.5 ansible_user=Administrator ansible_winrm_password=${v}\n`,
  pw(),
);
add(
  "ansible password_hash literal",
  "roles/users/tasks/main.yml",
  (v) => `    password: "{{ '${v}' | password_hash('sha512') }}"\n`,
  pw(),
);
add(
  "ansible ldap bind_pw",
  "roles/ldap/tasks/main.yml",
  (v) => `    bind_dn: cn=admin,dc=example,dc=org\n    bind_pw: ${v}\n`,
  pw(),
);
add(
  "helm rootPassword letters",
  "values.yaml",
  (v) => `auth:\n  rootPassword: ${v}\n  replicaCount: 3\n`,
  camel(),
);
add(
  "helm global postgresPassword",
  "values-prod.yaml",
  (v) => `global:\n  postgresql:\n    auth:\n      postgresPassword: ${v}\n`,
  pw(),
);
add(
  "helm --set-string",
  "deploy.sh",
  (v) => `helm upgrade --install db bitnami/mysql --set-string auth.password=${v}\n`,
  pw(),
);
add(
  "helmfile set name value",
  "helmfile.yaml",
  (v) => `    set:\n      - name: adminPassword\n        value: ${v}\n`,
  pw(),
);
add(
  "compose env map letters",
  "docker-compose.yml",
  (v) => `    environment:\n      MYSQL_ROOT_PASSWORD: ${v}\n`,
  camel(),
);
add(
  "compose env list quoted",
  "compose.yaml",
  (v) => `    environment:\n      - "POSTGRES_PASSWORD=${v}"\n`,
  pw(),
);
add(
  "compose redis requirepass command",
  "docker-compose.yml",
  (v) => `    command: redis-server --appendonly yes --requirepass ${v}\n`,
  pw(),
);
add(
  "compose command array requirepass",
  "compose.yml",
  (v) => `    command: ["redis-server", "--requirepass", "${v}"]\n`,
  pw(),
);
add("env file quoted letters", ".env.production", (v) => `DB_PASS='${v}'\n`, camel());
// Gradle, Android, iOS
add(
  "gradle kts signingConfigs",
  "app/build.gradle.kts",
  (v) => `    signingConfigs {\n        create("release") {\n            storePassword = "${v}"\n`,
  pw(),
);
add(
  "gradle kts keyPassword letters",
  "app/build.gradle.kts",
  (v) => `            keyAlias = "upload"\n            keyPassword = "${v}"\n`,
  camel(),
);
add(
  "gradle kts buildConfigField",
  "app/build.gradle.kts",
  (v) => `        buildConfigField("String", "API_KEY", "\\"${v}\\"")\n`,
  mixed(32),
);
add(
  "gradle groovy buildConfigField",
  "app/build.gradle",
  (v) => `        buildConfigField "String", "CLIENT_SECRET", '"${v}"'\n`,
  mixed(32),
);
add(
  "gradle resValue secret",
  "app/build.gradle.kts",
  (v) => `        resValue("string", "app_secret", "${v}")\n`,
  mixed(32),
);
add(
  "local.properties letters",
  "local.properties",
  (v) => `sdk.dir=/home/u/Android/Sdk\nRELEASE_STORE_PASSWORD=${v}\n`,
  camel(),
);
add(
  "android manifest meta-data secret",
  "app/src/main/AndroidManifest.xml",
  (v) => `        <meta-data android:name="com.example.API_SECRET" android:value="${v}" />\n`,
  mixed(32),
);
add("xcconfig API_SECRET", "Config/Release.xcconfig", (v) => `API_SECRET = ${v}\n`, mixed(32));
add(
  "xcconfig password letters",
  "Config/Shared.xcconfig",
  (v) => `// CI login\nAPP_STORE_PASSWORD = ${v}\n`,
  camel(),
);
add(
  "plist APISecret",
  "App/Info.plist",
  (v) => `\t<key>APISecret</key>\n\t<string>${v}</string>\n`,
  mixed(32),
);
add(
  "plist ClientPassword letters",
  "App/Config.plist",
  (v) => `<key>ClientPassword</key>\n<string>${v}</string>\n`,
  camel(),
);
add("fastlane ENV assign", "fastlane/Fastfile", (v) => `ENV["FASTLANE_PASSWORD"] = "${v}"\n`, pw());
add(
  "fastlane match basic authorization",
  "fastlane/Matchfile",
  (v) => `git_basic_authorization("${v}")\n`,
  b64of("ci:" + pw()),
);
// Firebase, Supabase
add("supabase db password letters", ".env.local", (v) => `SUPABASE_DB_PASSWORD=${v}\n`, camel());
add(
  "supabase config.toml smtp pass",
  "supabase/config.toml",
  (v) => `[auth.email.smtp]\nhost = "smtp.example.com"\npass = "${v}"\n`,
  camel(),
);
add(
  "firebase functions config set",
  "scripts/setup.sh",
  (v) => `firebase functions:config:set mail.password="${v}"\n`,
  pw(),
);
add(
  ".runtimeconfig.json pass",
  "functions/.runtimeconfig.json",
  (v) => `{"mail": {"user": "bot", "pass": "${v}"}}\n`,
  camel(),
);
// YAML, TOML, INI shapes
add(
  "yaml anchor on value",
  "config/app.yml",
  (v) => `db:\n  password: &db_password ${v}\ncache:\n  password: *db_password\n`,
  pw(),
);
add("yaml flow mapping", "config/db.yml", (v) => `db: {user: app, password: ${v}}\n`, pw());
add("yaml !!str tag letters", "config/secrets.yml", (v) => `password: !!str ${v}\n`, camel());
add(
  "toml inline table letters",
  "config.toml",
  (v) => `database = { user = "app", password = "${v}" }\n`,
  camel(),
);
add("toml dotted key", "settings.toml", (v) => `db.password = "${v}"\n`, pw());
add("toml quoted key", "app.toml", (v) => `"db-password" = "${v}"\n`, pw());
add(
  "ini credentials section plain key",
  "deploy.ini",
  (v) => `[credentials]\nadmin = ${v}\n`,
  pw(),
);
add("ini secrets section", "app.cfg", (v) => `[secrets]\nstripe = ${v}\n`, mixed(32));
add(
  "my.cnf mysqldump letters",
  ".my.cnf",
  (v) => `[mysqldump]\nuser=backup\npassword="${v}"\n`,
  camel(),
);
add(
  "php.ini mysqli.default_pw",
  "php.ini",
  (v) => `mysqli.default_user = app\nmysqli.default_pw = ${v}\n`,
  pw(),
);
add(
  "odbc.ini PWD letters",
  "odbc.ini",
  (v) => `[reporting]\nDriver = PostgreSQL\nUID = report\nPWD = ${v}\n`,
  camel(),
);
// Markdown and reST
add(
  "markdown code block Password letters",
  "docs/install.md",
  (v) => `Log in with:\n\n\`\`\`\nEmail: admin@example.com\nPassword: ${v}\n\`\`\`\n`,
  camel(),
);
add(
  "markdown bold label",
  "README.md",
  (v) => `- **Username:** admin\n- **Password:** \`${v}\`\n`,
  pw(),
);
add(
  "markdown default credentials slash",
  "docs/quickstart.md",
  (v) => `Default credentials: \`admin\` / \`${v}\`\n`,
  pw(),
);
add(
  "rst field list password",
  "docs/setup.rst",
  (v) => `:username: admin\n:password: ${v}\n`,
  pw(),
);
// history and credential files
add(
  ".mysql_history octal spaces",
  ".mysql_history",
  (v) => `CREATE\\040USER\\040'app'@'%'\\040IDENTIFIED\\040BY\\040'${v}';\n`,
  pw(),
);
add(".rediscli_history AUTH", ".rediscli_history", (v) => `AUTH default ${v}\nKEYS *\n`, pw());
add(
  "fish_history curl -u",
  ".local/share/fish/fish_history",
  (v) => `- cmd: curl -u admin:${v} https://api.example.com/\n  when: 1700000000\n`,
  pw(),
);
add(".netrc default entry letters", ".netrc", (v) => `default login bob password ${v}\n`, camel());
add(
  ".pgpass escaped colon",
  ".pgpass",
  (v) => `db.example.com:5432:*:app:${v}\n`,
  mixed(6) + "\\:" + mixed(8),
);
add(
  ".git-credentials percent user",
  ".git-credentials",
  (v) => `https://user%40corp.com:${v}@git.corp.com\n`,
  pw().replace("!", "%21"),
);
add(
  ".yarnrc v1 quoted authToken",
  ".yarnrc",
  (v) => `"//registry.yarnpkg.com/:_authToken" "${v}"\n`,
  uuid(),
);
add(
  ".gitconfig github token hex",
  ".gitconfig",
  (v) => `[github]\n\tuser = bob\n\ttoken = ${v}\n`,
  hex(40),
);
add(
  "svn auth simple file",
  ".subversion/auth/svn.simple/0a1b",
  (v) => `K 8\npassword\nV 14\n${v}\nK 15\nsvn:realmstring\n`,
  camel(),
);
add(
  "DOTENV_KEY",
  ".env.me",
  (v) => `DOTENV_KEY="dotenv://:key_${v}@dotenv.org/vault/.env.vault?environment=production"\n`,
  hex(64),
);
// Dockerfiles, Kubernetes
add(
  "Dockerfile ENV letters two vars",
  "Dockerfile",
  (v) => `ENV MYSQL_ROOT_PASSWORD=${v} MYSQL_DATABASE=app\n`,
  camel(),
);
add("Dockerfile ARG hex token", "Dockerfile", (v) => `ARG GITHUB_TOKEN=${v}\n`, hex(40));
add(
  "Dockerfile git clone token userinfo",
  "Dockerfile",
  (v) => `RUN git clone https://${v}@github.com/org/private.git /src\n`,
  hex(40),
);
add(
  "k8s Secret as JSON",
  "secret.json",
  (v) =>
    `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"api"},"data":{"api-key":"${v}"}}\n`,
  b64of(mixed(32)),
);
add(
  "k8s data DATABASE_URL b64",
  "k8s/secret.yaml",
  (v) => `kind: Secret\ndata:\n  DATABASE_URL: ${v}\n`,
  b64of("postgres://app:" + pw() + "@db/app"),
);
// providers' keys
add(
  "alibaba access key pair",
  "aliyun.env",
  (v) => `ALIBABA_CLOUD_ACCESS_KEY_ID=LTAI5t${ch(A, 18)}\nALIBABA_CLOUD_ACCESS_KEY_SECRET=${v}\n`,
  ch(A, 30),
);
add(
  "alibaba LTAI bare",
  "oss.py",
  (v) => `auth = oss2.Auth('${v}', secret)\n`,
  "LTAI5t" + ch(A, 18),
);
add(
  "tencent AKID",
  "cos.go",
  (v) => `credential := common.NewCredential("${v}", secretKey)\n`,
  "AKID" + ch(A, 32),
);
add("ibm cloud api key", "ibmcloud.env", (v) => `IBMCLOUD_API_KEY=${v}\n`, ch(A + "_-", 44));
add("scaleway secret uuid", ".env", (v) => `SCW_SECRET_KEY=${v}\n`, uuid());
add("linode token hex", "linode.env", (v) => `LINODE_TOKEN=${v}\n`, hex(64));
add("vultr api key", "vultr.sh", (v) => `export VULTR_API_KEY=${v}\n`, up(36));
add("hetzner hcloud token", "terraform.tfvars", (v) => `hcloud_token = "${v}"\n`, mixed(64));
add("cloudflare global key hex37", ".env", (v) => `CF_API_KEY=${v}\n`, hex(37));
add(
  "cloudflare origin ca key",
  "origin.sh",
  (v) => `export CF_ORIGIN_CA_KEY=${v}\n`,
  "v1.0-" + hex(24) + "-" + hex(146),
);
add(
  "backblaze b2 application key",
  "b2.env",
  (v) => `B2_APPLICATION_KEY_ID=0051${hex(20)}\nB2_APPLICATION_KEY=${v}\n`,
  "K005" + ch(A, 27),
);
add("yandex oauth y0_", "yc.sh", (v) => `yc config set token ${v}\n`, "y0_" + ch(A + "_-", 55));
add(
  "heroku HRKU token",
  "deploy.yml",
  (v) => `      HEROKU_API_KEY: ${v}\n`,
  "HRKU-AA" + ch(A + "_-", 58),
);
add(
  "render rnd_ key",
  "render.sh",
  (v) => `curl -H "Authorization: Bearer ${v}" https://api.render.com/v1/services\n`,
  "rnd_" + ch(A, 32),
);
add(
  "netlify nfp_ token",
  "netlify.sh",
  (v) => `netlify deploy --auth ${v} --prod\n`,
  "nfp_" + ch(A, 36),
);
add("supabase sbp_ token", "ci.sh", (v) => `supabase login --token ${v}\n`, "sbp_" + hex(40));
add(
  "planetscale service token",
  "pscale.env",
  (v) => `PLANETSCALE_SERVICE_TOKEN=${v}\n`,
  "pscale_tkn_" + ch(A + "_-", 43),
);
add(
  "planetscale password bare",
  "db.ts",
  (v) => `const conn = connect({ host, username, password: "${v}" });\n`,
  "pscale_pw_" + ch(A + "_-", 43),
);
add("neon napi key", "neon.py", (v) => `client = NeonAPI("${v}")\n`, "napi_" + lowdig(64));
add(
  "resend re_ key",
  "mail.ts",
  (v) => `const resend = new Resend("${v}");\n`,
  "re_" + ch(A, 8) + "_" + ch(A, 24),
);
add(
  "brevo xkeysib",
  "brevo.php",
  (v) => `$config->setApiKey('api-key', '${v}');\n`,
  "xkeysib-" + hex(64) + "-" + ch(A, 16),
);
add(
  "contentful CFPAT",
  "contentful.js",
  (v) => `const client = createClient({ accessToken: "${v}" });\n`,
  "CFPAT-" + ch(A + "_-", 43),
);
add(
  "1password ops_ token",
  ".envrc",
  (v) => `export OP_SERVICE_ACCOUNT_TOKEN=${v}\n`,
  "ops_" + "eyJ" + ch(A, 120),
);
add(
  "pinecone pcsk",
  "index.py",
  (v) => `pc = Pinecone(api_key="${v}")\n`,
  "pcsk_" + ch(A, 5) + "_" + ch(A, 60),
);
add(
  "langsmith lsv2",
  "agent.py",
  (v) => `os.environ["LANGCHAIN_API_KEY"] = "${v}"\n`,
  "lsv2_pt_" + hex(32) + "_" + hex(10),
);
add(
  "sentry sntrys token",
  "sentry.sh",
  (v) => `sentry-cli --auth-token ${v} releases new v1\n`,
  "sntrys_" + ch(A, 160),
);
add("sentry sntryu user token", ".sentryclirc", (v) => `[auth]\ntoken=${v}\n`, "sntryu_" + hex(64));
add(
  "buildkite bkua",
  "bk.sh",
  (v) => `curl -H "Authorization: Bearer ${v}" https://api.buildkite.com/v2/builds\n`,
  "bkua_" + hex(40),
);
add("wandb hex40 key", "train.sh", (v) => `wandb login ${v}\n`, hex(40));
add("WANDB_API_KEY hex40 env", ".env", (v) => `WANDB_API_KEY=${v}\n`, hex(40));
add(
  "algolia admin key hex",
  "search.js",
  (v) => `const client = algoliasearch("${up(10)}", "${v}");\n`,
  hex(32),
);
add("airtable pat", "airtable.py", (v) => `api = Api("${v}")\n`, "pat" + ch(A, 14) + "." + hex(64));
add(
  "twitter bearer AAAA",
  "bot.py",
  (v) => `client = tweepy.Client(bearer_token="${v}")\n`,
  "AAAAAAAAAAAAAAAAAAAAA" + ch(A, 20) + "%3D" + ch(A, 50),
);
add("prefect pnu key", "prefect.toml", (v) => `PREFECT_API_KEY = "${v}"\n`, "pnu_" + ch(A, 36));
add(
  "vault batch token hvb",
  "vault.sh",
  (v) => `VAULT_TOKEN=${v} vault kv get secret/app\n`,
  "hvb." + ch(A + "_-", 120),
);
add(
  "terraform cloud atlasv1 bare",
  "tfc.py",
  (v) => `headers = {"Authorization": f"Bearer {'${v}'}"}\n`,
  ch(A, 14) + ".atlasv1." + ch(A, 67),
);
// eighteenth round: look-alikes that must stay
keep(
  "go const column name",
  "internal/model/user.go",
  `const PasswordColumn string = "password_hash"\n`,
  "password_hash",
);
keep(
  "rust const env name",
  "src/config.rs",
  `pub const PASSWORD_ENV: &str = "DATABASE_PASSWORD";\n`,
  "DATABASE_PASSWORD",
);
keep(
  "c define key name",
  "src/prefs.h",
  `#define WIFI_PASSWORD_KEY "wifi_password"\n`,
  "wifi_password",
);
keep(
  "swift keychain key",
  "App/Keychain.swift",
  `    static let passwordKey = "com.example.app.password"\n`,
  "com.example.app.password",
);
keep(
  "kotlin intent extra",
  "app/src/main/java/com/x/Extras.kt",
  `const val EXTRA_PASSWORD = "extra_password"\n`,
  "extra_password",
);
keep(
  "spring @Value without default",
  "src/main/java/x/Db.java",
  `    @Value("\${db.password}")\n`,
  "${db.password}",
);
keep(
  "go struct tags",
  "internal/model/user.go",
  `\tPassword string \`json:"password" yaml:"password"\`\n`,
  `json:"password" yaml:"password"`,
);
keep(
  "go Passwd from env",
  "store/mysql.go",
  `\tPasswd: os.Getenv("DB_PASS"),\n`,
  `os.Getenv("DB_PASS")`,
);
keep(
  "rust env var password",
  "src/db.rs",
  `    password: env::var("DB_PASSWORD")?,\n`,
  `env::var("DB_PASSWORD")`,
);
keep(
  "sql identified externally",
  "ora/users.sql",
  `ALTER USER ops IDENTIFIED EXTERNALLY;\n`,
  "EXTERNALLY",
);
keep(
  "sql bound parameter",
  "db/users.sql",
  `CREATE USER 'app'@'%' IDENTIFIED BY :new_password;\n`,
  ":new_password",
);
keep(
  "sql templated password",
  "db/init.sql.tpl",
  `CREATE USER app WITH PASSWORD '\${DB_PASSWORD}';\n`,
  "${DB_PASSWORD}",
);
keep("sql password null", "db/roles.sql", `ALTER ROLE app PASSWORD NULL;\n`, "PASSWORD NULL");
keep(
  "jdbc placeholder password",
  "application.properties",
  `spring.datasource.url=jdbc:postgresql://db:5432/app?user=app&password=\${DB_PASSWORD}\n`,
  "${DB_PASSWORD}",
);
keep(
  "ado integrated security",
  "appsettings.json",
  `  "Default": "Server=db;Database=app;Integrated Security=SSPI;TrustServerCertificate=True"\n`,
  "Integrated Security=SSPI",
);
keep(
  "mongodb srv without credentials",
  ".env",
  `MONGO_URI=mongodb+srv://cluster0.ab1cd.mongodb.net/?authMechanism=MONGODB-AWS\n`,
  "cluster0.ab1cd.mongodb.net",
);
keep(
  "rediss jinja password",
  "templates/app.yml.j2",
  `url: rediss://:{{ redis_password }}@cache:6380/0\n`,
  "{{ redis_password }}",
);
keep("yaml alias password", "config/app.yml", `cache:\n  password: *db_password\n`, "*db_password");
keep(
  "helm template password",
  "templates/secret.yaml",
  `  password: {{ .Values.db.password | b64enc | quote }}\n`,
  "{{ .Values.db.password | b64enc | quote }}",
);
keep(
  "helm existingSecret",
  "values.yaml",
  `auth:\n  existingSecret: postgres-credentials\n  secretKeys:\n    adminPasswordKey: postgres-password\n`,
  "postgres-credentials",
);
keep(
  "compose password file",
  "docker-compose.yml",
  `      MYSQL_ROOT_PASSWORD_FILE: /run/secrets/db_root_password\n`,
  "/run/secrets/db_root_password",
);
keep(
  "compose required variable",
  "compose.yaml",
  `      POSTGRES_PASSWORD: \${POSTGRES_PASSWORD:?set it in .env}\n`,
  "${POSTGRES_PASSWORD:?set it in .env}",
);
keep(
  "terraform random_password ref",
  "rds.tf",
  `  password = random_password.db.result\n`,
  "random_password.db.result",
);
keep("terraform var ref", "vm.tf", `  admin_password = var.admin_password\n`, "var.admin_password");
keep(
  "pulumi requireSecret",
  "index.ts",
  `const dbPassword = config.requireSecret("dbPassword");\n`,
  `config.requireSecret("dbPassword")`,
);
keep(
  "pulumi secure config",
  "Pulumi.dev.yaml",
  `config:\n  myapp:dbPassword:\n    secure: v1:${b64(16)}:${b64(32)}\n`,
  "secure: v1:",
);
keep(
  "cdk secretsManager",
  "lib/stack.ts",
  `const pass = SecretValue.secretsManager("prod/db/password");\n`,
  "prod/db/password",
);
keep(
  "cloudformation resolve",
  "template.yaml",
  `      MasterUserPassword: '{{resolve:secretsmanager:MyRDSSecret:SecretString:password}}'\n`,
  "{{resolve:secretsmanager:MyRDSSecret:SecretString:password}}",
);
keep(
  "cloudformation Ref",
  "template.yml",
  `      MasterUserPassword: !Ref DBPassword\n`,
  "!Ref DBPassword",
);
keep(
  "ansible lookup env",
  "roles/db/tasks/main.yml",
  `    login_password: "{{ lookup('env', 'DB_PASS') }}"\n`,
  "{{ lookup('env', 'DB_PASS') }}",
);
keep(
  "gradle storePassword getenv",
  "app/build.gradle",
  `            storePassword System.getenv("KEYSTORE_PASSWORD")\n`,
  `System.getenv("KEYSTORE_PASSWORD")`,
);
keep(
  "gradle kts keystoreProperties",
  "app/build.gradle.kts",
  `            keyPassword = keystoreProperties["keyPassword"] as String\n`,
  `keystoreProperties["keyPassword"] as String`,
);
keep(
  "xcconfig url",
  "Config/Base.xcconfig",
  `API_BASE_URL = https:/$()/api.example.com\nAPI_KEY = $(API_KEY_FROM_CI)\n`,
  "$(API_KEY_FROM_CI)",
);
keep(
  "xcconfig signing identity",
  "Config/Release.xcconfig",
  `CODE_SIGN_IDENTITY = Apple Distribution\n`,
  "Apple Distribution",
);
keep(
  "plist usage description",
  "App/Info.plist",
  `\t<key>NSFaceIDUsageDescription</key>\n\t<string>Unlock your saved passwords with Face ID</string>\n`,
  "Unlock your saved passwords with Face ID",
);
const fbApp = "1:1234567890:web:" + hex(22);
keep(
  "firebase appId",
  "src/firebase.ts",
  `  appId: "${fbApp}",\n  measurementId: "G-${up(10)}",\n`,
  fbApp,
);
keep(
  "markdown password placeholder",
  "docs/install.md",
  `\`\`\`\nEmail: admin@example.com\nPassword: <the password you chose>\n\`\`\`\n`,
  "<the password you chose>",
);
keep(
  "markdown env table",
  "docs/config.md",
  `| \`DB_PASSWORD\` | Database password | (none) |\n`,
  "Database password",
);
keep(
  "markdown prose password",
  "README.md",
  `- **Password:** the one you set during setup\n`,
  "the one you set during setup",
);
keep(
  "npmrc env token",
  ".npmrc",
  `//npm.pkg.github.com/:_authToken=\${GITHUB_TOKEN}\n`,
  "${GITHUB_TOKEN}",
);
keep("pypirc __token__ user", ".pypirc", `[pypi]\nusername = __token__\n`, "__token__");
keep(
  "Dockerfile password file env",
  "Dockerfile",
  `ENV DB_PASSWORD_FILE=/run/secrets/db_password\n`,
  "/run/secrets/db_password",
);
keep(
  "Dockerfile secret mount",
  "Dockerfile",
  `RUN --mount=type=secret,id=npmrc,target=/root/.npmrc npm ci\n`,
  "type=secret,id=npmrc,target=/root/.npmrc",
);
keep(
  "k8s secretKeyRef",
  "k8s/deploy.yaml",
  `            secretKeyRef:\n              name: db-secret\n              key: password\n`,
  "db-secret",
);
keep(
  "ini credentials helper",
  ".gitconfig",
  `[credential]\n\thelper = store\n[credentials]\n\thelper = osxkeychain\n`,
  "osxkeychain",
);
keep(
  "ini secrets provider",
  "app.cfg",
  `[secrets]\nprovider = vault\npath = /etc/app/secrets.json\n`,
  "/etc/app/secrets.json",
);
keep(
  "toml inline password_file",
  "config.toml",
  `db = { host = "localhost", port = 5432, password_file = "/run/secrets/db" }\n`,
  "/run/secrets/db",
);
const revs = hex(40);
keep("git-blame-ignore-revs", ".git-blame-ignore-revs", `# deno fmt of the tree\n${revs}\n`, revs);
keep(
  ".mysql_history show grants",
  ".mysql_history",
  `SHOW\\040GRANTS\\040FOR\\040'app'@'%';\n`,
  "SHOW\\040GRANTS",
);
keep(
  "svn realmstring",
  ".subversion/auth/svn.simple/0a1b",
  `K 15\nsvn:realmstring\nV 45\n<https://svn.example.com:443> Example Realm\n`,
  "<https://svn.example.com:443> Example Realm",
);
const ocid = "ocid1.user.oc1..aaaaaaaa" + lowdig(52);
keep("oci user ocid", ".oci/config", `[DEFAULT]\nuser=${ocid}\n`, ocid);
keep(
  "wandb project name",
  ".env",
  `WANDB_PROJECT=sentiment-finetune-2026\n`,
  "sentiment-finetune-2026",
);
// The twentieth hunt's samples (sixteenth session, written before reading the rules): CI files of
// more vendors, infrastructure files (Terraform providers, Kustomize, Crossplane, Argo CD, Flux),
// mobile configs (Expo, Flutter, Capacitor, Cordova, Android strings), notebooks' cells and outputs,
// shells' and REPLs' histories, logs, traces and dumps (HAR, `curl -v`, `set -x`, tracebacks,
// `docker inspect`), test fixtures (VCR cassettes, WireMock, Jest snapshots), SQL dumps' rows,
// mail clients' and servers' configs, URIs of rarer schemes and JDBC drivers, base64 in Secrets,
// key blocks wrapped oddly, JWTs in cookies and fragments, more providers' keys, keys split across
// concatenation or kept in comments, env files with `export`, quotes and comments, CRLF and a BOM,
// password names in other languages, and the two leak22 left (Algolia's `SearchClient.create`,
// `AUTH` typed at a `redis-cli` prompt in a page).
const crlf = (t: string) => t.replace(/\n/g, "\r\n");
const alnum = (n: number) => ch(A, n);
const urlsafe = (n: number) => ch(A + "_-", n);
// CI files of many vendors
add(
  "gitlab-ci variables",
  ".gitlab-ci.yml",
  (v) => `variables:\n  DOCKER_DRIVER: overlay2\n  SONAR_TOKEN: "${v}"\n`,
  "squ_" + hex(40),
);
add(
  "gitlab-ci job variables password",
  ".gitlab-ci.yml",
  (v) => `test:\n  variables:\n    POSTGRES_PASSWORD: ${v}\n  services:\n    - postgres:16\n`,
  pw(),
);
add(
  "bitbucket-pipelines env",
  "bitbucket-pipelines.yml",
  (v) =>
    `      - step:\n          script:\n            - export NPM_TOKEN=${v}\n            - npm publish\n`,
  npm(),
);
add(
  "azure-pipelines variables",
  "azure-pipelines.yml",
  (v) => `variables:\n  - name: registryPassword\n    value: '${v}'\n`,
  pw(),
);
add(
  "azure-pipelines variables map",
  "azure-pipelines.yml",
  (v) => `variables:\n  buildConfiguration: Release\n  nugetApiKey: ${v}\n`,
  "oy2" + lowdig(43),
);
add(
  "drone environment",
  ".drone.yml",
  (v) => `steps:\n  - name: publish\n    environment:\n      DOCKER_PASSWORD: ${v}\n`,
  pw(),
);
add(
  "woodpecker settings",
  ".woodpecker.yml",
  (v) => `    settings:\n      repo: acme/app\n      username: ci\n      password: "${v}"\n`,
  pw(),
);
add(
  "appveyor environment",
  "appveyor.yml",
  (v) => `environment:\n  COVERALLS_REPO_TOKEN: ${v}\n  matrix:\n    - PY: 3.12\n`,
  alnum(33),
);
add(
  "travis env global plain",
  ".travis.yml",
  (v) => `env:\n  global:\n    - CODECOV_TOKEN=${v}\n`,
  uuid(),
);
add(
  "buildkite pipeline env",
  ".buildkite/pipeline.yml",
  (v) => `env:\n  DATADOG_API_KEY: "${v}"\nsteps:\n  - command: make\n`,
  hex(32),
);
add(
  "teamcity settings.kts param",
  ".teamcity/settings.kts",
  (v) => `    params {\n        param("env.DEPLOY_TOKEN", "${v}")\n    }\n`,
  ghp(),
);
add(
  "teamcity password param",
  ".teamcity/settings.kts",
  (v) => `        password("env.DB_PASSWORD", "${v}", display = ParameterDisplay.HIDDEN)\n`,
  pw(),
);
add(
  "concourse vars file",
  "ci/vars.yml",
  (v) => `github-access-token: ${v}\nslack-channel: "#builds"\n`,
  ghp(),
);
add(
  "concourse resource source",
  "ci/pipeline.yml",
  (v) =>
    `resources:\n- name: image\n  type: registry-image\n  source:\n    repository: acme/app\n    username: ci\n    password: ${v}\n`,
  pw(),
);
add(
  "codebuild buildspec env",
  "buildspec.yml",
  (v) => `env:\n  variables:\n    SENTRY_AUTH_TOKEN: "${v}"\n`,
  "sntrys_" + alnum(60),
);
add(
  "cloudbuild substitutions",
  "cloudbuild.yaml",
  (v) => `substitutions:\n  _DB_PASS: "${v}"\n  _REGION: us-central1\n`,
  pw(),
);
add(
  "bitrise envs",
  "bitrise.yml",
  (v) => `app:\n  envs:\n  - BITRISE_PROJECT_PATH: ios/App.xcworkspace\n  - MATCH_PASSWORD: ${v}\n`,
  pw(),
);
add(
  "codemagic vars",
  "codemagic.yaml",
  (v) =>
    `workflows:\n  ios:\n    environment:\n      vars:\n        APP_STORE_CONNECT_KEY_IDENTIFIER: ${
      up(10)
    }\n        CM_KEYSTORE_PASSWORD: ${v}\n`,
  pw(),
);
add(
  "circleci orb parameter default",
  ".circleci/config.yml",
  (v) => `parameters:\n  heroku-api-key:\n    type: string\n    default: "${v}"\n`,
  uuid(),
);
add(
  "tekton pipelinerun param",
  "tekton/run.yaml",
  (v) => `  params:\n    - name: registry-password\n      value: "${v}"\n`,
  pw(),
);
add(
  "argo workflow parameter",
  "workflow.yaml",
  (v) => `    parameters:\n    - name: slack-token\n      value: ${v}\n`,
  "xoxb-" + digits(12) + "-" + digits(13) + "-" + alnum(24),
);
add(
  "earthfile ARG default",
  "Earthfile",
  (v) => `build:\n    ARG NPM_TOKEN=${v}\n    RUN npm ci\n`,
  npm(),
);
add(
  "taskfile env",
  "Taskfile.yml",
  (v) => `tasks:\n  deploy:\n    env:\n      FLY_API_TOKEN: ${v}\n`,
  "fo1_" + urlsafe(43),
);
add(
  "justfile export",
  "justfile",
  (v) => `export CLOUDFLARE_API_TOKEN := "${v}"\n\ndeploy:\n    wrangler deploy\n`,
  urlsafe(40),
);
add(
  "makefile variable",
  "Makefile",
  (v) => `REGISTRY_PASSWORD ?= ${v}\n\nlogin:\n\tdocker login -u ci -p $(REGISTRY_PASSWORD)\n`,
  pw(),
);
add(
  "gha workflow_dispatch default",
  ".github/workflows/deploy.yml",
  (v) =>
    `on:\n  workflow_dispatch:\n    inputs:\n      api_token:\n        description: token\n        default: "${v}"\n`,
  alnum(40),
);
add(
  "gha env at job level",
  ".github/workflows/ci.yml",
  (v) => `jobs:\n  test:\n    env:\n      CODECOV_TOKEN: ${v}\n`,
  uuid(),
);
add(
  "jenkins credentials.xml plain",
  "credentials.xml",
  (v) =>
    `<com.cloudbees.plugins.credentials.impl.UsernamePasswordCredentialsImpl>\n  <id>deploy</id>\n  <username>deploy</username>\n  <password>${v}</password>\n</com.cloudbees.plugins.credentials.impl.UsernamePasswordCredentialsImpl>\n`,
  pw(),
);
add(
  "jenkins job config secret text",
  "jobs/deploy/config.xml",
  (v) =>
    `<hudson.model.StringParameterDefinition>\n  <name>API_TOKEN</name>\n  <defaultValue>${v}</defaultValue>\n`,
  alnum(40),
);
// Terraform providers, Kustomize, Crossplane, Argo CD, Flux
add(
  "terraform github provider token",
  "main.tf",
  (v) => `provider "github" {\n  owner = "acme"\n  token = "${v}"\n}\n`,
  ghp(),
);
add(
  "terraform cloudflare api_token",
  "providers.tf",
  (v) => `provider "cloudflare" {\n  api_token = "${v}"\n}\n`,
  urlsafe(40),
);
add(
  "terraform mongodbatlas private_key",
  "atlas.tf",
  (v) => `provider "mongodbatlas" {\n  public_key  = "${lower(8)}"\n  private_key = "${v}"\n}\n`,
  uuid(),
);
add(
  "terraform kubernetes provider token",
  "k8s.tf",
  (v) => `provider "kubernetes" {\n  host  = "https://10.0.0.1"\n  token = "${v}"\n}\n`,
  jwt(),
);
add(
  "terraform pagerduty token",
  "pd.tf",
  (v) => `provider "pagerduty" {\n  token = "${v}"\n}\n`,
  "u+" + alnum(18),
);
add(
  "terraform okta api_token",
  "okta.tf",
  (v) => `provider "okta" {\n  org_name  = "acme"\n  api_token = "${v}"\n}\n`,
  "00" + urlsafe(40),
);
add(
  "terraform heredoc secret",
  "user_data.tf",
  (v) =>
    `  user_data = <<-EOT\n    #!/bin/bash\n    echo "DB_PASSWORD=${v}" >> /etc/app.env\n  EOT\n`,
  pw(),
);
add(
  "kustomize secretGenerator literals",
  "kustomization.yaml",
  (v) => `secretGenerator:\n- name: db\n  literals:\n  - username=app\n  - password=${v}\n`,
  pw(),
);
add(
  "kustomize env literal token",
  "overlays/prod/kustomization.yaml",
  (v) => `secretGenerator:\n- name: api\n  literals:\n  - API_TOKEN=${v}\n`,
  alnum(40),
);
add(
  "argocd repository secret",
  "argocd/repo.yaml",
  (v) =>
    `kind: Secret\nmetadata:\n  labels:\n    argocd.argoproj.io/secret-type: repository\nstringData:\n  url: https://github.com/acme/deploy\n  password: ${v}\n  username: not-used\n`,
  ghp(),
);
add(
  "flux git secret b64",
  "flux-system/secret.yaml",
  (v) => `apiVersion: v1\nkind: Secret\ntype: Opaque\ndata:\n  password: ${v}\n  username: Z2l0\n`,
  btoa("glpat-" + alnum(20)),
);
add(
  "crossplane provider creds",
  "crossplane/creds.yaml",
  (v) =>
    `stringData:\n  credentials: |\n    [default]\n    aws_access_key_id = AKIA${
      up(16)
    }\n    aws_secret_access_key = ${v}\n`,
  b64(40),
);
add(
  "helm template b64enc literal",
  "templates/secret.yaml",
  (v) => `data:\n  api-key: {{ "${v}" | b64enc | quote }}\n`,
  alnum(36),
);
add(
  "k8s Secret in a List",
  "all.yaml",
  (v) =>
    `apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Secret\n  metadata:\n    name: smtp\n  data:\n    SMTP_PASSWORD: ${v}\n`,
  btoa(pw()),
);
add(
  "k8s data b64 of env file",
  "secret.yaml",
  (v) => `data:\n  app.env: ${v}\n`,
  btoa(`DB_HOST=db\nDB_PASSWORD=${pw()}\nAPI_KEY=${alnum(32)}\n`),
);
add(
  "kubectl get secret json",
  "debug/secret.json",
  (v) =>
    `{\n    "apiVersion": "v1",\n    "data": {\n        "token": "${v}"\n    },\n    "kind": "Secret"\n}\n`,
  btoa(ghp()),
);
add(
  "k8s data b64 wrapped block",
  "secret.yaml",
  (v) => `data:\n  tls.key: >-\n    ${v.slice(0, 60)}\n    ${v.slice(60)}\n`,
  btoa("-----BEGIN PRIVATE KEY-----\n" + pemBody() + "\n-----END PRIVATE KEY-----\n"),
);
add(
  "echo base64 in docs",
  "docs/deploy.md",
  (v) => "```sh\necho -n '" + v + "' | base64\n```\n",
  pw(),
);
add(
  "nix sops-less secret string",
  "configuration.nix",
  (v) =>
    `  services.nextcloud.config.adminpassFile = "/run/x";\n  services.miniflux.adminCredentials = "ADMIN_PASSWORD=${v}";\n`,
  pw(),
);
add(
  "nix attrs token",
  "flake.nix",
  (v) => `      environment.sessionVariables = {\n        GITHUB_TOKEN = "${v}";\n      };\n`,
  ghp(),
);
add(
  "pulumi yaml config",
  "Pulumi.yaml",
  (v) =>
    `resources:\n  db:\n    type: aws:rds:Instance\n    properties:\n      password: ${v}\n      username: admin\n`,
  pw(),
);
add(
  "bicep secure param default",
  "main.bicep",
  (v) => `@secure()\nparam sqlAdminPassword string = '${v}'\n`,
  pw(),
);
// mobile configs
add(
  "expo app.json extra",
  "app.json",
  (v) => `{\n  "expo": {\n    "extra": {\n      "revenueCatKey": "${v}"\n    }\n  }\n}\n`,
  "sk_" + alnum(32),
);
add(
  "flutter dart-define",
  "scripts/build.sh",
  (v) => `flutter build apk --dart-define=API_SECRET=${v} --release\n`,
  alnum(40),
);
add(
  "flutter dart const",
  "lib/env.dart",
  (v) => `class Env {\n  static const String stripeSecretKey = '${v}';\n}\n`,
  "sk_live_" + alnum(24),
);
add(
  "dart final password",
  "lib/config.dart",
  (v) => `final String dbPassword = "${v}";\n`,
  pw(),
);
add(
  "capacitor config",
  "capacitor.config.ts",
  (v) => `  plugins: {\n    PushNotifications: { serverKey: "${v}" },\n  },\n`,
  "AAAA" + urlsafe(7) + ":APA91b" + urlsafe(134),
);
add(
  "cordova config.xml preference",
  "config.xml",
  (v) => `<preference name="ONESIGNAL_API_KEY" value="${v}" />\n`,
  b64(48),
);
add(
  "android strings.xml secret",
  "app/src/main/res/values/strings.xml",
  (v) => `<resources>\n    <string name="twitter_consumer_secret">${v}</string>\n</resources>\n`,
  alnum(50),
);
add(
  "react native env",
  ".env.production",
  (v) => `API_URL=https://api.acme.io\nSENTRY_AUTH_TOKEN=${v}\n`,
  hex(64),
);
add(
  "swift plist dict literal",
  "Sources/Keys.swift",
  (v) => `let keys: [String: String] = ["mixpanel": "${hex(32)}", "segmentWriteKey": "${v}"]\n`,
  alnum(32),
);
add(
  "objc NSString constant",
  "Keys.m",
  (v) => `static NSString * const kAPISecret = @"${v}";\n`,
  alnum(40),
);
add(
  "kotlin companion secret",
  "Keys.kt",
  (v) => `    companion object {\n        private const val CLIENT_SECRET = "${v}"\n    }\n`,
  urlsafe(40),
);
// notebooks
add(
  "ipynb source openai key",
  "analysis.ipynb",
  (v) =>
    `  {\n   "cell_type": "code",\n   "source": [\n    "import openai\\n",\n    "openai.api_key = \\"${v}\\"\\n"\n   ]\n  }\n`,
  "sk-proj-" + urlsafe(56),
);
add(
  "ipynb pip index url with creds",
  "setup.ipynb",
  (v) =>
    `   "source": [\n    "!pip install --extra-index-url https://__token__:${v}@gitlab.com/api/v4/projects/1/packages/pypi/simple acme\\n"\n   ]\n`,
  "glpat-" + alnum(20),
);
add(
  "ipynb stream output token",
  "run.ipynb",
  (v) =>
    `     "name": "stdout",\n     "output_type": "stream",\n     "text": [\n      "Logged in with token ${v}\\n"\n     ]\n`,
  "hf_" + alnum(34),
);
add(
  "ipynb execute_result dict",
  "eda.ipynb",
  (v) =>
    `     "data": {\n      "text/plain": [\n       "{'user': 'etl', 'password': '${v}', 'host': 'db'}"\n      ]\n     },\n`,
  pw(),
);
add(
  "ipynb html output table",
  "eda.ipynb",
  (v) =>
    `      "text/html": [\n       "<tr><td>AWS_SECRET_ACCESS_KEY</td><td>${v}</td></tr>\\n"\n      ]\n`,
  b64(40),
);
add(
  "ipynb getpass replaced",
  "db.ipynb",
  (v) =>
    `   "source": [\n    "# password = getpass.getpass()\\n",\n    "password = '${v}'\\n",\n    "engine = create_engine(url)"\n   ]\n`,
  pw(),
);
add(
  "jupytext percent script",
  "notebook.py",
  (v) => `# %%\nimport os\nos.environ["WANDB_API_KEY"] = "${v}"\n`,
  hex(40),
);
add(
  "rmarkdown chunk",
  "report.Rmd",
  (v) => '```{r setup}\nSys.setenv(OPENAI_API_KEY = "' + v + '")\n```\n',
  "sk-" + alnum(48),
);
// shells' and REPLs' histories
add(
  "powershell PSReadLine history",
  "ConsoleHost_history.txt",
  (v) =>
    `$cred = New-Object PSCredential("admin", (ConvertTo-SecureString "${v}" -AsPlainText -Force))\n`,
  pw(),
);
add(
  "powershell history env",
  "ConsoleHost_history.txt",
  (v) => `$env:GITHUB_TOKEN = "${v}"\ngh repo list\n`,
  ghp(),
);
add(
  "bash history with timestamps",
  ".bash_history",
  (v) => `#1700000000\nexport OPENAI_API_KEY=${v}\n#1700000042\npython run.py\n`,
  "sk-" + alnum(48),
);
add(
  "zsh extended history",
  ".zsh_history",
  (v) => `: 1700000000:0;mysql -h db -u root -p'${v}' shop\n`,
  pw(),
);
add(
  "python_history",
  ".python_history",
  (v) => `client = Client(api_key="${v}")\n`,
  alnum(40),
);
add(
  "node_repl_history",
  ".node_repl_history",
  (v) => `const s = require('stripe')('${v}')\n`,
  "sk_live_" + alnum(24),
);
add(
  "irb history",
  ".irb_history",
  (v) => `Stripe.api_key = "${v}"\n`,
  "sk_live_" + alnum(24),
);
add(
  "psql_history alter",
  ".psql_history",
  (v) => `ALTER USER app WITH PASSWORD '${v}';\n`,
  pw(),
);
add(
  "sqlite_history insert",
  ".sqlite_history",
  (v) => `insert into settings(key, value) values ('smtp_password', '${v}');\n`,
  pw(),
);
add(
  "redis-cli prompt AUTH in page",
  "docs/redis.md",
  (v) => "```\n$ redis-cli\n127.0.0.1:6379> AUTH " + v + "\nOK\n```\n",
  pw(),
);
add(
  "redis-cli prompt AUTH user in page",
  "README.md",
  (v) => "    redis 127.0.0.1:6379> AUTH default " + v + "\n    OK\n",
  lettersOnly(),
);
add(
  "redis-cli prompt AUTH rst",
  "docs/cache.rst",
  (v) => `.. code-block:: console\n\n   localhost:6379> auth ${v}\n   OK\n`,
  pw(),
);
add(
  "mysql prompt in doc",
  "docs/setup.md",
  (v) => `mysql> CREATE USER 'shop'@'%' IDENTIFIED BY '${v}';\n`,
  lettersOnly(),
);
// logs, traces and dumps
add(
  "curl -v request header",
  "logs/curl.txt",
  (v) => `> GET /v1/me HTTP/2\n> Host: api.acme.io\n> authorization: Bearer ${v}\n> accept: */*\n`,
  alnum(40),
);
add(
  "set -x trace",
  "ci.log",
  (v) => `+ curl -fsS -u deploy:${v} https://nexus.acme.io/repository/raw/\n`,
  pw(),
);
add(
  "nginx access log token",
  "access.log",
  (v) =>
    `10.0.0.7 - - [30/Nov/2026:10:00:00 +0000] "GET /api/export?access_token=${v} HTTP/1.1" 200 512\n`,
  alnum(40),
);
add(
  "python traceback locals",
  "error.log",
  (v) =>
    `  File "app/db.py", line 12, in connect\n    conn = psycopg2.connect(dsn)\n    dsn = 'postgresql://app:${v}@db:5432/app'\n`,
  pw(),
);
add(
  "java exception jdbc",
  "server.log",
  (v) =>
    `Caused by: java.sql.SQLException: Access denied; url=jdbc:mysql://db:3306/shop?user=shop&password=${v}\n`,
  pw(),
);
add(
  "rails log parameters",
  "log/development.log",
  (v) =>
    `Parameters: {"authenticity_token"=>"[FILTERED]", "user"=>{"email"=>"a@b.c", "password"=>"${v}"}}\n`,
  pw(),
);
add(
  "docker inspect env",
  "inspect.json",
  (v) =>
    `            "Env": [\n                "PATH=/usr/bin",\n                "POSTGRES_PASSWORD=${v}"\n            ],\n`,
  pw(),
);
add(
  "printenv dump",
  "debug/env.txt",
  (v) => `HOME=/root\nHOSTNAME=web-1\nMAILGUN_API_KEY=${v}\nPATH=/usr/bin\n`,
  "key-" + hex(32),
);
add(
  "har postData text",
  "session.har",
  (v) =>
    `        "postData": {\n          "mimeType": "application/x-www-form-urlencoded",\n          "text": "username=alice&password=${v}"\n        },\n`,
  pw(),
);
add(
  "har queryString entry",
  "session.har",
  (v) =>
    `        "queryString": [\n          {\n            "name": "api_key",\n            "value": "${v}"\n          }\n        ],\n`,
  alnum(32),
);
add(
  "har response body token",
  "login.har",
  (v) => `          "text": "{\\"access_token\\":\\"${v}\\",\\"token_type\\":\\"bearer\\"}"\n`,
  jwt(),
);
add(
  "set-cookie jwt",
  "headers.txt",
  (v) => `HTTP/1.1 200 OK\nSet-Cookie: session=${v}; Path=/; HttpOnly\n`,
  jwt(),
);
add(
  "id_token in fragment",
  "callback.log",
  (v) => `redirect to https://app.acme.io/callback#id_token=${v}&state=xyz\n`,
  jwt(),
);
add(
  "bearer url-encoded",
  "proxy.log",
  (v) => `GET /ws?authorization=Bearer%20${v} 101\n`,
  jwt(),
);
add(
  "kubectl describe env",
  "describe.txt",
  (v) => `    Environment:\n      REDIS_PASSWORD:  ${v}\n      LOG_LEVEL:       info\n`,
  pw(),
);
add(
  "github actions log env",
  "job.log",
  (v) =>
    `2026-11-30T10:00:00.0000000Z   SLACK_WEBHOOK: https://hooks.slack.com/services/T${up(8)}/B${
      up(8)
    }/${v}\n`,
  alnum(24),
);
// test fixtures
add(
  "vcr cassette authorization",
  "spec/fixtures/vcr/charges.yml",
  (v) =>
    `  request:\n    method: post\n    uri: https://api.stripe.com/v1/charges\n    headers:\n      Authorization:\n      - Bearer ${v}\n`,
  "sk_live_" + alnum(24),
);
add(
  "python vcr cassette",
  "tests/cassettes/test_api.yaml",
  (v) => `    headers:\n      X-Api-Key:\n      - ${v}\n`,
  alnum(40),
);
add(
  "wiremock mapping header",
  "mappings/get-user.json",
  (v) =>
    `{\n  "request": {\n    "headers": { "Authorization": { "equalTo": "token ${v}" } }\n  }\n}\n`,
  ghp(),
);
add(
  "jest snapshot",
  "__snapshots__/client.test.ts.snap",
  (v) =>
    'exports[`client sends key 1`] = `\nObject {\n  "headers": Object {\n    "x-api-key": "' + v +
    '",\n  },\n}\n`;\n',
  alnum(40),
);
add(
  "nock recording",
  "test/fixtures/recorded.json",
  (v) => `[{"scope":"https://api.github.com:443","reqheaders":{"authorization":"token ${v}"}}]\n`,
  ghp(),
);
add(
  "go testdata golden",
  "testdata/config.golden",
  (v) => `smtp:\n  host: smtp.acme.io\n  pass: ${v}\n`,
  pw(),
);
add(
  "pytest conftest fixture",
  "tests/conftest.py",
  (v) => `@pytest.fixture\ndef api_client():\n    return Client(token="${v}")\n`,
  ghp(),
);
// SQL dumps
add(
  "sql dump insert oauth client",
  "dump.sql",
  (v) => `INSERT INTO \`oauth_clients\` (\`id\`, \`name\`, \`secret\`) VALUES (1,'web','${v}');\n`,
  alnum(40),
);
add(
  "sql dump insert settings",
  "backup.sql",
  (v) => `INSERT INTO settings (name, value) VALUES ('mail_password', '${v}');\n`,
  pw(),
);
add(
  "pg_dump copy row",
  "dump.sql",
  (v) => `COPY public.api_keys (id, name, key) FROM stdin;\n1\tci\t${v}\n\\.\n`,
  alnum(40),
);
add(
  "sql update set password",
  "migrate.sql",
  (v) => `UPDATE integrations SET api_token = '${v}' WHERE name = 'slack';\n`,
  "xoxb-" + digits(12) + "-" + digits(13) + "-" + alnum(24),
);
add(
  "wp_options smtp",
  "wp.sql",
  (v) => `INSERT INTO wp_options VALUES (301,'smtp_pass','${v}','yes');\n`,
  pw(),
);
// mail clients' and servers' configs
add(
  "ssmtp.conf AuthPass",
  "ssmtp.conf",
  (v) => `mailhub=smtp.gmail.com:587\nAuthUser=alerts@acme.io\nAuthPass=${v}\nUseSTARTTLS=YES\n`,
  lower(16),
);
add(
  "exim passwd.client",
  "passwd.client",
  (v) => `*.mailgun.org:postmaster@mg.acme.io:${v}\n`,
  pw(),
);
add(
  "sendmail authinfo",
  "authinfo",
  (v) => `AuthInfo:smtp.acme.io "U:relay" "P:${v}" "M:PLAIN"\n`,
  pw(),
);
add(
  "dovecot static passdb",
  "dovecot.conf",
  (v) => `passdb {\n  driver = static\n  args = password=${v}\n}\n`,
  pw(),
);
add(
  "offlineimaprc remotepass",
  ".offlineimaprc",
  (v) => `[Repository Remote]\ntype = IMAP\nremoteuser = me@acme.io\nremotepass = ${v}\n`,
  pw(),
);
add(
  "mbsyncrc Pass",
  ".mbsyncrc",
  (v) => `IMAPAccount work\nHost imap.acme.io\nUser me\nPass ${v}\n`,
  pw(),
);
add(
  "django EMAIL_HOST_PASSWORD",
  "settings.py",
  (v) => `EMAIL_HOST_USER = "apikey"\nEMAIL_HOST_PASSWORD = "${v}"\n`,
  "SG." + urlsafe(22) + "." + urlsafe(43),
);
add(
  "spring mail password",
  "application.properties",
  (v) => `spring.mail.username=noreply@acme.io\nspring.mail.password=${v}\n`,
  lower(16),
);
add(
  "smtp url percent user",
  ".env",
  (v) => `MAILER_DSN=smtp://postmaster%40mg.acme.io:${v}@smtp.mailgun.org:587\n`,
  pw(),
);
add(
  "nullmailer remotes",
  "nullmailer/remotes",
  (v) => `smtp.acme.io smtp --port=587 --starttls --user=alerts --pass=${v}\n`,
  pw(),
);
add(
  "getmailrc password",
  "getmailrc",
  (v) =>
    `[retriever]\ntype = SimpleIMAPSSLRetriever\nserver = imap.acme.io\nusername = me\npassword = ${v}\n`,
  pw(),
);
add(
  "thunderbird prefs",
  "prefs.js",
  (v) => `user_pref("mail.smtpserver.smtp1.password", "${v}");\n`,
  pw(),
);
// URIs of rarer schemes, JDBC drivers
add(
  "rtsp camera url",
  "cameras.yaml",
  (v) => `  front: rtsp://admin:${v}@192.168.1.64:554/Streaming/Channels/101\n`,
  pw(),
);
add("socks5 proxy url", ".env", (v) => `ALL_PROXY=socks5h://user:${v}@proxy.acme.io:1080\n`, pw());
add(
  "http_proxy env",
  "/etc/environment",
  (v) => `http_proxy="http://corp%5Cbob:${v}@proxy:3128/"\n`,
  pw(),
);
add("memcached url", "config.yml", (v) => `cache_url: memcached://app:${v}@cache:11211\n`, pw());
add(
  "couchdb url",
  "compose.yml",
  (v) => `      COUCHDB_URL: http://admin:${v}@couchdb:5984\n`,
  pw(),
);
add(
  "couchbase url",
  "app.conf",
  (v) => `couchbase.url = "couchbase://app:${v}@cb1,cb2/bucket"\n`,
  pw(),
);
add("smb url", "mounts.txt", (v) => `smb://CORP;bob:${v}@fs01/share\n`, pw());
add("irc url", "bot.cfg", (v) => `server = ircs://bot:${v}@irc.libera.chat:6697/#acme\n`, pw());
add("vnc url", "hosts.txt", (v) => `vnc://:${v}@10.0.0.12:5901\n`, pw());
add(
  "redis-sentinel url",
  "settings.py",
  (v) => `CACHE = "redis+sentinel://:${v}@s1:26379,s2:26379/mymaster/0"\n`,
  pw(),
);
add(
  "ipv6 postgres url",
  ".env",
  (v) => `DATABASE_URL=postgres://app:${v}@[2001:db8::5]:5432/app\n`,
  pw(),
);
add(
  "cloudinary url",
  ".env",
  (v) => `CLOUDINARY_URL=cloudinary://${digits(15)}:${v}@acme\n`,
  urlsafe(27),
);
add(
  "jdbc mariadb",
  "db.properties",
  (v) => `url=jdbc:mariadb://db:3306/shop?user=shop&password=${v}\n`,
  pw(),
);
add(
  "jdbc h2 PASSWORD",
  "application.properties",
  (v) => `spring.datasource.url=jdbc:h2:tcp://db/~/test;USER=sa;PASSWORD=${v}\n`,
  pw(),
);
add(
  "jdbc teradata",
  "etl.conf",
  (v) => `jdbc:teradata://td.acme.io/USER=etl,PASSWORD=${v},DATABASE=dw\n`,
  pw(),
);
add(
  "jdbc redshift",
  "dbt/profile.txt",
  (v) => `jdbc:redshift://rs.acme.io:5439/dw;UID=etl;PWD=${v};ssl=true\n`,
  pw(),
);
add(
  "jdbc hive2",
  "beeline.sh",
  (v) => `beeline -u "jdbc:hive2://hive:10000/default;user=etl;password=${v}"\n`,
  pw(),
);
add(
  "jdbc trino",
  "trino.properties",
  (v) => `connection-url=jdbc:trino://trino:443/hive?user=etl&password=${v}&SSL=true\n`,
  pw(),
);
add(
  "jdbc sap hana",
  "hana.properties",
  (v) => `jdbc:sap://hana:30015/?user=SYSTEM&password=${v}\n`,
  pw(),
);
add(
  "odbc dsn-less Uid Pwd lower",
  "etl.py",
  (v) => `cs = "Driver={ODBC Driver 18 for SQL Server};Server=db;Uid=sa;Pwd=${v};"\n`,
  pw(),
);
add(
  "ldap url bind",
  "sssd.conf",
  (v) => `ldap_default_authtok = ${v}\nldap_uri = ldaps://ldap.acme.io\n`,
  pw(),
);
add(
  "git+https token url",
  "requirements.txt",
  (v) => `acme-lib @ git+https://oauth2:${v}@gitlab.acme.io/py/acme-lib.git@v1.2\n`,
  "glpat-" + alnum(20),
);
add(
  "s3 url with keys",
  "backup.conf",
  (v) => `target = s3://AKIA${up(16)}:${v}@s3.amazonaws.com/backups\n`,
  b64(40),
);
add(
  "docker registry url creds",
  "daemon.sh",
  (v) => `skopeo copy docker://a/b docker://registry.acme.io/b --dest-creds ci:${v}\n`,
  pw(),
);
// key blocks wrapped oddly
add(
  "pem in properties continuation",
  "app.properties",
  (v) =>
    `jwt.private-key=-----BEGIN PRIVATE KEY-----\\n\\\n  ${v.slice(0, 64)}\\n\\\n  ${
      v.slice(64)
    }\\n\\\n  -----END PRIVATE KEY-----\n`,
  b64(128),
);
add(
  "pem in toml multiline",
  "config.toml",
  (v) =>
    `signing_key = """\n-----BEGIN EC PRIVATE KEY-----\n${v}\n-----END EC PRIVATE KEY-----\n"""\n`,
  b64(64) + "\n" + b64(32),
);
add(
  "pem in env escaped",
  ".env",
  (v) =>
    `GITHUB_APP_PRIVATE_KEY="-----BEGIN RSA PRIVATE KEY-----\\n${v}\\n-----END RSA PRIVATE KEY-----\\n"\n`,
  b64(64) + "\\n" + b64(64),
);
add(
  "pem in xml element",
  "keys.xml",
  (v) => `<SigningKey>-----BEGIN PRIVATE KEY-----\n${v}\n-----END PRIVATE KEY-----</SigningKey>\n`,
  pemBody(),
);
add(
  "pem folded yaml",
  "values.yaml",
  (v) => `privateKey: >\n  -----BEGIN PRIVATE KEY-----\n  ${v}\n  -----END PRIVATE KEY-----\n`,
  pemBody().replace("\n", "\n  "),
);
add(
  "pem go concat",
  "keys.go",
  (v) =>
    `const key = "-----BEGIN RSA PRIVATE KEY-----\\n" +\n\t"${v.slice(0, 64)}\\n" +\n\t"${
      v.slice(64)
    }\\n" +\n\t"-----END RSA PRIVATE KEY-----\\n"\n`,
  b64(128),
);
add(
  "pem c string array",
  "certs.h",
  (v) =>
    `static const char *client_key =\n"-----BEGIN PRIVATE KEY-----\\n"\n"${v.slice(0, 64)}\\n"\n"${
      v.slice(64)
    }\\n"\n"-----END PRIVATE KEY-----\\n";\n`,
  b64(128),
);
add(
  "pem markdown blockquote",
  "NOTES.md",
  (v) =>
    `> -----BEGIN OPENSSH PRIVATE KEY-----\n> ${v.slice(0, 70)}\n> ${
      v.slice(70)
    }\n> -----END OPENSSH PRIVATE KEY-----\n`,
  "b3BlbnNzaC1rZXktdjEAAAAA" + b64(116),
);
add(
  "pem comment lines",
  "deploy.sh",
  (v) =>
    `# -----BEGIN RSA PRIVATE KEY-----\n# ${v.slice(0, 64)}\n# ${
      v.slice(64)
    }\n# -----END RSA PRIVATE KEY-----\n`,
  b64(128),
);
add(
  "pgp private with headers crlf",
  "signing.asc",
  (v) =>
    crlf(
      `-----BEGIN PGP PRIVATE KEY BLOCK-----\nVersion: GnuPG v2\nComment: release key\n\n${v}\n=${
        b64(4)
      }\n-----END PGP PRIVATE KEY BLOCK-----\n`,
    ),
  "lQdGBF" + b64(58) + "\r\n" + b64(64),
);
add(
  "openssh key crlf file",
  "id_ed25519",
  (v) => crlf(`-----BEGIN OPENSSH PRIVATE KEY-----\n${v}\n-----END OPENSSH PRIVATE KEY-----\n`),
  "b3BlbnNzaC1rZXktdjEAAAAABG5vbmU" + b64(39) + "\r\n" + b64(70),
);
add(
  "pem python indented triple",
  "tests/keys.py",
  (v) =>
    `KEY = """\n    -----BEGIN PRIVATE KEY-----\n    ${v}\n    -----END PRIVATE KEY-----\n"""\n`,
  pemBody().replace("\n", "\n    "),
);
add(
  "pem json one line escaped slashes",
  "sa.json",
  (v) =>
    `{"private_key":"-----BEGIN PRIVATE KEY-----\\n${v}\\n-----END PRIVATE KEY-----\\n","client_email":"x@y.iam.gserviceaccount.com"}\n`,
  b64(40) + "\\/" + b64(40),
);
add(
  "ssh key in terraform heredoc",
  "bastion.tf",
  (v) =>
    `  private_key = <<EOF\n-----BEGIN OPENSSH PRIVATE KEY-----\n${v}\n-----END OPENSSH PRIVATE KEY-----\nEOF\n`,
  "b3BlbnNzaC1rZXktdjEAAAAA" + b64(46) + "\n" + b64(70),
);
// providers' keys not yet probed
add(
  "akamai edgerc",
  ".edgerc",
  (v) =>
    `[default]\nclient_secret = ${v}\nhost = akab-${
      lowdig(16)
    }.luna.akamaiapis.net\naccess_token = akab-${lowdig(16)}\n`,
  b64(44),
);
add(
  "akamai access_token",
  ".edgerc",
  (v) => `[default]\naccess_token = ${v}\n`,
  "akab-" + lowdig(16) + "-" + lowdig(16),
);
add(
  "upstash redis rest token",
  ".env",
  (v) => `UPSTASH_REDIS_REST_TOKEN="${v}"\n`,
  "A" + urlsafe(60) + "=",
);
add(
  "fly.io token bare",
  "deploy.sh",
  (v) => `flyctl deploy --access-token ${v}\n`,
  "fo1_" + urlsafe(43),
);
add("vercel token flag", "ci.sh", (v) => `vercel deploy --prod --token=${v}\n`, alnum(24));
add("railway token env", ".env", (v) => `RAILWAY_TOKEN=${v}\n`, uuid());
add(
  "pusher app secret",
  "config/pusher.php",
  (v) => `        'secret' => '${v}',\n        'app_id' => '${digits(7)}',\n`,
  hex(20),
);
add(
  "ably key",
  "realtime.js",
  (v) => `const ably = new Ably.Realtime("${v}");\n`,
  alnum(6) + "." + alnum(6) + ":" + urlsafe(43),
);
add("plaid secret", ".env", (v) => `PLAID_SECRET=${v}\nPLAID_ENV=production\n`, hex(30));
add(
  "square access token",
  "pay.rb",
  (v) => `client = Square::Client.new(access_token: "${v}")\n`,
  "EAAA" + urlsafe(60),
);
add(
  "square oauth secret",
  "square.env",
  (v) => `SQUARE_APP_SECRET=${v}\n`,
  "sq0csp-" + urlsafe(43),
);
add(
  "paypal client secret",
  "paypal.yml",
  (v) => `client_id: A${urlsafe(79)}\nclient_secret: ${v}\n`,
  "E" + urlsafe(79),
);
add(
  "braintree private key",
  "gateway.py",
  (v) =>
    `gateway = braintree.BraintreeGateway(braintree.Configuration(braintree.Environment.Production, merchant_id="${
      lowdig(16)
    }", public_key="${lowdig(16)}", private_key="${v}"))\n`,
  hex(32),
);
add(
  "razorpay secret",
  "pay.js",
  (v) => `new Razorpay({ key_id: "rzp_live_${alnum(14)}", key_secret: "${v}" })\n`,
  alnum(24),
);
add("mollie live key", "mollie.php", (v) => `$mollie->setApiKey("${v}");\n`, "live_" + alnum(30));
add(
  "adyen api key",
  "adyen.env",
  (v) => `ADYEN_API_KEY=${v}\n`,
  "AQE" + alnum(30) + "+" + alnum(40) + "=-" + alnum(40) + "=-" + alnum(14),
);
add(
  "shippo live token",
  "ship.py",
  (v) => `shippo.config.api_key = "${v}"\n`,
  "shippo_live_" + hex(40),
);
add("easypost key", "ship.rb", (v) => `EasyPost::Client.new(api_key: '${v}')\n`, "EZAK" + hex(54));
add("segment write key", "analytics.js", (v) => `analytics.load("${v}");\n`, alnum(32));
add("intercom token", ".env", (v) => `INTERCOM_ACCESS_TOKEN=${v}\n`, "dG9rOj" + b64(54) + "=");
add(
  "zendesk token auth",
  "zd.sh",
  (v) => `curl https://acme.zendesk.com/api/v2/tickets.json -u agent@acme.io/token:${v}\n`,
  alnum(40),
);
add(
  "hubspot private app",
  "hubspot.ts",
  (v) => `const hubspot = new Client({ accessToken: "${v}" });\n`,
  "pat-na1-" + uuid(),
);
add(
  "asana pat",
  ".env",
  (v) => `ASANA_TOKEN=${v}\n`,
  "2/" + digits(16) + "/" + digits(16) + ":" + hex(32),
);
add(
  "trello key token url",
  "trello.py",
  (v) => `url = f"https://api.trello.com/1/boards/x?key=${hex(32)}&token=${v}"\n`,
  "ATTA" + hex(64) + up(8),
);
add(
  "clickup token",
  "clickup.js",
  (v) => `headers: { Authorization: "${v}" }\n`,
  "pk_" + digits(8) + "_" + up(32),
);
add(
  "dropbox short-lived token",
  "sync.py",
  (v) => `dbx = dropbox.Dropbox("${v}")\n`,
  "sl." + urlsafe(140),
);
add(
  "auth0 client secret",
  "auth0.json",
  (v) => `{"domain": "acme.eu.auth0.com", "clientSecret": "${v}"}\n`,
  urlsafe(64),
);
add("clerk secret", ".env.local", (v) => `CLERK_SECRET_KEY=${v}\n`, "sk_live_" + alnum(40));
add(
  "firebase server key",
  "push.py",
  (v) => `headers = {"Authorization": "key=${v}"}\n`,
  "AAAA" + urlsafe(7) + ":APA91b" + urlsafe(134),
);
add(
  "expo access token",
  "eas.sh",
  (v) => `EXPO_TOKEN=${v} eas build --platform ios\n`,
  urlsafe(40),
);
add("rollbar access token", "rollbar.rb", (v) => `  config.access_token = '${v}'\n`, hex(32));
add("bugsnag api key", "bugsnag.yml", (v) => `api_key: "${v}"\n`, hex(32));
add(
  "honeycomb key",
  "otel.env",
  (v) => `OTEL_EXPORTER_OTLP_HEADERS="x-honeycomb-team=${v}"\n`,
  alnum(22),
);
add(
  "dynatrace token",
  "oneagent.sh",
  (v) => `--set-tenant-token=x --api-token ${v}\n`,
  "dt0c01." + up(24) + "." + up(64),
);
add(
  "splunk hec header",
  "fluent.conf",
  (v) => `  splunk_token ${v}\n  hec_host splunk.acme.io\n`,
  uuid(),
);
add(
  "splunk hec curl",
  "send.sh",
  (v) => `curl -k https://splunk:8088/services/collector -H "Authorization: Splunk ${v}"\n`,
  uuid(),
);
add("newrelic license key", "newrelic.yml", (v) => `  license_key: ${v}\n`, hex(36) + "NRAL");
add(
  "elastic api key header",
  "es.sh",
  (v) => `curl -H "Authorization: ApiKey ${v}" https://es.acme.io:9243/_search\n`,
  btoa(urlsafe(20) + ":" + urlsafe(22)),
);
add(
  "elastic cloud auth",
  "filebeat.yml",
  (v) =>
    `cloud.id: "prod:${btoa("us-east-1.aws.found.io$" + hex(32))}"\ncloud.auth: "elastic:${v}"\n`,
  pw(),
);
add(
  "confluent api secret",
  "client.properties",
  (v) =>
    `sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username='${
      up(16)
    }' password='${v}';\n`,
  b64(64),
);
add("dbt cloud token", "dbt.env", (v) => `DBT_CLOUD_API_TOKEN=${v}\n`, "dbtc_" + urlsafe(50));
add("cohere key", "rag.py", (v) => `co = cohere.Client("${v}")\n`, alnum(40));
add(
  "mistral key",
  "chat.ts",
  (v) => `const client = new Mistral({ apiKey: "${v}" });\n`,
  alnum(32),
);
add("anyscale key", ".env", (v) => `ANYSCALE_API_KEY=${v}\n`, "esecret_" + lowdig(26));
add("elevenlabs header", "tts.py", (v) => `headers = {"xi-api-key": "${v}"}\n`, "sk_" + hex(48));
add(
  "deepgram token header",
  "stt.sh",
  (v) => `curl -H "Authorization: Token ${v}" https://api.deepgram.com/v1/listen\n`,
  hex(40),
);
add(
  "fireworks key",
  "infer.py",
  (v) => `client = OpenAI(base_url="https://api.fireworks.ai/inference/v1", api_key="${v}")\n`,
  "fw_" + alnum(24),
);
add(
  "artifactory api key",
  "settings.xml",
  (v) => `<server><id>central</id><username>ci</username><password>${v}</password></server>\n`,
  "AKCp" + alnum(69),
);
add(
  "artifactory reference token",
  ".npmrc",
  (v) => `//acme.jfrog.io/artifactory/api/npm/npm/:_authToken=${v}\n`,
  "cmVmdGtuOjAxOjE3" + alnum(48),
);
add("quay robot token", "push.sh", (v) => `docker login -u="acme+ci" -p="${v}" quay.io\n`, up(64));
add(
  "harbor robot secret",
  "harbor.env",
  (v) => `HARBOR_USERNAME=robot$ci\nHARBOR_PASSWORD=${v}\n`,
  alnum(32),
);
add(
  "bitbucket app password",
  "deploy.sh",
  (v) => `git clone https://ci:${v}@bitbucket.org/acme/app.git\n`,
  "ATBB" + alnum(28) + hex(8).toUpperCase(),
);
add(
  "prometheus remote_write basic_auth",
  "prometheus.yml",
  (v) =>
    `remote_write:\n  - url: https://prom.grafana.net/api/prom/push\n    basic_auth:\n      username: ${
      digits(6)
    }\n      password: ${v}\n`,
  "glc_" + b64(80) + "==",
);
add("twitch client secret", "twitch.env", (v) => `TWITCH_CLIENT_SECRET=${v}\n`, lowdig(30));
add(
  "spotify client secret",
  "spotify.py",
  (v) => `sp = SpotifyOAuth(client_id="${hex(32)}", client_secret="${v}")\n`,
  hex(32),
);
add("line channel token", "line.env", (v) => `LINE_CHANNEL_ACCESS_TOKEN=${v}\n`, b64(171) + "=");
add("riot api key", "lol.py", (v) => `watcher = LolWatcher("${v}")\n`, "RGAPI-" + uuid());
add("steam web api key", "steam.cfg", (v) => `steam_api_key = ${v}\n`, hex(32).toUpperCase());
add(
  "here api key",
  "maps.js",
  (v) => `const platform = new H.service.Platform({ apikey: "${v}" });\n`,
  urlsafe(43),
);
add(
  "digitalocean spaces keys",
  "spaces.env",
  (v) => `SPACES_KEY=DO00${up(16)}\nSPACES_SECRET=${v}\n`,
  b64(43),
);
add(
  "wasabi secret",
  "rclone.sh",
  (v) =>
    `rclone config create wasabi s3 provider Wasabi access_key_id ${
      up(20)
    } secret_access_key ${v}\n`,
  alnum(40),
);
add(
  "oci api key pem",
  ".oci/oci_api_key.pem",
  (v) => `-----BEGIN PRIVATE KEY-----\n${v}\n-----END PRIVATE KEY-----\nOCI_API_KEY\n`,
  pemBody(),
);
add(
  "mongodb atlas api private key",
  "atlas.env",
  (v) => `MONGODB_ATLAS_PRIVATE_API_KEY=${v}\n`,
  uuid(),
);
add(
  "infisical service token",
  ".env",
  (v) => `INFISICAL_TOKEN=${v}\n`,
  "st." + uuid() + "." + hex(32) + "." + hex(32),
);
// keys split, in comments, env files' quoting, CRLF, BOM, non-ASCII
add(
  "key split concat python",
  "client.py",
  (v) => `API_KEY = (\n    "${v.slice(0, 20)}"\n    "${v.slice(20)}"\n)\n`,
  "sk-proj-" + urlsafe(48),
);
add(
  "key split concat js plus",
  "client.js",
  (v) => `const token = "${v.slice(0, 14)}" + "${v.slice(14)}";\n`,
  ghp(),
);
add(
  "key split array join",
  "bot.js",
  (v) => `const t = ["${v.slice(0, 12)}", "${v.slice(12, 30)}", "${v.slice(30)}"].join("");\n`,
  "xoxb-" + digits(12) + "-" + digits(13) + "-" + alnum(24),
);
add(
  "key in comment old",
  "config.py",
  (v) => `API_KEY = os.environ["API_KEY"]  # was: ${v}\n`,
  "sk_live_" + alnum(24),
);
add(
  "password in commented yaml",
  "config.yml",
  (v) => `database:\n  # password: ${v}\n  password: \${DB_PASSWORD}\n`,
  pw(),
);
add(
  "password in sql comment",
  "init.sql",
  (v) => `-- admin login: admin / ${v}\nCREATE TABLE t (id int);\n`,
  pw(),
);
add(
  "env export inline comment",
  ".envrc",
  (v) => `export AWS_SECRET_ACCESS_KEY="${v}" # prod account\n`,
  b64(40),
);
add(
  "env single quoted with hash",
  ".env",
  (v) => `DB_PASSWORD='${v}' # rotate monthly\n`,
  mixed(10) + "#" + ch(A, 4),
);
add(
  "env crlf",
  ".env",
  (v) => crlf(`APP_ENV=prod\nSTRIPE_SECRET_KEY=${v}\nAPP_DEBUG=false\n`),
  "sk_live_" + alnum(24),
);
add(
  "env bom first line",
  ".env",
  (v) => `\uFEFFSECRET_KEY=${v}\nDEBUG=0\n`,
  urlsafe(50),
);
add(
  "ini crlf password",
  "app.ini",
  (v) => crlf(`[database]\nuser = app\npassword = ${v}\n`),
  pw(),
);
add(
  "yaml crlf token",
  "config.yml",
  (v) => crlf(`slack:\n  token: ${v}\n`),
  "xoxb-" + digits(12) + "-" + digits(13) + "-" + alnum(24),
);
add(
  "german Passwort",
  "README.de.md",
  (v) => `Benutzer: admin\nPasswort: ${v}\n`,
  pw(),
);
add(
  "portuguese senha",
  "config.py",
  (v) => `SENHA_BANCO = "${v}"\n`,
  pw(),
);
add(
  "spanish contrasena",
  "conexion.php",
  (v) => `$contraseña = "${v}";\n`,
  pw(),
);
add(
  "french mot de passe",
  "config.ini",
  (v) => `[base]\nmot_de_passe = ${v}\n`,
  pw(),
);
add(
  "russian parol",
  "README.md",
  (v) => `Логин: admin, пароль: ${v}\n`,
  pw(),
);
add(
  "chinese mima",
  "配置.md",
  (v) => `数据库密码：${v}\n`,
  pw(),
);
add(
  "japanese password",
  "設定.txt",
  (v) => `パスワード: ${v}\n`,
  pw(),
);
add(
  "non-ascii around token",
  "notes.md",
  (v) => `Clé d'API — « ${v} » (ne pas partager)\n`,
  "sk-" + alnum(48),
);
add(
  "emoji before token",
  "slack.md",
  (v) => `🔑 token: ${v}\n`,
  ghp(),
);
add(
  "xml attribute apiKey",
  "App.config",
  (v) => `<service name="geo" endpoint="https://geo.acme.io" apiKey="${v}" />\n`,
  alnum(32),
);
add(
  "xml attribute secret single quotes",
  "logback.xml",
  (v) =>
    `<appender class="com.acme.SlackAppender" webhookUri='https://hooks.slack.com/services/T${
      up(8)
    }/B${up(8)}/${v}'/>\n`,
  alnum(24),
);
add(
  "yaml block scalar token",
  "config.yml",
  (v) => `github:\n  token: |-\n    ${v}\n`,
  ghp(),
);
add(
  "toml multiline password",
  "app.toml",
  (v) => `[db]\npassword = '''\n${v}'''\n`,
  pw(),
);
add(
  "webhook discord in yaml",
  "alerts.yml",
  (v) => `  discord_url: https://discord.com/api/webhooks/${digits(18)}/${v}\n`,
  urlsafe(68),
);
add(
  "webhook zapier",
  "hooks.json",
  (v) => `{"onSignup": "https://hooks.zapier.com/hooks/catch/${digits(7)}/${v}/"}\n`,
  lowdig(7),
);
add(
  "webhook datadog url key",
  "alert.sh",
  (v) => `curl -X POST "https://http-intake.logs.datadoghq.com/api/v2/logs?dd-api-key=${v}"\n`,
  hex(32),
);
add(
  "webhook office365 url",
  "notify.ps1",
  (v) =>
    `$uri = "https://acme.webhook.office.com/webhookb2/${uuid()}@${uuid()}/IncomingWebhook/${v}/${uuid()}"\n`,
  hex(32),
);
// Algolia's SearchClient.create and kin (left by leak22)
add(
  "algolia SearchClient.create java",
  "Search.java",
  (v) => `SearchClient client = DefaultSearchClient.create("${up(10)}", "${v}");\n`,
  hex(32),
);
add(
  "algolia SearchClient kotlin",
  "Search.kt",
  (v) => `val client = SearchClient(ApplicationID("${up(10)}"), APIKey("${v}"))\n`,
  hex(32),
);
add(
  "algolia SearchClient swift",
  "Search.swift",
  (v) => `let client = SearchClient(appID: "${up(10)}", apiKey: "${v}")\n`,
  hex(32),
);
add(
  "algolia SearchClient csharp",
  "Search.cs",
  (v) => `var client = new SearchClient("${up(10)}", "${v}");\n`,
  hex(32),
);
add(
  "algolia python create",
  "index.py",
  (v) => `client = SearchClient.create('${up(10)}', '${v}')\n`,
  hex(32),
);
add(
  "algolia php create",
  "search.php",
  (v) => `$client = Algolia\\AlgoliaSearch\\SearchClient::create('${up(10)}', '${v}');\n`,
  hex(32),
);
add(
  "algolia go NewClient",
  "search.go",
  (v) => `client := search.NewClient("${up(10)}", "${v}")\n`,
  hex(32),
);
add(
  "algolia ruby create",
  "search.rb",
  (v) => `client = Algolia::Search::Client.create('${up(10)}', '${v}')\n`,
  hex(32),
);
// the twentieth hunt's look-alikes that must stay
keep(
  "gitlab-ci variable ref",
  ".gitlab-ci.yml",
  `variables:\n  SONAR_TOKEN: $SONAR_TOKEN_CI\n`,
  "$SONAR_TOKEN_CI",
);
keep(
  "azure pipelines macro",
  "azure-pipelines.yml",
  `  - script: docker login -u ci -p $(registryPassword)\n`,
  "$(registryPassword)",
);
keep(
  "drone from_secret",
  ".drone.yml",
  `      DOCKER_PASSWORD:\n        from_secret: docker_password\n`,
  "docker_password",
);
keep(
  "teamcity param ref",
  ".teamcity/settings.kts",
  `        param("env.DEPLOY_TOKEN", "%vcs.token%")\n`,
  "%vcs.token%",
);
keep(
  "concourse var ref",
  "ci/pipeline.yml",
  `    password: ((registry-password))\n`,
  "((registry-password))",
);
keep(
  "cirrus encrypted",
  ".cirrus.yml",
  `env:\n  CODECOV_TOKEN: ENCRYPTED[${hex(80)}]\n`,
  "ENCRYPTED[",
);
keep(
  "appveyor secure",
  "appveyor.yml",
  `environment:\n  api_key:\n    secure: ${b64(44)}\n`,
  "secure:",
);
keep(
  "jenkins credentials()",
  "Jenkinsfile",
  `    environment {\n        DB_PASSWORD = credentials('db-password')\n    }\n`,
  "credentials('db-password')",
);
keep(
  "1password op ref",
  ".env.tpl",
  `DB_PASSWORD=op://prod/db/password\n`,
  "op://prod/db/password",
);
keep(
  "aws secretsmanager arn",
  "task.json",
  `{"name": "DB_PASSWORD", "valueFrom": "arn:aws:secretsmanager:us-east-1:123456789012:secret:prod/db-AbCdEf"}\n`,
  "arn:aws:secretsmanager:us-east-1:123456789012:secret:prod/db-AbCdEf",
);
keep(
  "gcp secret version path",
  "deploy.yaml",
  `  secretEnv: projects/acme/secrets/db-password/versions/latest\n`,
  "projects/acme/secrets/db-password/versions/latest",
);
keep(
  "keyvault reference",
  "appsettings.json",
  `{"DbPassword": "@Microsoft.KeyVault(SecretUri=https://kv.vault.azure.net/secrets/db/)"}\n`,
  "@Microsoft.KeyVault(SecretUri=https://kv.vault.azure.net/secrets/db/)",
);
keep(
  "erb env ref",
  "database.yml",
  `  password: <%= ENV["DATABASE_PASSWORD"] %>\n`,
  `<%= ENV["DATABASE_PASSWORD"] %>`,
);
keep(
  "helm values ref",
  "templates/deploy.yaml",
  `          value: {{ .Values.db.password | quote }}\n`,
  "{{ .Values.db.password | quote }}",
);
keep("windows env ref", "run.bat", `set DB_PASSWORD=%PROD_DB_PASSWORD%\n`, "%PROD_DB_PASSWORD%");
keep(
  "kustomize secretGenerator files",
  "kustomization.yaml",
  `secretGenerator:\n- name: db\n  files:\n  - password=secrets/db-password.txt\n`,
  "secrets/db-password.txt",
);
keep(
  "sealed secret",
  "sealed.yaml",
  `kind: SealedSecret\nspec:\n  encryptedData:\n    password: AgB${b64(300)}\n`,
  "AgB",
);
keep(
  "external secret remoteRef",
  "es.yaml",
  `  data:\n  - secretKey: password\n    remoteRef:\n      key: prod/db\n      property: password\n`,
  "prod/db",
);
keep(
  "pnpm lock integrity",
  "pnpm-lock.yaml",
  `  /lodash@4.17.21:\n    resolution: {integrity: sha512-${b64(86)}==}\n`,
  "integrity: sha512-",
);
const uvHash = hex(64);
keep(
  "uv.lock hash",
  "uv.lock",
  `sdist = { url = "https://files.pythonhosted.org/x.tar.gz", hash = "sha256:${uvHash}", size = 1234 }\n`,
  uvHash,
);
const composerSha = hex(40);
keep(
  "composer.lock reference",
  "composer.lock",
  `            "reference": "${composerSha}",\n            "shasum": ""\n`,
  composerSha,
);
const mixLock = hex(64);
keep(
  "mix.lock hex",
  "mix.lock",
  `  "jason": {:hex, :jason, "1.4.1", "${mixLock}", [:mix], [], "hexpm", "${hex(64)}"},\n`,
  mixLock,
);
const pubSha = hex(64);
keep(
  "pubspec.lock sha256",
  "pubspec.lock",
  `    description:\n      name: http\n      sha256: "${pubSha}"\n`,
  pubSha,
);
const resolvedRev = hex(40);
keep(
  "Package.resolved revision",
  "Package.resolved",
  `        "revision" : "${resolvedRev}",\n        "version" : "5.8.1"\n`,
  resolvedRev,
);
const bazelSha = hex(64);
keep(
  "bazel http_archive sha256",
  "WORKSPACE",
  `http_archive(\n    name = "rules_go",\n    sha256 = "${bazelSha}",\n)\n`,
  bazelSha,
);
const brewSha = hex(64);
keep(
  "homebrew formula sha256",
  "Formula/tool.rb",
  `  url "https://x/tool-1.0.tar.gz"\n  sha256 "${brewSha}"\n`,
  brewSha,
);
const cspHash = "sha256-" + b64(43) + "=";
keep(
  "csp hash",
  "nginx.conf",
  `add_header Content-Security-Policy "script-src 'self' '${cspHash}'";\n`,
  cspHash,
);
const xcodeId = hex(24).toUpperCase();
keep(
  "xcode object id",
  "project.pbxproj",
  `\t\t${xcodeId} /* AppDelegate.swift */ = {isa = PBXFileReference; path = AppDelegate.swift; };\n`,
  xcodeId,
);
keep(
  "dotnet PublicKeyToken",
  "web.config",
  `<add assembly="System.Web, Version=4.0.0.0, Culture=neutral, PublicKeyToken=b03f5f7f11d50a3a" />\n`,
  "b03f5f7f11d50a3a",
);
const chartDigest = "sha256:" + hex(64);
keep(
  "helm Chart.lock digest",
  "Chart.lock",
  `digest: ${chartDigest}\ngenerated: "2026-11-30T10:00:00Z"\n`,
  chartDigest,
);
const subId = uuid();
keep(
  "azure subscription id",
  "main.tf",
  `provider "azurerm" {\n  subscription_id = "${subId}"\n  tenant_id       = "${uuid()}"\n}\n`,
  subId,
);
const reqId = uuid();
keep(
  "log request id",
  "app.log",
  `2026-11-30T10:00:00Z INFO request_id=${reqId} status=200\n`,
  reqId,
);
const agePub = "age1" + ch("qpzry9x8gf2tvdw0s3jn54khce6mua7l", 58);
keep("age recipient", ".sops.yaml", `creation_rules:\n  - age: ${agePub}\n`, agePub);
keep("ga measurement id", "index.html", `gtag('config', 'G-ABCD1234EF');\n`, "G-ABCD1234EF");
keep(
  "placeholder xxx token",
  ".env.example",
  `SLACK_BOT_TOKEN=xoxb-your-token-here\n`,
  "xoxb-your-token-here",
);
keep(
  "placeholder your_api_key_here",
  "README.md",
  `client = Client(api_key="YOUR_API_KEY_HERE")\n`,
  "YOUR_API_KEY_HERE",
);
keep("placeholder elided sk-...", "docs/quickstart.md", `export OPENAI_API_KEY=sk-...\n`, "sk-...");
keep("placeholder stars", "config.example.yml", `smtp:\n  password: "***"\n`, `"***"`);
keep("placeholder REDACTED word", "issue.md", `Authorization: Bearer REDACTED\n`, "REDACTED");
keep(
  "placeholder shell default var",
  "run.sh",
  `DB_PASSWORD="\${DB_PASSWORD:?set DB_PASSWORD}"\n`,
  "${DB_PASSWORD:?set DB_PASSWORD}",
);
keep(
  "placeholder spring ref no default",
  "application.yml",
  `spring:\n  datasource:\n    password: \${DB_PASSWORD}\n`,
  "${DB_PASSWORD}",
);
keep(
  "placeholder angle in har doc",
  "docs/api.md",
  `curl -H "Authorization: Bearer <ACCESS_TOKEN>" https://api.acme.io\n`,
  "<ACCESS_TOKEN>",
);
keep(
  "placeholder redis-cli AUTH",
  "docs/redis.md",
  "```\n127.0.0.1:6379> AUTH <password>\nOK\n```\n",
  "<password>",
);
keep(
  "redis-cli prompt other command",
  "docs/redis.md",
  "```\n127.0.0.1:6379> SET session:42 a8f5f167f44f4964e6c998dee827110c\nOK\n```\n",
  "a8f5f167f44f4964e6c998dee827110c",
);
keep(
  "algolia search-only placeholder",
  "README.md",
  `const client = algoliasearch("YourApplicationID", "YourSearchOnlyAPIKey");\n`,
  "YourSearchOnlyAPIKey",
);
keep(
  "algolia create with env vars",
  "Search.java",
  `SearchClient client = DefaultSearchClient.create(System.getenv("ALGOLIA_APP_ID"), System.getenv("ALGOLIA_API_KEY"));\n`,
  `System.getenv("ALGOLIA_API_KEY")`,
);
keep(
  "rfc 4231 hmac test vector",
  "tests/vectors/hmac_sha256.txt",
  `# RFC 4231 test case 1\nKey  = 0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b\nData = 4869205468657265\n`,
  "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b",
);
keep(
  "nist aes test vector",
  "testdata/aes/ECBGFSbox128.rsp",
  `COUNT = 0\nKEY = 00000000000000000000000000000000\nPLAINTEXT = f34481ec3cc627bacd5dc3fb08f273e6\n`,
  "f34481ec3cc627bacd5dc3fb08f273e6",
);
keep(
  "git commit in changelog",
  "CHANGELOG.md",
  `* fix token refresh (${hex(7)}, #1234)\n`,
  "#1234",
);
keep(
  "bcrypt column name in sql",
  "schema.sql",
  `CREATE TABLE users (id serial, password_digest varchar(60) NOT NULL);\n`,
  "password_digest varchar(60)",
);
keep(
  "sql dump password column null",
  "dump.sql",
  `INSERT INTO users (id, email, password) VALUES (1,'a@b.c',NULL);\n`,
  "NULL",
);
keep("german Passwort placeholder", "README.de.md", `Passwort: <Ihr Passwort>\n`, "<Ihr Passwort>");
keep(
  "portuguese senha field label",
  "form.html",
  `<label for="senha">Senha</label>\n<input type="password" id="senha" name="senha">\n`,
  `name="senha"`,
);
keep(
  "ipynb execution metadata",
  "a.ipynb",
  `   "metadata": {\n    "id": "${
    lowdig(12)
  }",\n    "execution": {"iopub.execute_input": "2026-11-30T10:00:00.000Z"}\n   },\n`,
  "iopub.execute_input",
);
keep(
  "kubectl describe secret sizes",
  "describe.txt",
  `Data\n====\npassword:  16 bytes\ntoken:     40 bytes\n`,
  "16 bytes",
);
keep(
  "har header name only",
  "session.har",
  `{"name": "Authorization", "value": ""}\n`,
  `"Authorization"`,
);
keep(
  "pbkdf2 iteration setting",
  "settings.py",
  `PASSWORD_HASHERS = ["django.contrib.auth.hashers.PBKDF2PasswordHasher"]\n`,
  "django.contrib.auth.hashers.PBKDF2PasswordHasher",
);
keep(
  "crlf env placeholder",
  ".env.example",
  crlf(`STRIPE_SECRET_KEY=sk_test_your_key\nAPP_DEBUG=true\n`),
  "APP_DEBUG=true",
);
keep(
  "terraform sensitive var no default",
  "variables.tf",
  `variable "db_password" {\n  type      = string\n  sensitive = true\n}\n`,
  "sensitive = true",
);
const minisignPub = "RWQ" + b64(53);
keep(
  "minisign public key",
  "minisign.pub",
  `untrusted comment: minisign public key ${hex(16).toUpperCase()}\n${minisignPub}\n`,
  minisignPub,
);
const csr = "MIIC" + b64(60) + "\n" + b64(64);
keep(
  "certificate request pem",
  "server.csr",
  `-----BEGIN CERTIFICATE REQUEST-----\n${csr}\n-----END CERTIFICATE REQUEST-----\n`,
  csr,
);
const npub = "npub1" + ch("qpzry9x8gf2tvdw0s3jn54khce6mua7l", 58);
keep("nostr npub", "nostr.json", `{"names": {"alice": "${npub}"}}\n`, npub);
const gpgFpr = hex(40).toUpperCase();
keep(
  "gpg fingerprint recv-keys",
  "Dockerfile",
  `RUN gpg --batch --keyserver hkps://keys.openpgp.org --recv-keys ${gpgFpr}\n`,
  gpgFpr,
);
const addSum = hex(64);
keep(
  "Dockerfile ADD --checksum",
  "Dockerfile",
  `ADD --checksum=sha256:${addSum} https://example.com/tool.tar.gz /tmp/\n`,
  addSum,
);
const kusDigest = "sha256:" + hex(64);
keep(
  "kustomize images digest",
  "kustomization.yaml",
  `images:\n- name: app\n  newName: ghcr.io/acme/app\n  digest: ${kusDigest}\n`,
  kusDigest,
);
const pseudo = "v0.0.0-20261130100000-" + hex(12);
keep("go.mod pseudo-version", "go.mod", `require golang.org/x/exp ${pseudo}\n`, pseudo);
const hostFpr = "SHA256:" + b64(43);
keep(
  "ssh host key fingerprint",
  "docs/ssh.md",
  `The server's ED25519 key fingerprint is ${hostFpr}.\n`,
  hostFpr,
);
const xmlSig = b64(88);
keep("xml DigestValue", "metadata.xml", `<ds:DigestValue>${xmlSig}</ds:DigestValue>\n`, xmlSig);
const imgHash = "sha256:" + hex(64);
keep("docker image id in inspect", "inspect.json", `        "Image": "${imgHash}",\n`, imgHash);
const oid = hex(64);
keep("git lfs oid in log", "lfs.log", `uploaded oid sha256:${oid} size 1048576\n`, oid);
const mavenSha1 = hex(40);
keep(
  "maven sha1 sidecar xml",
  "maven-metadata.xml",
  `<checksum type="sha1">${mavenSha1}</checksum>\n`,
  mavenSha1,
);
keep(
  "ci secret ref in env block",
  ".github/workflows/deploy.yml",
  `        env:\n          FLY_API_TOKEN: \${{ secrets.FLY_API_TOKEN }}\n          NPM_TOKEN: \${{ secrets.NPM_TOKEN }}\n`,
  "${{ secrets.NPM_TOKEN }}",
);
// The twenty-first hunt's samples (seventeenth session, written before reading the rules): the
// six leak24 left and Rust's byte-array and lazy initialisers, then configs and code of languages
// and tools the rounds before wrote little of (Elixir and Erlang releases, Scala's HOCON, Haskell,
// OCaml, Zig, Nim, Crystal, Julia, Dart), package managers' and registries' credential files,
// clouds' CLIs' caches, deploy platforms' files, observability agents, identity servers, request
// collections (Insomnia, Bruno, Thunder Client, Hurl), curl in pages, presigned URLs, HAR cookies,
// JWTs in logs, wallet files and key blocks in odd wrappers, and providers' newer keys.
const r21 = (n: number) => ch(A + "_-", n);
// Rust byte arrays and lazy initialisers
add(
  "rust const *b array",
  "src/sign.rs",
  (v) => `const SIGNING_KEY: [u8; 32] = *b"${v}";\n`,
  alnum(32),
);
add(
  "rust static b array ref",
  "src/auth.rs",
  (v) => `static HMAC_SECRET: &[u8; 24] = b"${v}";\n`,
  alnum(24),
);
add(
  "rust Lazy::new closure",
  "src/config.rs",
  (v) => `static API_TOKEN: Lazy<String> = Lazy::new(|| "${v}".to_string());\n`,
  alnum(40),
);
add(
  "rust once_cell sync Lazy",
  "src/db.rs",
  (v) =>
    `static DB_PASSWORD: once_cell::sync::Lazy<&str> = once_cell::sync::Lazy::new(|| "${v}");\n`,
  pw(),
);
add(
  "rust LazyLock",
  "src/keys.rs",
  (v) => `pub static JWT_SECRET: LazyLock<String> = LazyLock::new(|| String::from("${v}"));\n`,
  r21(43),
);
add(
  "rust lazy_static macro",
  "src/lib.rs",
  (v) => `lazy_static! {\n    static ref STRIPE_SECRET_KEY: String = "${v}".to_owned();\n}\n`,
  "sk_live_" + alnum(24),
);
add(
  "rust OnceLock get_or_init",
  "src/token.rs",
  (v) => `    SLACK_TOKEN.get_or_init(|| "${v}".into())\n`,
  "xoxb-" + digits(12) + "-" + digits(12) + "-" + alnum(24),
);
add(
  "rust const &str multi",
  "src/consts.rs",
  (v) => `pub const ADMIN_PASSWORD: &'static str =\n    "${v}";\n`,
  pw(),
);
// the leftovers in more shapes
add(
  "configmap data env b64",
  "k8s/configmap.yaml",
  (v) =>
    `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app\nbinaryData:\n  secrets.env: ${v}\n`,
  btoa(`DB_PASSWORD=${pw()}\nSTRIPE_KEY=sk_live_${alnum(24)}\n`),
);
add(
  "helm values data b64",
  "values.yaml",
  (v) => `secret:\n  data:\n    password: ${v}\n`,
  btoa(pw()),
);
add(
  "k8s data b64 of json creds",
  "deploy/creds.yaml",
  (v) => `data:\n  credentials.json: ${v}\n`,
  btoa(JSON.stringify({ client_secret: alnum(32), refresh_token: "1//" + r21(60) })),
);
add("base64 <<< in page", "docs/setup.md", (v) => `    $ base64 <<< '${v}'\n`, pw());
add(
  "printf | base64 -w0",
  "README.md",
  (v) => `\`\`\`bash\nprintf '%s' '${v}' | base64 -w0\n\`\`\`\n`,
  pw(),
);
add(
  "echo -n | openssl base64",
  "docs/k8s.md",
  (v) => `echo -n "${v}" | openssl base64\n`,
  alnum(32),
);
add(
  "ipynb html td api key",
  "analysis.ipynb",
  (v) =>
    `      "text/html": [\n       "<td>OPENAI_API_KEY</td>\\n",\n       "<td>${v}</td>\\n"\n      ]\n`,
  "sk-proj-" + r21(48),
);
add(
  "html table row password",
  "docs/accounts.html",
  (v) => `<tr><th>DB_PASSWORD</th><td>${v}</td></tr>\n`,
  pw(),
);
add(
  "markdown table password",
  "docs/env.md",
  (v) => `| DB_PASSWORD | \`${v}\` | postgres |\n`,
  pw(),
);
add(
  "sql comment password prose",
  "seed.sql",
  (v) => `/* default user: root, password ${v} */\n`,
  pw(),
);
add("sql comment pw:", "migrate.sql", (v) => `-- test account alice / pw: ${v}\n`, pw());
add(
  "runas /savecred piped",
  "deploy.cmd",
  (v) => `echo ${v}| runas /savecred /user:DOMAIN\\svc "net start app"\n`,
  pw(),
);
add(
  "psexec -p quoted",
  "remote.bat",
  (v) => `psexec \\\\srv01 -u CORP\\admin -p "${v}" cmd\n`,
  pw(),
);
// Elixir, Erlang, Scala, Haskell, OCaml and others
add(
  "elixir runtime.exs Repo",
  "config/runtime.exs",
  (v) => `config :shop, Shop.Repo,\n  username: "shop",\n  password: "${v}",\n  hostname: "db"\n`,
  pw(),
);
add(
  "elixir secret_key_base",
  "config/prod.exs",
  (v) => `config :shop, ShopWeb.Endpoint, secret_key_base: "${v}"\n`,
  r21(64),
);
add(
  "elixir guardian secret",
  "config/config.exs",
  (v) => `config :shop, Shop.Guardian,\n  issuer: "shop",\n  secret_key: "${v}"\n`,
  r21(64),
);
add(
  "erlang vm.args cookie",
  "rel/vm.args",
  (v) => `-name shop@127.0.0.1\n-setcookie ${v}\n`,
  up(20),
);
add(
  "erlang sys.config password",
  "config/sys.config",
  (v) => `[{epgsql, [{host, "db"}, {username, "app"}, {password, "${v}"}]}].\n`,
  pw(),
);
add(
  "scala hocon password",
  "conf/application.conf",
  (v) => `slick.dbs.default.db.password = "${v}"\n`,
  pw(),
);
add(
  "hocon block secret",
  "src/main/resources/application.conf",
  (v) => `play.http.secret.key = "${v}"\n`,
  r21(48),
);
add(
  "hocon nested apiKey",
  "application.conf",
  (v) => `stripe {\n  api-key = "${v}"\n}\n`,
  "sk_live_" + alnum(24),
);
add(
  "haskell password literal",
  "app/Main.hs",
  (v) => `connInfo = defaultConnectInfo { connectPassword = "${v}" }\n`,
  pw(),
);
add("ocaml let token", "bin/main.ml", (v) => `let api_token = "${v}"\n`, ghp());
add(
  "zig const token",
  "src/main.zig",
  (v) => `const api_token: []const u8 = "${v}";\n`,
  "glpat-" + r21(20),
);
add("nim let password", "src/app.nim", (v) => `let dbPassword = "${v}"\n`, pw());
add(
  "crystal ENV fetch default",
  "src/app.cr",
  (v) => `DB_PASS = ENV.fetch("DB_PASSWORD", "${v}")\n`,
  pw(),
);
add(
  "julia ENV get default",
  "src/app.jl",
  (v) => `const TOKEN = get(ENV, "API_TOKEN", "${v}")\n`,
  alnum(40),
);
add(
  "dart const apiKey",
  "lib/env.dart",
  (v) => `const String stripeSecretKey = '${v}';\n`,
  "sk_live_" + alnum(24),
);
add(
  "fsharp let password",
  "Program.fs",
  (v) => `let connStr = "Server=db;User Id=sa;Password=${v};"\n`,
  pw(),
);
add("groovy def password", "build.groovy", (v) => `def nexusPassword = '${v}'\n`, pw());
add(
  "powershell ConvertTo-SecureString var",
  "deploy.ps1",
  (v) => `$pw = ConvertTo-SecureString -String '${v}' -AsPlainText -Force\n`,
  pw(),
);
add(
  "vbscript password",
  "map.vbs",
  (v) => `objNetwork.MapNetworkDrive "Z:", "\\\\srv\\share", False, "CORP\\bob", "${v}"\n`,
  pw(),
);
add(
  "applescript password",
  "mount.applescript",
  (v) => `mount volume "smb://srv/share" as user name "bob" with password "${v}"\n`,
  pw(),
);
// package managers' and registries' files
add(
  "nuget ClearTextPassword",
  "NuGet.Config",
  (v) =>
    `<packageSourceCredentials>\n  <github>\n    <add key="Username" value="bob" />\n    <add key="ClearTextPassword" value="${v}" />\n  </github>\n</packageSourceCredentials>\n`,
  ghp(),
);
add(
  "yarnrc.yml npmAuthToken",
  ".yarnrc.yml",
  (v) =>
    `npmScopes:\n  acme:\n    npmAuthToken: "${v}"\n    npmRegistryServer: "https://npm.pkg.github.com"\n`,
  ghp(),
);
add(
  "bunfig token",
  "bunfig.toml",
  (v) => `[install.scopes]\nacme = { token = "${v}", url = "https://npm.acme.dev/" }\n`,
  "npm_" + alnum(36),
);
add(
  "poetry auth.toml",
  "auth.toml",
  (v) => `[http-basic.private]\nusername = "bob"\npassword = "${v}"\n`,
  pw(),
);
add(
  "pdm config",
  "pdm.toml",
  (v) =>
    `[repository.private]\nurl = "https://pypi.acme.dev"\nusername = "bob"\npassword = "${v}"\n`,
  pw(),
);
add(
  "uv index url creds",
  "uv.toml",
  (v) => `[[index]]\nurl = "https://bob:${v}@pypi.acme.dev/simple"\n`,
  pw(),
);
add(
  "condarc channel token",
  ".condarc",
  (v) => `channels:\n  - https://conda.anaconda.org/t/${v}/acme\n`,
  "ac-" + hex(32),
);
add(
  "dart pub-credentials",
  "pub-credentials.json",
  (v) =>
    `{"accessToken":"${v}","refreshToken":"1//${
      r21(60)
    }","tokenEndpoint":"https://accounts.google.com/o/oauth2/token"}\n`,
  "ya29." + r21(100),
);
add(
  "hex config api_key",
  "hex.config",
  (v) => `{'$repos', #{<<"hexpm:acme">> => #{api_key => <<"${v}">>}}}.\n`,
  hex(32),
);
add(
  "sbt credentials file",
  ".sbt/.credentials",
  (v) =>
    `realm=Sonatype Nexus Repository Manager\nhost=nexus.acme.dev\nuser=deploy\npassword=${v}\n`,
  pw(),
);
add(
  "leiningen profiles creds",
  "profiles.clj",
  (v) => `{:auth {:repository-auth {#"clojars" {:username "bob" :password "${v}"}}}}\n`,
  "CLOJARS_" + hex(60),
);
add("stack hackage token", "stack.yaml", (v) => `hackage-creds:\n  token: ${v}\n`, r21(64));
add(
  "cocoapods trunk netrc",
  ".netrc",
  (v) => `machine trunk.cocoapods.org\n  login bob@acme.dev\n  password ${v}\n`,
  hex(32),
);
add(
  "gem credentials rubygems",
  ".gem/credentials",
  (v) => `---\n:rubygems_api_key: ${v}\n`,
  "rubygems_" + hex(48),
);
add(
  "bundle config env",
  ".bundle/config",
  (v) => `---\nBUNDLE_GEMS__CONTRIBSYS__COM: "${v}"\n`,
  hex(8) + ":" + hex(8),
);
add(
  "gradle properties signing",
  "gradle.properties",
  (v) => `signing.keyId=ABCD1234\nsigning.password=${v}\n`,
  pw(),
);
add("gradle ossrh", "~/.gradle/gradle.properties", (v) => `ossrhToken=${v}\n`, r21(44));
add(
  "maven settings server",
  ".m2/settings.xml",
  (v) =>
    `<server>\n  <id>github</id>\n  <username>bob</username>\n  <password>${v}</password>\n</server>\n`,
  ghp(),
);
add(
  "maven settings privateKey passphrase",
  ".m2/settings.xml",
  (v) => `<server>\n  <id>ssh-repo</id>\n  <passphrase>${v}</passphrase>\n</server>\n`,
  pw(),
);
add(
  "ivy credentials",
  "ivysettings.xml",
  (v) => `<credentials host="repo.acme.dev" realm="Artifactory" username="ci" passwd="${v}"/>\n`,
  pw(),
);
add(
  "pip.conf extra-index",
  "pip.conf",
  (v) =>
    `[global]\nextra-index-url = https://__token__:${v}@gitlab.acme.dev/api/v4/projects/12/packages/pypi/simple\n`,
  "glpat-" + r21(20),
);
add(
  "npmrc _password b64",
  ".npmrc",
  (v) => `//registry.acme.dev/:username=bob\n//registry.acme.dev/:_password=${v}\n`,
  btoa(pw()),
);
add(
  "cargo credentials registry",
  ".cargo/credentials.toml",
  (v) => `[registries.acme]\ntoken = "${v}"\n`,
  "Bearer " + alnum(40),
);
add(
  "go GOPRIVATE netrc token",
  ".netrc",
  (v) => `machine gitlab.acme.dev login oauth2 password ${v}\n`,
  "glpat-" + r21(20),
);
add(
  "composer github-oauth",
  "auth.json",
  (v) => `{\n  "github-oauth": {\n    "github.com": "${v}"\n  }\n}\n`,
  "gho_" + alnum(36),
);
add("deno auth tokens", ".envrc", (v) => `export DENO_AUTH_TOKENS=${v}@deno.land\n`, alnum(40));
// clouds' CLIs and infrastructure
add(
  "kubeconfig token user",
  "kubeconfig",
  (v) => `users:\n- name: ci\n  user:\n    token: ${v}\n`,
  jwt(),
);
add(
  "kubeconfig client-key-data",
  ".kube/config",
  (v) => `    client-key-data: ${v}\n`,
  btoa("-----BEGIN RSA PRIVATE KEY-----\n" + pemBody() + "\n-----END RSA PRIVATE KEY-----\n"),
);
add(
  "kubeconfig password basic",
  ".kube/config",
  (v) => `  user:\n    username: admin\n    password: ${v}\n`,
  pw(),
);
add(
  "docker config auths auth",
  ".docker/config.json",
  (v) => `{\n\t"auths": {\n\t\t"registry.acme.dev": {\n\t\t\t"auth": "${v}"\n\t\t}\n\t}\n}\n`,
  btoa("bob:" + pw()),
);
add(
  "docker config identitytoken",
  ".docker/config.json",
  (v) => `{"auths":{"acme.azurecr.io":{"auth":"","identitytoken":"${v}"}}}\n`,
  jwt(),
);
add(
  "aws sso cache",
  ".aws/sso/cache/abc.json",
  (v) =>
    `{"startUrl": "https://acme.awsapps.com/start", "region": "us-east-1", "accessToken": "${v}", "expiresAt": "2026-12-01T00:00:00Z"}\n`,
  "aoa" + r21(120),
);
add(
  "aws cli cache creds",
  ".aws/cli/cache/x.json",
  (v) =>
    `{"Credentials": {"AccessKeyId": "ASIA${
      up(16)
    }", "SecretAccessKey": "${v}", "SessionToken": "IQoJb3JpZ2luX2VjE${b64(60)}"}}\n`,
  b64(40),
);
add(
  "gcloud access token db json",
  "credentials.db.json",
  (v) => `{"account_id": "ci@acme.iam.gserviceaccount.com", "access_token": "${v}"}\n`,
  "ya29." + r21(120),
);
add(
  "azure msal token cache",
  ".azure/msal_token_cache.json",
  (v) => `{"RefreshToken": {"x": {"credential_type": "RefreshToken", "secret": "${v}"}}}\n`,
  "0.A" + r21(200),
);
add(
  "terraform credentials.tfrc.json",
  ".terraform.d/credentials.tfrc.json",
  (v) => `{\n  "credentials": {\n    "app.terraform.io": {\n      "token": "${v}"\n    }\n  }\n}\n`,
  alnum(14) + ".atlasv1." + alnum(67),
);
add(
  "terraform state sensitive attr",
  "terraform.tfstate",
  (v) =>
    `          "attributes": {\n            "administrator_login_password": "${v}",\n            "name": "sql-prod"\n`,
  pw(),
);
add(
  "terraform state access key secret",
  "terraform.tfstate",
  (v) => `            "secret": "${v}",\n            "ses_smtp_password_v4": "B${b64(43)}",\n`,
  b64(40),
);
add("packer pkrvars", "prod.pkrvars.hcl", (v) => `winrm_password = "${v}"\n`, pw());
add(
  "hcl nomad job template",
  "job.nomad.hcl",
  (v) =>
    `      template {\n        data = "DB_PASSWORD=${v}"\n        destination = "secrets/env"\n      }\n`,
  pw(),
);
add(
  "vagrantfile smb password",
  "Vagrantfile",
  (v) =>
    `  config.vm.synced_folder ".", "/vagrant", type: "smb", smb_username: "bob", smb_password: "${v}"\n`,
  pw(),
);
add("salt pillar", "pillar/db.sls", (v) => `mysql:\n  server:\n    root_password: '${v}'\n`, pw());
add(
  "chef data bag json",
  "data_bags/creds/db.json",
  (v) => `{\n  "id": "db",\n  "password": "${v}"\n}\n`,
  pw(),
);
add(
  "ansible vars unencrypted vault file",
  "group_vars/all/vault.yml",
  (v) => `vault_db_password: ${v}\nvault_api_key: ${alnum(32)}\n`,
  pw(),
);
add(
  "ansible inline become pass",
  "inventory.ini",
  (v) => `web1 ansible_host=10.0.0.5 ansible_user=deploy ansible_become_pass=${v}\n`,
  pw(),
);
add(
  "ansible winrm password",
  "host_vars/win1.yml",
  (v) => `ansible_password: "${v}"\nansible_connection: winrm\n`,
  pw(),
);
add(
  "jenkinsfile withEnv literal",
  "Jenkinsfile",
  (v) => `withEnv(["DOCKER_PASSWORD=${v}"]) {\n  sh 'docker login -u ci --password-stdin'\n}\n`,
  pw(),
);
add(
  "jenkinsfile environment block",
  "Jenkinsfile",
  (v) => `environment {\n    SONAR_TOKEN = '${v}'\n}\n`,
  "squ_" + hex(40),
);
add(
  "jenkins casc yaml",
  "jenkins.yaml",
  (v) =>
    `credentials:\n  system:\n    domainCredentials:\n      - credentials:\n          - string:\n              id: slack\n              secret: "${v}"\n`,
  "xoxb-" + digits(12) + "-" + digits(13) + "-" + alnum(24),
);
add(
  "cloud-init users passwd plain",
  "user-data",
  (v) =>
    `#cloud-config\nusers:\n  - name: admin\n    plain_text_passwd: ${v}\n    lock_passwd: false\n`,
  pw(),
);
add(
  "ignition butane password",
  "config.bu",
  (v) =>
    `passwd:\n  users:\n    - name: core\n      password_hash: ""\n      ssh_authorized_keys: []\nstorage:\n  files:\n    - path: /etc/app.env\n      contents:\n        inline: API_TOKEN=${v}\n`,
  alnum(40),
);
add(
  "systemd Environment quoted",
  "app.service",
  (v) => `[Service]\nEnvironment="DATABASE_PASSWORD=${v}"\n`,
  pw(),
);
add(
  "crontab inline env",
  "crontab",
  (v) => `0 3 * * * PGPASSWORD=${v} pg_dump -h db app > /backup/app.sql\n`,
  pw(),
);
add(
  "supervisor environment",
  "supervisord.conf",
  (v) => `[program:worker]\nenvironment=API_KEY="${v}",LOG_LEVEL="info"\n`,
  alnum(40),
);
// deploy platforms, apps' settings
add(
  "fly.toml env token",
  "fly.toml",
  (v) => `[env]\n  SENTRY_AUTH_TOKEN = "${v}"\n`,
  "sntrys_" + r21(80),
);
add(
  "render.yaml envVars value",
  "render.yaml",
  (v) => `    envVars:\n      - key: STRIPE_SECRET_KEY\n        value: ${v}\n`,
  "sk_live_" + alnum(24),
);
add("Procfile inline env", "Procfile", (v) => `web: API_SECRET=${v} gunicorn app:app\n`, alnum(40));
add(
  "app.json heroku env value",
  "app.json",
  (v) => `  "env": {\n    "SECRET_TOKEN": {\n      "value": "${v}"\n    }\n  }\n`,
  alnum(40),
);
add(
  "launchSettings env",
  "Properties/launchSettings.json",
  (v) =>
    `      "environmentVariables": {\n        "ConnectionStrings__Default": "Host=db;Username=app;Password=${v}"\n      }\n`,
  pw(),
);
add(
  "dotnet user-secrets set",
  "docs/dev.md",
  (v) => `dotnet user-secrets set "Stripe:SecretKey" "${v}"\n`,
  "sk_test_" + alnum(24),
);
add(
  "serverless.yml env",
  "serverless.yml",
  (v) => `provider:\n  environment:\n    TWILIO_AUTH_TOKEN: ${v}\n`,
  hex(32),
);
add(
  "wrangler secret put echo",
  "deploy.sh",
  (v) => `echo "${v}" | wrangler secret put API_KEY\n`,
  alnum(40),
);
add(
  "vercel env add",
  "deploy.sh",
  (v) => `printf '${v}' | vercel env add DATABASE_PASSWORD production\n`,
  pw(),
);
add(
  "netlify env set",
  "deploy.sh",
  (v) => `netlify env:set STRIPE_SECRET_KEY ${v}\n`,
  "sk_live_" + alnum(24),
);
add(
  "heroku config:set",
  "deploy.sh",
  (v) => `heroku config:set SENDGRID_API_KEY=${v} -a acme\n`,
  "SG." + r21(22) + "." + r21(43),
);
add(
  "gh secret set --body",
  "setup.sh",
  (v) => `gh secret set NPM_TOKEN --body "${v}"\n`,
  "npm_" + alnum(36),
);
add(
  "kubectl create secret literal",
  "setup.sh",
  (v) => `kubectl create secret generic db --from-literal=password='${v}'\n`,
  pw(),
);
add(
  "docker run -e",
  "run.sh",
  (v) => `docker run -d -e POSTGRES_PASSWORD=${v} postgres:16\n`,
  pw(),
);
add(
  "docker secret create stdin",
  "swarm.sh",
  (v) => `printf "${v}" | docker secret create db_password -\n`,
  pw(),
);
add(
  "helm --set password",
  "install.sh",
  (v) => `helm install pg bitnami/postgresql --set auth.postgresPassword=${v}\n`,
  pw(),
);
add(
  "argocd login password",
  "ci.sh",
  (v) => `argocd login cd.acme.dev --username admin --password '${v}'\n`,
  pw(),
);
add("vault kv put", "seed.sh", (v) => `vault kv put secret/app db_password=${v}\n`, pw());
add("consul acl token env", ".envrc", (v) => `export CONSUL_HTTP_TOKEN=${v}\n`, uuid());
add("nomad token env", "ci.env", (v) => `NOMAD_TOKEN=${v}\n`, uuid());
add(
  "oc login token",
  "docs/openshift.md",
  (v) => `oc login --token=${v} --server=https://api.ocp.acme.dev:6443\n`,
  "sha256~" + r21(43),
);
add(
  "helm repo add password",
  "ci.sh",
  (v) => `helm repo add acme https://charts.acme.dev --username ci --password ${v}\n`,
  pw(),
);
// apps' settings and observability
add(
  "dbt profiles password",
  "profiles.yml",
  (v) =>
    `acme:\n  outputs:\n    prod:\n      type: postgres\n      user: dbt\n      password: ${v}\n      host: db\n`,
  pw(),
);
add(
  "dbt snowflake private key passphrase",
  "profiles.yml",
  (v) => `      private_key_passphrase: "${v}"\n`,
  pw(),
);
add(
  "airflow conn uri env",
  "docker-compose.yml",
  (v) => `      AIRFLOW_CONN_POSTGRES_DEFAULT: postgres://airflow:${v}@db:5432/airflow\n`,
  pw(),
);
add(
  "airflow connections json",
  "connections.json",
  (v) => `{"slack": {"conn_type": "http", "host": "hooks.slack.com", "password": "${v}"}}\n`,
  "T" + up(8) + "/B" + up(8) + "/" + alnum(24),
);
add("airflow fernet key", "airflow.cfg", (v) => `[core]\nfernet_key = ${v}\n`, r21(43) + "=");
add("superset secret key", "superset_config.py", (v) => `SECRET_KEY = '${v}'\n`, r21(42));
add("metabase encryption key", ".env", (v) => `MB_ENCRYPTION_SECRET_KEY=${v}\n`, alnum(32));
add("grafana admin password env", "grafana.env", (v) => `GF_SECURITY_ADMIN_PASSWORD=${v}\n`, pw());
add(
  "loki s3 secret",
  "loki.yaml",
  (v) => `storage_config:\n  aws:\n    secret_access_key: ${v}\n`,
  b64(40),
);
add(
  "vector sink token",
  "vector.toml",
  (v) => `[sinks.dd]\ntype = "datadog_logs"\ndefault_api_key = "${v}"\n`,
  hex(32),
);
add(
  "otel collector headers",
  "otel-collector.yaml",
  (v) => `exporters:\n  otlphttp:\n    headers:\n      x-honeycomb-team: ${v}\n`,
  alnum(22),
);
add(
  "otel exporter headers env",
  ".env",
  (v) => `OTEL_EXPORTER_OTLP_HEADERS=Authorization=Basic ${v}\n`,
  btoa("123456:" + "glc_" + r21(60)),
);
add(
  "sentry.properties auth.token",
  "sentry.properties",
  (v) => `defaults.org=acme\nauth.token=${v}\n`,
  "sntrys_" + r21(80),
);
add("newrelic infra license", "newrelic-infra.yml", (v) => `license_key: ${v}\n`, hex(36) + "NRAL");
add("datadog yaml api_key", "datadog.yaml", (v) => `api_key: ${v}\nsite: datadoghq.eu\n`, hex(32));
add(
  "elastic apm secret token",
  "elasticapm.properties",
  (v) => `secret_token=${v}\nserver_url=https://apm.acme.dev\n`,
  alnum(24),
);
add(
  "fluent bit http passwd",
  "fluent-bit.conf",
  (v) => `[OUTPUT]\n    Name  es\n    HTTP_User elastic\n    HTTP_Passwd ${v}\n`,
  pw(),
);
add(
  "telegraf influx token",
  "telegraf.conf",
  (v) => `[[outputs.influxdb_v2]]\n  token = "${v}"\n`,
  r21(86) + "==",
);
add(
  "prometheus basic_auth password",
  "prometheus.yml",
  (v) => `    basic_auth:\n      username: scrape\n      password: ${v}\n`,
  pw(),
);
add(
  "alertmanager slack url",
  "alertmanager.yml",
  (v) => `  slack_api_url: '${v}'\n`,
  "https://hooks.slack.com/services/T" + up(8) + "/B" + up(8) + "/" + alnum(24),
);
add("alertmanager pagerduty key", "alertmanager.yml", (v) => `  - routing_key: ${v}\n`, hex(32));
add(
  "keycloak realm client secret",
  "realm-export.json",
  (v) => `    {\n      "clientId": "api",\n      "secret": "${v}",\n`,
  alnum(32),
);
add(
  "oauth2-proxy cookie secret",
  "oauth2-proxy.cfg",
  (v) => `cookie_secret = "${v}"\nclient_secret = "${alnum(32)}"\n`,
  r21(32),
);
add(
  "authelia jwt secret",
  "configuration.yml",
  (v) => `identity_validation:\n  reset_password:\n    jwt_secret: '${v}'\n`,
  r21(64),
);
add(
  "dex static client secret",
  "dex.yaml",
  (v) => `staticClients:\n- id: app\n  secret: ${v}\n`,
  alnum(32),
);
add(
  "traefik basicauth plain env",
  "docker-compose.yml",
  (v) => `      - "TRAEFIK_PILOT_TOKEN=${v}"\n`,
  uuid(),
);
add("caddy env api token", "Caddyfile", (v) => `tls {\n  dns cloudflare ${v}\n}\n`, r21(40));
add(
  "nginx proxy auth header",
  "nginx.conf",
  (v) => `    proxy_set_header Authorization "Bearer ${v}";\n`,
  alnum(48),
);
add(
  "envoy inline_string secret",
  "envoy.yaml",
  (v) => `        generic_secret:\n          secret:\n            inline_string: "${v}"\n`,
  alnum(40),
);
add(
  "spring boot mail password",
  "application.yml",
  (v) => `spring:\n  mail:\n    password: ${v}\n`,
  "SG." + r21(22) + "." + r21(43),
);
add(
  "quarkus datasource password",
  "application.properties",
  (v) => `quarkus.datasource.password=${v}\n`,
  pw(),
);
add(
  "micronaut oauth client secret",
  "application.yml",
  (v) =>
    `micronaut:\n  security:\n    oauth2:\n      clients:\n        github:\n          client-secret: ${v}\n`,
  hex(40),
);
add("django DATABASES dict", "settings.py", (v) => `        'PASSWORD': '${v}',\n`, pw());
add("laravel env mail", ".env", (v) => `MAIL_PASSWORD=${v}\n`, pw());
add(
  "wp-config auth salts",
  "wp-config.php",
  (v) => `define( 'AUTH_KEY',         '${v}' );\n`,
  r21(20) + "!@#$%^&*()" + r21(34),
);
add(
  "rails database.yml",
  "config/database.yml",
  (v) => `production:\n  <<: *default\n  password: <%= ENV.fetch("DB_PASSWORD") { "${v}" } %>\n`,
  pw(),
);
// request collections and pages
add(
  "insomnia export bearer",
  "insomnia.json",
  (v) => `{"_type": "request", "authentication": {"type": "bearer", "token": "${v}"}}\n`,
  alnum(40),
);
add(
  "insomnia env apiKey",
  "Insomnia_2026.json",
  (v) =>
    `{"_type": "environment", "data": {"base_url": "https://api.acme.dev", "apiKey": "${v}"}}\n`,
  alnum(32),
);
add("bruno bru auth", "collection/users.bru", (v) => `auth:bearer {\n  token: ${v}\n}\n`, jwt());
add("bruno env secret", "environments/prod.bru", (v) => `vars {\n  apiKey: ${v}\n}\n`, alnum(40));
add(
  "thunder client env",
  "thunder-environment.json",
  (v) => `{"name": "token", "value": "${v}"}\n`,
  jwt(),
);
add(
  "hurl basic auth",
  "tests/api.hurl",
  (v) => `GET https://api.acme.dev/me\n[BasicAuth]\nbob: ${v}\n`,
  pw(),
);
add(
  "hurl header bearer",
  "tests/api.hurl",
  (v) => `GET https://api.acme.dev/orders\nAuthorization: Bearer ${v}\n`,
  alnum(40),
);
add(
  "http file variable",
  "requests.http",
  (v) => `@token = ${v}\n\nGET https://api.acme.dev/me\nAuthorization: Bearer {{token}}\n`,
  alnum(40),
);
add(
  "rest file x-api-key",
  "api.rest",
  (v) => `POST https://api.acme.dev/v1/send\nX-API-Key: ${v}\n`,
  alnum(32),
);
add(
  "postman collection apikey auth",
  "acme.postman_collection.json",
  (v) =>
    `"auth": {"type": "apikey", "apikey": [{"key": "value", "value": "${v}", "type": "string"}, {"key": "key", "value": "X-Api-Key"}]}\n`,
  alnum(32),
);
add(
  "postman basic auth array",
  "acme.postman_collection.json",
  (v) =>
    `"basic": [{"key": "password", "value": "${v}", "type": "string"}, {"key": "username", "value": "bob"}]\n`,
  pw(),
);
add(
  "curl in docs -H x-api-key",
  "docs/api.md",
  (v) => `\`\`\`\ncurl https://api.acme.dev/v2/items \\\n  -H 'x-api-key: ${v}'\n\`\`\`\n`,
  alnum(40),
);
add(
  "curl --user in rst",
  "docs/usage.rst",
  (v) =>
    `.. code-block:: console\n\n   $ curl --user admin:${v} https://jenkins.acme.dev/api/json\n`,
  pw(),
);
add(
  "curl -d client_secret",
  "docs/oauth.md",
  (v) =>
    `curl -X POST https://auth.acme.dev/token -d grant_type=client_credentials -d client_id=app -d client_secret=${v}\n`,
  alnum(32),
);
add(
  "wget --password",
  "fetch.sh",
  (v) => `wget --user=bob --password='${v}' https://files.acme.dev/a.tgz\n`,
  pw(),
);
add(
  "httpie bearer",
  "docs/api.md",
  (v) => `http GET api.acme.dev/me 'Authorization:Bearer ${v}'\n`,
  alnum(40),
);
add(
  "presigned s3 url",
  "share.txt",
  (v) =>
    `https://acme.s3.amazonaws.com/a.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIA${
      up(16)
    }%2F20261130%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20261130T000000Z&X-Amz-Expires=3600&X-Amz-SignedHeaders=host&X-Amz-Signature=${v}\n`,
  hex(64),
);
add(
  "gcs signed url",
  "links.md",
  (v) =>
    `[download](https://storage.googleapis.com/acme/a.zip?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Credential=sa%40acme.iam.gserviceaccount.com%2F20261130%2Fauto%2Fstorage%2Fgoog4_request&X-Goog-Date=20261130T000000Z&X-Goog-Expires=900&X-Goog-SignedHeaders=host&X-Goog-Signature=${v})\n`,
  hex(512),
);
add(
  "azure blob sas url",
  "upload.sh",
  (v) =>
    `azcopy copy a.zip "https://acme.blob.core.windows.net/c/a.zip?sv=2022-11-02&ss=b&srt=o&sp=rw&se=2026-12-31&st=2026-11-30&spr=https&sig=${v}"\n`,
  encodeURIComponent(b64(43) + "="),
);
add(
  "cloudfront signed cookie",
  "cookies.txt",
  (v) => `.acme.dev\tTRUE\t/\tTRUE\t0\tCloudFront-Signature\t${v}\n`,
  r21(170),
);
add(
  "har request cookie header",
  "session.har",
  (v) => `            {"name": "Cookie", "value": "_ga=GA1.2.1; sessionid=${v}; csrftoken=abc"},\n`,
  lowdig(32),
);
add(
  "har response set-cookie token",
  "session.har",
  (v) => `          "cookies": [{"name": "access_token", "value": "${v}", "httpOnly": true}],\n`,
  jwt(),
);
add(
  "jwt in json log",
  "logs/app.log",
  (v) => `{"level":"debug","msg":"outgoing request","headers":{"authorization":"Bearer ${v}"}}\n`,
  jwt(),
);
add(
  "jwt in nginx log query",
  "access.log",
  (v) => `10.0.0.1 - - [30/Nov/2026:10:00:00 +0000] "GET /ws?access_token=${v} HTTP/1.1" 101 0\n`,
  jwt(),
);
add(
  "token in python log repr",
  "worker.log",
  (v) => `DEBUG Starting client with config {'api_key': '${v}', 'timeout': 30}\n`,
  "sk-proj-" + r21(48),
);
add(
  "password in java toString",
  "app.log",
  (v) => `INFO DataSourceConfig{url='jdbc:postgresql://db/app', username='app', password='${v}'}\n`,
  pw(),
);
add(
  "password in go %+v",
  "debug.log",
  (v) => `config: {Host:db Port:5432 User:app Password:${v} SSLMode:disable}\n`,
  pw(),
);
add(
  "ruby inspect log",
  "production.log",
  (v) => `#<Config api_secret="${v}", region="eu">\n`,
  alnum(40),
);
add(
  "stack trace env dump",
  "crash.txt",
  (v) => `  STRIPE_SECRET_KEY: '${v}'\n`,
  "sk_live_" + alnum(24),
);
// wallets, keys in wrappers
add("ethereum keystore plaintext pk env", ".env", (v) => `DEPLOYER_PRIVATE_KEY=0x${v}\n`, hex(64));
add(
  "foundry cast --private-key",
  "script/deploy.sh",
  (v) => `forge script Deploy --rpc-url $RPC --private-key ${v} --broadcast\n`,
  "0x" + hex(64),
);
add(
  "solana keypair json array",
  "id.json",
  (v) => `${v}\n`,
  "[" + Array.from({ length: 64 }, () => Math.floor(rnd() * 256)).join(",") + "]",
);
add(
  "hardhat accounts array",
  "hardhat.config.ts",
  (v) => `      accounts: ["${v}"],\n`,
  "0x" + hex(64),
);
add(
  "mnemonic env 24 words",
  ".env",
  (v) => `WALLET_SEED="${v}"\n`,
  [
    "legal",
    "winner",
    "thank",
    "year",
    "wave",
    "sausage",
    "worth",
    "useful",
    "legal",
    "winner",
    "thank",
    "yellow",
    "canyon",
    "ripple",
    "oxygen",
    "margin",
    "delay",
    "tribe",
    "velvet",
    "anchor",
    "drift",
    "grape",
    "hover",
    "zebra",
  ].join(" "),
);
add(
  "mnemonic in truffle js",
  "truffle-config.js",
  (v) => `const mnemonic = '${v}';\n`,
  [
    "orbit",
    "pepper",
    "random",
    "silent",
    "cabin",
    "dignity",
    "outer",
    "lunar",
    "metal",
    "sniff",
    "topple",
    "absurd",
  ].join(" "),
);
add(
  "pgp private block in yaml",
  "ci/signing.yml",
  (v) =>
    `gpg_key: |\n  -----BEGIN PGP PRIVATE KEY BLOCK-----\n\n  ${v}\n  =${
      b64(4)
    }\n  -----END PGP PRIVATE KEY BLOCK-----\n`,
  b64(64) + "\n  " + b64(64),
);
add(
  "pgp private block in env escaped",
  ".env",
  (v) =>
    `GPG_PRIVATE_KEY="-----BEGIN PGP PRIVATE KEY BLOCK-----\\n\\n${v}\\n-----END PGP PRIVATE KEY BLOCK-----"\n`,
  b64(64) + "\\n" + b64(64),
);
add(
  "ssh key in terraform heredoc",
  "main.tf",
  (v) =>
    `  private_key = <<-EOT\n    -----BEGIN OPENSSH PRIVATE KEY-----\n    ${v}\n    -----END OPENSSH PRIVATE KEY-----\n  EOT\n`,
  "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ" + b64(30) + "\n    " + b64(70),
);
add(
  "ssh key in python triple quoted",
  "deploy.py",
  (v) => `KEY = """-----BEGIN RSA PRIVATE KEY-----\n${v}\n-----END RSA PRIVATE KEY-----"""\n`,
  b64(64) + "\n" + b64(64),
);
add(
  "ssh key in xml element",
  "deploy.xml",
  (v) =>
    `<privateKey>-----BEGIN EC PRIVATE KEY-----&#10;${v}&#10;-----END EC PRIVATE KEY-----</privateKey>\n`,
  b64(64) + "&#10;" + b64(40),
);
add(
  "private key base64 in env",
  ".env",
  (v) => `SSH_PRIVATE_KEY_B64=${v}\n`,
  btoa("-----BEGIN OPENSSH PRIVATE KEY-----\n" + b64(70) + "\n-----END OPENSSH PRIVATE KEY-----\n"),
);
add("ed25519 seed hex", "node.toml", (v) => `[identity]\nprivate_key = "${v}"\n`, hex(64));
add(
  "age secret key in sops config",
  ".sops/keys.txt",
  (v) => `# created: 2026-11-30\n# public key: age1${lowdig(58)}\n${v}\n`,
  "AGE-SECRET-KEY-1" + up(58),
);
add(
  "wireguard peer psk",
  "wg0.conf",
  (v) => `[Peer]\nPublicKey = ${b64(43)}=\nPresharedKey = ${v}\n`,
  b64(43) + "=",
);
add(
  "tailscale auth key",
  "setup.sh",
  (v) => `tailscale up --authkey=${v}\n`,
  "tskey-auth-" + alnum(12) + "CNTRL-" + alnum(30),
);
add(
  "ngrok yml authtoken",
  "ngrok.yml",
  (v) => `version: 2\nauthtoken: ${v}\n`,
  alnum(27) + "_" + alnum(21),
);
add(
  "cloudflared tunnel token",
  "docker-compose.yml",
  (v) => `    command: tunnel run --token ${v}\n`,
  btoa(JSON.stringify({ a: hex(32), t: uuid(), s: b64(44) })),
);
// providers' keys, named and unnamed
add("clerk secret key", ".env.local", (v) => `CLERK_SECRET_KEY=${v}\n`, "sk_live_" + alnum(40));
add(
  "clerk secret in code",
  "middleware.ts",
  (v) => `const clerk = createClerkClient({ secretKey: "${v}" });\n`,
  "sk_test_" + alnum(40),
);
add(
  "stripe restricted key bare",
  "notes.txt",
  (v) => `use ${v} for the reporting job\n`,
  "rk_live_" + alnum(99),
);
add(
  "stripe webhook secret code",
  "webhook.js",
  (v) => `const event = stripe.webhooks.constructEvent(body, sig, "${v}");\n`,
  "whsec_" + alnum(32),
);
add(
  "twilio api key secret pair",
  "twilio.py",
  (v) => `client = Client("SK${hex(32)}", "${v}", "AC${hex(32)}")\n`,
  alnum(32),
);
add("twilio auth token env", ".env", (v) => `TWILIO_AUTH_TOKEN=${v}\n`, hex(32));
add(
  "sendgrid bare",
  "mailer.rb",
  (v) => `sg = SendGrid::API.new(api_key: '${v}')\n`,
  "SG." + r21(22) + "." + r21(43),
);
add(
  "sendgrid unnamed call",
  "mail.go",
  (v) => `client := sendgrid.NewSendClient("${v}")\n`,
  "SG." + r21(22) + "." + r21(43),
);
add(
  "supabase service role",
  "supabase.ts",
  (v) => `const supabase = createClient("https://xyz.supabase.co", "${v}");\n`,
  "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9." +
    btoa(JSON.stringify({ role: "service_role", iss: "supabase", ref: lowdig(20) })).replace(
      /=+$/,
      "",
    ) + "." + r21(43),
);
add("supabase secret new", ".env", (v) => `SUPABASE_SECRET=${v}\n`, "sb_secret_" + r21(32));
add(
  "firebase admin private key json",
  "firebase-admin.json",
  (v) =>
    `{"type": "service_account", "project_id": "acme", "private_key_id": "${v}", "client_email": "x@acme.iam.gserviceaccount.com"}\n`,
  hex(40),
);
add(
  "mailgun key bare",
  "mail.py",
  (v) => `requests.post(url, auth=("api", "${v}"), data=msg)\n`,
  "key-" + hex(32),
);
add(
  "postmark server token header",
  "mail.sh",
  (v) => `curl -H "X-Postmark-Server-Token: ${v}" https://api.postmarkapp.com/email\n`,
  uuid(),
);
add(
  "resend key code",
  "send.ts",
  (v) => `const resend = new Resend("${v}");\n`,
  "re_" + alnum(8) + "_" + alnum(24),
);
add("anthropic key bare", "notes.md", (v) => `key: ${v}\n`, "sk-ant-api03-" + r21(93) + "AA");
add(
  "openai key in js object",
  "ai.js",
  (v) => `const openai = new OpenAI({ apiKey: '${v}' });\n`,
  "sk-proj-" + r21(120),
);
add("groq key", ".env", (v) => `GROQ_API_KEY=${v}\n`, "gsk_" + alnum(52));
add("huggingface token bare", "train.py", (v) => `login("${v}")\n`, "hf_" + alnum(34));
add("replicate token", "run.sh", (v) => `export REPLICATE_API_TOKEN=${v}\n`, "r8_" + alnum(37));
add(
  "pinecone key",
  "index.py",
  (v) => `pc = Pinecone(api_key="${v}")\n`,
  "pcsk_" + alnum(5) + "_" + alnum(60),
);
add(
  "linear api key",
  "linear.ts",
  (v) => `const linear = new LinearClient({ apiKey: "${v}" });\n`,
  "lin_api_" + alnum(40),
);
add(
  "notion secret",
  "notion.js",
  (v) => `const notion = new Client({ auth: "${v}" });\n`,
  "ntn_" + digits(11) + alnum(35),
);
add(
  "shopify admin token",
  "shopify.rb",
  (v) =>
    `session = ShopifyAPI::Auth::Session.new(shop: "acme.myshopify.com", access_token: "${v}")\n`,
  "shpat_" + hex(32),
);
add("doppler token", "Dockerfile", (v) => `ENV DOPPLER_TOKEN=${v}\n`, "dp.st.prd." + alnum(43));
add(
  "planetscale password",
  ".env",
  (v) => `DATABASE_URL=mysql://app:${v}@aws.connect.psdb.cloud/acme?sslaccept=strict\n`,
  "pscale_pw_" + r21(43),
);
add("flyio token", "ci.yml", (v) => `      FLY_API_TOKEN: ${v}\n`, "FlyV1 fm2_" + r21(200));
add("vault token bare", "notes.txt", (v) => `token ${v}\n`, "hvs." + r21(90));
add(
  "databricks token",
  "databrickscfg",
  (v) => `[DEFAULT]\nhost = https://adb-1.azuredatabricks.net\ntoken = ${v}\n`,
  "dapi" + hex(32),
);
add(
  "snowflake password in python",
  "load.py",
  (v) =>
    `conn = snowflake.connector.connect(user="etl", password="${v}", account="acme-xy12345")\n`,
  pw(),
);
add(
  "mongodb atlas api private key",
  "atlas.env",
  (v) => `MONGODB_ATLAS_PRIVATE_KEY=${v}\n`,
  uuid(),
);
add(
  "cloudinary url",
  ".env",
  (v) => `CLOUDINARY_URL=cloudinary://${digits(15)}:${v}@acme\n`,
  r21(27),
);
add("algolia admin key env", ".env", (v) => `ALGOLIA_ADMIN_KEY=${v}\n`, hex(32));
add(
  "mapbox secret token",
  "mapbox.env",
  (v) => `MAPBOX_DOWNLOADS_TOKEN=${v}\n`,
  "sk.eyJ1IjoiYWNtZSIsImEiOiJ" + r21(40) + "." + r21(22),
);
add(
  "discord webhook in json",
  "hooks.json",
  (v) => `{"alerts": "${v}"}\n`,
  "https://discord.com/api/webhooks/" + digits(18) + "/" + r21(68),
);
add(
  "telegram bot token in code",
  "bot.py",
  (v) => `bot = telebot.TeleBot("${v}")\n`,
  digits(10) + ":AA" + r21(33),
);
add(
  "github fine-grained pat",
  "ci.sh",
  (v) => `git clone https://${v}@github.com/acme/app.git\n`,
  "github_pat_" + alnum(22) + "_" + alnum(59),
);
add(
  "gitlab runner token",
  "config.toml",
  (v) => `[[runners]]\n  name = "ci"\n  token = "${v}"\n`,
  "glrt-" + r21(20),
);
add(
  "bitbucket app password",
  "bitbucket.sh",
  (v) => `curl -u bob:${v} https://api.bitbucket.org/2.0/repositories\n`,
  "ATBB" + alnum(32),
);
add(
  "jira api token basic",
  "jira.py",
  (v) => `jira = JIRA(server="https://acme.atlassian.net", basic_auth=("bob@acme.dev", "${v}"))\n`,
  "ATATT3xFfGF0" + r21(180),
);
add(
  "npm token in CI yaml",
  ".circleci/config.yml",
  (v) => `          command: echo "//registry.npmjs.org/:_authToken=${v}" > ~/.npmrc\n`,
  "npm_" + alnum(36),
);
// the twenty-first hunt's look-alikes that must stay
const kv21 = (name: string, path: string, text: (v: string) => string, v: string) =>
  keep(name, path, text(v), v);
kv21(
  "k8s configmap data plain",
  "configmap.yaml",
  (v) => `kind: ConfigMap\ndata:\n  LOG_LEVEL: ${v}\n`,
  "debug",
);
kv21(
  "configmap data b64 of a png",
  "configmap.yaml",
  (v) => `binaryData:\n  logo.png: ${v}\n`,
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
);
kv21(
  "data b64 of a public config",
  "configmap.yaml",
  (v) => `data:\n  app.conf: ${v}\n`,
  btoa("listen 8080\nworkers 4\nlog_level info\n"),
);
kv21(
  "echo base64 of a placeholder",
  "docs/k8s.md",
  (v) => `echo -n '${v}' | base64\n`,
  "<your-password>",
);
kv21(
  "echo base64 of a variable",
  "docs/k8s.md",
  (v) => `echo -n "${v}" | base64\n`,
  "$DB_PASSWORD",
);
kv21("echo base64 of a word", "docs/k8s.md", (v) => `echo -n '${v}' | base64\n`, "admin");
kv21(
  "html table cell of a name",
  "analysis.ipynb",
  (v) => `"<tr><td>AWS_REGION</td><td>${v}</td></tr>\\n"\n`,
  "eu-west-1",
);
kv21(
  "html table cell of a hash",
  "report.html",
  (v) => `<tr><td>commit</td><td>${v}</td></tr>\n`,
  hex(40),
);
kv21(
  "sql comment prose no secret",
  "schema.sql",
  (v) => `-- admin login: see ${v} for the password\n`,
  "docs/runbook.md",
);
kv21(
  "sql comment password column",
  "schema.sql",
  (v) => `-- password: ${v} of the user's password\n`,
  "bcrypt hash",
);
kv21(
  "runas without secret",
  "admin.cmd",
  (v) => `runas /user:CORP\\admin "${v}"\n`,
  "cmd /c whoami",
);
kv21(
  "rust const b array public",
  "src/consts.rs",
  (v) => `const MAGIC: [u8; 8] = *b"${v}";\n`,
  "SQLite f",
);
kv21(
  "rust Lazy regex",
  "src/parse.rs",
  (v) => `static TOKEN_RE: Lazy<Regex> = Lazy::new(|| Regex::new(r"${v}").unwrap());\n`,
  "^[A-Za-z0-9_]{32,64}$",
);
kv21(
  "rust LazyLock env read",
  "src/cfg.rs",
  (v) => `static API_KEY: LazyLock<String> = LazyLock::new(|| ${v});\n`,
  `std::env::var("API_KEY").expect("API_KEY")`,
);
kv21(
  "rust lazy name literal",
  "src/names.rs",
  (v) => `static SECRET_HEADER: Lazy<&str> = Lazy::new(|| "${v}");\n`,
  "x-secret-token",
);
kv21(
  "rust test vector key bytes",
  "src/tests.rs",
  (v) => `const TEST_KEY: [u8; 16] = ${v};\n`,
  "[0u8; 16]",
);
kv21(
  "elixir runtime env fetch",
  "config/runtime.exs",
  (v) => `  password: ${v},\n`,
  `System.fetch_env!("DB_PASSWORD")`,
);
kv21(
  "hocon env substitution",
  "application.conf",
  (v) => `db.password = ${v}\n`,
  "${?DB_PASSWORD}",
);
kv21(
  "nuget encrypted password",
  "NuGet.Config",
  (v) => `<add key="Password" value="${v}" />\n`,
  "%NUGET_PASSWORD%",
);
kv21("yarnrc token env ref", ".yarnrc.yml", (v) => `npmAuthToken: "${v}"\n`, "${NPM_TOKEN}");
kv21(
  "maven encrypted password",
  "settings.xml",
  (v) => `<password>${v}</password>\n`,
  "{COQLCE6DU6GtcS5P=}",
);
kv21(
  "maven env password",
  "settings.xml",
  (v) => `<password>${v}</password>\n`,
  "${env.MAVEN_PASSWORD}",
);
kv21(
  "gradle property reference",
  "build.gradle.kts",
  (v) => `password = ${v}\n`,
  `findProperty("ossrhPassword") as String?`,
);
kv21(
  "kubeconfig exec plugin",
  ".kube/config",
  (v) => `    exec:\n      command: ${v}\n`,
  "aws-iam-authenticator",
);
kv21(
  "kubeconfig ca data",
  ".kube/config",
  (v) => `    certificate-authority-data: ${v}\n`,
  btoa("-----BEGIN CERTIFICATE-----\nMIIB" + b64(60) + "\n-----END CERTIFICATE-----\n"),
);
kv21(
  "docker config credsStore",
  ".docker/config.json",
  (v) => `{"credsStore": "${v}"}\n`,
  "desktop",
);
kv21(
  "terraform state public ip",
  "terraform.tfstate",
  (v) => `            "public_ip": "${v}",\n`,
  "203.0.113.10",
);
kv21(
  "terraform state arn",
  "terraform.tfstate",
  (v) => `            "arn": "${v}",\n`,
  "arn:aws:iam::123456789012:role/app",
);
kv21(
  "terraform state sensitive null",
  "terraform.tfstate",
  (v) => `            "password": ${v},\n`,
  "null",
);
kv21(
  "jenkinsfile credentials ref",
  "Jenkinsfile",
  (v) => `    SONAR_TOKEN = ${v}\n`,
  "credentials('sonar-token')",
);
kv21(
  "dbt env_var",
  "profiles.yml",
  (v) => `      password: "${v}"\n`,
  "{{ env_var('DBT_PASSWORD') }}",
);
kv21(
  "airflow conn by env ref",
  "docker-compose.yml",
  (v) => `      AIRFLOW_CONN_PG: ${v}\n`,
  "${AIRFLOW_CONN_PG}",
);
// (written as values to keep; password hashes are redacted on purpose since rules version 8: a
// dictionary attack turns one back into its password. Counted as credentials.)
add(
  "caddy basicauth bcrypt",
  "Caddyfile",
  (v) => `basicauth /admin/* {\n  bob ${v}\n}\n`,
  "$2a$14$" + ch(A + "./", 53),
);
add(
  "traefik htpasswd label",
  "docker-compose.yml",
  (v) => `      - "traefik.http.middlewares.auth.basicauth.users=bob:${v}"\n`,
  "$$apr1$$" + ch(A + "./", 8) + "$$" + ch(A + "./", 22),
);
kv21("insomnia template tag", "insomnia.json", (v) => `{"token": "${v}"}\n`, "{{ _.api_token }}");
kv21(
  "bruno env var ref",
  "users.bru",
  (v) => `auth:bearer {\n  token: ${v}\n}\n`,
  "{{accessToken}}",
);
kv21("http file env var", "requests.http", (v) => `@token = ${v}\n`, "{{$dotenv API_TOKEN}}");
kv21("hurl variable", "api.hurl", (v) => `Authorization: Bearer ${v}\n`, "{{token}}");
kv21(
  "curl docs placeholder",
  "docs/api.md",
  (v) => `curl -H 'x-api-key: ${v}' https://api.acme.dev\n`,
  "$ACME_API_KEY",
);
kv21(
  "s3 url without signature",
  "links.md",
  (v) => `${v}\n`,
  "https://acme.s3.amazonaws.com/public/logo.png?versionId=3HL4kqtJlcpXroDTDmJ",
);
kv21("x-amz-content-sha256 header", "trace.log", (v) => `x-amz-content-sha256: ${v}\n`, hex(64));
kv21(
  "har cookie consent",
  "session.har",
  (v) => `{"name": "cookie_consent", "value": "${v}"}\n`,
  "accepted",
);
kv21(
  "jwt header alone in docs",
  "docs/jwt.md",
  (v) => `The header \`${v}\` decodes to {"alg":"HS256","typ":"JWT"}.\n`,
  "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9",
);
kv21("log request id", "app.log", (v) => `INFO request_id=${v} status=200\n`, uuid());
kv21("ethereum address", "deploy.json", (v) => `{"owner": "${v}"}\n`, "0x" + hex(40));
kv21("tx hash", "CHANGELOG.md", (v) => `Deployed in tx ${v}.\n`, "0x" + hex(64));
kv21(
  "bip39 test vector doc",
  "docs/wallets.md",
  (v) => `The BIP-39 test mnemonic \`${v}\` must never hold funds.\n`,
  "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about",
);
kv21(
  "pgp public block",
  "KEYS",
  (v) => `-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n${v}\n-----END PGP PUBLIC KEY BLOCK-----\n`,
  b64(64),
);
kv21(
  "ssh public key in yaml",
  "user-data",
  (v) => `ssh_authorized_keys:\n  - ${v}\n`,
  "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI" + b64(43) + " bob@laptop",
);
kv21("wireguard public key", "wg0.conf", (v) => `[Peer]\nPublicKey = ${v}\n`, b64(43) + "=");
kv21(
  "age public key",
  ".sops.yaml",
  (v) => `creation_rules:\n  - age: ${v}\n`,
  "age1" + lowdig(58),
);
kv21(
  "stripe publishable in env",
  ".env",
  (v) => `NEXT_PUBLIC_STRIPE_PUBLISHABLE_KEY=${v}\n`,
  "pk_live_" + alnum(99),
);
kv21(
  "clerk publishable",
  ".env.local",
  (v) => `NEXT_PUBLIC_CLERK_PUBLISHABLE_KEY=${v}\n`,
  "pk_test_" + btoa("clerk.acme.dev$").replace(/=+$/, ""),
);
kv21(
  "supabase anon url",
  "supabase.ts",
  (v) => `const url = "${v}";\n`,
  "https://xyzabcdefghij.supabase.co",
);
kv21(
  "twilio account sid alone",
  "docs/sms.md",
  (v) => `Account SID: \`${v}\`\n`,
  "AC" + "0".repeat(32),
);
kv21("sendgrid template id", "mail.ts", (v) => `templateId: "${v}",\n`, "d-" + hex(32));
kv21("uuid correlation header", "api.http", (v) => `X-Correlation-Id: ${v}\n`, uuid());
kv21(
  "sha512 sri",
  "index.html",
  (v) => `<script src="a.js" integrity="${v}"></script>\n`,
  "sha512-" + b64(86) + "==",
);
kv21(
  "env var reference in systemd",
  "app.service",
  (v) => `Environment=DATABASE_PASSWORD=${v}\n`,
  "%d/db_password",
);
kv21(
  "systemd LoadCredential",
  "app.service",
  (v) => `LoadCredential=${v}\n`,
  "db_password:/etc/app/db_password",
);
kv21(
  "password policy text",
  "docs/security.md",
  (v) => `Passwords must match \`${v}\`.\n`,
  "^(?=.*[A-Z])(?=.*\\d).{12,}$",
);
kv21(
  "rsa modulus test vector",
  "tests/vectors.json",
  (v) => `{"n": "${v}", "e": "AQAB"}\n`,
  r21(342),
);
// The twenty-second hunt's samples (eighteenth session, leak26, written before reading the rules):
// review23's leftovers as classes (tables of columns in Markdown, HTML, CSV, TSV, reST and
// AsciiDoc; `login admin/…` and "user / password" in prose and in comments of many languages; seed
// words outside settings files; base64 of base64 in Secrets; YAML flow maps; JSON ConfigMaps and
// Secrets; templated YAML and Helm's `b64enc`; `| tee … |` and `\`-continued pipes), then CI
// files, compose files, tfvars, clients' credential files, notebook outputs, Android and iOS
// configs and connection strings in many languages.
const wpw = () =>
  cap(words[Math.floor(rnd() * words.length)]) + words[Math.floor(rnd() * words.length)] +
  digits(3) + "#";
const bip = [
  "abandon",
  "ability",
  "absorb",
  "abstract",
  "acoustic",
  "actress",
  "adjust",
  "advice",
  "afford",
  "agent",
  "alarm",
  "album",
  "almost",
  "amateur",
  "anchor",
  "animal",
  "antenna",
  "anxiety",
  "bamboo",
  "banana",
  "barrel",
  "basket",
  "beauty",
  "belt",
  "bicycle",
  "blossom",
  "bridge",
  "canvas",
  "cattle",
  "cereal",
  "chimney",
  "citizen",
  "cluster",
  "coconut",
  "denial",
  "dolphin",
  "eagle",
];
const seed12 = () =>
  Array.from({ length: 12 }, () => bip[Math.floor(rnd() * bip.length)]).join(" ");
const b64b64 = (t: string) => btoa(btoa(t));
// tables of columns
add(
  "md table user password columns",
  "docs/environments.md",
  (v) => `| Environment | User | Password |\n| --- | --- | --- |\n| staging | admin | ${v} |\n`,
  pw(),
);
add(
  "md table password not last",
  "README.md",
  (v) =>
    `| login | password | role |\n|-------|----------|------|\n| admin | ${v} | owner |\n| guest | ${pw()} | viewer |\n`,
  pw(),
);
add(
  "md table aligned columns",
  "docs/accounts.md",
  (v) =>
    `| Service  | Username | Password         | URL                      |\n|:---------|:--------:|:-----------------|:-------------------------|\n| Grafana  | admin    | ${v}  | http://localhost:3000    |\n`,
  wpw(),
);
add(
  "md table second data row",
  "docs/demo.md",
  (v) => `| user | pass |\n| - | - |\n| alice | ${pw()} |\n| bob | ${v} |\n`,
  pw(),
);
add(
  "md table token column",
  "docs/bots.md",
  (v) => `| Bot | Token |\n|---|---|\n| deploy-bot | \`${v}\` |\n`,
  ghp(),
);
add(
  "md table no outer pipes",
  "NOTES.md",
  (v) => `host | user | password\n---- | ---- | --------\ndb1 | root | ${v}\n`,
  pw(),
);
add(
  "html table td under th",
  "docs/creds.html",
  (v) =>
    `<table>\n<tr><th>User</th><th>Password</th></tr>\n<tr><td>admin</td><td>${v}</td></tr>\n</table>\n`,
  pw(),
);
add(
  "html table td rows split",
  "wiki/servers.html",
  (v) =>
    `<table>\n  <thead>\n    <tr>\n      <th>Host</th>\n      <th>Login</th>\n      <th>Password</th>\n    </tr>\n  </thead>\n  <tbody>\n    <tr>\n      <td>10.0.0.5</td>\n      <td>root</td>\n      <td>${v}</td>\n    </tr>\n  </tbody>\n</table>\n`,
  pw(),
);
add(
  "html table in markdown",
  "docs/setup.md",
  (v) =>
    `<table><tr><td><b>Username</b></td><td><b>Password</b></td></tr><tr><td>demo</td><td>${v}</td></tr></table>\n`,
  wpw(),
);
add(
  "csv password header",
  "fixtures/users.csv",
  (v) => `id,email,password,role\n1,admin@acme.dev,${v},admin\n2,bob@acme.dev,${pw()},user\n`,
  pw(),
);
add(
  "csv password quoted",
  "data/accounts.csv",
  (v) => `"username","password"\n"svc_backup","${v}"\n`,
  pw(),
);
add(
  "csv semicolon",
  "import/logins.csv",
  (v) => `Benutzer;Passwort;Gruppe\nadmin;${v};root\n`,
  pw(),
);
add(
  "csv api_key column",
  "seed/tenants.csv",
  (v) => `tenant,api_key,plan\nacme,${v},pro\n`,
  "sk_live_" + alnum(24),
);
add(
  "tsv password header",
  "fixtures/users.tsv",
  (v) => `user\tpassword\tshell\nroot\t${v}\t/bin/bash\n`,
  pw(),
);
add(
  "rst grid table",
  "docs/accounts.rst",
  (v) =>
    `+----------+------------------+\n| User     | Password         |\n+==========+==================+\n| admin    | ${v}   |\n+----------+------------------+\n`,
  pw(),
);
add(
  "rst list-table",
  "docs/logins.rst",
  (v) =>
    `.. list-table::\n   :header-rows: 1\n\n   * - User\n     - Password\n   * - admin\n     - ${v}\n`,
  pw(),
);
add(
  "asciidoc table",
  "docs/creds.adoc",
  (v) => `|===\n|User |Password\n\n|admin\n|${v}\n|===\n`,
  pw(),
);
add(
  "confluence wiki table",
  "wiki/export.txt",
  (v) => `||User||Password||\n|admin|${v}|\n`,
  pw(),
);
// login admin/… and user / password in prose
add(
  "prose login admin/",
  "README.md",
  (v) => `Open http://localhost:8080 and login admin/${v} to start.\n`,
  pw(),
);
add("prose log in with", "docs/quickstart.md", (v) => `Log in with \`admin\` / \`${v}\`.\n`, pw());
add(
  "prose credentials are",
  "docs/demo.md",
  (v) => `The default credentials are admin:${v} (change them!).\n`,
  wpw(),
);
add(
  "prose username and password are",
  "README.md",
  (v) => `Username is \`root\` and password is \`${v}\`.\n`,
  pw(),
);
add("prose user/pass bullet", "docs/run.md", (v) => `* user/pass: \`grafana\` / \`${v}\`\n`, pw());
add("prose login: user pw", "INSTALL.txt", (v) => `Login: admin  Password: ${v}\n`, pw());
add("prose bold creds", "docs/lab.md", (v) => `**Credentials:** admin / ${v}\n`, wpw());
add(
  "prose sign in as",
  "docs/tutorial.md",
  (v) => `Sign in as \`demo@acme.dev\` with the password \`${v}\`.\n`,
  pw(),
);
add("prose german", "LIESMICH.md", (v) => `Anmeldung: admin / ${v}\n`, pw());
add("prose spanish", "LEEME.md", (v) => `Usuario: admin, contraseña: ${v}\n`, pw());
add("prose french", "LISEZMOI.md", (v) => `Identifiant : admin / mot de passe : ${v}\n`, pw());
add("prose txt default creds", "notes.txt", (v) => `default creds -> admin:${v}\n`, pw());
add(
  "issue template creds",
  ".github/ISSUE_TEMPLATE/bug.md",
  (v) => `Tested with test account qa_user / ${v}\n`,
  pw(),
);
// in source comments
add(
  "ts comment login",
  "src/api.ts",
  (v) => `// login: admin / ${v}\nconst base = "/api";\n`,
  pw(),
);
add(
  "py comment default creds",
  "app/db.py",
  (v) => `# default creds admin:${v}\nDB_HOST = "localhost"\n`,
  pw(),
);
add(
  "go comment user pass",
  "main.go",
  (v) => `// test user: alice, pass: ${v}\nfunc main() {}\n`,
  pw(),
);
add(
  "java block comment",
  "src/Main.java",
  (v) => `/*\n * Test account: admin / ${v}\n */\npublic class Main {}\n`,
  pw(),
);
add("sql comment creds", "db/seed.sql", (v) => `-- login as app_user/${v}\nSELECT 1;\n`, pw());
add(
  "shell comment creds",
  "deploy.sh",
  (v) => `# ssh deploy@10.0.0.4 (password: ${v})\nset -e\n`,
  pw(),
);
add(
  "yaml comment creds",
  "docker-compose.yml",
  (v) => `services:\n  db:\n    image: postgres:16\n    # user postgres / ${v}\n`,
  pw(),
);
add(
  "html comment creds",
  "index.html",
  (v) => `<!-- admin login: admin / ${v} -->\n<div id="app"></div>\n`,
  pw(),
);
add("ini comment creds", "app.ini", (v) => `; admin password was ${v}\n[server]\nport=80\n`, pw());
add("bat rem creds", "run.bat", (v) => `REM login admin/${v}\nstart app.exe\n`, pw());
add(
  "vb comment creds",
  "Module1.vb",
  (v) => `' user: sa  pwd: ${v}\nModule Module1\nEnd Module\n`,
  pw(),
);
add("lua comment creds", "init.lua", (v) => `-- admin/${v}\nlocal x = 1\n`, pw());
add(
  "rust doc comment creds",
  "src/lib.rs",
  (v) => `/// Connects with the test account \`admin\` / \`${v}\`.\npub fn connect() {}\n`,
  pw(),
);
add(
  "c comment creds",
  "src/main.c",
  (v) => `/* root:${v} for the dev board */\nint main(void) { return 0; }\n`,
  pw(),
);
add(
  "php comment creds",
  "index.php",
  (v) => `<?php\n// admin panel: admin / ${v}\necho "hi";\n`,
  pw(),
);
add(
  "ruby comment creds",
  "config/seeds.rb",
  (v) => `# demo login -> demo@acme.dev / ${v}\nUser.create!\n`,
  pw(),
);
add(
  "kotlin todo creds",
  "App.kt",
  (v) => `// TODO remove: test creds tester/${v}\nfun main() {}\n`,
  pw(),
);
add(
  "swift comment creds",
  "AppDelegate.swift",
  (v) => `// Sandbox user: sandbox@acme.dev pw ${v}\nimport UIKit\n`,
  pw(),
);
add("dockerfile comment creds", "Dockerfile", (v) => `# admin:${v}\nFROM alpine:3.20\n`, pw());
add(
  "tf comment creds",
  "main.tf",
  (v) => `# console login: ops / ${v}\nresource "null_resource" "x" {}\n`,
  pw(),
);
add("comment token", "src/client.ts", (v) => `// token: ${v}\nexport const c = 1;\n`, ghp());
add(
  "comment api key python",
  "scripts/run.py",
  (v) => `# API key ${v}\nimport os\n`,
  "sk-proj-" + r21(48),
);
// seed words beyond settings files
add(
  "seed words md",
  "README.md",
  (v) => `Import the test wallet with this mnemonic:\n\n\`\`\`\n${v}\n\`\`\`\n`,
  seed12(),
);
add("seed words js const", "scripts/deploy.js", (v) => `const mnemonic = "${v}";\n`, seed12());
add(
  "seed words hardhat",
  "hardhat.config.ts",
  (v) => `networks: { sepolia: { accounts: { mnemonic: "${v}" } } }\n`,
  seed12(),
);
add("seed words py", "tests/conftest.py", (v) => `SEED_PHRASE = "${v}"\n`, seed12());
add("seed words json", "test/wallet.json", (v) => `{"seed": "${v}"}\n`, seed12());
add("seed words txt", "wallet/recovery.txt", (v) => `${v}\n`, seed12());
add(
  "seed words truffle",
  "truffle-config.js",
  (v) => `const provider = new HDWalletProvider("${v}", "https://rpc.sepolia.org");\n`,
  seed12(),
);
add("seed words rust", "src/wallet.rs", (v) => `let phrase = "${v}";\n`, seed12());
add("seed words go", "wallet_test.go", (v) => `const testMnemonic = "${v}"\n`, seed12());
add(
  "seed words prose",
  "docs/testing.md",
  (v) => `Our faucet account's recovery phrase: ${v}\n`,
  seed12(),
);
// base64 of base64 in Secrets
add(
  "secret b64 of b64 env",
  "k8s/secret.yaml",
  (v) =>
    `apiVersion: v1\nkind: Secret\nmetadata:\n  name: app\ntype: Opaque\ndata:\n  DB_PASSWORD: ${v}\n`,
  b64b64(pw()),
);
add(
  "secret b64 of b64 dotenv",
  "k8s/secret.yaml",
  (v) => `kind: Secret\ndata:\n  app.env: ${v}\n`,
  b64b64(`DB_PASSWORD=${pw()}\nAPI_KEY=${alnum(32)}\n`),
);
add(
  "configmap b64 of b64",
  "k8s/cm.yaml",
  (v) => `kind: ConfigMap\ndata:\n  creds: ${v}\n`,
  b64b64(`password: ${pw()}\n`),
);
add(
  "secret stringData b64",
  "k8s/secret.yaml",
  (v) => `kind: Secret\nstringData:\n  token: ${v}\n`,
  btoa(ghp()),
);
add(
  "sealed-ish b64 of b64 json",
  "deploy/secret.yaml",
  (v) => `kind: Secret\ndata:\n  config.json: ${v}\n`,
  b64b64(JSON.stringify({ password: pw(), user: "app" })),
);
// YAML flow maps
add(
  "yaml flow data password",
  "k8s/secret.yaml",
  (v) => `kind: Secret\nstringData: {password: ${v}}\n`,
  pw(),
);
add(
  "yaml flow data b64",
  "k8s/secret.yaml",
  (v) => `kind: Secret\ndata: {DB_PASSWORD: ${v}}\n`,
  btoa(pw()),
);
add(
  "yaml flow env map",
  "docker-compose.yml",
  (v) => `    environment: {POSTGRES_USER: app, POSTGRES_PASSWORD: "${v}"}\n`,
  pw(),
);
add(
  "yaml flow nested",
  "config.yml",
  (v) => `db: {host: localhost, port: 5432, auth: {user: app, password: '${v}'}}\n`,
  pw(),
);
add(
  "yaml flow list of maps",
  "users.yml",
  (v) => `users: [{name: admin, password: ${v}}, {name: guest}]\n`,
  pw(),
);
add(
  "yaml flow token key",
  "ci.yml",
  (v) => `with: {registry: ghcr.io, username: bot, token: ${v}}\n`,
  ghp(),
);
add(
  "yaml flow multi-line",
  "values.yaml",
  (v) => `auth: {\n  username: admin,\n  password: ${v}\n}\n`,
  pw(),
);
add(
  "yaml flow data b64 second",
  "secret.yml",
  (v) => `kind: Secret\ndata: {user: YWRtaW4=, pass: ${v}}\n`,
  btoa(pw()),
);
// JSON ConfigMaps and Secrets
add(
  "json secret data",
  "k8s/secret.json",
  (v) =>
    `{\n  "apiVersion": "v1",\n  "kind": "Secret",\n  "metadata": {"name": "db"},\n  "data": {\n    "password": "${v}"\n  }\n}\n`,
  btoa(pw()),
);
add(
  "json configmap binaryData",
  "k8s/cm.json",
  (v) =>
    `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x"},"binaryData":{"app.env":"${v}"}}\n`,
  btoa(`DB_PASSWORD=${pw()}\n`),
);
add(
  "json configmap data b64 env",
  "manifests/cm.json",
  (v) => `{\n  "kind": "ConfigMap",\n  "data": {\n    "settings.env": "${v}"\n  }\n}\n`,
  btoa(`SECRET_KEY=${alnum(40)}\n`),
);
add(
  "json secret list items",
  "k8s/list.json",
  (v) => `{"kind":"List","items":[{"kind":"Secret","data":{"token":"${v}"}}]}\n`,
  btoa(alnum(40)),
);
add(
  "kubectl get secret -o json output",
  "docs/debug.md",
  (v) =>
    `\`\`\`json\n{\n    "data": {\n        "api-key": "${v}"\n    },\n    "kind": "Secret"\n}\n\`\`\`\n`,
  btoa("sk_live_" + alnum(24)),
);
// templated YAML
add(
  "yaml.tpl password",
  "deploy/values.yaml.tpl",
  (v) => `db:\n  user: {{ .User }}\n  password: ${v}\n`,
  pw(),
);
add(
  "yaml.j2 password",
  "roles/app/templates/config.yaml.j2",
  (v) => `database:\n  host: {{ db_host }}\n  password: "${v}"\n`,
  pw(),
);
add(
  "yml.gotmpl token",
  "helmfile.d/values.yml.gotmpl",
  (v) => `slack:\n  token: ${v}\n`,
  "xoxb-" + digits(12) + "-" + digits(12) + "-" + alnum(24),
);
add(
  "j2 secret data b64",
  "templates/secret.yaml.j2",
  (v) => `kind: Secret\ndata:\n  password: ${v}\n`,
  btoa(pw()),
);
add(
  "helm b64enc literal",
  "templates/secret.yaml",
  (v) => `kind: Secret\ndata:\n  password: {{ "${v}" | b64enc }}\n`,
  pw(),
);
add(
  "helm b64enc quote",
  "templates/secret.yaml",
  (v) => `data:\n  api-key: {{ "${v}" | b64enc | quote }}\n`,
  alnum(40),
);
add(
  "helm default literal",
  "templates/deployment.yaml",
  (v) =>
    `        - name: DB_PASSWORD\n          value: {{ .Values.db.password | default "${v}" | quote }}\n`,
  pw(),
);
add(
  "helm default prefix",
  "templates/secret.yaml",
  (v) => `  token: {{ default "${v}" .Values.token | b64enc }}\n`,
  ghp(),
);
add(
  "jinja default literal",
  "templates/app.conf.j2",
  (v) => `password = {{ db_password | default('${v}') }}\n`,
  pw(),
);
add(
  "tpl erb password",
  "templates/database.yml.erb",
  (v) => `production:\n  password: <%= ENV.fetch("DB_PASSWORD", "${v}") %>\n`,
  pw(),
);
add(
  "consul-template default",
  "config.ctmpl",
  (v) => `api_key = "{{ keyOrDefault "app/key" "${v}" }}"\n`,
  alnum(32),
);
// pipes
add(
  "tee then gh secret set",
  "scripts/secrets.sh",
  (v) => `echo "${v}" | tee .token | gh secret set NPM_TOKEN\n`,
  npm(),
);
add("echo continued base64", "scripts/k8s.sh", (v) => `echo -n '${v}' |\\\n  base64\n`, pw());
add(
  "echo continued gh",
  "setup.sh",
  (v) => `printf '%s' "${v}" \\\n  | gh secret set DEPLOY_KEY\n`,
  alnum(40),
);
add(
  "echo continued kubectl",
  "setup.sh",
  (v) => `echo "${v}" | \\\n  kubectl create secret generic db --from-file=password=/dev/stdin\n`,
  pw(),
);
add(
  "echo docker login stdin",
  "ci.sh",
  (v) => `echo "${v}" | docker login -u bot --password-stdin ghcr.io\n`,
  ghp(),
);
add(
  "echo continued docker login",
  "ci.sh",
  (v) => `echo '${v}' \\\n  | docker login registry.acme.dev -u ci --password-stdin\n`,
  pw(),
);
add(
  "tee to vault",
  "vault.sh",
  (v) => `echo -n "${v}" | tee /dev/stderr | vault kv put secret/db password=-\n`,
  pw(),
);
add("heredoc to gh", "ci.sh", (v) => `gh secret set API_TOKEN <<< "${v}"\n`, alnum(40));
add("echo pipe chpasswd", "provision.sh", (v) => `echo "deploy:${v}" | chpasswd\n`, pw());
add("echo pipe passwd stdin", "provision.sh", (v) => `echo '${v}' | passwd --stdin root\n`, pw());
add("echo pipe sudo -S", "install.sh", (v) => `echo ${v} | sudo -S apt-get update\n`, pw());
add(
  "echo pipe az login",
  "deploy.sh",
  (v) => `echo "${v}" | az acr login --name acme --password-stdin -u acme\n`,
  pw(),
);
// CI files
add(
  "gitlab ci variables",
  ".gitlab-ci.yml",
  (v) => `variables:\n  DOCKER_AUTH_PASSWORD: "${v}"\n`,
  pw(),
);
add(
  "gitlab ci script login",
  ".gitlab-ci.yml",
  (v) => `  script:\n    - docker login -u gitlab-ci-token -p ${v} registry.gitlab.com\n`,
  "glpat-" + r21(20),
);
add(
  "github actions env",
  ".github/workflows/deploy.yml",
  (v) => `    env:\n      AWS_SECRET_ACCESS_KEY: ${v}\n`,
  alnum(40),
);
add(
  "github actions with password",
  ".github/workflows/ci.yml",
  (v) =>
    `      - uses: docker/login-action@v3\n        with:\n          username: acme\n          password: ${v}\n`,
  "dckr_pat_" + r21(27),
);
add(
  "circleci env",
  ".circleci/config.yml",
  (v) => `    environment:\n      SONAR_TOKEN: ${v}\n`,
  hex(40),
);
add(
  "travis env global",
  ".travis.yml",
  (v) => `env:\n  global:\n    - CODECOV_TOKEN=${v}\n`,
  uuid(),
);
add(
  "bitbucket pipelines",
  "bitbucket-pipelines.yml",
  (v) =>
    `        script:\n          - pipe: atlassian/ssh-run:0.4.1\n            variables:\n              SSH_PASSWORD: '${v}'\n`,
  pw(),
);
add(
  "azure pipelines variable",
  "azure-pipelines.yml",
  (v) => `variables:\n- name: sqlPassword\n  value: '${v}'\n`,
  pw(),
);
add("drone secret inline", ".drone.yml", (v) => `    settings:\n      password: ${v}\n`, pw());
add("buildkite env", ".buildkite/pipeline.yml", (v) => `env:\n  NPM_TOKEN: "${v}"\n`, npm());
add(
  "jenkinsfile sh curl",
  "Jenkinsfile",
  (v) => `sh "curl -u jenkins:${v} https://nexus.acme.dev/repository/raw/"\n`,
  pw(),
);
add(
  "woodpecker env",
  ".woodpecker.yml",
  (v) => `    environment:\n      - PYPI_TOKEN=${v}\n`,
  "pypi-AgEIcHlwaS5vcmc" + r21(60),
);
// docker-compose
add(
  "compose env list",
  "docker-compose.yml",
  (v) => `    environment:\n      - MYSQL_ROOT_PASSWORD=${v}\n`,
  pw(),
);
add(
  "compose env map",
  "compose.yaml",
  (v) => `    environment:\n      RABBITMQ_DEFAULT_PASS: ${v}\n`,
  pw(),
);
add(
  "compose command password",
  "docker-compose.yml",
  (v) => `    command: redis-server --requirepass ${v}\n`,
  pw(),
);
add(
  "compose healthcheck",
  "docker-compose.yml",
  (v) => `      test: ["CMD", "mysqladmin", "ping", "-uroot", "-p${v}"]\n`,
  pw(),
);
add(
  "compose url in env",
  "docker-compose.yml",
  (v) => `      - DATABASE_URL=postgres://app:${v}@db:5432/app\n`,
  pw(),
);
add(
  "compose x-anchor",
  "docker-compose.yml",
  (v) => `x-db-env: &db-env\n  PGPASSWORD: ${v}\n`,
  pw(),
);
add(
  "compose mongo initdb",
  "docker-compose.yml",
  (v) => `      MONGO_INITDB_ROOT_PASSWORD: "${v}"\n`,
  wpw(),
);
add("compose minio", "docker-compose.yml", (v) => `      MINIO_ROOT_PASSWORD: ${v}\n`, pw());
// terraform
add("tfvars password", "prod.tfvars", (v) => `db_password = "${v}"\n`, pw());
add(
  "tfvars map",
  "terraform.tfvars",
  (v) => `admin = {\n  username = "admin"\n  password = "${v}"\n}\n`,
  pw(),
);
add("auto.tfvars token", "secrets.auto.tfvars", (v) => `cloudflare_api_token = "${v}"\n`, r21(40));
add("tfvars.json", "terraform.tfvars.json", (v) => `{"datadog_api_key": "${v}"}\n`, hex(32));
add(
  "tf variable default",
  "variables.tf",
  (v) => `variable "db_password" {\n  type    = string\n  default = "${v}"\n}\n`,
  pw(),
);
add(
  "tf provider inline",
  "provider.tf",
  (v) => `provider "github" {\n  token = "${v}"\n}\n`,
  ghp(),
);
add("tf locals", "locals.tf", (v) => `locals {\n  admin_password = "${v}"\n}\n`, pw());
// clients' credential files
add(
  ".npmrc password",
  ".npmrc",
  (v) => `//registry.acme.dev/:username=ci\n//registry.acme.dev/:_password=${v}\n`,
  btoa(pw()),
);
add(
  ".pypirc password",
  ".pypirc",
  (v) => `[distutils]\nindex-servers = pypi\n\n[pypi]\nusername = __token__\npassword = ${v}\n`,
  "pypi-AgEIcHlwaS5vcmc" + r21(60),
);
add(
  ".pypirc private",
  ".pypirc",
  (v) => `[internal]\nrepository = https://pypi.acme.dev\nusername = deploy\npassword = ${v}\n`,
  pw(),
);
add(
  ".netrc one line",
  ".netrc",
  (v) => `machine api.heroku.com login bob@acme.dev password ${v}\n`,
  uuid(),
);
add(
  ".netrc multi line",
  "netrc",
  (v) => `machine github.com\n  login bot\n  password ${v}\n`,
  ghp(),
);
add("_netrc windows", "_netrc", (v) => `machine ftp.acme.dev login ftpuser password ${v}\n`, pw());
add(
  ".git-credentials",
  ".git-credentials",
  (v) => `https://bob:${v}@gitlab.acme.dev\n`,
  "glpat-" + r21(20),
);
add(
  "pip.conf index url",
  "pip.conf",
  (v) => `[global]\nindex-url = https://deploy:${v}@pypi.acme.dev/simple\n`,
  pw(),
);
add(
  "gradle.properties",
  "gradle.properties",
  (v) => `mavenUser=deploy\nmavenPassword=${v}\n`,
  pw(),
);
add(
  "settings.xml maven",
  ".m2/settings.xml",
  (v) =>
    `<server>\n  <id>nexus</id>\n  <username>deploy</username>\n  <password>${v}</password>\n</server>\n`,
  pw(),
);
add(
  "nuget.config",
  "NuGet.Config",
  (v) =>
    `<packageSourceCredentials>\n  <acme>\n    <add key="Username" value="ci" />\n    <add key="ClearTextPassword" value="${v}" />\n  </acme>\n</packageSourceCredentials>\n`,
  pw(),
);
add(
  "docker config auth",
  ".docker/config.json",
  (v) => `{"auths": {"registry.acme.dev": {"auth": "${v}"}}}\n`,
  btoa("ci:" + pw()),
);
add(
  "composer auth",
  "auth.json",
  (v) => `{"http-basic": {"repo.acme.dev": {"username": "ci", "password": "${v}"}}}\n`,
  pw(),
);
add("pgpass", ".pgpass", (v) => `db.acme.dev:5432:*:app:${v}\n`, pw());
add("my.cnf", ".my.cnf", (v) => `[client]\nuser=root\npassword=${v}\n`, pw());
add(
  "s3cfg",
  ".s3cfg",
  (v) => `[default]\naccess_key = AKIA${up(16)}\nsecret_key = ${v}\n`,
  alnum(40),
);
add(
  "rclone conf",
  "rclone.conf",
  (v) => `[remote]\ntype = sftp\nhost = 10.0.0.2\nuser = bob\npass = ${v}\n`,
  r21(40),
);
// notebooks' outputs
add(
  "ipynb stream output env",
  "analysis.ipynb",
  (v) =>
    `{"cells": [{"cell_type": "code", "outputs": [{"name": "stdout", "output_type": "stream", "text": ["DB_PASSWORD=${v}\\n"]}], "source": ["!env"]}]}\n`,
  pw(),
);
add(
  "ipynb execute_result dict",
  "explore.ipynb",
  (v) =>
    `{"cells": [{"outputs": [{"data": {"text/plain": ["{'user': 'admin', 'password': '${v}'}"]}, "output_type": "execute_result"}]}]}\n`,
  pw(),
);
add(
  "ipynb source cell token",
  "nb.ipynb",
  (v) =>
    `{"cells": [{"cell_type": "code", "source": ["import openai\\n", "openai.api_key = \\"${v}\\"\\n"]}]}\n`,
  "sk-" + alnum(48),
);
add(
  "ipynb html output table",
  "report.ipynb",
  (v) =>
    `{"outputs": [{"data": {"text/html": ["<table><tr><th>user</th><th>password</th></tr>", "<tr><td>admin</td><td>${v}</td></tr></table>"]}}]}\n`,
  pw(),
);
add(
  "ipynb stdout connection string",
  "etl.ipynb",
  (v) =>
    `{"outputs": [{"output_type": "stream", "text": ["Connecting to mysql://etl:${v}@db.acme.dev/dw\\n"]}]}\n`,
  pw(),
);
// Android and iOS
add(
  "android strings api key",
  "app/src/main/res/values/strings.xml",
  (v) => `<resources>\n    <string name="api_secret">${v}</string>\n</resources>\n`,
  alnum(40),
);
add(
  "android gradle buildConfigField",
  "app/build.gradle",
  (v) => `        buildConfigField "String", "API_SECRET", "\\"${v}\\""\n`,
  alnum(32),
);
add(
  "android gradle kts",
  "app/build.gradle.kts",
  (v) => `        buildConfigField("String", "CLIENT_SECRET", "\\"${v}\\"")\n`,
  alnum(32),
);
add(
  "android signing",
  "app/build.gradle",
  (v) =>
    `    signingConfigs {\n        release {\n            storePassword "${v}"\n            keyAlias "upload"\n        }\n    }\n`,
  pw(),
);
add(
  "android keystore.properties",
  "keystore.properties",
  (v) => `storePassword=${v}\nkeyPassword=${pw()}\nkeyAlias=upload\n`,
  pw(),
);
add(
  "android local.properties",
  "local.properties",
  (v) => `sdk.dir=/opt/android\nMAPS_API_SECRET=${v}\n`,
  alnum(40),
);
add(
  "ios plist secret",
  "Config/Secrets.plist",
  (v) => `<dict>\n\t<key>ClientSecret</key>\n\t<string>${v}</string>\n</dict>\n`,
  alnum(40),
);
add("ios xcconfig", "Config/Release.xcconfig", (v) => `API_TOKEN = ${v}\n`, alnum(40));
add(
  "ios swift let",
  "Sources/Keys.swift",
  (v) => `enum Keys {\n    static let apiSecret = "${v}"\n}\n`,
  alnum(40),
);
add("ios objc define", "Classes/Keys.h", (v) => `#define kAPISecret @"${v}"\n`, alnum(40));
add("fastlane env", "fastlane/.env", (v) => `FASTLANE_PASSWORD=${v}\n`, pw());
add(
  "fastlane appfile match",
  "fastlane/Matchfile",
  (v) => `ENV["MATCH_PASSWORD"] = "${v}"\n`,
  pw(),
);
add(
  "google-services oauth secret",
  "app/google-services.json",
  (v) =>
    `{"oauth_client": [{"client_id": "1-abc.apps.googleusercontent.com", "client_secret": "${v}"}]}\n`,
  "GOCSPX-" + r21(28),
);
// connection strings in many languages
add(
  "cs connection string",
  "Startup.cs",
  (v) =>
    `var cs = "Server=tcp:acme.database.windows.net,1433;Database=app;User ID=sa;Password=${v};";\n`,
  pw(),
);
add(
  "appsettings connection",
  "appsettings.json",
  (v) => `{"ConnectionStrings": {"Default": "Host=db;Username=app;Password=${v};Database=app"}}\n`,
  pw(),
);
add(
  "java jdbc getConnection",
  "Db.java",
  (v) =>
    `Connection c = DriverManager.getConnection("jdbc:mysql://db:3306/app", "root", "${v}");\n`,
  pw(),
);
add(
  "spring datasource",
  "application.properties",
  (v) => `spring.datasource.password=${v}\n`,
  pw(),
);
add(
  "py psycopg connect kw",
  "db.py",
  (v) => `conn = psycopg2.connect(host="db", user="app", password="${v}", dbname="app")\n`,
  pw(),
);
add(
  "py sqlalchemy url",
  "models.py",
  (v) => `engine = create_engine("postgresql+psycopg2://app:${v}@db/app")\n`,
  pw(),
);
add(
  "py pymongo uri",
  "mongo.py",
  (v) =>
    `client = MongoClient("mongodb+srv://app:${v}@cluster0.abcde.mongodb.net/?retryWrites=true")\n`,
  pw(),
);
add(
  "go sql.Open dsn",
  "db.go",
  (v) => `db, err := sql.Open("mysql", "app:${v}@tcp(127.0.0.1:3306)/app")\n`,
  pw(),
);
add(
  "go fmt dsn",
  "db.go",
  (v) => `dsn := fmt.Sprintf("host=%s user=app password=${v} dbname=app", host)\n`,
  pw(),
);
add(
  "node pg pool",
  "db.js",
  (v) => `const pool = new Pool({ user: 'app', host: 'db', password: '${v}', port: 5432 })\n`,
  pw(),
);
add(
  "node mysql createConnection",
  "db.js",
  (v) => `mysql.createConnection({host: 'localhost', user: 'root', password: '${v}'});\n`,
  pw(),
);
add(
  "node redis url",
  "cache.ts",
  (v) => `const redis = new Redis("redis://default:${v}@redis.acme.dev:6379");\n`,
  alnum(32),
);
add(
  "ruby database.yml",
  "config/database.yml",
  (v) => `production:\n  adapter: postgresql\n  username: app\n  password: ${v}\n`,
  pw(),
);
add(
  "ruby sequel connect",
  "db.rb",
  (v) => `DB = Sequel.connect("postgres://app:${v}@localhost/app")\n`,
  pw(),
);
add(
  "php pdo",
  "db.php",
  (v) => `$pdo = new PDO('mysql:host=localhost;dbname=app', 'root', '${v}');\n`,
  pw(),
);
add(
  "php mysqli",
  "db.php",
  (v) => `$conn = mysqli_connect("localhost", "root", "${v}", "app");\n`,
  pw(),
);
add(
  "rust sqlx url",
  "src/db.rs",
  (v) => `let pool = PgPool::connect("postgres://app:${v}@localhost/app").await?;\n`,
  pw(),
);
add(
  "elixir repo config",
  "config/dev.exs",
  (v) =>
    `config :app, App.Repo,\n  username: "postgres",\n  password: "${v}",\n  hostname: "localhost"\n`,
  pw(),
);
add("perl dbi", "db.pl", (v) => `my $dbh = DBI->connect("DBI:mysql:app", "root", "${v}");\n`, pw());
add(
  "r dbConnect",
  "analysis.R",
  (v) => `con <- dbConnect(RPostgres::Postgres(), user = "app", password = "${v}")\n`,
  pw(),
);
add(
  "kotlin exposed connect",
  "Db.kt",
  (v) => `Database.connect("jdbc:postgresql://db/app", user = "app", password = "${v}")\n`,
  pw(),
);
add("scala slick conf", "application.conf", (v) => `db.default.password = "${v}"\n`, pw());
add("odbc dsn ini", "odbc.ini", (v) => `[app]\nDriver=PostgreSQL\nUID=app\nPWD=${v}\n`, pw());
add("amqp url", "worker.py", (v) => `BROKER_URL = "amqp://guest:${v}@rabbit:5672//"\n`, pw());
add("sqlserver cmd", "deploy.ps1", (v) => `sqlcmd -S db -U sa -P '${v}' -Q "SELECT 1"\n`, pw());
add(
  "mongosh uri",
  "README.md",
  (v) => `mongosh "mongodb://admin:${v}@localhost:27017/admin"\n`,
  wpw(),
);
// more shapes real repositories hold
add("env with spaces around", ".env", (v) => `DB_PASSWORD = ${v}\n`, pw());
add("env multiline quoted key", ".env", (v) => `JWT_SECRET="${v}"\n`, r21(64));
add("properties colon", "app.properties", (v) => `mail.smtp.password: ${v}\n`, pw());
add("toml password", "config.toml", (v) => `[database]\npassword = "${v}"\n`, pw());
add(
  "xml attribute password",
  "web.config",
  (v) => `<add name="Db" connectionString="Data Source=.;User Id=sa;Password=${v}" />\n`,
  pw(),
);
add(
  "ansible inventory",
  "inventory.ini",
  (v) => `[web]\n10.0.0.5 ansible_user=root ansible_password=${v}\n`,
  pw(),
);
add("ansible vars vault-less", "group_vars/all.yml", (v) => `mysql_root_password: ${v}\n`, pw());
add(
  "k8s env value",
  "deployment.yaml",
  (v) => `        env:\n        - name: REDIS_PASSWORD\n          value: "${v}"\n`,
  pw(),
);
add(
  "helm values nested",
  "values.yaml",
  (v) => `postgresql:\n  auth:\n    postgresPassword: ${v}\n`,
  pw(),
);
add(
  "helm set in README",
  "README.md",
  (v) => `helm install app ./chart --set auth.rootPassword=${v}\n`,
  pw(),
);
add("wp-config define", "wp-config.php", (v) => `define( 'DB_PASSWORD', '${v}' );\n`, pw());
add(
  "django settings",
  "settings.py",
  (v) => `SECRET_KEY = '${v}'\n`,
  "django-insecure-" + ch(A + "!@#%^&*(-_=+)", 50),
);
add("laravel env", ".env", (v) => `APP_KEY=base64:${v}\n`, btoa(alnum(32)));
add("rails master key", "config/master.key", (v) => `${v}\n`, hex(32));
add("flask secret", "app.py", (v) => `app.secret_key = b'${v}'\n`, alnum(32));
add(
  "vault token in script",
  "scripts/unseal.sh",
  (v) => `export VAULT_TOKEN=${v}\n`,
  "hvs." + r21(90),
);
add("openvpn auth file", "auth.txt", (v) => `vpnuser\n${v}\n`, pw());
add(
  "wpa_supplicant psk",
  "wpa_supplicant.conf",
  (v) => `network={\n    ssid="office"\n    psk="${v}"\n}\n`,
  pw(),
);
add("mosquitto passwd plain", "mosquitto/config/passwords.txt", (v) => `sensor1:${v}\n`, pw());
add(
  "cypress env",
  "cypress.env.json",
  (v) => `{"username": "qa@acme.dev", "password": "${v}"}\n`,
  pw(),
);
add(
  "playwright login test",
  "tests/login.spec.ts",
  (v) => `await page.fill('#password', '${v}');\n`,
  pw(),
);
add(
  "selenium send_keys",
  "tests/test_login.py",
  (v) => `driver.find_element(By.ID, "password").send_keys("${v}")\n`,
  pw(),
);
add(
  "postman env value",
  "env.postman_environment.json",
  (v) => `{"values": [{"key": "password", "value": "${v}", "enabled": true}]}\n`,
  pw(),
);
add(
  "http file basic",
  "requests.http",
  (v) =>
    `POST https://api.acme.dev/login\nContent-Type: application/json\n\n{"username": "admin", "password": "${v}"}\n`,
  pw(),
);
add(
  "curl data password",
  "README.md",
  (v) =>
    `curl -X POST https://api.acme.dev/token -d 'grant_type=password&username=admin&password=${v}'\n`,
  pw(),
);
add(
  "log line password",
  "logs/app.log",
  (v) => `2026-11-30T10:00:00Z DEBUG login attempt user=admin password=${v} ok\n`,
  pw(),
);
add("sql create user", "db/init.sql", (v) => `CREATE USER app WITH PASSWORD '${v}';\n`, pw());
add(
  "sql insert users row",
  "db/seed.sql",
  (v) => `INSERT INTO users (email, password) VALUES ('admin@acme.dev', '${v}');\n`,
  pw(),
);
add(
  "k8s basic-auth secret stringData",
  "secret.yaml",
  (v) =>
    `kind: Secret\ntype: kubernetes.io/basic-auth\nstringData:\n  username: admin\n  password: ${v}\n`,
  pw(),
);
add(
  "argocd repo secret",
  "repo.yaml",
  (v) => `kind: Secret\nstringData:\n  url: https://github.com/acme/app\n  password: ${v}\n`,
  ghp(),
);
add(
  "systemd Environment",
  "app.service",
  (v) => `[Service]\nEnvironment="API_TOKEN=${v}"\n`,
  alnum(40),
);
add(
  "powershell securestring",
  "deploy.ps1",
  (v) => `$pw = ConvertTo-SecureString "${v}" -AsPlainText -Force\n`,
  pw(),
);
add(
  "powershell credential",
  "deploy.ps1",
  (v) =>
    `$cred = New-Object PSCredential("admin", (ConvertTo-SecureString '${v}' -AsPlainText -Force))\n`,
  pw(),
);
add(
  "slack webhook",
  "notify.sh",
  (v) => `curl -X POST ${v} -d '{"text":"done"}'\n`,
  "https://hooks.slack.com/services/T" + up(8) + "/B" + up(10) + "/" + alnum(24),
);
add(
  "discord webhook",
  "bot.py",
  (v) => `WEBHOOK = "${v}"\n`,
  "https://discord.com/api/webhooks/" + digits(18) + "/" + r21(68),
);
add(
  "aws key pair prose",
  "docs/aws.md",
  (v) => `Use access key \`AKIA${up(16)}\` and secret \`${v}\`.\n`,
  alnum(40),
);
add(
  "private key in json escaped",
  "sa.json",
  (v) => `{"private_key": "-----BEGIN PRIVATE KEY-----\\n${v}\\n-----END PRIVATE KEY-----\\n"}\n`,
  b64(64),
);
// the twenty-second hunt's look-alikes that must stay
kv21(
  "md table placeholder password column",
  "docs/environments.md",
  (v) => `| Environment | User | Password |\n| --- | --- | --- |\n| staging | admin | ${v} |\n`,
  "(in 1Password)",
);
kv21(
  "md table parameters of a password",
  "docs/api.md",
  (v) => `| Name | Type | Description |\n|---|---|---|\n| password | string | ${v} |\n`,
  "The user's new password, at least 12 characters",
);
kv21(
  "md table checksum column",
  "RELEASES.md",
  (v) => `| File | SHA-256 |\n|---|---|\n| app.tar.gz | ${v} |\n`,
  hex(64),
);
kv21(
  "md table token type column",
  "docs/auth.md",
  (v) => `| Token | Lifetime |\n|---|---|\n| access token | ${v} |\n`,
  "15 minutes",
);
kv21(
  "md table password policy",
  "docs/security.md",
  (v) => `| Setting | Value |\n|---|---|\n| password min length | ${v} |\n`,
  "12",
);
kv21(
  "html table password hint",
  "docs/creds.html",
  (v) =>
    `<table>\n<tr><th>User</th><th>Password</th></tr>\n<tr><td>admin</td><td>${v}</td></tr>\n</table>\n`,
  "&lt;set at install&gt;",
);
kv21(
  "csv password header hashed column empty",
  "fixtures/users.csv",
  (v) => `id,email,password_changed_at\n1,admin@acme.dev,${v}\n`,
  "2026-01-15T10:00:00Z",
);
kv21(
  "csv uuid column",
  "fixtures/tenants.csv",
  (v) => `tenant,id,plan\nacme,${v},pro\n`,
  uuid(),
);
kv21(
  "prose client/server",
  "README.md",
  (v) => `Login uses a ${v} protocol over TCP/IP.\n`,
  "client/server",
);
kv21(
  "prose login path",
  "docs/quickstart.md",
  (v) => `Log in at ${v} with the account you created.\n`,
  "http://localhost:8080/admin/login",
);
kv21(
  "prose user / password placeholder",
  "docs/demo.md",
  (v) => `Log in with \`admin\` / \`${v}\`.\n`,
  "<your-password>",
);
kv21(
  "prose user password from env",
  "README.md",
  (v) => `Username is \`admin\` and password is \`${v}\`.\n`,
  "$ADMIN_PASSWORD",
);
kv21(
  "comment read/write",
  "src/io.ts",
  (v) => `// login: opens the session ${v} for the user\n`,
  "read/write",
);
kv21(
  "comment password rules",
  "app/validators.py",
  (v) => `# password must match ${v}\n`,
  "[A-Za-z0-9]{12,}",
);
kv21(
  "comment user and role",
  "main.go",
  (v) => `// test user: alice, role: ${v}\n`,
  "maintainer",
);
kv21(
  "prose twelve words not a seed",
  "docs/intro.md",
  (v) => `${v}\n`,
  "The quick brown fox jumps over the lazy dog again and again today",
);
kv21(
  "bip39 word list file",
  "src/wordlist/english.txt",
  (v) => `${v}\n`,
  "abandon\nability\nable\nabout\nabove\nabsent",
);
kv21(
  "configmap b64 of b64 public",
  "k8s/cm.yaml",
  (v) => `kind: ConfigMap\ndata:\n  logo: ${v}\n`,
  b64b64("listen 8080\nworkers 4\n"),
);
kv21(
  "yaml flow map plain",
  "k8s/cm.yaml",
  (v) => `kind: ConfigMap\ndata: {LOG_LEVEL: ${v}, PORT: "8080"}\n`,
  "debug",
);
kv21(
  "yaml flow map password ref",
  "values.yaml",
  (v) => `auth: {username: admin, password: ${v}}\n`,
  "${DB_PASSWORD}",
);
kv21(
  "yaml flow secretKeyRef",
  "deploy.yaml",
  (v) => `        env: [{name: DB_PASSWORD, valueFrom: {secretKeyRef: {name: db, key: ${v}}}}]\n`,
  "password",
);
kv21(
  "json configmap plain data",
  "k8s/cm.json",
  (v) => `{"kind":"ConfigMap","data":{"LOG_LEVEL":"${v}"}}\n`,
  "info",
);
kv21(
  "json configmap binaryData png",
  "k8s/cm.json",
  (v) => `{"kind":"ConfigMap","binaryData":{"logo.png":"${v}"}}\n`,
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
);
kv21(
  "json data b64 public config",
  "k8s/cm.json",
  (v) => `{"kind":"ConfigMap","data":{"app.conf":"${v}"}}\n`,
  btoa("listen 8080\nworkers 4\nlog_level info\n"),
);
kv21(
  "helm b64enc values ref",
  "templates/secret.yaml",
  (v) => `data:\n  password: ${v}\n`,
  "{{ .Values.password | b64enc | quote }}",
);
kv21(
  "helm randAlphaNum",
  "templates/secret.yaml",
  (v) => `data:\n  password: ${v}\n`,
  "{{ randAlphaNum 24 | b64enc }}",
);
kv21(
  "helm default name",
  "templates/deployment.yaml",
  (v) => `          image: {{ .Values.image | default ${v} }}\n`,
  '"nginx:1.27"',
);
kv21(
  "yaml.j2 password var",
  "roles/app/templates/config.yaml.j2",
  (v) => `database:\n  password: "${v}"\n`,
  "{{ app_db_password }}",
);
kv21(
  "yaml.tpl password var",
  "deploy/values.yaml.tpl",
  (v) => `db:\n  password: ${v}\n`,
  "${db_password}",
);
kv21(
  "gh secret set from env",
  "scripts/secrets.sh",
  (v) => `echo "${v}" | tee /dev/null | gh secret set NPM_TOKEN\n`,
  "$NPM_TOKEN",
);
kv21(
  "echo continued base64 of a path",
  "scripts/k8s.sh",
  (v) => `cat ${v} |\\\n  base64 -w0\n`,
  "config/app.yaml",
);
kv21("tfvars region", "prod.tfvars", (v) => `region = "${v}"\n`, "eu-west-1");
kv21("tfvars password var", "prod.tfvars", (v) => `db_password = ${v}\n`, "var.db_password");
kv21(
  "compose env from host",
  "docker-compose.yml",
  (v) => `    environment:\n      - MYSQL_ROOT_PASSWORD=${v}\n`,
  "${MYSQL_ROOT_PASSWORD:?set it}",
);
kv21(
  "compose secrets file",
  "docker-compose.yml",
  (v) => `      POSTGRES_PASSWORD_FILE: ${v}\n`,
  "/run/secrets/db_password",
);
kv21(
  "npmrc env token",
  ".npmrc",
  (v) => `//registry.npmjs.org/:_authToken=${v}\n`,
  "${NPM_TOKEN}",
);
kv21(
  "android strings app name",
  "app/src/main/res/values/strings.xml",
  (v) => `<string name="app_name">${v}</string>\n`,
  "Acme Notes",
);
kv21(
  "ios plist bundle id",
  "Info.plist",
  (v) => `<key>CFBundleIdentifier</key>\n<string>${v}</string>\n`,
  "dev.acme.notes",
);
kv21(
  "google-services api key is public",
  "app/google-services.json",
  (v) => `{"client": [{"client_info": {"mobilesdk_app_id": "${v}"}}]}\n`,
  "1:123456789012:android:" + hex(16),
);
kv21(
  "connection string no password",
  "appsettings.json",
  (v) => `{"ConnectionStrings": {"Default": "${v}"}}\n`,
  "Server=(localdb)\\\\mssqllocaldb;Database=app;Trusted_Connection=True;",
);
kv21(
  "jdbc url no creds",
  "application.properties",
  (v) => `spring.datasource.url=${v}\n`,
  "jdbc:postgresql://localhost:5432/app",
);
kv21(
  "ipynb output hash",
  "analysis.ipynb",
  (v) => `{"outputs": [{"output_type": "stream", "text": ["model sha256: ${v}\\n"]}]}\n`,
  hex(64),
);
kv21(
  "ipynb output uuid",
  "analysis.ipynb",
  (v) => `{"outputs": [{"output_type": "stream", "text": ["run id ${v}\\n"]}]}\n`,
  uuid(),
);
kv21(
  "ssh public key in table",
  "docs/keys.md",
  (v) => `| User | Public key |\n|---|---|\n| bob | \`${v}\` |\n`,
  "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI" + b64(43),
);
kv21(
  "git sha in table",
  "CHANGELOG.md",
  (v) => `| Version | Commit |\n|---|---|\n| 1.2.0 | ${v} |\n`,
  hex(40),
);
kv21(
  "example password in a test of the validator",
  "tests/test_validator.py",
  (v) => `assert not is_strong(${v})\n`,
  '"password"',
);
// The twenty-third hunt's samples (nineteenth session, leak28, written before reading the rules):
// config languages the rounds before had not (CUE, Jsonnet, Pkl, KCL, Nickel, Starlark, Bicep,
// `.reg`, `.psd1`), daemons' files (pgbouncer, NetworkManager, OpenVPN, chap and ipsec secrets,
// mbsync, rsyncd, davfs2, fstab and autofs, snmpd, collectd, Zabbix, Nagios, Icinga), data and ML
// tools' files (Streamlit, Kaggle, Databricks, SnowSQL, DVC, MLflow, Kedro, Meltano), SQL's other
// ways to store a login (user mappings, database links, scoped credentials, DuckDB secrets,
// replication sources, subscriptions, ClickHouse, COPY's credentials), histories of other
// shells and REPLs (zsh's timestamps, fish, PowerShell, MySQL's `\040`), debug dumps of many
// languages (PHP's print_r and var_dump, Rust's Debug, Elixir's inspect, Go maps, tracebacks'
// locals, strace, docker inspect), Apple's and Android's build files, Renovate and Dependabot,
// keys in base64 of their armor, PEM in code literals, and providers' prefixes not probed yet.
const r28 = (n: number) => ch(A + "_-", n);
const pem28 = (kind: string) =>
  `-----BEGIN ${kind}-----\n${b64(64)}\n${b64(64)}\n${b64(40)}=\n-----END ${kind}-----`;
// config languages
add(
  "cue string",
  "deploy/db.cue",
  (v) => `db: {\n\tuser:     "app"\n\tpassword: "${v}"\n}\n`,
  pw(),
);
add(
  "cue default",
  "schema.cue",
  (v) => `#Config: {\n\tapiToken: string | *"${v}"\n}\n`,
  r28(40),
);
add(
  "jsonnet local",
  "env/prod.jsonnet",
  (v) => `local dbPassword = '${v}';\n{\n  database: { password: dbPassword },\n}\n`,
  pw(),
);
add(
  "libsonnet field",
  "lib/secrets.libsonnet",
  (v) => `{\n  grafana+:: {\n    adminPassword: '${v}',\n  },\n}\n`,
  pw(),
);
add(
  "jsonnet hidden field",
  "main.jsonnet",
  (v) => `{\n  slackToken:: "${v}",\n  alerts: { token: $.slackToken },\n}\n`,
  "xoxb-" + digits(12) + "-" + digits(13) + "-" + alnum(24),
);
add("pkl property", "config/App.pkl", (v) => `database {\n  password = "${v}"\n}\n`, pw());
add("pkl typed", "Secrets.pkl", (v) => `apiKey: String = "${v}"\n`, r28(40));
add(
  "kcl schema default",
  "main.k",
  (v) => `schema Db:\n    user: str = "app"\n    password: str = "${v}"\n`,
  pw(),
);
add("kcl config", "prod.k", (v) => `app = App {\n    secretKey = "${v}"\n}\n`, r28(50));
add(
  "nickel record",
  "config.ncl",
  (v) => `{\n  smtp = {\n    password | String = "${v}",\n  },\n}\n`,
  pw(),
);
add(
  "Tiltfile secret",
  "Tiltfile",
  (v) => `k8s_yaml(secret_from_dict("api", inputs = {\n    "API_KEY": "${v}",\n}))\n`,
  r28(40),
);
add(
  "BUILD.bazel env",
  "BUILD.bazel",
  (v) => `go_test(\n    name = "integration_test",\n    env = {"REGISTRY_PASSWORD": "${v}"},\n)\n`,
  pw(),
);
add(
  "starlark bzl constant",
  "tools/defs.bzl",
  (v) => `_ARTIFACTORY_TOKEN = "${v}"\n`,
  "cmVmdGtuOjAxOjE3" + r28(48),
);
add(
  "bicep secure param default",
  "main.bicep",
  (v) => `@secure()\nparam adminPassword string = '${v}'\n`,
  pw(),
);
add(
  "bicep resource property",
  "sql.bicep",
  (v) =>
    `resource sql 'Microsoft.Sql/servers@2022-05-01-preview' = {\n  properties: {\n    administratorLogin: 'sqladmin'\n    administratorLoginPassword: '${v}'\n  }\n}\n`,
  pw(),
);
add(
  "bicepparam",
  "main.bicepparam",
  (v) => `using './main.bicep'\nparam vmAdminPassword = '${v}'\n`,
  pw(),
);
add(
  ".reg autologon",
  "autologon.reg",
  (v) =>
    `[HKEY_LOCAL_MACHINE\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Winlogon]\n"AutoAdminLogon"="1"\n"DefaultUserName"="kiosk"\n"DefaultPassword"="${v}"\n`,
  pw(),
);
add(
  ".psd1 data",
  "Config.psd1",
  (v) => `@{\n    ServiceAccount = 'svc_build'\n    ServicePassword = '${v}'\n}\n`,
  pw(),
);
add(
  "powershell PSCredential",
  "deploy.ps1",
  (v) =>
    `$cred = New-Object System.Management.Automation.PSCredential('CORP\\svc', (ConvertTo-SecureString '${v}' -AsPlainText -Force))\n`,
  pw(),
);
add(
  "powershell splat",
  "Invoke-Deploy.ps1",
  (v) => `$params = @{\n    Server   = 'sql01'\n    Password = '${v}'\n}\nInvoke-Sqlcmd @params\n`,
  pw(),
);
add(
  "hcl heredoc json",
  "main.tf",
  (v) =>
    `resource "aws_secretsmanager_secret_version" "db" {\n  secret_string = <<-EOT\n    {"username": "app", "password": "${v}"}\n  EOT\n}\n`,
  pw(),
);
add(
  "hcl jsonencode",
  "secrets.tf",
  (v) => `  secret_string = jsonencode({\n    api_key = "${v}"\n  })\n`,
  r28(40),
);
add(
  "nix initialPassword",
  "configuration.nix",
  (v) => `  users.users.alice = {\n    isNormalUser = true;\n    initialPassword = "${v}";\n  };\n`,
  pw(),
);
add(
  "nix environment variables",
  "flake.nix",
  (v) => `        environment.variables.OPENAI_API_KEY = "${v}";\n`,
  "sk-proj-" + r28(48),
);
// daemons' files
add(
  "pgbouncer userlist",
  "pgbouncer/userlist.txt",
  (v) => `"app" "${v}"\n"stats" "md5${hex(32)}"\n`,
  pw(),
);
add(
  "pgbouncer ini auth",
  "pgbouncer.ini",
  (v) => `[databases]\napp = host=db port=5432 dbname=app user=app password=${v}\n`,
  pw(),
);
add(
  "nmconnection psk",
  "system-connections/Office.nmconnection",
  (v) => `[wifi-security]\nkey-mgmt=wpa-psk\npsk=${v}\n`,
  pw(),
);
add(
  "nmconnection 802-1x",
  "eduroam.nmconnection",
  (v) => `[802-1x]\neap=peap;\nidentity=bob@uni.example\npassword=${v}\n`,
  pw(),
);
add(
  "openvpn auth-user-pass file",
  "vpn/auth.txt",
  (v) => `vpnuser\n${v}\n`,
  pw(),
);
add(
  "openvpn inline auth",
  "client.ovpn",
  (v) => `client\nremote vpn.example.com 1194\n<auth-user-pass>\nbob\n${v}\n</auth-user-pass>\n`,
  pw(),
);
add("chap-secrets", "ppp/chap-secrets", (v) => `# client server secret IP\nbob * "${v}" *\n`, pw());
add("ipsec.secrets psk", "ipsec.secrets", (v) => `: PSK "${v}"\n`, r28(32));
add(
  "ipsec.secrets eap",
  "ipsec.secrets",
  (v) => `alice : EAP "${v}"\n`,
  pw(),
);
add(
  "mbsyncrc Pass",
  ".mbsyncrc",
  (v) => `IMAPAccount work\nHost imap.example.com\nUser bob\nPass ${v}\n`,
  pw(),
);
add("rsyncd.secrets", "rsyncd.secrets", (v) => `backup:${v}\n`, pw());
add(
  "davfs2 secrets",
  "davfs2/secrets",
  (v) => `https://dav.example.com/remote.php/webdav bob ${v}\n`,
  pw(),
);
add(
  "fstab cifs",
  "fstab",
  (v) => `//nas/share /mnt/share cifs username=bob,password=${v},uid=1000 0 0\n`,
  pw(),
);
add(
  "autofs cifs",
  "auto.nas",
  (v) => `media -fstype=cifs,rw,username=media,password=${v} ://nas/media\n`,
  pw(),
);
add(
  "snmpd createUser",
  "snmpd.conf",
  (v) => `createUser monitor SHA "${v}" AES "${pw()}"\n`,
  pw(),
);
add("snmpd rocommunity", "snmpd.conf", (v) => `rocommunity ${v} 10.0.0.0/8\n`, mixed(16));
add(
  "collectd mysql",
  "collectd.conf",
  (v) =>
    `<Plugin mysql>\n  <Database app>\n    Host "localhost"\n    User "collectd"\n    Password "${v}"\n  </Database>\n</Plugin>\n`,
  pw(),
);
add(
  "zabbix server DBPassword",
  "zabbix_server.conf",
  (v) => `DBUser=zabbix\nDBPassword=${v}\n`,
  pw(),
);
add(
  "nagios resource USER",
  "nagios/resource.cfg",
  (v) => `$USER1$=/usr/lib/nagios/plugins\n$USER3$=${v}\n`,
  pw(),
);
add(
  "icinga api user",
  "conf.d/api-users.conf",
  (v) => `object ApiUser "root" {\n  password = "${v}"\n  permissions = [ "*" ]\n}\n`,
  pw(),
);
add(
  "mongod.conf key password",
  "mongod.conf",
  (v) => `net:\n  tls:\n    mode: requireTLS\n    certificateKeyFilePassword: ${v}\n`,
  pw(),
);
add(
  "redis.conf masterauth",
  "redis.conf",
  (v) => `replicaof 10.0.0.1 6379\nmasterauth ${v}\n`,
  pw(),
);
add(
  "redis ACL user",
  "users.acl",
  (v) => `user worker on >${v} ~jobs:* +@all\n`,
  pw(),
);
add(
  "kafka jaas file",
  "kafka_server_jaas.conf",
  (v) =>
    `KafkaServer {\n  org.apache.kafka.common.security.scram.ScramLoginModule required\n  username="broker"\n  password="${v}";\n};\n`,
  pw(),
);
add(
  "trino catalog",
  "etc/catalog/postgres.properties",
  (v) => `connector.name=postgresql\nconnection-user=trino\nconnection-password=${v}\n`,
  pw(),
);
// data and ML tools
add(
  "streamlit secrets.toml",
  ".streamlit/secrets.toml",
  (v) => `[connections.snowflake]\naccount = "xy12345"\nuser = "app"\npassword = "${v}"\n`,
  pw(),
);
add(
  "kaggle.json",
  ".kaggle/kaggle.json",
  (v) => `{"username":"datafan","key":"${v}"}\n`,
  hex(32),
);
add(
  ".databrickscfg",
  ".databrickscfg",
  (v) => `[DEFAULT]\nhost = https://adb-1234.azuredatabricks.net\ntoken = ${v}\n`,
  "dapi" + hex(32),
);
add(
  "snowsql config",
  ".snowsql/config",
  (v) => `[connections.prod]\naccountname = xy12345\nusername = loader\npassword = ${v}\n`,
  pw(),
);
add(
  "snowflake connections.toml",
  ".snowflake/connections.toml",
  (v) => `[default]\naccount = "xy12345"\nuser = "etl"\npassword = "${v}"\n`,
  pw(),
);
add(
  "dvc config.local",
  ".dvc/config.local",
  (v) => `['remote "storage"']\n    access_key_id = AKIA${up(16)}\n    secret_access_key = ${v}\n`,
  b64(40).replace(/[+/]/g, "x"),
);
add(
  "mlflow env",
  "mlflow.env",
  (v) => `MLFLOW_TRACKING_USERNAME=admin\nMLFLOW_TRACKING_PASSWORD=${v}\n`,
  pw(),
);
add(
  "kedro credentials.yml",
  "conf/local/credentials.yml",
  (v) =>
    `dev_s3:\n  client_kwargs:\n    aws_access_key_id: AKIA${
      up(16)
    }\n    aws_secret_access_key: ${v}\n`,
  b64(40).replace(/[+/]/g, "y"),
);
add(
  "meltano.yml",
  "meltano.yml",
  (v) =>
    `plugins:\n  extractors:\n  - name: tap-postgres\n    config:\n      host: db\n      password: ${v}\n`,
  pw(),
);
add(
  "airflow connection uri env",
  ".env",
  (v) => `AIRFLOW_CONN_WAREHOUSE='snowflake://loader:${v}@xy12345/analytics'\n`,
  pw(),
);
add(
  "wandb netrc",
  ".netrc",
  (v) => `machine api.wandb.ai\n  login user\n  password ${v}\n`,
  hex(40),
);
add(
  ".Renviron",
  ".Renviron",
  (v) => `GITHUB_PAT=${v}\n`,
  "github_pat_11" + alnum(20) + "_" + alnum(59),
);
add(
  "R keyring-less",
  "analysis.R",
  (v) =>
    `con <- dbConnect(RPostgres::Postgres(), host = "db", user = "analyst", password = "${v}")\n`,
  pw(),
);
add(
  "julia env",
  "startup.jl",
  (v) => `ENV["AWS_SECRET_ACCESS_KEY"] = "${v}"\n`,
  b64(40).replace(/[+/]/g, "z"),
);
// SQL's other places for a login
add(
  "postgres user mapping",
  "migrations/0007_fdw.sql",
  (v) => `CREATE USER MAPPING FOR app SERVER legacy\n  OPTIONS (user 'reader', password '${v}');\n`,
  pw(),
);
add(
  "postgres server options",
  "fdw.sql",
  (v) => `ALTER USER MAPPING FOR CURRENT_USER SERVER crm OPTIONS (SET password '${v}');\n`,
  pw(),
);
add(
  "dblink connect",
  "report.sql",
  (v) =>
    `SELECT * FROM dblink('host=10.0.0.7 dbname=crm user=report password=${v}', 'SELECT id FROM t') AS t(id int);\n`,
  pw(),
);
add(
  "oracle database link",
  "links.sql",
  (v) => `CREATE DATABASE LINK hr_link CONNECT TO hr IDENTIFIED BY "${v}" USING 'HRDB';\n`,
  pw(),
);
add(
  "mssql scoped credential",
  "setup.sql",
  (v) =>
    `CREATE DATABASE SCOPED CREDENTIAL BlobCred\nWITH IDENTITY = 'SHARED ACCESS SIGNATURE',\nSECRET = '${v}';\n`,
  "sv=2022-11-02&ss=b&srt=co&sp=rl&se=2027-01-01T00:00:00Z&sig=" + b64(43) + "%3D",
);
add(
  "mssql master key",
  "setup.sql",
  (v) => `CREATE MASTER KEY ENCRYPTION BY PASSWORD = '${v}';\n`,
  pw(),
);
add(
  "mssql create login",
  "logins.sql",
  (v) => `CREATE LOGIN [etl_user] WITH PASSWORD = N'${v}', CHECK_POLICY = OFF;\n`,
  pw(),
);
add(
  "duckdb create secret",
  "load.sql",
  (v) =>
    `CREATE SECRET s3cred (\n    TYPE S3,\n    KEY_ID 'AKIA${
      up(16)
    }',\n    SECRET '${v}',\n    REGION 'eu-west-1'\n);\n`,
  b64(40).replace(/[+/]/g, "q"),
);
add(
  "mysql replication source",
  "replica.sql",
  (v) =>
    `CHANGE REPLICATION SOURCE TO SOURCE_HOST='10.0.0.5', SOURCE_USER='repl', SOURCE_PASSWORD='${v}';\n`,
  pw(),
);
add(
  "postgres subscription",
  "logical.sql",
  (v) =>
    `CREATE SUBSCRIPTION sub1 CONNECTION 'host=primary dbname=app user=repl password=${v}' PUBLICATION pub1;\n`,
  pw(),
);
add(
  "postgresql.auto.conf primary_conninfo",
  "postgresql.auto.conf",
  (v) => `primary_conninfo = 'user=replicator password=${v} host=10.0.0.4 port=5432'\n`,
  pw(),
);
add(
  "clickhouse create user",
  "users.sql",
  (v) => `CREATE USER grafana IDENTIFIED WITH plaintext_password BY '${v}';\n`,
  pw(),
);
add(
  "clickhouse users.xml",
  "users.d/app.xml",
  (v) =>
    `<clickhouse>\n  <users>\n    <app>\n      <password>${v}</password>\n    </app>\n  </users>\n</clickhouse>\n`,
  pw(),
);
add(
  "redshift copy credentials",
  "load.sql",
  (v) =>
    `COPY events FROM 's3://bucket/events/'\nCREDENTIALS 'aws_access_key_id=AKIA${
      up(16)
    };aws_secret_access_key=${v}'\nFORMAT AS JSON 'auto';\n`,
  b64(40).replace(/[+/]/g, "w"),
);
add(
  "snowflake stage credentials",
  "stage.sql",
  (v) =>
    `CREATE STAGE raw URL='s3://bucket/raw/'\n  CREDENTIALS=(AWS_KEY_ID='AKIA${
      up(16)
    }' AWS_SECRET_KEY='${v}');\n`,
  b64(40).replace(/[+/]/g, "v"),
);
add(
  "mysql set password",
  "reset.sql",
  (v) => `SET PASSWORD FOR 'app'@'%' = '${v}';\n`,
  pw(),
);
add(
  "postgres alter role in psql history",
  ".psql_history",
  (v) => `\\c app\nALTER ROLE reporter WITH LOGIN PASSWORD '${v}';\n`,
  pw(),
);
add(
  "snowflake alter user",
  "users.sql",
  (v) => `ALTER USER loader SET PASSWORD = '${v}' MUST_CHANGE_PASSWORD = FALSE;\n`,
  pw(),
);
// histories of other shells and REPLs
add(
  "zsh history timestamped",
  ".zsh_history",
  (v) => `: 1732900000:0;mysql -u root -p'${v}' app\n`,
  pw(),
);
add(
  "zsh history export",
  ".zsh_history",
  (v) => `: 1732900123:0;export STRIPE_SECRET_KEY=${v}\n`,
  "sk_live_" + alnum(24),
);
add(
  "fish history",
  "fish/fish_history",
  (v) => `- cmd: psql "postgresql://admin:${v}@db.internal:5432/app"\n  when: 1732900000\n`,
  pw(),
);
add(
  "fish history set -x",
  "fish/fish_history",
  (v) => `- cmd: set -x OPENAI_API_KEY ${v}\n  when: 1732900001\n`,
  "sk-proj-" + r28(48),
);
add(
  "powershell history",
  "PSReadLine/ConsoleHost_history.txt",
  (v) => `$env:AZURE_CLIENT_SECRET = "${v}"\n`,
  ch(A, 3) + "8Q~" + r28(34),
);
add(
  "powershell history connect",
  "ConsoleHost_history.txt",
  (v) =>
    `Connect-AzAccount -ServicePrincipal -Credential (New-Object PSCredential('appid', (ConvertTo-SecureString '${v}' -AsPlainText -Force))) -Tenant t\n`,
  pw(),
);
add(
  "mysql history escaped",
  ".mysql_history",
  (v) => `CREATE\\040USER\\040'app'@'%'\\040IDENTIFIED\\040BY\\040'${v}';\n`,
  pw(),
);
add(
  "redis-cli history",
  ".rediscli_history",
  (v) => `AUTH default ${v}\nKEYS *\n`,
  pw(),
);
add(
  "python history",
  ".python_history",
  (v) => `import openai\nopenai.api_key = "${v}"\n`,
  "sk-proj-" + r28(48),
);
add(
  "node repl history",
  ".node_repl_history",
  (v) => `const client = new Client({ auth: "${v}" })\n`,
  "ntn_" + digits(11) + alnum(35),
);
add(
  "sqlite history attach",
  ".sqlite_history",
  (v) => `ATTACH 'file:enc.db?key=${v}' AS enc;\n`,
  pw(),
);
add(
  "bash history sshpass scp",
  ".bash_history",
  (v) => `sshpass -p "${v}" scp backup.tgz root@10.0.0.9:/srv\n`,
  pw(),
);
add(
  "bash history curl header",
  ".bash_history",
  (v) => `curl -H "PRIVATE-TOKEN: ${v}" https://gitlab.example.com/api/v4/projects\n`,
  "glpat-" + r28(20),
);
add(
  "bash history xfreerdp",
  ".bash_history",
  (v) => `xfreerdp /v:10.0.0.20 /u:Administrator /p:${v} /cert:ignore\n`,
  pw(),
);
add(
  "bash history keytool",
  ".bash_history",
  (v) => `keytool -importkeystore -srckeystore a.p12 -srcstorepass ${v} -destkeystore b.jks\n`,
  pw(),
);
add(
  "bash history openssl pkcs12",
  ".bash_history",
  (v) => `openssl pkcs12 -export -in cert.pem -inkey key.pem -out bundle.p12 -passout pass:${v}\n`,
  pw(),
);
add(
  "bash history mkpasswd",
  ".bash_history",
  (v) => `echo '${v}' | mkpasswd -m sha-512 -s\n`,
  pw(),
);
add(
  "bash history ldapmodify",
  ".bash_history",
  (v) => `ldapmodify -x -H ldap://ldap -D "cn=admin,dc=example,dc=org" -w '${v}' -f user.ldif\n`,
  pw(),
);
add(
  "bash history bcp",
  ".bash_history",
  (v) => `bcp dbo.Orders out orders.dat -S sql01 -U sa -P ${v} -c\n`,
  pw(),
);
// debug dumps in many languages
add(
  "php print_r",
  "storage/logs/debug.log",
  (v) =>
    `Array\n(\n    [driver] => mysql\n    [host] => 127.0.0.1\n    [username] => forge\n    [password] => ${v}\n)\n`,
  pw(),
);
add(
  "php var_dump",
  "dump.txt",
  (v) => `array(2) {\n  ["user"]=>\n  string(5) "admin"\n  ["pass"]=>\n  string(14) "${v}"\n}\n`,
  pw(),
);
add(
  "rust debug struct",
  "logs/app.log",
  (v) =>
    `2026-11-30T10:00:00Z DEBUG config loaded: Config { database_url: "postgres://app@db/app", api_secret: "${v}", port: 8080 }\n`,
  r28(40),
);
add(
  "rust pretty debug",
  "panic.txt",
  (v) => `Settings {\n    smtp_user: "mailer",\n    smtp_password: "${v}",\n}\n`,
  pw(),
);
add(
  "elixir inspect map",
  "iex.log",
  (v) => `%{adapter: Ecto.Adapters.Postgres, password: "${v}", username: "postgres"}\n`,
  pw(),
);
add(
  "go map print",
  "out.log",
  (v) => `config: map[db_host:localhost db_pass:${v} db_user:app]\n`,
  pw(),
);
add(
  "python traceback locals",
  "sentry_event.txt",
  (v) =>
    `  File "/app/billing.py", line 42, in charge\n    stripe.Charge.create(amount=amount)\n    api_key = '${v}'\n    amount = 1000\n`,
  "sk_live_" + alnum(24),
);
add(
  "strace write",
  "strace.out",
  (v) => `write(3, "PASS ${v}\\r\\n", 20) = 20\n`,
  pw(),
);
add(
  "ftp session log",
  "ftp.log",
  (v) => `--> USER deploy\n331 Password required\n--> PASS ${v}\n230 Logged in\n`,
  pw(),
);
add(
  "imap session",
  "imap_debug.txt",
  (v) => `C: a001 LOGIN bob@example.com "${v}"\nS: a001 OK LOGIN completed\n`,
  pw(),
);
add(
  "docker inspect env",
  "inspect.json",
  (v) =>
    `[{"Config": {"Env": ["PATH=/usr/bin", "POSTGRES_PASSWORD=${v}", "PGDATA=/var/lib/postgresql/data"]}}]\n`,
  pw(),
);
add(
  "printenv dump",
  "ci-debug.txt",
  (v) => `HOME=/home/runner\nNPM_TOKEN=${v}\nPATH=/usr/bin\n`,
  "npm_" + alnum(36),
);
add(
  "java properties list",
  "startup.log",
  (v) => `-- listing properties --\nmail.smtp.host=smtp.example.com\nmail.smtp.password=${v}\n`,
  pw(),
);
add(
  "ruby inspect object",
  "console.log",
  (v) => `#<Settings api_key="${v}", region="eu">\n`,
  r28(40),
);
add(
  "node util.inspect",
  "debug.log",
  (v) =>
    `{ host: 'smtp.mailgun.org', auth: { user: 'postmaster@mg.example.com', pass: '${v}' } }\n`,
  hex(32) + "-" + hex(8) + "-" + hex(8),
);
add(
  "kotlin data class toString",
  "logcat.txt",
  (v) => `D/Auth: Credentials(username=bob, password=${v})\n`,
  pw(),
);
add(
  "csharp record ToString",
  "log.txt",
  (v) => `SmtpOptions { Host = smtp.example.com, UserName = app, Password = ${v} }\n`,
  pw(),
);
// Apple's and Android's build files
add(
  "xcscheme env var",
  "App.xcodeproj/xcshareddata/xcschemes/App.xcscheme",
  (v) =>
    `      <EnvironmentVariables>\n         <EnvironmentVariable\n            key = "API_SECRET"\n            value = "${v}"\n            isEnabled = "YES">\n         </EnvironmentVariable>\n`,
  r28(40),
);
add(
  "fastlane api key content",
  "fastlane/Fastfile",
  (v) =>
    `  api_key = app_store_connect_api_key(\n    key_id: "D383SF739",\n    issuer_id: "${uuid()}",\n    key_content: "-----BEGIN PRIVATE KEY-----\\n${v}\\n-----END PRIVATE KEY-----"\n  )\n`,
  b64(64) + "\\n" + b64(56),
);
add(
  "fastlane Matchfile basic auth",
  "fastlane/Matchfile",
  (v) => `git_url("https://github.com/acme/certs")\ngit_basic_authorization("${v}")\n`,
  btoa("ci-bot:" + ghp()),
);
add(
  "fastlane .env MATCH_PASSWORD",
  "fastlane/.env.default",
  (v) => `MATCH_PASSWORD=${v}\n`,
  pw(),
);
add(
  "AuthKey p8 file",
  "AuthKey_D383SF739.p8",
  (v) => `-----BEGIN PRIVATE KEY-----\n${v}\n-----END PRIVATE KEY-----\n`,
  b64(64) + "\n" + b64(64) + "\n" + b64(56),
);
add(
  "gradle kts signing",
  "app/build.gradle.kts",
  (v) =>
    `    signingConfigs {\n        create("release") {\n            storeFile = file("release.jks")\n            storePassword = "${v}"\n            keyAlias = "upload"\n        }\n    }\n`,
  pw(),
);
add(
  "gradle groovy signing",
  "app/build.gradle",
  (v) => `        release {\n            keyPassword '${v}'\n        }\n`,
  pw(),
);
add(
  "keystore.properties",
  "keystore.properties",
  (v) => `storeFile=upload.jks\nstorePassword=${v}\nkeyAlias=upload\n`,
  pw(),
);
add(
  "flutter dart-define",
  "scripts/build.sh",
  (v) => `flutter build apk --release --dart-define=MAPS_SECRET=${v}\n`,
  r28(40),
);
add(
  "flutter dart-define json",
  "config/prod.json",
  (v) => `{\n  "SUPABASE_SERVICE_ROLE_KEY": "${v}"\n}\n`,
  jwt(),
);
add(
  "eas.json env",
  "eas.json",
  (v) => `{"build": {"production": {"env": {"SENTRY_AUTH_TOKEN": "${v}"}}}}\n`,
  "sntrys_" + r28(60),
);
add(
  "xcconfig with url slash",
  "Config/Release.xcconfig",
  (v) => `API_BASE = https:/$()/api.example.com\nAPI_TOKEN = ${v}\n`,
  r28(40),
);
add(
  "android strings.xml secret",
  "app/src/main/res/values/secrets.xml",
  (v) => `<resources>\n    <string name="twitter_consumer_secret">${v}</string>\n</resources>\n`,
  alnum(50),
);
add(
  "AndroidManifest meta-data secret",
  "AndroidManifest.xml",
  (v) => `<meta-data android:name="com.example.CLIENT_SECRET" android:value="${v}" />\n`,
  r28(40),
);
// Renovate, Dependabot, pre-commit
add(
  "renovate hostRules",
  "renovate.json",
  (v) =>
    `{\n  "hostRules": [\n    {\n      "matchHost": "npm.pkg.github.com",\n      "token": "${v}"\n    }\n  ]\n}\n`,
  ghp(),
);
add(
  "renovate hostRules password",
  "renovate.json5",
  (v) =>
    `{\n  hostRules: [{ matchHost: 'artifactory.example.com', username: 'bot', password: '${v}' }],\n}\n`,
  pw(),
);
add(
  "renovate config.js",
  "config.js",
  (v) => `module.exports = {\n  platform: 'gitlab',\n  token: '${v}',\n};\n`,
  "glpat-" + r28(20),
);
add(
  "dependabot registries literal",
  ".github/dependabot.yml",
  (v) =>
    `registries:\n  maven-artifactory:\n    type: maven-repository\n    url: https://artifactory.example.com\n    username: octocat\n    password: ${v}\n`,
  pw(),
);
add(
  "pre-commit args",
  ".pre-commit-config.yaml",
  (v) => `  - id: upload\n    args: [--token, ${v}]\n`,
  "pypi-AgEIcHlwaS5vcmc" + r28(60),
);
add(
  "Taskfile env",
  "Taskfile.yml",
  (v) => `version: '3'\nenv:\n  REGISTRY_PASSWORD: ${v}\n`,
  pw(),
);
add(
  "justfile export",
  "justfile",
  (v) => `export CLOUDFLARE_API_TOKEN := "${v}"\n\ndeploy:\n    wrangler deploy\n`,
  r28(40),
);
add(
  "Earthfile arg",
  "Earthfile",
  (v) => `build:\n    ARG NPM_TOKEN=${v}\n    RUN npm ci\n`,
  "npm_" + alnum(36),
);
add(
  "docker build-arg in Makefile",
  "Makefile",
  (v) => `image:\n\tdocker build --build-arg GITHUB_TOKEN=${v} -t app .\n`,
  ghp(),
);
add(
  "docker build-arg compose",
  "docker-compose.yml",
  (v) =>
    `    build:\n      context: .\n      args:\n        - PIP_EXTRA_INDEX_URL=https://__token__:${v}@pypi.example.com/simple\n`,
  r28(40),
);
add(
  "woodpecker settings",
  ".woodpecker.yml",
  (v) =>
    `steps:\n  publish:\n    image: plugins/docker\n    settings:\n      username: bot\n      password: ${v}\n`,
  pw(),
);
add(
  "tekton param default",
  "pipeline.yaml",
  (v) => `  params:\n    - name: registry-password\n      default: "${v}"\n`,
  pw(),
);
add(
  "argo workflow parameter",
  "workflow.yaml",
  (v) => `    parameters:\n    - name: db-password\n      value: ${v}\n`,
  pw(),
);
add(
  "concourse vars",
  "ci/vars.yml",
  (v) =>
    `git-private-key: |\n  -----BEGIN OPENSSH PRIVATE KEY-----\n  ${v}\n  -----END OPENSSH PRIVATE KEY-----\ndocker-password: x\n`,
  b64(70) + "\n  " + b64(70),
);
add(
  "gha with inputs password",
  ".github/workflows/deploy.yml",
  (v) =>
    `      - uses: appleboy/ssh-action@v1\n        with:\n          host: 10.0.0.3\n          username: deploy\n          password: ${v}\n`,
  pw(),
);
add(
  "gha with api token quoted",
  ".github/workflows/release.yml",
  (v) => `      - uses: cloudflare/wrangler-action@v3\n        with:\n          apiToken: '${v}'\n`,
  r28(40),
);
// keys in base64 of their armor, PEM in code
add(
  "ssh key base64 env",
  ".env",
  (v) => `SSH_PRIVATE_KEY_B64=${v}\n`,
  btoa(pem28("OPENSSH PRIVATE KEY") + "\n"),
);
add(
  "pem base64 in yaml unnamed",
  "values.yaml",
  (v) => `sidecar:\n  tlsKey: ${v}\n`,
  btoa(pem28("EC PRIVATE KEY") + "\n"),
);
add(
  "pem base64 in json",
  "config.json",
  (v) => `{"signing": {"material": "${v}"}}\n`,
  btoa(pem28("PRIVATE KEY") + "\n"),
);
add(
  "go raw string pem",
  "internal/testkeys/keys.go",
  (v) =>
    "var serverKey = []byte(`-----BEGIN RSA PRIVATE KEY-----\n" + v +
    "\n-----END RSA PRIVATE KEY-----`)\n",
  b64(64) + "\n" + b64(64) + "\n" + b64(30),
);
add(
  "c string concat pem",
  "src/key.c",
  (v) =>
    `static const char *key =\n    "-----BEGIN EC PRIVATE KEY-----\\n"\n    "${v}\\n"\n    "-----END EC PRIVATE KEY-----\\n";\n`,
  b64(64),
);
add(
  "java join pem",
  "KeyHolder.java",
  (v) =>
    `String pem = String.join("\\n",\n    "-----BEGIN PRIVATE KEY-----",\n    "${v}",\n    "-----END PRIVATE KEY-----");\n`,
  b64(64),
);
add(
  "python implicit concat pem",
  "keys.py",
  (v) =>
    `KEY = (\n    "-----BEGIN PRIVATE KEY-----\\n"\n    "${v}\\n"\n    "-----END PRIVATE KEY-----\\n"\n)\n`,
  b64(64),
);
add(
  "encrypted pem with passphrase",
  "certs/README.md",
  (v) => `The key's passphrase is \`${v}\`:\n\n    openssl rsa -in server.key -passin pass:${v}\n`,
  pw(),
);
add(
  "dsa key",
  "keys/id_dsa",
  (v) => `-----BEGIN DSA PRIVATE KEY-----\n${v}\n-----END DSA PRIVATE KEY-----\n`,
  b64(64) + "\n" + b64(64),
);
add(
  "pem with proc-type",
  "server.key",
  (v) =>
    `-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,${
      hex(32).toUpperCase()
    }\n\n${v}\n-----END RSA PRIVATE KEY-----\n`,
  b64(64) + "\n" + b64(64),
);
add(
  "pem escaped in toml",
  "wrangler.toml",
  (v) => `[vars]\nJWT_KEY = "-----BEGIN PRIVATE KEY-----\\n${v}\\n-----END PRIVATE KEY-----\\n"\n`,
  b64(64),
);
add(
  "xml private key element",
  "saml/sp.xml",
  (v) => `<sp:PrivateKey>\n  ${v}\n</sp:PrivateKey>\n`,
  "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC" + b64(64),
);
add(
  "pfx base64 with password",
  "appsettings.Production.json",
  (v) => `{"Certificate": {"Base64": "${v}", "Password": "x"}}\n`,
  "MIIKcQIBAzCCCjcGCSqGSIb3DQEHAaCC" + b64(80),
);
add(
  "jwt split across js concat",
  "test/fixtures/session.js",
  (v) => `const token =\n  "${v.slice(0, 40)}" +\n  "${v.slice(40)}";\n`,
  jwt(),
);
add(
  "jwt split yaml folded",
  "config.yml",
  (v) => `service_token: >-\n  ${v.slice(0, 50)}\n  ${v.slice(50)}\n`,
  jwt(),
);
// providers' prefixes not probed yet, mostly where no name says secret
add(
  "slack app-level token",
  "socket.py",
  (v) => `app = App(); SocketModeHandler(app, "${v}").start()\n`,
  "xapp-1-A" + up(10) + "-" + digits(13) + "-" + hex(64),
);
add(
  "slack user token xoxp",
  "scripts/export.sh",
  (v) => `curl -s -H "Authorization: Bearer ${v}" https://slack.com/api/conversations.list\n`,
  "xoxp-" + digits(12) + "-" + digits(12) + "-" + digits(13) + "-" + hex(32),
);
add(
  "slack rotating token",
  "tokens.json",
  (v) => `{"refresh": "${v}"}\n`,
  "xoxe-1-" + alnum(140),
);
add(
  "doppler personal token",
  "Makefile",
  (v) => `run:\n\tDOPPLER_TOKEN=${v} doppler run -- npm start\n`,
  "dp.pt." + alnum(43),
);
add(
  "doppler service token bare",
  "deploy.sh",
  (v) => `doppler setup --token ${v} --no-interactive\n`,
  "dp.st.prd." + alnum(43),
);
add(
  "typeform token",
  "forms.js",
  (v) => `const tf = createClient({ token: '${v}' })\n`,
  "tfp_" + r28(44) + "_" + r28(14),
);
add(
  "digitalocean oauth",
  "do.sh",
  (v) => `doctl auth init --access-token ${v}\n`,
  "doo_v1_" + hex(64),
);
add(
  "digitalocean refresh",
  "creds.json",
  (v) => `{"refresh": "${v}"}\n`,
  "dor_v1_" + hex(64),
);
add(
  "readme.com key",
  "upload.sh",
  (v) => `rdme openapi spec.yaml --key=${v}\n`,
  "rdme_" + alnum(70),
);
add(
  "frame.io token",
  "frame.py",
  (v) => `client = FrameioClient("${v}")\n`,
  "fio-u-" + r28(64),
);
add(
  "flutterwave secret",
  "pay.php",
  (v) => `$flw = new Rave("${v}");\n`,
  "FLWSECK-" + hex(32) + "-X",
);
add("adafruit io key", "code.py", (v) => `io = Client("maker", "${v}")\n`, "aio_" + alnum(28));
add(
  "1password service account",
  ".github/workflows/ci.yml",
  (v) => `    env:\n      OP_SERVICE_ACCOUNT_TOKEN: ${v}\n`,
  "ops_" + btoa(JSON.stringify({
    signInAddress: "my.1password.com",
    userAuth: { method: "SRPg-4096", alg: "PBES2g-HS256", iterations: 650000, salt: r28(22) },
    email: "x@1passwordserviceaccounts.com",
    srpX: hex(64),
    muk: { kty: "oct", k: r28(43) },
    secretKey: "A3-" + up(6) + "-" + up(6),
    deviceUuid: up(26),
  })).replace(/=+$/, ""),
);
add("infracost key", "infracost.yml", (v) => `api_key: ${v}\n`, "ico-" + alnum(32));
add(
  "openai admin key",
  "billing.py",
  (v) => `headers = {"Authorization": f"Bearer ${v}"}\n`,
  "sk-admin-" + r28(58) + "T3BlbkFJ" + r28(58),
);
add(
  "huggingface org token",
  "push.py",
  (v) => `HfApi(token="${v}").upload_folder(folder_path="out")\n`,
  "api_org_" + alnum(34),
);
add(
  "square access token",
  "square.rb",
  (v) => `client = Square::Client.new(access_token: '${v}', environment: 'production')\n`,
  "sq0atp-" + r28(22),
);
add(
  "braintree access token",
  "gateway.py",
  (v) => `BT_GATEWAY = "${v}"\ngateway = braintree.BraintreeGateway(BT_GATEWAY)\n`,
  "access_token$production$" + lowdig(16) + "$" + hex(32),
);
add(
  "telnyx key",
  "sms.ts",
  (v) => `const telnyx = Telnyx("${v}");\n`,
  "KEY0" + hex(31).toUpperCase() + "_" + alnum(22),
);
add(
  "plaid access token",
  "fixtures/items.json",
  (v) => `{"item_id": "${r28(37)}", "access_token": "${v}"}\n`,
  "access-production-" + uuid(),
);
add(
  "sonarqube user token",
  "sonar-project.properties",
  (v) => `sonar.projectKey=app\nsonar.login=${v}\n`,
  "squ_" + hex(40),
);
add(
  "sonarqube project token bare",
  "ci.sh",
  (v) => `sonar-scanner -Dsonar.token=${v}\n`,
  "sqp_" + hex(40),
);
add(
  "gitlab ci build token",
  "trigger.sh",
  (v) => `curl --header "JOB-TOKEN: ${v}" "$CI_API_V4_URL/projects/1/packages"\n`,
  "glcbt-64_" + r28(20),
);
add(
  "gitlab feed token",
  "README.md",
  (v) => `Subscribe: https://gitlab.example.com/dashboard/issues.atom?feed_token=${v}\n`,
  "glft-" + r28(20),
);
add(
  "gitlab oauth app secret",
  "omniauth.yml",
  (v) => `app_secret: ${v}\n`,
  "gloas-" + hex(64),
);
add(
  "github refresh token",
  "oauth_cache.json",
  (v) => `{"refresh_token": "${v}", "expires_in": 15811200}\n`,
  "ghr_" + alnum(76),
);
add(
  "github user-to-server bare",
  "app.log",
  (v) => `INFO installation auth ok token=${v} scopes=repo\n`,
  "ghu_" + alnum(36),
);
add(
  "aws bedrock api key",
  "llm.py",
  (v) => `os.environ["AWS_BEARER_TOKEN_BEDROCK"] = "${v}"\n`,
  "ABSKQmVkcm9ja0FQSUtleS1" + r28(100),
);
add(
  "aws bedrock api key bare",
  "bedrock.sh",
  (v) =>
    `curl -H "Authorization: Bearer ${v}" https://bedrock-runtime.us-east-1.amazonaws.com/model/x/converse\n`,
  "ABSKQmVkcm9ja0FQSUtleS1" + r28(100),
);
add(
  "circleci personal token",
  "scripts/trigger.sh",
  (v) =>
    `curl -X POST -H "Circle-Token: ${v}" https://circleci.com/api/v2/project/gh/acme/app/pipeline\n`,
  "CCIPAT_" + alnum(22) + "_" + hex(40),
);
add(
  "harness pat",
  "harness.tf",
  (v) => `provider "harness" {\n  platform_api_key = "${v}"\n}\n`,
  "pat." + r28(22) + "." + hex(24) + "." + alnum(20),
);
add(
  "duffel live token",
  "flights.rb",
  (v) => `client = Duffel::Client.new(access_token: "${v}")\n`,
  "duffel_live_" + r28(43),
);
add(
  "posthog personal key",
  "scripts/export.py",
  (v) => `requests.get(url, headers={"Authorization": "Bearer ${v}"})\n`,
  "phx_" + alnum(47),
);
add(
  "launchdarkly server sdk key",
  "flags.go",
  (v) => `client, _ := ld.MakeClient("${v}", 5*time.Second)\n`,
  "sdk-" + uuid(),
);
add(
  "aiven password",
  "aiven.env",
  (v) =>
    `DATABASE_URL=postgres://avnadmin:${v}@pg-1a2b3c-acme.aivencloud.com:12691/defaultdb?sslmode=require\n`,
  "AVNS_" + r28(19),
);
add(
  "aiven password bare",
  "config.yaml",
  (v) => `kafka:\n  sasl:\n    mechanism: SCRAM-SHA-256\n    secret: ${v}\n`,
  "AVNS_" + r28(19),
);
add(
  "anthropic key in a notebook",
  "notebooks/eval.ipynb",
  (v) =>
    `{"cells": [{"cell_type": "code", "source": ["client = anthropic.Anthropic(api_key=\\"${v}\\")\\n"]}]}\n`,
  "sk-ant-api03-" + r28(93) + "AA",
);
add(
  "groq key in a notebook output",
  "notebooks/llm.ipynb",
  (v) =>
    `{"outputs": [{"output_type": "stream", "name": "stdout", "text": ["GROQ_API_KEY ${v}\\n"]}]}\n`,
  "gsk_" + alnum(52),
);
add(
  "cloudflare origin ca key",
  "certs.sh",
  (v) =>
    `curl -H "X-Auth-User-Service-Key: ${v}" https://api.cloudflare.com/client/v4/certificates\n`,
  "v1.0-" + hex(24) + "-" + hex(146),
);
add(
  "mapbox secret token",
  "upload.js",
  (v) => `const mbx = mbxClient({ accessToken: '${v}' });\n`,
  "sk.eyJ1IjoiYWNtZSIsImEiOiJ" + r28(30) + "." + r28(22),
);
add(
  "google oauth access token bare",
  "log/requests.log",
  (v) => `GET /drive/v3/files HTTP/1.1\nAuthorization: Bearer ${v}\n`,
  "ya29.a0" + r28(150),
);
add(
  "google refresh token",
  "token.json",
  (v) => `{"refresh_token": "${v}", "client_id": "x.apps.googleusercontent.com"}\n`,
  "1//0" + r28(99),
);
add(
  "firebase server key",
  "push.php",
  (v) => `$headers = ['Authorization: key=${v}', 'Content-Type: application/json'];\n`,
  "AAAA" + r28(7) + ":APA91b" + r28(134),
);
add(
  "stripe webhook secret bare",
  "webhooks.ts",
  (v) => `stripe.webhooks.constructEvent(body, sig, "${v}");\n`,
  "whsec_" + alnum(32),
);
add(
  "supabase new secret key",
  "server.ts",
  (v) => `const supabase = createClient(url, "${v}");\n`,
  "sb_secret_" + r28(31),
);
add(
  "neon api key",
  "neon.sh",
  (v) => `neonctl projects list --api-key ${v}\n`,
  "napi_" + lowdig(64),
);
add(
  "fly org token",
  "fly.sh",
  (v) => `flyctl deploy --access-token "${v}"\n`,
  "fo1_" + r28(43),
);
add(
  "docker hub pat",
  "push.sh",
  (v) => `echo "${v}" | docker login -u acme --password-stdin\n`,
  "dckr_pat_" + r28(27),
);
add(
  "pulumi token in yaml",
  "Pulumi.prod.yaml",
  (v) => `config:\n  app:accessToken: ${v}\n`,
  "pul-" + hex(40),
);
add(
  "vault batch token",
  "vault.sh",
  (v) => `vault login ${v}\n`,
  "hvb." + r28(138),
);
add(
  "vault service token in header",
  "vault.http",
  (v) => `GET https://vault.example.com/v1/secret/data/app\nX-Vault-Token: ${v}\n`,
  "hvs." + r28(24),
);
add(
  "terraform cloud token",
  ".terraformrc",
  (v) => `credentials "app.terraform.io" {\n  token = "${v}"\n}\n`,
  alnum(14) + ".atlasv1." + alnum(67),
);
add(
  "grafana cloud token",
  "alloy.river",
  (v) =>
    `prometheus.remote_write "default" {\n  endpoint {\n    basic_auth {\n      username = "123456"\n      password = "${v}"\n    }\n  }\n}\n`,
  "glc_" +
    btoa(
      JSON.stringify({ o: "123", n: "stack-1-hm-write", k: r28(24), m: { r: "prod-eu-west-2" } }),
    ),
);
add(
  "new relic ingest license",
  "newrelic.yml",
  (v) => `common: &default_settings\n  license_key: '${v}'\n`,
  hex(36) + "NRAL",
);
add(
  "dynatrace token bare",
  "oneagent.sh",
  (v) =>
    `wget -O installer.sh "https://abc123.live.dynatrace.com/api/v1/deployment/installer/agent/unix/default/latest?Api-Token=${v}"\n`,
  "dt0c01." + up(24) + "." + up(64),
);
add(
  "postman api key in env export",
  "postman/prod.postman_environment.json",
  (v) => `{"values": [{"key": "pm_key", "value": "${v}", "enabled": true}]}\n`,
  "PMAK-" + hex(24) + "-" + hex(34),
);
add(
  "shopify shared secret",
  "shopify.app.toml",
  (v) => `client_id = "${hex(32)}"\nclient_secret = "${v}"\n`,
  "shpss_" + hex(32),
);
add(
  "atlassian token bare",
  "jira.sh",
  (v) => `curl -u bob@example.com:${v} https://acme.atlassian.net/rest/api/3/myself\n`,
  "ATATT3xFfGF0" + r28(170) + "=" + hex(8).toUpperCase(),
);
add(
  "linear key in graphql config",
  ".graphqlrc.yml",
  (v) =>
    `schema:\n  - https://api.linear.app/graphql:\n      headers:\n        Authorization: ${v}\n`,
  "lin_api_" + alnum(40),
);
add(
  "contentful management token",
  "contentful.js",
  (v) => `const client = contentful.createClient({ accessToken: '${v}' })\n`,
  "CFPAT-" + r28(43),
);
add(
  "prefect api key",
  "prefect.toml",
  (v) => `[cloud]\napi_key = "${v}"\n`,
  "pnu_" + alnum(36),
);
add(
  "figma token bare",
  "sync.ts",
  (v) => `await fetch(url, { headers: { "X-Figma-Token": "${v}" } });\n`,
  "figd_" + r28(40),
);
add(
  "netlify pat",
  "deploy.sh",
  (v) => `netlify deploy --prod --auth ${v}\n`,
  "nfp_" + alnum(36),
);
add(
  "heroku new key",
  "Procfile.sh",
  (v) => `heroku container:login --api-key ${v}\n`,
  "HRKU-" + r28(60),
);
add(
  "scaleway secret",
  "scw.yaml",
  (v) => `access_key: SCW${up(17)}\nsecret_key: ${v}\n`,
  uuid(),
);
add(
  "nuget api key bare",
  "publish.ps1",
  (v) => `dotnet nuget push out/*.nupkg -k ${v} -s https://api.nuget.org/v3/index.json\n`,
  "oy2" + lowdig(43),
);
add(
  "rubygems key",
  ".gem/credentials",
  (v) => `---\n:rubygems_api_key: ${v}\n`,
  "rubygems_" + hex(48),
);
add(
  "jfrog reference token",
  ".jfrog/jfrog-cli.conf.v6",
  (v) => `{"servers": [{"url": "https://acme.jfrog.io/", "accessToken": "${v}"}]}\n`,
  "cmVmdGtuOjAxOjE3" + r28(48),
);
add(
  "mailgun key bare",
  "mail.rb",
  (v) => `RestClient.post "https://api:${v}@api.mailgun.net/v3/mg.example.com/messages", params\n`,
  "key-" + hex(32),
);
add(
  "sendgrid key in a php array",
  "config/mail.php",
  (v) => `return ['driver' => 'sendgrid', 'key' => '${v}'];\n`,
  "SG." + r28(22) + "." + r28(43),
);
add(
  "twilio auth pair in curl",
  "sms.sh",
  (v) =>
    `curl -X POST https://api.twilio.com/2010-04-01/Accounts/AC${hex(32)}/Messages.json -u AC${
      hex(32)
    }:${v}\n`,
  hex(32),
);
add(
  "telegram bot token in url",
  "notify.sh",
  (v) => `curl "https://api.telegram.org/bot${v}/sendMessage?chat_id=1&text=done"\n`,
  digits(10) + ":AA" + r28(33),
);
add(
  "teams webhook",
  "alerts.yaml",
  (v) =>
    `receivers:\n- name: teams\n  msteams_configs:\n  - webhook_url: https://acme.webhook.office.com/webhookb2/${uuid()}@${uuid()}/IncomingWebhook/${v}\n`,
  hex(32) + "/" + uuid() + "/V2" + r28(40),
);
add(
  "azure app configuration connection string",
  "appsettings.json",
  (v) =>
    `{"AppConfig": "Endpoint=https://acme.azconfig.io;Id=abcd-l0-s0:${r28(20)};Secret=${v}"}\n`,
  b64(43) + "=",
);
add(
  "azure signalr connection",
  "local.settings.json",
  (v) =>
    `{"Values": {"AzureSignalRConnectionString": "Endpoint=https://acme.service.signalr.net;AccessKey=${v};Version=1.0;"}}\n`,
  b64(43) + "=",
);
add(
  "azure event hubs connection in python",
  "consumer.py",
  (v) =>
    `CONN = "Endpoint=sb://acme.servicebus.windows.net/;SharedAccessKeyName=listen;SharedAccessKey=${v};EntityPath=events"\n`,
  b64(43) + "=",
);
add(
  "azure storage in cs",
  "Startup.cs",
  (v) =>
    `var blob = new BlobServiceClient("DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=${v};EndpointSuffix=core.windows.net");\n`,
  b64(86) + "==",
);
add(
  "azure client secret bare",
  "auth.ts",
  (v) => `const cred = new ClientSecretCredential(tenant, clientId, "${v}");\n`,
  alnum(3) + "8Q~" + r28(34),
);
add(
  "etherscan key",
  "hardhat.config.ts",
  (v) => `  etherscan: { apiKey: "${v}" },\n`,
  up(34).replace(/[0-7]/g, "K"),
);
add(
  "private key hex in hardhat accounts",
  "hardhat.config.js",
  (v) => `    sepolia: { url: RPC, accounts: ["0x${v}"] },\n`,
  hex(64),
);
add(
  "coinbase cdp key",
  "cdp_api_key.json",
  (v) =>
    `{"name": "organizations/${uuid()}/apiKeys/${uuid()}", "privateKey": "-----BEGIN EC PRIVATE KEY-----\\n${v}\\n-----END EC PRIVATE KEY-----\\n"}\n`,
  b64(64) + "\\n" + b64(56),
);
// connection strings and request files in odd places
add(
  "nats url",
  "nats.go",
  (v) => `nc, _ := nats.Connect("nats://svc:${v}@nats.internal:4222")\n`,
  pw(),
);
add(
  "neo4j uri",
  "graph.py",
  (v) => `driver = GraphDatabase.driver("neo4j+s://neo4j:${v}@abcd1234.databases.neo4j.io")\n`,
  r28(43),
);
add(
  "sftp url",
  "rclone.sh",
  (v) => `lftp sftp://deploy:${v}@files.example.com -e "mirror -R dist /www"\n`,
  pw(),
);
add("smb url", "mount.py", (v) => `fs = open_fs("smb://backup:${v}@nas/share")\n`, pw());
add(
  "snowflake sqlalchemy url",
  "warehouse.py",
  (v) =>
    `engine = create_engine("snowflake://loader:${v}@xy12345/analytics/public?warehouse=wh")\n`,
  pw(),
);
add(
  "clickhouse url",
  "ch.ts",
  (v) => `const ch = createClient({ url: "https://default:${v}@abc.clickhouse.cloud:8443" });\n`,
  pw(),
);
add(
  "mqtt url",
  "sensor.ino",
  (v) => `const char* broker = "mqtt://iot:${v}@broker.local:1883";\n`,
  pw(),
);
add(
  "rediss no user",
  "cache.rb",
  (v) => `Redis.new(url: "rediss://:${v}@cache.example.com:6380/0")\n`,
  pw(),
);
add(
  "odbc braces pwd",
  "etl.py",
  (v) =>
    `cnxn = pyodbc.connect("DRIVER={ODBC Driver 18 for SQL Server};SERVER=sql01;UID=etl;PWD={${v}};")\n`,
  pw(),
);
add(
  "sqlplus connect",
  "run.sh",
  (v) => `sqlplus -s scott/${v}@//db.example.com:1521/ORCLPDB1 @report.sql\n`,
  pw(),
);
add(
  "oracle jdbc thin",
  "application.yml",
  (v) => `spring:\n  datasource:\n    url: jdbc:oracle:thin:app/${v}@db.example.com:1521/ORCL\n`,
  pw(),
);
add(
  "ldap url bind in php",
  "ldap.php",
  (v) => `ldap_bind($conn, "cn=admin,dc=example,dc=org", "${v}");\n`,
  pw(),
);
add(
  "python ldap3 bind",
  "ldap_sync.py",
  (v) => `conn = Connection(server, "uid=sync,ou=svc,dc=corp", "${v}", auto_bind=True)\n`,
  pw(),
);
add(
  "spring ldap",
  "application.properties",
  (v) => `spring.ldap.username=cn=admin,dc=example,dc=org\nspring.ldap.password=${v}\n`,
  pw(),
);
add(
  "gitconfig smtppass",
  ".gitconfig",
  (v) =>
    `[sendemail]\n\tsmtpserver = smtp.gmail.com\n\tsmtpuser = bob@gmail.com\n\tsmtppass = ${v}\n`,
  lower(16),
);
add(
  "muttrc smtp_url",
  ".muttrc",
  (v) => `set smtp_url = "smtps://bob@example.com:${v}@smtp.example.com:465/"\n`,
  pw(),
);
add(
  "muttrc imap_pass",
  ".muttrc",
  (v) => `set imap_user = "bob@example.com"\nset imap_pass = "${v}"\n`,
  pw(),
);
add(
  "git extraheader basic",
  "ci/clone.sh",
  (v) =>
    `git -c http.extraheader="AUTHORIZATION: basic ${v}" clone https://dev.azure.com/acme/app/_git/app\n`,
  btoa(":" + ado()),
);
add(
  "gitconfig insteadOf token",
  ".gitconfig",
  (v) => `[url "https://x-access-token:${v}@github.com/"]\n\tinsteadOf = https://github.com/\n`,
  "ghs_" + alnum(36),
);
add(
  "har form post data",
  "session.har",
  (v) =>
    `{"request": {"method": "POST", "postData": {"mimeType": "application/x-www-form-urlencoded", "text": "username=bob&password=${v}&remember=1"}}}\n`,
  pw(),
);
add(
  "har query string",
  "capture.har",
  (v) => `{"queryString": [{"name": "api_key", "value": "${v}"}]}\n`,
  r28(40),
);
add(
  "har request header",
  "capture.har",
  (v) => `{"headers": [{"name": "x-api-key", "value": "${v}"}]}\n`,
  r28(40),
);
add(
  "insomnia v4 basic auth",
  "insomnia.json",
  (v) =>
    `{"_type": "request", "authentication": {"type": "basic", "username": "admin", "password": "${v}"}}\n`,
  pw(),
);
add(
  "insomnia environment",
  "Insomnia_2026.yaml",
  (v) =>
    `  - _type: environment\n    data:\n      base_url: https://api.example.com\n      token: ${v}\n`,
  r28(40),
);
add(
  "postman collection apikey auth",
  "api.postman_collection.json",
  (v) =>
    `{"auth": {"type": "apikey", "apikey": [{"key": "value", "value": "${v}", "type": "string"}, {"key": "key", "value": "X-API-Key"}]}}\n`,
  r28(40),
);
add(
  "postman oauth2 client secret",
  "api.postman_collection.json",
  (v) =>
    `{"auth": {"type": "oauth2", "oauth2": [{"key": "clientSecret", "value": "${v}", "type": "string"}]}}\n`,
  r28(40),
);
add(
  "bruno auth block",
  "requests/login.bru",
  (v) => `auth:basic {\n  username: admin\n  password: ${v}\n}\n`,
  pw(),
);
add(
  "dotnet user-secrets nested",
  "secrets.json",
  (v) => `{\n  "Authentication:Google:ClientSecret": "${v}"\n}\n`,
  "GOCSPX-" + r28(28),
);
add(
  "dotnet user-secrets set command",
  "setup.md",
  (v) => `dotnet user-secrets set "Smtp:Password" "${v}"\n`,
  pw(),
);
add(
  "netrc one line default",
  ".netrc",
  (v) => `default login anonymous password ${v}\n`,
  pw(),
);
add(
  "netrc account field",
  "_netrc",
  (v) => `machine ftp.example.com login bob account billing password ${v}\n`,
  pw(),
);
add(
  "kubeconfig exec env",
  "kubeconfig.yaml",
  (v) =>
    `users:\n- name: ci\n  user:\n    exec:\n      command: kubelogin\n      env:\n      - name: AAD_SERVICE_PRINCIPAL_CLIENT_SECRET\n        value: ${v}\n`,
  alnum(3) + "8Q~" + r28(34),
);
add(
  "kubeconfig auth-provider",
  "config",
  (v) =>
    `    auth-provider:\n      config:\n        client-secret: ${v}\n        id-token: ${jwt()}\n      name: oidc\n`,
  r28(32),
);
add(
  "helm repo add password",
  "setup.sh",
  (v) => `helm repo add private https://charts.example.com --username ci --password ${v}\n`,
  pw(),
);
add(
  "jupyter output env dump",
  "notebooks/debug.ipynb",
  (v) =>
    `{"outputs": [{"output_type": "execute_result", "data": {"text/plain": ["{'HOME': '/root',\\n", " 'WANDB_API_KEY': '${v}'}"]}}]}\n`,
  hex(40),
);
add(
  "jupyter output connection repr",
  "notebooks/db.ipynb",
  (v) =>
    `{"outputs": [{"output_type": "execute_result", "data": {"text/plain": ["Engine(postgresql://analyst:${v}@warehouse:5432/dw)"]}}]}\n`,
  pw(),
);
add(
  "ansible vault password file",
  ".vault_pass",
  (v) => `${v}\n`,
  pw(),
);
add(
  "restic env",
  "backup.env",
  (v) => `RESTIC_REPOSITORY=s3:s3.amazonaws.com/backups\nRESTIC_PASSWORD=${v}\n`,
  pw(),
);
add(
  "borg passphrase",
  "backup.sh",
  (v) => `export BORG_PASSPHRASE='${v}'\nborg create ::{now} /srv\n`,
  wpw(),
);
add(
  "duplicity passphrase",
  "cron/backup",
  (v) => `0 3 * * * root PASSPHRASE="${v}" duplicity /srv b2://key:secret@bucket\n`,
  wpw(),
);
add(
  "wpa_supplicant network",
  "wpa_supplicant.conf",
  (v) => `network={\n\tssid="Office"\n\tpsk="${v}"\n}\n`,
  wpw(),
);
add(
  "hostapd passphrase",
  "hostapd.conf",
  (v) => `interface=wlan0\nssid=lab\nwpa_passphrase=${v}\n`,
  wpw(),
);
add(
  "vue component key",
  "src/components/Map.vue",
  (v) => `<script setup>\nconst SECRET_KEY = '${v}'\n</script>\n`,
  r28(40),
);
add(
  "svelte server load",
  "src/routes/+page.server.js",
  (v) => `const api = new Api({ apiKey: '${v}' });\n`,
  "sk_live_" + alnum(24),
);
add(
  "astro frontmatter",
  "src/pages/index.astro",
  (v) => `---\nconst res = await fetch(url, { headers: { Authorization: 'Bearer ${v}' } });\n---\n`,
  r28(40),
);
add(
  "mjs config",
  "scripts/upload.mjs",
  (v) => `export const config = { bucket: 'x', secretAccessKey: '${v}' };\n`,
  b64(40).replace(/[+/]/g, "u"),
);
add(
  "cmake set",
  "CMakeLists.txt",
  (v) => `set(LICENSE_SERVER_PASSWORD "${v}")\n`,
  pw(),
);
add(
  "meson option",
  "meson_options.txt",
  (v) => `option('api_token', type : 'string', value : '${v}')\n`,
  r28(40),
);
add(
  "graphql config headers",
  "graphql.config.yml",
  (v) =>
    `schema:\n  - https://api.github.com/graphql:\n      headers:\n        Authorization: Bearer ${v}\n`,
  ghp(),
);
add(
  "systemd credential",
  "app.service",
  (v) => `[Service]\nSetCredential=db-password:${v}\nExecStart=/usr/bin/app\n`,
  pw(),
);
add(
  "supervisor env",
  "supervisord.conf",
  (v) => `[program:worker]\nenvironment=QUEUE_URL="amqp://worker:${v}@mq:5672/"\n`,
  pw(),
);
add(
  "jenkins credentials plain",
  "casc.yaml",
  (v) =>
    `          - usernamePassword:\n              id: nexus\n              username: ci\n              password: "${v}"\n`,
  pw(),
);
add(
  "gradle init script",
  "init.gradle",
  (v) => `credentials {\n    username 'ci'\n    password '${v}'\n}\n`,
  pw(),
);
add(
  "sbt credentials file",
  ".sbt/.credentials",
  (v) =>
    `realm=Sonatype Nexus Repository Manager\nhost=nexus.example.com\nuser=ci\npassword=${v}\n`,
  pw(),
);
// the twenty-third hunt's look-alikes that must stay
kv21("cue reference", "deploy/db.cue", (v) => `db: password: ${v}\n`, "secrets.db.password");
kv21(
  "jsonnet std.extVar",
  "env/prod.jsonnet",
  (v) => `{\n  database: { password: ${v} },\n}\n`,
  "std.extVar('DB_PASSWORD')",
);
kv21(
  "bicep keyvault reference",
  "main.bicepparam",
  (v) => `param adminPassword = ${v}\n`,
  "getSecret('sub', 'rg', 'kv', 'adminPassword')",
);
kv21(
  "bicep secure param no default",
  "main.bicep",
  (v) => `@secure()\nparam ${v} string\n`,
  "adminPassword",
);
kv21(
  "nix password file path",
  "configuration.nix",
  (v) => `  services.grafana.settings.security.admin_password = "$__file{${v}}";\n`,
  "/run/secrets/grafana",
);
kv21(
  "nix hash",
  "default.nix",
  (v) => `  src = fetchurl { url = "https://x/y.tgz"; hash = "${v}"; };\n`,
  "sha256-" + b64(43) + "=",
);
kv21(
  "starlark sha256",
  "WORKSPACE",
  (v) => `http_archive(\n    name = "rules_go",\n    sha256 = "${v}",\n)\n`,
  hex(64),
);
kv21(
  "pgbouncer comment with a link",
  "pgbouncer/userlist.txt",
  (v) => `; users are in auth_query\n; see ${v}\n`,
  "https://www.pgbouncer.org/config.html#authentication-file-format",
);
kv21(
  "nmconnection uuid",
  "Office.nmconnection",
  (v) => `[connection]\nid=Office\nuuid=${v}\ntype=wifi\n`,
  uuid(),
);
kv21(
  "openvpn auth-user-pass path",
  "client.ovpn",
  (v) => `client\nauth-user-pass ${v}\n`,
  "/etc/openvpn/auth.txt",
);
kv21(
  "fstab credentials file",
  "fstab",
  (v) => `//nas/share /mnt/share cifs credentials=${v},uid=1000 0 0\n`,
  "/root/.smbcredentials",
);
kv21(
  "kaggle.json placeholder",
  "README.md",
  (v) => `{"username":"your-username","key":"${v}"}\n`,
  "your-api-key",
);
kv21(
  "streamlit secrets reference",
  "app.py",
  (v) => `conn = st.connection("snowflake", password=${v})\n`,
  'st.secrets["password"]',
);
kv21(
  "sql create user password from variable",
  "setup.sql",
  (v) => `CREATE USER app IDENTIFIED BY ${v};\n`,
  ":app_password",
);
kv21(
  "sql psql variable",
  "roles.sql",
  (v) => `ALTER ROLE reporter WITH PASSWORD ${v};\n`,
  ":'reporter_password'",
);
kv21(
  "sql alter role null",
  "roles.sql",
  (v) => `ALTER ROLE legacy WITH PASSWORD ${v};\n`,
  "NULL",
);
kv21(
  "sql md5 of a column",
  "query.sql",
  (v) => `SELECT md5(email) AS ${v} FROM users;\n`,
  "email_hash",
);
kv21(
  "duckdb secret from provider",
  "load.sql",
  (v) => `CREATE SECRET (TYPE S3, PROVIDER ${v});\n`,
  "credential_chain",
);
kv21(
  "zsh history no secret",
  ".zsh_history",
  (v) => `: 1732900000:0;git commit -m "${v}"\n`,
  "Rotate the staging password via Vault",
);
kv21(
  "mysql history escaped no secret",
  ".mysql_history",
  (v) => `SELECT\\040*\\040FROM\\040${v};\n`,
  "users\\040LIMIT\\04010",
);
kv21(
  "print_r masked",
  "debug.log",
  (v) => `Array\n(\n    [password] => ${v}\n)\n`,
  "********",
);
kv21(
  "rust debug redacted",
  "app.log",
  (v) => `Config { api_secret: ${v}, port: 8080 }\n`,
  "Secret([REDACTED])",
);
kv21(
  "docker inspect env reference",
  "inspect.json",
  (v) => `{"Env": ["POSTGRES_PASSWORD_FILE=${v}"]}\n`,
  "/run/secrets/pg",
);
kv21(
  "xcscheme non-secret env",
  "App.xcscheme",
  (v) => `<EnvironmentVariable key = "OS_ACTIVITY_MODE" value = "${v}" isEnabled = "YES">\n`,
  "disable",
);
kv21(
  "gradle signing from env",
  "app/build.gradle.kts",
  (v) => `            storePassword = ${v}\n`,
  'System.getenv("STORE_PASSWORD")',
);
kv21(
  "renovate encrypted",
  "renovate.json",
  (v) => `{"hostRules": [{"matchHost": "npm.pkg.github.com", "encrypted": {"token": "${v}"}}]}\n`,
  "wcFMA/xDeSfz" + b64(200),
);
kv21(
  "dependabot secret reference",
  ".github/dependabot.yml",
  (v) => `    password: ${v}\n`,
  "${{secrets.ARTIFACTORY_PASSWORD}}",
);
kv21(
  "gha with secret reference",
  ".github/workflows/deploy.yml",
  (v) => `        with:\n          password: ${v}\n`,
  "${{ secrets.SSH_PASSWORD }}",
);
kv21(
  "build-arg from env",
  "Makefile",
  (v) => `\tdocker build --build-arg GITHUB_TOKEN=${v} .\n`,
  "$(GITHUB_TOKEN)",
);
kv21(
  "public key base64 of pem",
  "values.yaml",
  (v) => `jwt:\n  publicKey: ${v}\n`,
  btoa("-----BEGIN PUBLIC KEY-----\n" + b64(64) + "\n" + b64(44) + "\n-----END PUBLIC KEY-----\n"),
);
kv21(
  "certificate in go raw string",
  "testdata/certs.go",
  (v) => "var caCert = `-----BEGIN CERTIFICATE-----\n" + v + "\n-----END CERTIFICATE-----`\n",
  "MIIB" + b64(60) + "\n" + b64(64),
);
kv21(
  "jwt header alone",
  "docs/jwt.md",
  (v) => `Every token starts with \`${v}\`, the header.\n`,
  "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9",
);
kv21(
  "slack channel id",
  "alerts.json",
  (v) => `{"channel": "${v}", "text": "deploy done"}\n`,
  "C0" + up(9),
);
kv21(
  "aws arn",
  "policy.json",
  (v) => `{"Resource": "${v}"}\n`,
  "arn:aws:secretsmanager:eu-west-1:123456789012:secret:prod/db-AbCdEf",
);
kv21(
  "launchdarkly client-side id",
  "flags.js",
  (v) => `const ld = LDClient.initialize('${v}', user);\n`,
  hex(24),
);
kv21(
  "posthog project key public",
  "analytics.ts",
  (v) => `posthog.init('${v}', { api_host: 'https://eu.posthog.com' })\n`,
  "phc_" + alnum(43),
);
kv21(
  "sentry dsn public",
  "sentry.client.config.ts",
  (v) => `Sentry.init({ dsn: "${v}" });\n`,
  "https://" + hex(32) + "@o123456.ingest.sentry.io/4505",
);
kv21(
  "stripe test fixture clearly fake",
  "tests/fixtures/stripe.json",
  (v) => `{"id": "${v}", "object": "charge"}\n`,
  "ch_3Ocd" + alnum(20),
);
kv21(
  "npm integrity sha1",
  "package-lock.json",
  (v) => `      "integrity": "${v}"\n`,
  "sha1-" + b64(27) + "=",
);
kv21(
  "yarn lock checksum",
  "yarn.lock",
  (v) => `  checksum: ${v}\n`,
  hex(128),
);
kv21(
  "pnpm lock resolution",
  "pnpm-lock.yaml",
  (v) => `    resolution: {integrity: ${v}}\n`,
  "sha512-" + b64(86) + "==",
);
kv21(
  "cargo lock checksum",
  "Cargo.lock",
  (v) => `checksum = "${v}"\n`,
  hex(64),
);
kv21(
  "gradle verification metadata",
  "gradle/verification-metadata.xml",
  (v) => `<sha256 value="${v}" origin="Generated by Gradle"/>\n`,
  hex(64),
);
kv21(
  "terraform lock hash",
  ".terraform.lock.hcl",
  (v) => `  hashes = [\n    "${v}",\n  ]\n`,
  "h1:" + b64(43) + "=",
);
kv21(
  "docker content digest",
  "skaffold.yaml",
  (v) => `      image: ghcr.io/acme/app@${v}\n`,
  "sha256:" + hex(64),
);
kv21(
  "sha512sums line",
  "SHA512SUMS",
  (v) => `${v}  app-1.2.3.tar.gz\n`,
  hex(128),
);
kv21(
  "example key in docs",
  "docs/config.md",
  (v) => `OPENAI_API_KEY=${v}\n`,
  "sk-...",
);
kv21(
  "placeholder xxx bedrock",
  ".env.example",
  (v) => `AWS_BEARER_TOKEN_BEDROCK=${v}\n`,
  "<your-bedrock-api-key>",
);
kv21(
  "changeme in compose example",
  "docker-compose.example.yml",
  (v) => `      POSTGRES_PASSWORD: ${v}\n`,
  "${POSTGRES_PASSWORD:?set it in .env}",
);
kv21(
  "uuid in harness",
  "harness.tf",
  (v) => `  account_id = "${v}"\n`,
  r28(22),
);
kv21(
  "har cookie placeholder",
  "session.har",
  (v) => `{"cookies": [{"name": "theme", "value": "${v}"}]}\n`,
  "dark",
);
kv21(
  "bicep output of a name",
  "main.bicep",
  (v) => `output ${v} string = sql.properties.fullyQualifiedDomainName\n`,
  "sqlServerFqdn",
);
kv21(
  "snmpd public community default doc",
  "docs/snmp.md",
  (v) => `The default read community is \`${v}\`; change it.\n`,
  "public",
);
kv21(
  "git sha in zsh history",
  ".zsh_history",
  (v) => `: 1732900001:0;git revert ${v}\n`,
  hex(40),
);
kv21(
  "ssh host key fingerprint",
  "known_hosts.md",
  (v) => `ED25519 key fingerprint is ${v}.\n`,
  "SHA256:" + b64(43),
);
// The twenty-fourth hunt's samples (twentieth session, probe24, written before reading the rules):
// names in other languages in every format, the same credentials in the wrappers and encodings
// files are written in (CRLF, a BOM, tabs, typographic quotes, no-break and full-width spaces,
// JSON inside JSON, `\u0022`, HTML entities, URL and quoted-printable encodings, minified lines,
// Java properties' continuations and blank separators), values written apart from their names
// (reversed name/value pairs, nested `value`s, parameters' defaults), network devices' configs,
// CMS and apps' settings, IDE run configurations, more drivers' connection strings, logs, request
// fixtures and comments in more languages.
const r24 = (n: number) => ch(A + "_-", n);
type S24 = [string, string, (v: string) => string, string];
const t24: S24[] = [];
// names in other languages, one format each
const foreignNames: Array<[string, string]> = [
  ["wachtwoord", "nl"],
  ["hasło", "pl"],
  ["haslo", "pl"],
  ["heslo", "cs"],
  ["salasana", "fi"],
  ["lösenord", "sv"],
  ["losenord", "sv"],
  ["jelszó", "hu"],
  ["jelszo", "hu"],
  ["şifre", "tr"],
  ["sifre", "tr"],
  ["كلمة_المرور", "ar"],
  ["סיסמה", "he"],
  ["비밀번호", "ko"],
  ["mật_khẩu", "vi"],
  ["mat_khau", "vi"],
  ["parool", "et"],
  ["geslo", "sl"],
  ["lozinka", "hr"],
  ["κωδικός", "el"],
  ["kennwort", "de"],
  ["contrasenya", "ca"],
  ["adgangskode", "da"],
  ["passord", "no"],
  ["slaptazodis", "lt"],
  ["密碼", "zh-tw"],
  ["口令", "zh"],
  ["암호", "ko"],
  ["รหัสผ่าน", "th"],
  ["पासवर्ड", "hi"],
  ["kata_sandi", "id"],
  ["katalaluan", "ms"],
  ["pasahitza", "eu"],
  ["contrasinal", "gl"],
  ["парола", "bg"],
  ["лозинка", "sr"],
  ["гасло", "uk"],
  ["senha_banco", "pt"],
  ["motDePasse", "fr"],
  ["datenbankPasswort", "de"],
];
const foreignFormats: Array<[string, (k: string, v: string) => string]> = [
  [".env", (k, v) => `DB_USER=app\n${k.toUpperCase()}=${v}\n`],
  ["config.yml", (k, v) => `db:\n  user: app\n  ${k}: ${v}\n`],
  ["config.json", (k, v) => `{"db": {"user": "app", "${k}": "${v}"}}\n`],
  ["settings.ini", (k, v) => `[db]\nuser = app\n${k} = ${v}\n`],
  ["app.properties", (k, v) => `db.user=app\ndb.${k}=${v}\n`],
  ["config.php", (k, v) => `<?php\nreturn ['user' => 'app', '${k}' => '${v}'];\n`],
  ["settings.py", (k, v) => `${k} = "${v}"\n`],
  ["config.toml", (k, v) => `[db]\n${k} = "${v}"\n`],
];
foreignNames.forEach(([k, lang], i) => {
  const [path, f] = foreignFormats[i % foreignFormats.length];
  t24.push([`password named in ${lang} ${k} ${path}`, path, (v) => f(k, v), pw()]);
});
const foreignTokens: Array<[string, string]> = [
  ["jeton_api", "fr"],
  ["cle_api", "fr"],
  ["clé_secrète", "fr"],
  ["chave_api", "pt"],
  ["chave_secreta", "pt"],
  ["clave_api", "es"],
  ["clave_secreta", "es"],
  ["api_schluessel", "de"],
  ["geheimer_schlüssel", "de"],
  ["токен", "ru"],
  ["ключ_api", "ru"],
  ["секретный_ключ", "ru"],
  ["令牌", "zh"],
  ["密钥", "zh"],
  ["访问令牌", "zh"],
  ["アクセストークン", "ja"],
  ["APIキー", "ja"],
  ["シークレット", "ja"],
  ["토큰", "ko"],
  ["api_anahtari", "tr"],
  ["klucz_api", "pl"],
  ["tajny_klucz", "pl"],
];
foreignTokens.forEach(([k, lang], i) => {
  const [path, f] = foreignFormats[(i + 3) % foreignFormats.length];
  t24.push([`token named in ${lang} ${k} ${path}`, path, (v) => f(k, v), r24(40)]);
});
// encodings and wrappers of common shapes
const crlf24 = (t: string) => t.replace(/\n/g, "\r\n");
t24.push(
  ["crlf .env", ".env", (v) => crlf24(`APP_ENV=prod\nDB_PASSWORD=${v}\nDB_HOST=db\n`), pw()],
  ["crlf yaml", "config/app.yml", (v) => crlf24(`database:\n  password: ${v}\n  host: db\n`), pw()],
  ["crlf ini", "php.ini", (v) => crlf24(`[mail]\nsmtp_password = ${v}\nsmtp_port = 587\n`), pw()],
  [
    "crlf json pretty",
    "appsettings.json",
    (v) => crlf24(`{\n  "Smtp": {\n    "Password": "${v}",\n    "Port": 587\n  }\n}\n`),
    pw(),
  ],
  [
    "crlf aws credentials",
    ".aws/credentials",
    (v) =>
      crlf24(
        `[default]\naws_access_key_id = AKIA${
          ch("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16)
        }\naws_secret_access_key = ${v}\n`,
      ),
    b64(40),
  ],
  [
    "crlf netrc",
    "_netrc",
    (v) => crlf24(`machine api.example.com\n  login bob\n  password ${v}\n`),
    pw(),
  ],
  [
    "crlf batch set",
    "deploy.bat",
    (v) => crlf24(`@echo off\nset DB_PASSWORD=${v}\ncall migrate.bat\n`),
    pw(),
  ],
  [
    "crlf powershell env",
    "setup.ps1",
    (v) => crlf24(`$env:API_TOKEN = "${v}"\nInvoke-RestMethod -Uri $uri\n`),
    r24(40),
  ],
  [
    "crlf xml settings",
    "settings.xml",
    (v) =>
      crlf24(
        `<server>\n  <id>nexus</id>\n  <username>deploy</username>\n  <password>${v}</password>\n</server>\n`,
      ),
    pw(),
  ],
  [
    "crlf web.config",
    "Web.config",
    (v) => crlf24(`<appSettings>\n  <add key="ApiSecret" value="${v}" />\n</appSettings>\n`),
    r24(32),
  ],
  [
    "crlf private key",
    "deploy/key.pem",
    (v) =>
      crlf24(`-----BEGIN EC PRIVATE KEY-----\n${v}\n${b64(24)}==\n-----END EC PRIVATE KEY-----\n`),
    b64(64),
  ],
  ["cr only line ends", "old.cfg", (v) => `[auth]\rpassword=${v}\rport=21\r`, pw()],
  ["bom yaml", "config.yaml", (v) => `\uFEFFapi:\n  token: ${v}\n`, r24(40)],
  [
    "bom json",
    "appsettings.Production.json",
    (v) => `\uFEFF{"ConnectionStrings":{"Default":"Server=db;User Id=sa;Password=${v};"}}\n`,
    pw(),
  ],
  ["bom ini", "config.ini", (v) => `\uFEFF[database]\npassword=${v}\n`, pw()],
  [
    "bom properties",
    "application.properties",
    (v) => `\uFEFFspring.datasource.password=${v}\n`,
    pw(),
  ],
  ["bom powershell", "deploy.ps1", (v) => `\uFEFF$password = "${v}"\n`, pw()],
  ["bom crlf env", ".env.production", (v) => `\uFEFFSECRET_TOKEN=${v}\r\nDEBUG=false\r\n`, r24(40)],
  ["tab env", ".env", (v) => `API_KEY\t=\t${v}\n`, r24(40)],
  ["tab ini", "app.conf", (v) => `[auth]\n\tpassword\t=\t${v}\n`, pw()],
  ["tab yaml value", "config.yml", (v) => `password:\t${v}\n`, pw()],
  ["tab properties", "db.properties", (v) => `db.password\t${v}\n`, pw()],
  [
    "tab separated conf",
    "bacula-dir.conf",
    (v) => `Director {\n\tName = bacula-dir\n\tPassword\t= "${v}"\n}\n`,
    pw(),
  ],
  ["tab tsv header", "accounts.tsv", (v) => `service\tuser\tpassword\nsmtp\tmailer\t${v}\n`, pw()],
  [
    "curly double quotes",
    "README.md",
    (v) => `Set the password to “${v}” before you start.\n`,
    pw(),
  ],
  ["curly single quotes", "notes.md", (v) => `The API key is ‘${v}’.\n`, r24(32)],
  ["guillemets", "LISEZMOI.md", (v) => `Le mot de passe est «${v}».\n`, pw()],
  ["german quotes", "LIESMICH.md", (v) => `Das Passwort lautet „${v}“.\n`, pw()],
  ["corner brackets", "README.ja.md", (v) => `パスワードは「${v}」です。\n`, pw()],
  ["curly quotes yaml", "config.yml", (v) => `password: “${v}”\n`, pw()],
  ["curly quotes python", "settings.py", (v) => `PASSWORD = “${v}”\n`, pw()],
  ["nbsp after colon", "docs/setup.md", (v) => `password:\u00A0${v}\n`, pw()],
  ["nbsp around equals", "config.ini", (v) => `password\u00A0=\u00A0${v}\n`, pw()],
  ["fullwidth colon", "説明.md", (v) => `パスワード：${v}\n`, pw()],
  ["fullwidth equals", "設定.ini", (v) => `密码＝${v}\n`, pw()],
  ["ideographic space", "README.zh.md", (v) => `数据库密码：\u3000${v}\n`, pw()],
  ["zero width space in value line", "wiki.md", (v) => `password: ${v}\u200B\n`, pw()],
);
// escaped and encoded
t24.push(
  [
    "json string of json",
    "event.json",
    (v) => `{"detail": "{\\"user\\":\\"svc\\",\\"password\\":\\"${v}\\"}"}\n`,
    pw(),
  ],
  [
    "json string of json twice",
    "fixtures/message.json",
    (v) => `{"body": "{\\"Message\\": \\"{\\\\\\"apiKey\\\\\\": \\\\\\"${v}\\\\\\"}\\"}"}\n`,
    r24(40),
  ],
  [
    "json unicode quotes",
    "dump.json",
    (v) => `{"config": "\\u0022password\\u0022:\\u0022${v}\\u0022"}\n`,
    pw(),
  ],
  [
    "json unicode equals query",
    "har.json",
    (v) => `{"url": "https://api.example.com/login?user=bob\\u0026password\\u003d${v}"}\n`,
    pw(),
  ],
  [
    "html entity quotes",
    "index.html",
    (v) => `<div data-config="{&quot;apiKey&quot;:&quot;${v}&quot;}"></div>\n`,
    r24(40),
  ],
  [
    "html entity numeric quotes",
    "page.html",
    (v) => `<script type="application/json">{&#34;password&#34;:&#34;${v}&#34;}</script>\n`,
    pw(),
  ],
  [
    "xml escaped json",
    "job.xml",
    (v) => `<value>{&quot;client_secret&quot;: &quot;${v}&quot;}</value>\n`,
    r24(40),
  ],
  [
    "url encoded json in query",
    "access.log",
    (v) => `GET /cb?state=%7B%22token%22%3A%22${v}%22%7D HTTP/1.1 200\n`,
    r24(40),
  ],
  [
    "url encoded form body",
    "requests.log",
    (v) => `POST /login body=username%3Dadmin%26password%3D${v}\n`,
    mixed(16),
  ],
  [
    "url encoded password with percent escapes",
    ".env",
    (v) => `DATABASE_URL=postgres://app:${v}@db.internal:5432/app\n`,
    mixed(8) + "%40" + mixed(6) + "%23" + mixed(4),
  ],
  [
    "quoted printable mail",
    "mail/welcome.eml",
    (v) =>
      `Content-Transfer-Encoding: quoted-printable\n\nYour account: bob=0AYour password=3D${v}\n`,
    mixed(14),
  ],
  [
    "quoted printable soft break",
    "mail/reset.eml",
    (v) => `Content-Transfer-Encoding: quoted-printable\n\nTemporary password: ${v}=\n\n`,
    mixed(16),
  ],
  [
    "shell ansi-c quoting",
    "env.sh",
    (v) => `export DB_PASSWORD=$'${v}'\n`,
    pw(),
  ],
  [
    "shell double quoted escapes",
    "env.sh",
    (v) => `export API_SECRET="${v}\\$x"\n`,
    r24(32),
  ],
  [
    "python raw string",
    "config.py",
    (v) => `SECRET_KEY = r"${v}"\n`,
    r24(50),
  ],
  [
    "python bytes literal",
    "config.py",
    (v) => `SECRET_KEY = b"${v}"\n`,
    r24(50),
  ],
  [
    "python f-string literal",
    "client.py",
    (v) => `headers = {"Authorization": f"Bearer ${v}"}\n`,
    r24(40),
  ],
  [
    "csharp verbatim string",
    "Config.cs",
    (v) => `const string ConnStr = @"Server=db;Database=app;User Id=sa;Password=${v};";\n`,
    pw(),
  ],
  [
    "csharp raw string literal",
    "Secrets.cs",
    (v) => `var json = """\n{ "apiKey": "${v}" }\n""";\n`,
    r24(40),
  ],
  [
    "kotlin raw string",
    "Config.kt",
    (v) => `val cfg = """\n    password=${v}\n""".trimIndent()\n`,
    pw(),
  ],
  [
    "js template literal",
    "config.js",
    (v) => "const auth = `Basic ${btoa('admin:" + v + "')}`;\n",
    pw(),
  ],
  [
    "go backtick dsn",
    "main.go",
    (v) => "dsn := `root:" + v + "@tcp(127.0.0.1:3306)/app?parseTime=true`\n",
    pw(),
  ],
  [
    "rust raw string",
    "src/config.rs",
    (v) => `const TOKEN: &str = r#"${v}"#;\n`,
    r24(40),
  ],
  [
    "swift multi-line string",
    "Config.swift",
    (v) => `let secret = """\n${v}\n"""\n`,
    r24(40),
  ],
);
// minified one-line files
t24.push(
  [
    "minified json config",
    "dist/config.json",
    (v) =>
      `{"name":"app","version":"1.2.0","db":{"host":"db","port":5432,"user":"app","password":"${v}"},"cache":{"ttl":60}}`,
    pw(),
  ],
  [
    "minified js object",
    "dist/main.min.js",
    (v) =>
      `!function(){var e={apiUrl:"https://api.example.com",apiKey:"${v}",retries:3};window.cfg=e}();`,
    r24(40),
  ],
  [
    "minified js webpack define",
    "build/static/js/main.3a9f.js",
    (v) =>
      `(()=>{"use strict";const t={NODE_ENV:"production",REACT_APP_SECRET:"${v}"};console.log(t)})();`,
    r24(40),
  ],
  [
    "minified js property assignment",
    "app.min.js",
    (v) => `a.password="${v}",a.user="admin",a.host="db";`,
    pw(),
  ],
  [
    "minified js single quotes",
    "bundle.js",
    (v) => `var n={clientSecret:'${v}',clientId:'web'};`,
    r24(40),
  ],
  [
    "minified css with token url",
    "dist/app.min.css",
    (v) =>
      `.a{color:#fff}.map{background:url(https://maps.example.com/tile.png?access_token=${v})}`,
    r24(60),
  ],
  [
    "minified json long line",
    "data/export.json",
    (v) =>
      `[${
        Array.from({ length: 30 }, (_, i) => `{"id":${i},"n":"x${i}"}`).join(",")
      },{"id":31,"smtp_password":"${v}"}]`,
    pw(),
  ],
  [
    "source map sources content",
    "dist/main.js.map",
    (v) =>
      `{"version":3,"sources":["src/config.ts"],"sourcesContent":["export const apiKey = \\"${v}\\";\\n"],"mappings":"AAAA"}`,
    r24(40),
  ],
);
// Java properties' own syntax
t24.push(
  [
    "properties colon separator",
    "application.properties",
    (v) => `spring.mail.password: ${v}\n`,
    pw(),
  ],
  ["properties space separator", "gradle.properties", (v) => `signing.password ${v}\n`, pw()],
  [
    "properties continuation",
    "db.properties",
    (v) => `db.password=${v.slice(0, 8)}\\\n    ${v.slice(8)}\n`,
    mixed(24),
  ],
  ["properties escaped colon in value", "jdbc.properties", (v) => `jdbc.password=${v}\\:x\n`, pw()],
  ["properties unicode escape in key", "i18n.properties", (v) => `pass\\u0077ord=${v}\n`, pw()],
  [
    "xml properties entry",
    "config.xml",
    (v) =>
      `<?xml version="1.0"?>\n<!DOCTYPE properties SYSTEM "http://java.sun.com/dtd/properties.dtd">\n<properties>\n  <entry key="db.password">${v}</entry>\n</properties>\n`,
    pw(),
  ],
  [
    "xml cdata password",
    "config.xml",
    (v) => `<password><![CDATA[${v}]]></password>\n`,
    pw() + "<&",
  ],
  [
    "xml single quoted attribute",
    "tomcat-users.xml",
    (v) => `<user username='admin' password='${v}' roles='manager-gui'/>\n`,
    pw(),
  ],
  [
    "xml param element",
    "log4j2.xml",
    (v) =>
      `<SMTP name="Mail" smtpHost="smtp.example.com" smtpUsername="alerts" smtpPassword="${v}"/>\n`,
    pw(),
  ],
  [
    "resx data value",
    "Resources.resx",
    (v) => `<data name="ApiKey" xml:space="preserve">\n  <value>${v}</value>\n</data>\n`,
    r24(40),
  ],
  [
    "toml inline table",
    "config.toml",
    (v) => `database = { user = "app", password = "${v}", host = "db" }\n`,
    pw(),
  ],
  ["toml dotted key", "config.toml", (v) => `database.password = "${v}"\n`, pw()],
  ["toml quoted key", "config.toml", (v) => `"smtp.password" = "${v}"\n`, pw()],
  ["toml literal multi-line", "secrets.toml", (v) => `api_token = '''\n${v}'''\n`, r24(40)],
  ["yaml quoted key", "config.yml", (v) => `"password": ${v}\n`, pw()],
  ["yaml single quoted key", "config.yml", (v) => `'api-key': "${v}"\n`, r24(40)],
  ["yaml explicit key", "config.yml", (v) => `? password\n: ${v}\n`, pw()],
  ["yaml str tag", "values.yml", (v) => `password: !!str ${v}\n`, pw()],
  ["yaml anchor on value", "values.yml", (v) => `adminPassword: &adminpw ${v}\n`, pw()],
  [
    "yaml second document",
    "k8s.yml",
    (v) => `kind: ConfigMap\n---\nkind: Config\napiToken: ${v}\n`,
    r24(40),
  ],
  ["json5 unquoted key single quote", "config.json5", (v) => `{\n  password: '${v}',\n}\n`, pw()],
  ["hjson unquoted value", "config.hjson", (v) => `{\n  password: ${v}\n  port: 5432\n}\n`, pw()],
  ["hocon quoted", "application.conf", (v) => `db {\n  password = "${v}"\n}\n`, pw()],
  ["hocon colon unquoted", "application.conf", (v) => `slick.db.password: ${v}\n`, pw()],
);
// values written apart from their names
t24.push(
  [
    "ecs env value before name",
    "task-definition.json",
    (v) => `"environment": [\n  {"value": "${v}", "name": "DB_PASSWORD"}\n]\n`,
    pw(),
  ],
  [
    "ecs secrets pretty value first",
    "taskdef.json",
    (v) => `{\n  "value": "${v}",\n  "name": "STRIPE_SECRET"\n}\n`,
    r24(40),
  ],
  [
    "app.json env value",
    "app.json",
    (v) => `{"env": {"SECRET_KEY_BASE": {"description": "Rails secret", "value": "${v}"}}}\n`,
    hex(64),
  ],
  [
    "arm parameters file value",
    "azuredeploy.parameters.json",
    (v) => `{\n  "parameters": {\n    "adminPassword": {\n      "value": "${v}"\n    }\n  }\n}\n`,
    pw(),
  ],
  [
    "arm template securestring default",
    "azuredeploy.json",
    (v) => `"sqlAdminPassword": {\n  "type": "securestring",\n  "defaultValue": "${v}"\n}\n`,
    pw(),
  ],
  [
    "github variables api shape",
    "vars.json",
    (v) =>
      `{"variables": [{"name": "DEPLOY_TOKEN", "value": "${v}", "created_at": "2024-01-01"}]}\n`,
    r24(40),
  ],
  [
    "gitlab ci variables export",
    "variables.json",
    (v) =>
      `[{"variable_type": "env_var", "key": "AWS_SECRET_ACCESS_KEY", "value": "${v}", "protected": true}]\n`,
    b64(40),
  ],
  [
    "key value pair list",
    "settings.json",
    (v) => `{"Settings": [{"Key": "SmtpPassword", "Value": "${v}"}]}\n`,
    pw(),
  ],
  [
    "azure app settings list",
    "appsettings.azure.json",
    (v) =>
      `[\n  {\n    "name": "DB_PASSWORD",\n    "slotSetting": false,\n    "value": "${v}"\n  }\n]\n`,
    pw(),
  ],
  [
    "ssm parameter json",
    "params.json",
    (v) =>
      `{"Parameter": {"Name": "/prod/db/password", "Type": "SecureString", "Value": "${v}"}}\n`,
    pw(),
  ],
  [
    "secrets manager get-secret-value",
    "out.json",
    (v) => `{"Name": "prod/api", "SecretString": "${v}", "VersionStages": ["AWSCURRENT"]}\n`,
    r24(40),
  ],
  [
    "vault kv get json",
    "vault.json",
    (v) => `{"data": {"data": {"password": "${v}"}, "metadata": {"version": 3}}}\n`,
    pw(),
  ],
  [
    "consul kv export",
    "consul-kv.json",
    (v) => `[{"key": "service/api/token", "flags": 0, "value": "${btoa(v)}"}]\n`,
    r24(40),
  ],
  [
    "etcd put command",
    "seed.sh",
    (v) => `etcdctl put /config/db/password '${v}'\n`,
    pw(),
  ],
  [
    "consul kv put command",
    "seed.sh",
    (v) => `consul kv put secret/api/key ${v}\n`,
    r24(40),
  ],
  [
    "aws ssm put-parameter",
    "deploy.sh",
    (v) => `aws ssm put-parameter --name /prod/db/password --type SecureString --value '${v}'\n`,
    pw(),
  ],
  [
    "gcloud secrets create from echo",
    "deploy.sh",
    (v) => `echo -n "${v}" | gcloud secrets create db-password --data-file=-\n`,
    pw(),
  ],
  [
    "az keyvault secret set",
    "deploy.sh",
    (v) => `az keyvault secret set --vault-name kv-prod --name DbPassword --value "${v}"\n`,
    pw(),
  ],
  [
    "gh secret set body",
    "setup.sh",
    (v) => `gh secret set NPM_TOKEN --body "${v}"\n`,
    "npm_" + ch(A, 36),
  ],
  [
    "kubectl create secret from-literal",
    "deploy.sh",
    (v) =>
      `kubectl create secret generic db --from-literal=username=app --from-literal=password='${v}'\n`,
    pw(),
  ],
  [
    "heroku config set",
    "deploy.sh",
    (v) => `heroku config:set STRIPE_API_KEY=${v} -a shop\n`,
    r24(40),
  ],
  [
    "fly secrets set",
    "deploy.sh",
    (v) => `fly secrets set DATABASE_PASSWORD=${v}\n`,
    pw(),
  ],
  [
    "vercel env add echo",
    "deploy.sh",
    (v) => `echo "${v}" | vercel env add API_SECRET production\n`,
    r24(40),
  ],
  [
    "docker secret create",
    "swarm.sh",
    (v) => `printf '${v}' | docker secret create db_password -\n`,
    pw(),
  ],
  [
    "kustomize secret generator literal",
    "kustomization.yaml",
    (v) => `secretGenerator:\n- name: db\n  literals:\n  - password=${v}\n`,
    pw(),
  ],
  [
    "helm set password",
    "install.sh",
    (v) => `helm upgrade --install pg bitnami/postgresql --set auth.postgresPassword=${v}\n`,
    pw(),
  ],
  [
    "helm set-string token",
    "install.sh",
    (v) => `helm install runner gitlab/gitlab-runner --set-string runnerToken="${v}"\n`,
    "glrt-" + r24(20),
  ],
  [
    "pulumi config set secret plain",
    "Pulumi.prod.yaml",
    (v) => `config:\n  shop:dbPassword: ${v}\n`,
    pw(),
  ],
  [
    "pulumi config set command",
    "setup.sh",
    (v) => `pulumi config set --secret dbPassword ${v}\n`,
    pw(),
  ],
);
// terraform state and plans
t24.push(
  [
    "tfstate aws_db_instance password",
    "terraform.tfstate",
    (v) =>
      `"attributes": {\n  "engine": "postgres",\n  "password": "${v}",\n  "username": "app"\n}\n`,
    pw(),
  ],
  [
    "tfstate tls private key pem",
    "terraform.tfstate",
    (v) =>
      `"private_key_pem": "-----BEGIN RSA PRIVATE KEY-----\\n${v}\\n${
        b64(64)
      }\\n-----END RSA PRIVATE KEY-----\\n",\n`,
    b64(64),
  ],
  [
    "tfstate iam access key secret",
    "terraform.tfstate",
    (v) =>
      `"attributes": {"id": "AKIA${
        ch("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16)
      }", "secret": "${v}", "status": "Active"}\n`,
    b64(40),
  ],
  [
    "tfstate sensitive output",
    "terraform.tfstate",
    (v) =>
      `"outputs": {\n  "db_conn": {\n    "value": "${v}",\n    "type": "string",\n    "sensitive": true\n  }\n}\n`,
    pw(),
  ],
  [
    "tfstate azure storage primary key",
    "terraform.tfstate",
    (v) => `"primary_access_key": "${v}",\n`,
    b64(86) + "==",
  ],
  [
    "tfstate azuread application password value",
    "terraform.tfstate",
    (v) => `"attributes": {"display_name": "ci", "key_id": "${uuid()}", "value": "${v}"}\n`,
    r24(34) + "~" + r24(5),
  ],
  [
    "tfstate google service account key",
    "terraform.tfstate",
    (v) => `"private_key": "${v}",\n`,
    btoa(`{"type":"service_account","private_key":"-----BEGIN PRIVATE KEY-----\\n${b64(64)}`),
  ],
  [
    "tfstate random_string result",
    "terraform.tfstate",
    (v) =>
      `"type": "random_string",\n"instances": [{"attributes": {"result": "${v}", "length": 32}}]\n`,
    mixed(32),
  ],
  [
    "terraform plan json",
    "plan.json",
    (v) => `{"resource_changes":[{"change":{"after":{"master_password":"${v}"}}}]}\n`,
    pw(),
  ],
  [
    "terraform plan text",
    "plan.txt",
    (v) => `      + master_password        = "${v}"\n`,
    pw(),
  ],
  [
    "terraform show output",
    "show.txt",
    (v) => `    admin_password = "${v}"\n    admin_username = "azureuser"\n`,
    pw(),
  ],
);
// notebooks, request files and collections
t24.push(
  [
    "ipynb source env magic",
    "analysis.ipynb",
    (v) => `   "source": [\n    "%env OPENAI_API_KEY=${v}\\n",\n    "import openai"\n   ]\n`,
    "sk-proj-" + r24(48),
  ],
  [
    "ipynb source dict literal",
    "etl.ipynb",
    (v) =>
      `   "source": [\n    "conn = psycopg2.connect(\\n",\n    "    host=\\"db\\", user=\\"etl\\", password=\\"${v}\\")\\n"\n   ]\n`,
    pw(),
  ],
  [
    "ipynb output stream",
    "debug.ipynb",
    (v) =>
      `     "name": "stdout",\n     "output_type": "stream",\n     "text": [\n      "token: ${v}\\n"\n     ]\n`,
    r24(40),
  ],
  [
    "ipynb execute_result text/plain repr",
    "explore.ipynb",
    (v) =>
      `     "data": {\n      "text/plain": [\n       "{'user': 'svc', 'password': '${v}'}"\n      ]\n     },\n`,
    pw(),
  ],
  [
    "ipynb minified one line",
    "nb.ipynb",
    (v) =>
      `{"cells":[{"cell_type":"code","source":["API_KEY = \\"${v}\\"\\n"],"outputs":[]}],"nbformat":4}`,
    r24(40),
  ],
  [
    "ipynb getpass replaced by literal",
    "train.ipynb",
    (v) => `    "wandb.login(key=\\"${v}\\")\\n",\n`,
    hex(40),
  ],
  [
    "ipynb os.environ setdefault",
    "setup.ipynb",
    (v) => `    "os.environ.setdefault(\\"HF_TOKEN\\", \\"${v}\\")\\n",\n`,
    "hf_" + ch(A, 34),
  ],
  [
    "har response cookie set-cookie",
    "session.har",
    (v) => `{"name": "Set-Cookie", "value": "sessionid=${v}; Path=/; HttpOnly"}\n`,
    r24(40),
  ],
  [
    "har request header x-api-key",
    "trace.har",
    (v) => `"headers": [{"name": "x-api-key", "value": "${v}"}]\n`,
    r24(40),
  ],
  [
    "har postData json text",
    "login.har",
    (v) =>
      `"postData": {"mimeType": "application/json", "text": "{\\"email\\":\\"a@b.c\\",\\"password\\":\\"${v}\\"}"}\n`,
    pw(),
  ],
  [
    "har response content token",
    "auth.har",
    (v) =>
      `"content": {"mimeType": "application/json", "text": "{\\"access_token\\":\\"${v}\\",\\"expires_in\\":3600}"}\n`,
    r24(60),
  ],
  [
    "postman environment secret value",
    "prod.postman_environment.json",
    (v) =>
      `{"values": [{"key": "client_secret", "value": "${v}", "type": "secret", "enabled": true}]}\n`,
    r24(40),
  ],
  [
    "postman environment default type",
    "staging.postman_environment.json",
    (v) =>
      `{\n  "key": "apiKey",\n  "value": "${v}",\n  "type": "default",\n  "enabled": true\n}\n`,
    r24(40),
  ],
  [
    "postman collection basic auth",
    "api.postman_collection.json",
    (v) =>
      `"auth": {"type": "basic", "basic": [{"key": "password", "value": "${v}", "type": "string"}, {"key": "username", "value": "admin", "type": "string"}]}\n`,
    pw(),
  ],
  [
    "postman collection bearer",
    "api.postman_collection.json",
    (v) =>
      `"auth": {"type": "bearer", "bearer": [{"key": "token", "value": "${v}", "type": "string"}]}\n`,
    r24(50),
  ],
  [
    "postman globals",
    "workspace.postman_globals.json",
    (v) => `{"name": "Globals", "values": [{"key": "token", "value": "${v}", "enabled": true}]}\n`,
    r24(50),
  ],
  [
    "http file variable",
    "api.http",
    (v) => `@token = ${v}\n\nGET https://api.example.com/me\nAuthorization: Bearer {{token}}\n`,
    r24(50),
  ],
  [
    "rest client env settings",
    ".vscode/settings.json",
    (v) => `{"rest-client.environmentVariables": {"prod": {"apiKey": "${v}"}}}\n`,
    r24(40),
  ],
  [
    "paw or rapidapi export header",
    "export.json",
    (v) => `{"headers": {"X-Auth-Token": "${v}"}}\n`,
    r24(40),
  ],
  [
    "k6 script header",
    "load/test.js",
    (v) => `const params = { headers: { Authorization: 'Token ${v}' } };\n`,
    hex(40),
  ],
  [
    "locust headers",
    "locustfile.py",
    (v) => `self.client.headers.update({"X-Api-Key": "${v}"})\n`,
    r24(40),
  ],
  [
    "jmeter header manager",
    "plan.jmx",
    (v) =>
      `<elementProp name="" elementType="Header">\n  <stringProp name="Header.name">Authorization</stringProp>\n  <stringProp name="Header.value">Bearer ${v}</stringProp>\n</elementProp>\n`,
    r24(50),
  ],
  [
    "jmeter password property",
    "plan.jmx",
    (v) =>
      `<stringProp name="HTTPArgument.name">password</stringProp>\n<stringProp name="Argument.value">${v}</stringProp>\n`,
    pw(),
  ],
  [
    "soapui property",
    "project-soapui.xml",
    (v) =>
      `<con:property><con:name>password</con:name><con:value>${v}</con:value></con:property>\n`,
    pw(),
  ],
);
// docker, Kubernetes Secrets holding files, registries' clients
const dockercfg = (u: string, p: string) =>
  JSON.stringify({ auths: { "registry.example.com": { auth: btoa(`${u}:${p}`) } } });
t24.push(
  [
    "dockerconfigjson base64 in secret",
    "registry-secret.yaml",
    (v) =>
      `kind: Secret\ntype: kubernetes.io/dockerconfigjson\ndata:\n  .dockerconfigjson: ${
        btoa(dockercfg("ci", v))
      }\n`,
    pw(),
  ],
  [
    "dockercfg legacy",
    ".dockercfg",
    (v) =>
      `{"https://index.docker.io/v1/": {"auth": "${
        btoa("bob:" + v)
      }", "email": "bob@example.com"}}\n`,
    pw(),
  ],
  [
    "docker config identitytoken",
    ".docker/config.json",
    (v) => `{"auths": {"myacr.azurecr.io": {"auth": "", "identitytoken": "${v}"}}}\n`,
    jwt(),
  ],
  [
    "docker config password fields",
    "config.json",
    (v) => `{"auths": {"ghcr.io": {"username": "bot", "password": "${v}"}}}\n`,
    ghp(),
  ],
  [
    "secret data base64 of env file",
    "app-secret.yaml",
    (v) =>
      `kind: Secret\ndata:\n  .env: ${
        btoa(`APP_ENV=prod\nDB_HOST=db\nDB_PASSWORD=${v}\nREDIS_URL=redis://cache:6379\n`)
      }\n`,
    pw(),
  ],
  [
    "secret data base64 of json",
    "creds-secret.yaml",
    (v) => `kind: Secret\ndata:\n  config.json: ${btoa(JSON.stringify({ api: { token: v } }))}\n`,
    r24(40),
  ],
  [
    "secret data base64 of properties",
    "spring-secret.yaml",
    (v) =>
      `kind: Secret\ndata:\n  application.properties: ${
        btoa(`spring.datasource.username=app\nspring.datasource.password=${v}\n`)
      }\n`,
    pw(),
  ],
  [
    "secret data base64 of netrc",
    "netrc-secret.yaml",
    (v) =>
      `kind: Secret\ndata:\n  .netrc: ${btoa(`machine github.com login bot password ${v}\n`)}\n`,
    ghp(),
  ],
  [
    "secret data base64 crlf",
    "secret.yaml",
    (v) => crlf24(`apiVersion: v1\nkind: Secret\ndata:\n  password: ${btoa(v)}\n`),
    pw(),
  ],
  [
    "secret data base64 json one line",
    "secret.json",
    (v) => `{"apiVersion":"v1","kind":"Secret","data":{"token":"${btoa(v)}"}}`,
    r24(40),
  ],
  [
    "sealed-secrets raw input",
    "secret.yaml",
    (v) => `stringData:\n  password: "${v}"\n`,
    pw(),
  ],
  [
    "yarnrc npmAuthIdent",
    ".yarnrc.yml",
    (v) =>
      `npmScopes:\n  acme:\n    npmRegistryServer: "https://npm.acme.dev"\n    npmAuthIdent: "deploy:${v}"\n`,
    pw(),
  ],
  [
    "npmrc _password base64",
    ".npmrc",
    (v) =>
      `//nexus.acme.dev/repository/npm/:username=ci\n//nexus.acme.dev/repository/npm/:_password=${
        btoa(v)
      }\n`,
    pw(),
  ],
  [
    "npmrc _auth base64",
    ".npmrc",
    (v) => `_auth=${btoa("ci:" + v)}\nalways-auth=true\n`,
    pw(),
  ],
  [
    "pip.conf extra-index-url creds",
    "pip.conf",
    (v) => `[global]\nextra-index-url = https://__token__:${v}@pypi.acme.dev/simple\n`,
    r24(40),
  ],
  [
    "requirements index url",
    "requirements.txt",
    (v) =>
      `--extra-index-url https://deploy:${v}@gitlab.acme.dev/api/v4/projects/12/packages/pypi/simple\nrequests==2.31.0\n`,
    "glpat-" + r24(20),
  ],
  [
    "poetry http-basic config",
    "poetry.toml",
    (v) => `[http-basic.acme]\nusername = "ci"\npassword = "${v}"\n`,
    pw(),
  ],
  [
    "pyproject uv index url creds",
    "pyproject.toml",
    (v) => `[[tool.uv.index]]\nname = "acme"\nurl = "https://ci:${v}@pypi.acme.dev/simple"\n`,
    pw(),
  ],
  [
    "gradle properties proxy password",
    "gradle.properties",
    (v) => `systemProp.https.proxyUser=bob\nsystemProp.https.proxyPassword=${v}\n`,
    pw(),
  ],
  [
    "gradle properties ORG_GRADLE_PROJECT",
    ".env",
    (v) => `ORG_GRADLE_PROJECT_mavenCentralPassword=${v}\n`,
    pw(),
  ],
  [
    "gradle credentials block",
    "build.gradle",
    (v) => `credentials {\n    username 'deploy'\n    password '${v}'\n}\n`,
    pw(),
  ],
  [
    "sbt credentials call",
    "build.sbt",
    (v) => `credentials += Credentials("Sonatype Nexus", "oss.sonatype.org", "bob", "${v}")\n`,
    pw(),
  ],
  [
    "nuget config cleartext",
    "NuGet.Config",
    (v) =>
      `<packageSourceCredentials>\n  <acme>\n    <add key="Username" value="ci" />\n    <add key="ClearTextPassword" value="${v}" />\n  </acme>\n</packageSourceCredentials>\n`,
    pw(),
  ],
  [
    "composer auth json",
    "auth.json",
    (v) => `{"http-basic": {"repo.magento.com": {"username": "${hex(32)}", "password": "${v}"}}}\n`,
    hex(32),
  ],
  [
    "bundler config credentials",
    ".bundle/config",
    (v) => `---\nBUNDLE_GEMS__ACME__DEV: "ci:${v}"\n`,
    pw(),
  ],
  [
    "cargo config registry token",
    ".cargo/config.toml",
    (v) => `[registries.acme]\nindex = "sparse+https://cargo.acme.dev/"\ntoken = "Bearer ${v}"\n`,
    r24(40),
  ],
  [
    "go private netrc in dockerfile",
    "Dockerfile",
    (v) => `RUN echo "machine github.com login x-access-token password ${v}" > ~/.netrc\n`,
    ghp(),
  ],
  [
    "git config url insteadOf token",
    "Dockerfile",
    (v) =>
      `RUN git config --global url."https://oauth2:${v}@gitlab.com/".insteadOf "https://gitlab.com/"\n`,
    "glpat-" + r24(20),
  ],
  [
    "conan remote login",
    "ci.sh",
    (v) => `conan remote login acme ci -p ${v}\n`,
    pw(),
  ],
  [
    "helm registry login",
    "ci.sh",
    (v) => `helm registry login ghcr.io -u bot -p ${v}\n`,
    ghp(),
  ],
  [
    "twine upload -p",
    "release.sh",
    (v) => `twine upload -u __token__ -p ${v} dist/*\n`,
    "pypi-" + r24(60),
  ],
);
// clouds' SDK files
t24.push(
  [
    "gcloud adc authorized_user",
    ".config/gcloud/application_default_credentials.json",
    (v) =>
      `{\n  "client_id": "${ch("0123456789", 12)}-${
        ch(b32, 32)
      }.apps.googleusercontent.com",\n  "client_secret": "d-FL95Q19q7MQmFpd7hHD0Ty",\n  "refresh_token": "${v}",\n  "type": "authorized_user"\n}\n`,
    "1//0" + r24(99),
  ],
  [
    "gcloud credentials.db dump",
    "credentials.txt",
    (v) =>
      `account_id|value\nbob@example.com|{"refresh_token": "${v}", "token_uri": "https://oauth2.googleapis.com/token"}\n`,
    "1//0" + r24(99),
  ],
  [
    "gcloud access token file",
    "access_tokens.txt",
    (v) => `bob@example.com|${v}|2024-01-01 10:00:00\n`,
    "ya29." + r24(150),
  ],
  [
    "azure credentials ini",
    ".azure/credentials",
    (v) =>
      `[default]\nsubscription_id=${uuid()}\nclient_id=${uuid()}\nsecret=${v}\ntenant=${uuid()}\n`,
    r24(34) + "~" + r24(5),
  ],
  [
    "azure msal token cache",
    ".azure/msal_token_cache.json",
    (v) =>
      `"RefreshToken": {"x": {"credential_type": "RefreshToken", "secret": "${v}", "client_id": "04b07795"}}\n`,
    "0.A" + r24(300),
  ],
  [
    "azure service principal json",
    "sp.json",
    (v) =>
      `{\n  "appId": "${uuid()}",\n  "displayName": "ci",\n  "password": "${v}",\n  "tenant": "${uuid()}"\n}\n`,
    r24(34) + "~" + r24(5),
  ],
  [
    "azure sdk auth json",
    "azure-credentials.json",
    (v) =>
      `{"clientId": "${uuid()}", "clientSecret": "${v}", "subscriptionId": "${uuid()}", "tenantId": "${uuid()}"}\n`,
    r24(34) + "~" + r24(5),
  ],
  [
    "aws credentials session token",
    ".aws/credentials",
    (v) =>
      `[prod]\naws_access_key_id = ASIA${
        ch("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16)
      }\naws_secret_access_key = ${b64(40)}\naws_session_token = ${v}\n`,
    "IQoJb3JpZ2luX2VjE" + b64(300),
  ],
  [
    "aws credentials tabs uppercase",
    "credentials",
    (v) =>
      `[default]\nAWS_ACCESS_KEY_ID\t= AKIA${
        ch("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16)
      }\nAWS_SECRET_ACCESS_KEY\t= ${v}\n`,
    b64(40),
  ],
  [
    "aws sso cache",
    ".aws/sso/cache/abc.json",
    (v) =>
      `{"startUrl": "https://acme.awsapps.com/start", "accessToken": "${v}", "expiresAt": "2024-01-01T00:00:00Z"}\n`,
    "aoa" + r24(300),
  ],
  [
    "aws cli cache credentials",
    ".aws/cli/cache/x.json",
    (v) =>
      `{"Credentials": {"AccessKeyId": "ASIA${
        ch("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16)
      }", "SecretAccessKey": "${v}"}}\n`,
    b64(40),
  ],
  [
    "oci config pass_phrase",
    ".oci/config",
    (v) =>
      `[DEFAULT]\nuser=ocid1.user.oc1..aaaa\nfingerprint=${hex(2)}:${
        hex(2)
      }\nkey_file=~/.oci/key.pem\npass_phrase=${v}\n`,
    pw(),
  ],
  [
    "alibaba cli config",
    ".aliyun/config.json",
    (v) =>
      `{"profiles": [{"name": "default", "mode": "AK", "access_key_id": "LTAI${
        ch(A, 20)
      }", "access_key_secret": "${v}"}]}\n`,
    ch(A, 30),
  ],
  [
    "tencent cloud credential",
    ".tccli/default.credential",
    (v) => `{"secretId": "AKID${ch(A, 32)}", "secretKey": "${v}"}\n`,
    ch(A, 32),
  ],
  [
    "hcloud cli toml",
    ".config/hcloud/cli.toml",
    (v) => `active_context = "prod"\n[[contexts]]\n  name = "prod"\n  token = "${v}"\n`,
    ch(A, 64),
  ],
  [
    "linode cli config",
    ".config/linode-cli",
    (v) => `[DEFAULT]\ndefault-user = bob\n\n[bob]\ntoken = ${v}\n`,
    hex(64),
  ],
  [
    "ibm cloud apikey json",
    "apikey.json",
    (v) =>
      `{\n  "name": "ci",\n  "description": "",\n  "createdAt": "2024-01-01T00:00+0000",\n  "apikey": "${v}"\n}\n`,
    r24(44),
  ],
  [
    "minio mc config",
    ".mc/config.json",
    (v) =>
      `{"aliases": {"prod": {"url": "https://s3.acme.dev", "accessKey": "minio", "secretKey": "${v}", "api": "s3v4"}}}\n`,
    mixed(40),
  ],
  [
    "rclone config secret_access_key",
    "rclone.conf",
    (v) =>
      `[r2]\ntype = s3\nprovider = Cloudflare\naccess_key_id = ${
        hex(32)
      }\nsecret_access_key = ${v}\n`,
    hex(64),
  ],
  [
    "firebase tools configstore",
    ".config/configstore/firebase-tools.json",
    (v) => `{"tokens": {"refresh_token": "${v}", "expires_at": 1700000000}}\n`,
    "1//0" + r24(99),
  ],
  [
    "gh hosts yml",
    ".config/gh/hosts.yml",
    (v) => `github.com:\n    user: bob\n    oauth_token: ${v}\n    git_protocol: https\n`,
    "gho_" + ch(A, 36),
  ],
  [
    "terraformrc credentials block",
    ".terraformrc",
    (v) => `credentials "app.terraform.io" {\n  token = "${v}"\n}\n`,
    ch(A, 14) + ".atlasv1." + ch(A, 67),
  ],
);
// Android, iOS, Flutter
t24.push(
  [
    "google-services oauth client secret",
    "app/google-services.json",
    (v) =>
      `"oauth_client": [{"client_id": "123-abc.apps.googleusercontent.com", "client_type": 3, "client_secret": "${v}"}]\n`,
    "GOCSPX-" + r24(28),
  ],
  [
    "GoogleService-Info CLIENT_SECRET",
    "ios/Runner/GoogleService-Info.plist",
    (v) => `\t<key>CLIENT_SECRET</key>\n\t<string>${v}</string>\n`,
    "GOCSPX-" + r24(28),
  ],
  [
    "local.properties signing",
    "local.properties",
    (v) => `sdk.dir=/Users/bob/Library/Android/sdk\nRELEASE_STORE_PASSWORD=${v}\n`,
    pw(),
  ],
  [
    "local.properties api secret",
    "local.properties",
    (v) => `sdk.dir=C\\:\\\\Android\\\\sdk\nAPI_SECRET=${v}\n`,
    r24(40),
  ],
  [
    "buildConfigField string",
    "app/build.gradle",
    (v) => `buildConfigField "String", "API_SECRET", "\\"${v}\\""\n`,
    r24(40),
  ],
  [
    "buildConfigField kotlin dsl",
    "app/build.gradle.kts",
    (v) => `buildConfigField("String", "STRIPE_SECRET", "\\"${v}\\"")\n`,
    r24(40),
  ],
  [
    "resValue string",
    "app/build.gradle",
    (v) => `resValue "string", "maps_secret", "${v}"\n`,
    r24(40),
  ],
  [
    "xcconfig secret",
    "Config/Release.xcconfig",
    (v) => `API_SECRET = ${v}\nPRODUCT_BUNDLE_IDENTIFIER = com.acme.app\n`,
    r24(40),
  ],
  [
    "Info.plist custom key",
    "Info.plist",
    (v) => `<key>AppCenterSecret</key>\n<string>${v}</string>\n`,
    uuid() + r24(4),
  ],
  [
    "flutter env json",
    "env/prod.json",
    (v) => `{"API_BASE": "https://api.acme.dev", "API_SECRET": "${v}"}\n`,
    r24(40),
  ],
  [
    "react native env",
    ".env.production",
    (v) => `REACT_NATIVE_APP_SECRET=${v}\n`,
    r24(40),
  ],
  [
    "expo app.config extra",
    "app.config.ts",
    (v) => `extra: {\n  apiSecret: "${v}",\n},\n`,
    r24(40),
  ],
  [
    "capacitor config server auth",
    "capacitor.config.json",
    (v) => `{"plugins": {"Sentry": {"authToken": "${v}"}}}\n`,
    "sntrys_" + r24(60),
  ],
);
// IDE and editor configs
t24.push(
  [
    "intellij run configuration env",
    ".idea/runConfigurations/App.xml",
    (v) => `<envs>\n  <env name="DB_PASSWORD" value="${v}" />\n</envs>\n`,
    pw(),
  ],
  [
    "intellij workspace env",
    ".idea/workspace.xml",
    (v) => `<option name="envs"><map><entry key="API_TOKEN" value="${v}" /></map></option>\n`,
    r24(40),
  ],
  [
    "intellij dataSources url",
    ".idea/dataSources.xml",
    (v) => `<jdbc-url>jdbc:postgresql://db:5432/app?user=app&amp;password=${v}</jdbc-url>\n`,
    pw(),
  ],
  [
    "vscode launch env",
    ".vscode/launch.json",
    (v) => `{"configurations": [{"type": "node", "env": {"STRIPE_KEY": "${v}"}}]}\n`,
    r24(40),
  ],
  [
    "vscode sqltools connection",
    ".vscode/settings.json",
    (v) =>
      `"sqltools.connections": [{"driver": "PostgreSQL", "username": "app", "password": "${v}"}]\n`,
    pw(),
  ],
  [
    "vscode sftp config",
    ".vscode/sftp.json",
    (v) =>
      `{"host": "ftp.acme.dev", "protocol": "sftp", "username": "deploy", "password": "${v}"}\n`,
    pw(),
  ],
  [
    "devcontainer containerEnv",
    ".devcontainer/devcontainer.json",
    (v) => `"containerEnv": {\n  "GITHUB_TOKEN": "${v}"\n}\n`,
    ghp(),
  ],
  [
    "filezilla sitemanager",
    "sitemanager.xml",
    (v) =>
      `<Server><Host>ftp.acme.dev</Host><User>deploy</User><Pass encoding="base64">${
        btoa(v)
      }</Pass></Server>\n`,
    pw(),
  ],
  [
    "winscp ini password plain",
    "WinSCP.ini",
    (v) => `[Sessions\\deploy@host]\nHostName=host\nUserName=deploy\nPasswordPlain=${v}\n`,
    pw(),
  ],
  [
    "dbeaver credentials json",
    ".dbeaver/credentials-config.json",
    (v) => `{"postgres-1": {"#connection": {"user": "app", "password": "${v}"}}}\n`,
    pw(),
  ],
  [
    "datagrip-like sql console header",
    "console.sql",
    (v) => `-- connect: psql "host=db user=app password=${v} dbname=app"\nSELECT 1;\n`,
    pw(),
  ],
);
// CMS and apps' settings files
t24.push(
  [
    "drupal databases array",
    "sites/default/settings.php",
    (v) =>
      `$databases['default']['default'] = [\n  'database' => 'drupal',\n  'username' => 'drupal',\n  'password' => '${v}',\n];\n`,
    pw(),
  ],
  [
    "drupal hash salt",
    "sites/default/settings.php",
    (v) => `$settings['hash_salt'] = '${v}';\n`,
    r24(74),
  ],
  [
    "joomla configuration",
    "configuration.php",
    (v) =>
      `class JConfig {\n\tpublic $user = 'joomla';\n\tpublic $password = '${v}';\n\tpublic $secret = '${
        r24(16)
      }';\n}\n`,
    pw(),
  ],
  [
    "joomla secret",
    "configuration.php",
    (v) => `\tpublic $secret = '${v}';\n`,
    mixed(16),
  ],
  [
    "magento env crypt key",
    "app/etc/env.php",
    (v) => `'crypt' => [\n    'key' => '${v}'\n],\n`,
    hex(32),
  ],
  [
    "nextcloud config",
    "config/config.php",
    (v) =>
      `  'passwordsalt' => '${r24(30)}',\n  'secret' => '${v}',\n  'dbpassword' => '${pw()}',\n`,
    r24(48),
  ],
  [
    "nextcloud dbpassword",
    "config/config.php",
    (v) => `  'dbuser' => 'oc_admin',\n  'dbpassword' => '${v}',\n`,
    pw(),
  ],
  [
    "gitlab.rb smtp",
    "gitlab.rb",
    (v) => `gitlab_rails['smtp_password'] = "${v}"\n`,
    pw(),
  ],
  [
    "gitlab.rb initial root",
    "gitlab.rb",
    (v) => `gitlab_rails['initial_root_password'] = '${v}'\n`,
    pw(),
  ],
  [
    "mastodon env production",
    ".env.production",
    (v) => `OTP_SECRET=${v}\nSECRET_KEY_BASE=${hex(128)}\n`,
    hex(128),
  ],
  [
    "mastodon vapid private",
    ".env.production",
    (v) => `VAPID_PRIVATE_KEY=${v}\nVAPID_PUBLIC_KEY=B${r24(86)}\n`,
    r24(43) + "=",
  ],
  [
    "discourse conf",
    "discourse.conf",
    (v) => `db_password = ${v}\nsmtp_address = smtp.acme.dev\n`,
    pw(),
  ],
  [
    "grafana ini admin",
    "grafana.ini",
    (v) => `[security]\nadmin_user = admin\nadmin_password = ${v}\nsecret_key = ${r24(20)}\n`,
    pw(),
  ],
  [
    "grafana ini secret_key",
    "grafana.ini",
    (v) => `[security]\nsecret_key = ${v}\n`,
    mixed(20),
  ],
  [
    "alertmanager smtp password",
    "alertmanager.yml",
    (v) =>
      `global:\n  smtp_smarthost: smtp.acme.dev:587\n  smtp_auth_username: alerts\n  smtp_auth_password: '${v}'\n`,
    pw(),
  ],
  [
    "prometheus basic_auth",
    "prometheus.yml",
    (v) => `  - job_name: node\n    basic_auth:\n      username: prom\n      password: ${v}\n`,
    pw(),
  ],
  [
    "home assistant secrets.yaml",
    "secrets.yaml",
    (v) => `wifi_password: ${v}\nlatitude: 52.37\n`,
    pw(),
  ],
  [
    "esphome ota password",
    "esphome/living.yaml",
    (v) =>
      `ota:\n  - platform: esphome\n    password: "${v}"\napi:\n  encryption:\n    key: "${
        b64(43)
      }="\n`,
    hex(32),
  ],
  [
    "esphome api encryption key",
    "esphome/kitchen.yaml",
    (v) => `api:\n  encryption:\n    key: "${v}"\n`,
    b64(43) + "=",
  ],
  [
    "zigbee2mqtt network key",
    "configuration.yaml",
    (v) => `advanced:\n  network_key: [${v}]\n`,
    Array.from({ length: 16 }, () => String(Math.floor(rnd() * 256))).join(", "),
  ],
  [
    "octoprint api key",
    "config.yaml",
    (v) => `api:\n  key: ${v}\n`,
    hex(32).toUpperCase(),
  ],
  [
    "sonarqube sonar.properties",
    "sonar.properties",
    (v) => `sonar.jdbc.username=sonar\nsonar.jdbc.password=${v}\n`,
    pw(),
  ],
  [
    "jenkins credentials.xml plain",
    "credentials.xml",
    (v) =>
      `<com.cloudbees.plugins.credentials.impl.UsernamePasswordCredentialsImpl>\n  <username>deploy</username>\n  <password>${v}</password>\n</com.cloudbees.plugins.credentials.impl.UsernamePasswordCredentialsImpl>\n`,
    pw(),
  ],
  [
    "teamcity parameter",
    ".teamcity/settings.kts",
    (v) => `params {\n    param("env.DEPLOY_PASSWORD", "${v}")\n}\n`,
    pw(),
  ],
  [
    "octopus variable json",
    "variables.json",
    (v) => `{"Name": "DatabasePassword", "Value": "${v}", "IsSensitive": false}\n`,
    pw(),
  ],
);
// network devices' configs
t24.push(
  [
    "cisco username password 0",
    "router.cfg",
    (v) => `username admin privilege 15 password 0 ${v}\n`,
    pw(),
  ],
  [
    "cisco password 7",
    "switch-running.cfg",
    (v) => `line vty 0 4\n password 7 ${v}\n login\n`,
    ch("0123456789ABCDEF", 22),
  ],
  [
    "cisco enable password plain",
    "router.cfg",
    (v) => `enable password ${v}\n`,
    pw(),
  ],
  [
    "cisco snmp community",
    "router.cfg",
    (v) => `snmp-server community ${v} RO 10\n`,
    mixed(14),
  ],
  [
    "cisco tacacs key",
    "router.cfg",
    (v) => `tacacs-server host 10.0.0.5 key ${v}\n`,
    mixed(16),
  ],
  [
    "cisco radius key",
    "switch.cfg",
    (v) => `radius server ISE\n address ipv4 10.0.0.6 auth-port 1812\n key ${v}\n`,
    mixed(16),
  ],
  [
    "cisco wlan psk",
    "wlc.cfg",
    (v) => `wlan corp 1 corp\n security wpa akm psk set-key ascii 0 ${v}\n`,
    pw(),
  ],
  [
    "cisco ospf key",
    "router.cfg",
    (v) => `interface Gi0/1\n ip ospf message-digest-key 1 md5 ${v}\n`,
    mixed(14),
  ],
  [
    "juniper encrypted 9",
    "junos.conf",
    (v) =>
      `system {\n    root-authentication {\n        encrypted-password "$1$${ch(A, 8)}$${
        ch(A, 22)
      }";\n    }\n    radius-server 10.0.0.5 secret "${v}";\n}\n`,
    "$9$" + ch(A + "./", 30),
  ],
  [
    "junos set secret",
    "junos-set.txt",
    (v) => `set system radius-server 10.0.0.5 secret "${v}"\n`,
    "$9$" + ch(A + "./", 30),
  ],
  [
    "mikrotik user add",
    "router.rsc",
    (v) => `/user add name=backup group=full password=${v}\n`,
    pw(),
  ],
  [
    "mikrotik wireless psk",
    "router.rsc",
    (v) =>
      `/interface wireless security-profiles set [ find default=yes ] wpa2-pre-shared-key=${v}\n`,
    pw(),
  ],
  [
    "fortigate set password",
    "fortigate.conf",
    (v) => `config system admin\n    edit "admin"\n        set password ${v}\n    next\nend\n`,
    pw(),
  ],
  [
    "vyos pre-shared-secret",
    "config.boot",
    (v) => `authentication {\n    mode pre-shared-secret\n    pre-shared-secret ${v}\n}\n`,
    mixed(24),
  ],
  [
    "keepalived auth_pass",
    "keepalived.conf",
    (v) => `    authentication {\n        auth_type PASS\n        auth_pass ${v}\n    }\n`,
    mixed(8),
  ],
  [
    "freeradius client secret",
    "clients.conf",
    (v) => `client ap1 {\n    ipaddr = 10.0.0.20\n    secret = ${v}\n}\n`,
    mixed(16),
  ],
  [
    "postfix sasl_passwd",
    "sasl_passwd",
    (v) => `[smtp.gmail.com]:587 alerts@acme.dev:${v}\n`,
    pw(),
  ],
  [
    "dovecot passwd file plain",
    "dovecot/users",
    (v) => `bob@acme.dev:{PLAIN}${v}:1000:1000::/home/bob\n`,
    pw(),
  ],
  [
    "squid cache_peer login",
    "squid.conf",
    (v) => `cache_peer proxy.acme.dev parent 3128 0 no-query login=bob:${v}\n`,
    pw(),
  ],
  [
    "apache ldap bind password",
    "httpd.conf",
    (v) => `AuthLDAPBindDN "cn=svc,dc=acme,dc=dev"\nAuthLDAPBindPassword "${v}"\n`,
    pw(),
  ],
  [
    "nginx proxy authorization header",
    "nginx.conf",
    (v) => `    proxy_set_header Authorization "Basic ${btoa("svc:" + v)}";\n`,
    pw(),
  ],
  [
    "nginx bearer header",
    "default.conf",
    (v) => `    proxy_set_header Authorization "Bearer ${v}";\n`,
    r24(50),
  ],
  [
    "wireguard private key",
    "wg0.conf",
    (v) => `[Interface]\nAddress = 10.0.0.1/24\nPrivateKey = ${v}\nListenPort = 51820\n`,
    b64(43) + "=",
  ],
  [
    "wireguard preshared key",
    "wg0.conf",
    (v) => `[Peer]\nPublicKey = ${b64(43)}=\nPresharedKey = ${v}\n`,
    b64(43) + "=",
  ],
  [
    "tailscale auth key",
    "setup.sh",
    (v) => `tailscale up --authkey=${v}\n`,
    "tskey-auth-" + ch(A, 17) + "-" + ch(A, 33),
  ],
  [
    "zerotier auth token file",
    "authtoken.secret",
    (v) => `${v}\n`,
    ch("abcdefghijklmnopqrstuvwxyz0123456789", 24),
  ],
  [
    "age secret key",
    "keys.txt",
    (v) =>
      `# created: 2024-01-01T00:00:00Z\n# public key: age1${
        ch("023456789acdefghjklmnpqrstuvwxyz", 58)
      }\n${v}\n`,
    "AGE-SECRET-KEY-1" + ch("023456789ACDEFGHJKLMNPQRSTUVWXYZ", 58),
  ],
  [
    "nostr nsec",
    "nostr.json",
    (v) => `{"nsec": "${v}"}\n`,
    "nsec1" + ch("023456789acdefghjklmnpqrstuvwxyz", 58),
  ],
  [
    "bitcoin xprv",
    "wallet.txt",
    (v) => `master: ${v}\n`,
    "xprv9s21ZrQH143K" + ch("123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz", 95),
  ],
  [
    "rails master.key",
    "config/master.key",
    (v) => `${v}\n`,
    hex(32),
  ],
  [
    "rails credentials key env",
    ".env",
    (v) => `RAILS_MASTER_KEY=${v}\n`,
    hex(32),
  ],
);
// drivers' connection strings
t24.push(
  [
    "jdbc sqlserver semicolons",
    "application.yml",
    (v) => `url: jdbc:sqlserver://db:1433;databaseName=app;user=sa;password=${v};encrypt=true\n`,
    pw(),
  ],
  [
    "jdbc mysql query",
    "app.properties",
    (v) => `db.url=jdbc:mysql://db:3306/app?user=app&password=${v}&useSSL=false\n`,
    pw(),
  ],
  [
    "jdbc db2",
    "db2.properties",
    (v) => `url=jdbc:db2://db:50000/SAMPLE:user=db2inst1;password=${v};\n`,
    pw(),
  ],
  [
    "jdbc sap hana",
    "hana.properties",
    (v) => `url=jdbc:sap://hana:30015/?user=SYSTEM&password=${v}\n`,
    pw(),
  ],
  [
    "jdbc snowflake",
    "sf.properties",
    (v) => `jdbc:snowflake://acme.snowflakecomputing.com/?user=etl&password=${v}&warehouse=WH\n`,
    pw(),
  ],
  [
    "jdbc redshift",
    "rs.conf",
    (v) => `jdbc:redshift://rs.acme.dev:5439/dev?user=admin&password=${v}\n`,
    pw(),
  ],
  [
    "jdbc informix",
    "ifx.properties",
    (v) => `jdbc:informix-sqli://db:9088/app:INFORMIXSERVER=ol;user=informix;password=${v}\n`,
    pw(),
  ],
  [
    "jdbc h2 password",
    "application.properties",
    (v) => `spring.datasource.url=jdbc:h2:tcp://db/~/app;USER=sa;PASSWORD=${v}\n`,
    pw(),
  ],
  [
    "odbc dsn-less uid pwd",
    "connect.py",
    (v) =>
      `conn = pyodbc.connect("DRIVER={ODBC Driver 18 for SQL Server};SERVER=db;UID=sa;PWD=${v}")\n`,
    pw(),
  ],
  [
    "odbc.ini password",
    "odbc.ini",
    (v) =>
      `[AppDB]\nDriver = PostgreSQL Unicode\nServername = db\nUsername = app\nPassword = ${v}\n`,
    pw(),
  ],
  [
    "adonet quoted password",
    "appsettings.json",
    (v) =>
      `"Default": "Server=db;Database=app;User ID=sa;Password='${v}';TrustServerCertificate=True"\n`,
    pw() + ";x",
  ],
  [
    "adonet pwd abbreviation",
    "App.config",
    (v) =>
      `<add name="Db" connectionString="Data Source=db;Initial Catalog=app;uid=sa;pwd=${v}" />\n`,
    pw(),
  ],
  [
    "oledb provider",
    "conn.udl",
    (v) =>
      `Provider=SQLOLEDB.1;Password=${v};Persist Security Info=True;User ID=sa;Initial Catalog=app;Data Source=db\n`,
    pw(),
  ],
  ["oracle easy connect", "tnsnames.sh", (v) => `sqlplus system/${v}@//db:1521/ORCLPDB1\n`, pw()],
  [
    "oracle jdbc user slash password",
    "ds.xml",
    (v) => `<connection-url>jdbc:oracle:thin:scott/${v}@db:1521:ORCL</connection-url>\n`,
    pw(),
  ],
  [
    "mongodb srv with options",
    "config.ts",
    (v) =>
      `const uri = "mongodb+srv://app:${v}@cluster0.ab1cd.mongodb.net/app?retryWrites=true&w=majority";\n`,
    mixed(16),
  ],
  [
    "mongodb multiple hosts",
    ".env",
    (v) =>
      `MONGO_URL=mongodb://app:${v}@mongo1:27017,mongo2:27017,mongo3:27017/app?replicaSet=rs0\n`,
    pw(),
  ],
  [
    "mongodb authSource query password",
    "mongo.conf",
    (v) => `mongodb://mongo:27017/?authSource=admin&username=root&password=${v}\n`,
    pw(),
  ],
  [
    "redis url default user",
    ".env",
    (v) =>
      `REDIS_URL=redis://default:${v}@redis-12345.c1.us-east-1-2.ec2.cloud.redislabs.com:12345\n`,
    mixed(32),
  ],
  [
    "redis url password only query",
    "settings.py",
    (v) => `CACHES_URL = "redis://cache:6379/0?password=${v}"\n`,
    pw(),
  ],
  [
    "redis sentinel url",
    "config.yml",
    (v) => `url: redis+sentinel://:${v}@sentinel1:26379/mymaster\n`,
    pw(),
  ],
  [
    "amqps url vhost",
    ".env",
    (v) => `CLOUDAMQP_URL=amqps://kxyzabcd:${v}@rat.rmq2.cloudamqp.com/kxyzabcd\n`,
    r24(32),
  ],
  ["mqtt url", "config.yaml", (v) => `broker: mqtts://device01:${v}@mqtt.acme.dev:8883\n`, pw()],
  [
    "stomp url",
    "broker.properties",
    (v) => `broker.url=stomp+ssl://app:${v}@mq.acme.dev:61614\n`,
    pw(),
  ],
  ["activemq failover url", "activemq.properties", (v) => `spring.activemq.password=${v}\n`, pw()],
  [
    "kafka sasl jaas one line",
    "client.properties",
    (v) =>
      `sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="${
        hex(16)
      }" password="${v}";\n`,
    r24(64),
  ],
  [
    "cassandra cqlshrc",
    ".cassandra/cqlshrc",
    (v) => `[authentication]\nusername = cassandra\npassword = ${v}\n`,
    pw(),
  ],
  [
    "couchbase url",
    ".env",
    (v) => `COUCHBASE_URL=couchbases://Administrator:${v}@cb.acme.dev\n`,
    pw(),
  ],
  [
    "couchdb url",
    "config.js",
    (v) => `const db = nano("https://admin:${v}@couch.acme.dev:6984");\n`,
    pw(),
  ],
  [
    "elasticsearch url",
    "docker-compose.yml",
    (v) => `      ELASTICSEARCH_HOSTS: https://elastic:${v}@es01:9200\n`,
    pw(),
  ],
  ["influxdb token flag", "backup.sh", (v) => `influx backup /backups -t ${v}\n`, r24(86) + "=="],
  [
    "clickhouse client password",
    "load.sh",
    (v) => `clickhouse-client --host ch --user default --password ${v} --query "SELECT 1"\n`,
    pw(),
  ],
  [
    "cockroach url",
    ".env",
    (v) =>
      `DATABASE_URL=postgresql://root:${v}@free-tier.gcp-us-central1.cockroachlabs.cloud:26257/defaultdb?sslmode=verify-full\n`,
    r24(22),
  ],
  [
    "sqlalchemy mssql pyodbc",
    "db.py",
    (v) =>
      `engine = create_engine("mssql+pyodbc://sa:${v}@db/app?driver=ODBC+Driver+18+for+SQL+Server")\n`,
    pw(),
  ],
  [
    "sqlalchemy asyncpg",
    "db.py",
    (v) => `DB_URL = "postgresql+asyncpg://app:${v}@localhost/app"\n`,
    pw(),
  ],
  [
    "prisma url in schema",
    "schema.prisma",
    (v) =>
      `datasource db {\n  provider = "mysql"\n  url      = "mysql://root:${v}@localhost:3306/app"\n}\n`,
    pw(),
  ],
  [
    "knex config object",
    "knexfile.js",
    (v) => `connection: { host: 'db', user: 'app', password: '${v}', database: 'app' },\n`,
    pw(),
  ],
  [
    "sequelize constructor positional",
    "db.js",
    (v) => `const sequelize = new Sequelize('app', 'root', '${v}', { dialect: 'mysql' });\n`,
    pw(),
  ],
  [
    "typeorm datasource",
    "data-source.ts",
    (v) =>
      `export const AppDataSource = new DataSource({ type: "postgres", username: "app", password: "${v}" });\n`,
    pw(),
  ],
  [
    "gorm dsn sprintf",
    "db.go",
    (v) => `dsn := "host=db user=app password=${v} dbname=app port=5432 sslmode=disable"\n`,
    pw(),
  ],
  [
    "libpq keyword quoted",
    "conn.c",
    (v) => `PGconn *c = PQconnectdb("host=db user=app password='${v}' dbname=app");\n`,
    pw(),
  ],
  [
    "ldap url with bind",
    "ldap.conf",
    (v) => `URI ldaps://cn=admin,dc=acme,dc=dev:${v}@ldap.acme.dev\n`,
    pw(),
  ],
  [
    "smtp url",
    ".env",
    (v) => `MAILER_DSN=smtp://apikey:${v}@smtp.sendgrid.net:587\n`,
    "SG." + r24(22) + "." + r24(43),
  ],
  [
    "ftp url in script",
    "backup.sh",
    (v) => `lftp -e "mirror -R ./dist /www; quit" ftp://deploy:${v}@ftp.acme.dev\n`,
    pw(),
  ],
  [
    "webdav url",
    "sync.sh",
    (v) => `rclone copy ./out :webdav: --webdav-url https://bob:${v}@dav.acme.dev/remote.php/dav\n`,
    pw(),
  ],
  [
    "git clone with app password",
    "ci.sh",
    (v) => `git clone https://bob:${v}@bitbucket.org/acme/app.git\n`,
    "ATBB" + r24(28),
  ],
);
// logs and dumps
t24.push(
  [
    "log key=value password",
    "app.log",
    (v) => `2024-05-01T10:00:00Z INFO db connect host=db user=app password=${v} ok\n`,
    pw(),
  ],
  [
    "log json line",
    "app.log",
    (v) =>
      `{"ts":"2024-05-01T10:00:00Z","level":"debug","msg":"config loaded","smtp":{"password":"${v}"}}\n`,
    pw(),
  ],
  [
    "log python dict repr headers",
    "worker.log",
    (v) => `DEBUG:urllib3:headers={'Authorization': 'Bearer ${v}', 'Accept': '*/*'}\n`,
    r24(50),
  ],
  [
    "log java properties toString",
    "server.log",
    (v) => `INFO  Config: {db.url=jdbc:postgresql://db/app, db.password=${v}, db.pool=10}\n`,
    pw(),
  ],
  [
    "log nginx access token query",
    "access.log",
    (v) =>
      `10.0.0.1 - - [01/May/2024:10:00:00 +0000] "GET /api/v1/items?access_token=${v} HTTP/1.1" 200 512\n`,
    r24(40),
  ],
  [
    "log apache api_key query",
    "access_log",
    (v) =>
      `10.0.0.2 - - [01/May/2024:10:00:01 +0000] "GET /feed?api_key=${v}&format=json HTTP/1.1" 200 77\n`,
    hex(32),
  ],
  [
    "log curl verbose authorization",
    "curl.log",
    (v) => `> GET /v2/repos HTTP/2\n> Host: api.acme.dev\n> authorization: token ${v}\n`,
    ghp(),
  ],
  [
    "log http request dump",
    "debug.log",
    (v) =>
      `POST /oauth/token HTTP/1.1\nContent-Type: application/x-www-form-urlencoded\n\ngrant_type=client_credentials&client_id=web&client_secret=${v}\n`,
    r24(40),
  ],
  [
    "log exception with conn string",
    "error.log",
    (v) =>
      `System.Data.SqlClient.SqlException: Login failed. ConnectionString: Server=db;User Id=sa;Password=${v};\n`,
    pw(),
  ],
  [
    "log kubectl describe env",
    "describe.txt",
    (v) => `    Environment:\n      DB_PASSWORD:  ${v}\n      DB_HOST:      db\n`,
    pw(),
  ],
  [
    "log docker run command",
    "history.log",
    (v) => `docker run -d -e MYSQL_ROOT_PASSWORD=${v} mysql:8\n`,
    pw(),
  ],
  [
    "log github actions env dump",
    "actions.log",
    (v) => `2024-05-01T10:00:00.0000000Z   API_TOKEN: ${v}\n`,
    r24(40),
  ],
  [
    "log syslog line",
    "syslog",
    (v) => `May  1 10:00:00 host app[123]: using api key ${v}\n`,
    "AKID" + r24(32),
  ],
  [
    "log gradle debug property",
    "build.log",
    (v) => `[DEBUG] Setting property signing.password = ${v}\n`,
    pw(),
  ],
  ["log maven settings dump", "mvn.log", (v) => `[DEBUG]   (f) password = ${v}\n`, pw()],
  [
    "log npm verbose config",
    "npm-debug.log",
    (v) => `12 verbose config //registry.npmjs.org/:_authToken=${v}\n`,
    "npm_" + ch(A, 36),
  ],
  ["log env printout sorted", "env.txt", (v) => `PATH=/usr/bin\nPGPASSWORD=${v}\nPWD=/app\n`, pw()],
  ["log set -x trace", "ci.log", (v) => `+ mysql -h db -u root -p${v} app\n`, pw()],
  ["log set -x export", "ci.log", (v) => `+ export VAULT_TOKEN=${v}\n`, "hvs." + r24(90)],
);
// SQL dumps
t24.push(
  [
    "sql dump insert column list",
    "dump.sql",
    (v) =>
      "INSERT INTO `smtp_settings` (`id`, `host`, `username`, `password`) VALUES (1, 'smtp.acme.dev', 'mailer', '" +
      v + "');\n",
    pw(),
  ],
  [
    "sql dump wp_options smtp",
    "wordpress.sql",
    (v) => `INSERT INTO \`wp_options\` VALUES (150,'smtp_pass','${v}','yes');\n`,
    pw(),
  ],
  [
    "sql dump copy tab row",
    "pg_dump.sql",
    (v) => `COPY public.integrations (id, name, api_key) FROM stdin;\n1\tstripe\t${v}\n\\.\n`,
    r24(40),
  ],
  [
    "sql dump multi row insert",
    "seed.sql",
    (v) =>
      `INSERT INTO api_clients (name, client_secret) VALUES ('web', 'abc'), ('mobile', '${v}');\n`,
    r24(40),
  ],
  [
    "sql update set password plain",
    "fix.sql",
    (v) => `UPDATE settings SET value = '${v}' WHERE name = 'smtp_password';\n`,
    pw(),
  ],
  [
    "sql insert key value rows",
    "config.sql",
    (v) => `INSERT INTO config (k, v) VALUES ('stripe_secret_key', '${v}');\n`,
    r24(40),
  ],
  [
    "sql dump sqlite",
    "app.db.sql",
    (v) => `INSERT INTO "credentials" VALUES(1,'github','${v}');\n`,
    ghp(),
  ],
);
// request fixtures and tests
t24.push(
  [
    "fixture basic header python",
    "tests/test_api.py",
    (v) => `HEADERS = {"Authorization": "Basic ${btoa("admin:" + v)}"}\n`,
    pw(),
  ],
  [
    "fixture basic header go",
    "client_test.go",
    (v) => `req.Header.Set("Authorization", "Basic ${btoa("svc:" + v)}")\n`,
    pw(),
  ],
  [
    "fixture bearer header java",
    "ApiTest.java",
    (v) => `.header("Authorization", "Bearer ${v}")\n`,
    r24(60),
  ],
  [
    "fixture proxy authorization",
    "proxy_test.rb",
    (v) => `headers["Proxy-Authorization"] = "Basic ${btoa("proxy:" + v)}"\n`,
    pw(),
  ],
  [
    "fixture token header ruby",
    "spec/api_spec.rb",
    (v) => `get "/api/items", headers: { "Authorization" => "Token token=${v}" }\n`,
    hex(32),
  ],
  [
    "fixture http file basic",
    "tests/api.http",
    (v) => `GET https://api.acme.dev/me\nAuthorization: Basic ${btoa("bob:" + v)}\n`,
    pw(),
  ],
  [
    "fixture cypress login",
    "cypress/e2e/login.cy.ts",
    (v) => `cy.get('#password').type('${v}');\n`,
    pw(),
  ],
  [
    "fixture playwright fill",
    "tests/login.spec.ts",
    (v) => `await page.getByLabel('Password').fill('${v}');\n`,
    pw(),
  ],
  [
    "fixture selenium send_keys",
    "test_login.py",
    (v) => `driver.find_element(By.ID, "password").send_keys("${v}")\n`,
    pw(),
  ],
  [
    "fixture requests auth tuple",
    "tests/conftest.py",
    (v) => `resp = requests.get(url, auth=("admin", "${v}"))\n`,
    pw(),
  ],
  [
    "fixture httpx basic auth",
    "tests/test_client.py",
    (v) => `client = httpx.Client(auth=httpx.BasicAuth("svc", "${v}"))\n`,
    pw(),
  ],
  [
    "fixture axios auth object",
    "api.test.js",
    (v) => `axios.get(url, { auth: { username: 'svc', password: '${v}' } });\n`,
    pw(),
  ],
  [
    "fixture okhttp credentials",
    "ClientTest.kt",
    (v) => `val cred = Credentials.basic("svc", "${v}")\n`,
    pw(),
  ],
  [
    "fixture dotnet network credential",
    "ClientTests.cs",
    (v) => `var cred = new NetworkCredential("svc", "${v}");\n`,
    pw(),
  ],
  [
    "fixture spring test property",
    "ApiIT.java",
    (v) => `@TestPropertySource(properties = {"api.secret=${v}"})\n`,
    r24(40),
  ],
  [
    "fixture vcr cassette header",
    "cassettes/get_user.yaml",
    (v) => `    headers:\n      Authorization:\n      - Bearer ${v}\n`,
    r24(60),
  ],
  [
    "fixture vcr cassette body",
    "fixtures/vcr/login.yml",
    (v) =>
      `    body:\n      encoding: UTF-8\n      string: '{"username":"bob","password":"${v}"}'\n`,
    pw(),
  ],
  [
    "fixture nock reply token",
    "test/oauth.test.js",
    (v) => `nock(api).post('/token').reply(200, { access_token: '${v}' });\n`,
    r24(60),
  ],
  [
    "fixture wiremock mapping",
    "mappings/auth.json",
    (v) => `{"request": {"headers": {"X-Api-Key": {"equalTo": "${v}"}}}}\n`,
    r24(40),
  ],
  [
    "fixture pact interaction",
    "pacts/web-api.json",
    (v) => `"headers": {"Authorization": "Bearer ${v}"}\n`,
    jwt(),
  ],
);
// comments of many languages
t24.push(
  [
    "sql dash comment password",
    "migrate.sql",
    (v) => `-- password: ${v}\nCREATE TABLE t (id int);\n`,
    pw(),
  ],
  [
    "matlab percent comment",
    "connect.m",
    (v) => `% pass=${v}\nconn = database('db','app',getenv('DB_PASS'));\n`,
    pw(),
  ],
  [
    "latex percent comment",
    "paper.tex",
    (v) => `% overleaf git token: ${v}\n\\section{Intro}\n`,
    "olp_" + ch(A, 36),
  ],
  ["erlang percent comment", "app.config.erl", (v) => `%% password = ${v}\n`, pw()],
  ["batch rem comment", "run.bat", (v) => `REM password ${v}\n@echo off\n`, pw()],
  ["batch double colon comment", "run.cmd", (v) => `:: api key = ${v}\n`, r24(40)],
  ["ini semicolon comment", "php.ini", (v) => `; smtp password = ${v}\n`, pw()],
  [
    "lisp semicolon comment",
    "init.el",
    (v) => `;; (setq openai-key "${v}")\n`,
    "sk-proj-" + r24(48),
  ],
  [
    "vb apostrophe comment",
    "Module1.vb",
    (v) => `' Password: ${v}\nDim cn As New SqlConnection(cs)\n`,
    pw(),
  ],
  ["fortran bang comment", "main.f90", (v) => `! api_token = ${v}\nprogram main\n`, r24(40)],
  ["pascal brace comment", "unit1.pas", (v) => `{ password: ${v} }\nprogram Hello;\n`, pw()],
  ["ocaml comment", "main.ml", (v) => `(* password: ${v} *)\nlet () = ()\n`, pw()],
  ["haskell block comment", "Main.hs", (v) => `{- token: ${v} -}\nmain = pure ()\n`, r24(40)],
  ["lua long comment", "init.lua", (v) => `--[[ password = "${v}" ]]\n`, pw()],
  ["ruby begin end comment", "deploy.rb", (v) => `=begin\npassword: ${v}\n=end\n`, pw()],
  ["html comment", "index.html", (v) => `<!-- admin password: ${v} -->\n<html></html>\n`, pw()],
  ["jsp comment", "login.jsp", (v) => `<%-- db password = ${v} --%>\n`, pw()],
  ["razor comment", "Index.cshtml", (v) => `@* api key: ${v} *@\n`, r24(40)],
  ["twig comment", "base.html.twig", (v) => `{# smtp password: ${v} #}\n`, pw()],
  ["jinja comment", "templates/base.j2", (v) => `{# password = ${v} #}\n`, pw()],
  ["handlebars comment", "view.hbs", (v) => `{{!-- token: ${v} --}}\n`, r24(40)],
  ["powershell block comment", "deploy.ps1", (v) => `<#\n  Password: ${v}\n#>\n`, pw()],
  ["assembly semicolon comment", "boot.asm", (v) => `; key = ${v}\nmov ax, 0\n`, r24(40)],
  ["vim comment", ".vimrc", (v) => `" let g:openai_token = '${v}'\n`, "sk-proj-" + r24(48)],
  ["makefile comment", "Makefile", (v) => `# DEPLOY_TOKEN=${v}\nall:\n`, r24(40)],
  [
    "dockerfile comment",
    "Dockerfile",
    (v) => `# ENV NPM_TOKEN=${v}\nFROM node:20\n`,
    "npm_" + ch(A, 36),
  ],
  [
    "yaml comment commented out value",
    "values.yaml",
    (v) => `# password: ${v}\nreplicas: 2\n`,
    pw(),
  ],
  ["c line comment", "main.c", (v) => `// pwd: ${v}\nint main(void) { return 0; }\n`, pw()],
  ["sql block comment", "proc.sql", (v) => `/* login sa / ${v} */\nSELECT 1;\n`, pw()],
  [
    "groovy comment",
    "Jenkinsfile",
    (v) => `// withCredentials: token ${v}\npipeline { }\n`,
    r24(40),
  ],
);
// automation and infrastructure tools
t24.push(
  ["makefile variable", "Makefile", (v) => `DB_PASSWORD ?= ${v}\nmigrate:\n\t./migrate\n`, pw()],
  ["makefile export", "Makefile", (v) => `export API_TOKEN := ${v}\n`, r24(40)],
  ["vagrantfile ssh password", "Vagrantfile", (v) => `  config.ssh.password = "${v}"\n`, pw()],
  ["vagrantfile winrm", "Vagrantfile", (v) => `  config.winrm.password = "${v}"\n`, pw()],
  [
    "packer hcl ssh_password",
    "build.pkr.hcl",
    (v) => `source "qemu" "ubuntu" {\n  ssh_username = "packer"\n  ssh_password = "${v}"\n}\n`,
    pw(),
  ],
  [
    "packer json winrm",
    "packer.json",
    (v) => `{"builders": [{"type": "azure-arm", "winrm_password": "${v}"}]}\n`,
    pw(),
  ],
  ["chef knife.rb", "knife.rb", (v) => `knife[:aws_secret_access_key] = "${v}"\n`, b64(40)],
  [
    "chef data bag json",
    "data_bags/db/prod.json",
    (v) => `{"id": "prod", "password": "${v}"}\n`,
    pw(),
  ],
  ["puppet hiera", "data/common.yaml", (v) => `profile::mysql::root_password: '${v}'\n`, pw()],
  [
    "puppet manifest",
    "manifests/site.pp",
    (v) => `mysql::db { 'app':\n  user     => 'app',\n  password => '${v}',\n}\n`,
    pw(),
  ],
  ["salt pillar", "pillar/mysql.sls", (v) => `mysql.pass: ${v}\n`, pw()],
  ["capistrano set", "config/deploy.rb", (v) => `set :password, "${v}"\n`, pw()],
  ["fabric env password", "fabfile.py", (v) => `env.password = '${v}'\n`, pw()],
  [
    "ansible inventory ini",
    "inventory/hosts",
    (v) => `web1 ansible_host=10.0.0.5 ansible_user=deploy ansible_password=${v}\n`,
    pw(),
  ],
  ["ansible become pass", "group_vars/all.yml", (v) => `ansible_become_pass: "${v}"\n`, pw()],
  [
    "ansible extra vars",
    "deploy.sh",
    (v) => `ansible-playbook site.yml -e "db_password=${v}"\n`,
    pw(),
  ],
  [
    "ansible extra vars json",
    "deploy.sh",
    (v) => `ansible-playbook site.yml --extra-vars '{"api_token": "${v}"}'\n`,
    r24(40),
  ],
  ["nomad env stanza", "job.nomad.hcl", (v) => `env {\n  DB_PASSWORD = "${v}"\n}\n`, pw()],
  [
    "serverless environment",
    "serverless.yml",
    (v) => `provider:\n  environment:\n    STRIPE_SECRET: ${v}\n`,
    r24(40),
  ],
  [
    "sam template env",
    "template.yaml",
    (v) => `      Environment:\n        Variables:\n          API_SECRET: ${v}\n`,
    r24(40),
  ],
  [
    "app engine env_variables",
    "app.yaml",
    (v) => `env_variables:\n  SECRET_KEY: '${v}'\n`,
    r24(50),
  ],
  ["wrangler vars", "wrangler.toml", (v) => `[vars]\nAPI_SECRET = "${v}"\n`, r24(40)],
  [
    "netlify toml env",
    "netlify.toml",
    (v) => `[build.environment]\n  AUTH_SECRET = "${v}"\n`,
    r24(40),
  ],
  ["fly toml env", "fly.toml", (v) => `[env]\n  SECRET_KEY_BASE = "${v}"\n`, hex(64)],
  ["vercel json env", "vercel.json", (v) => `{"env": {"JWT_SECRET": "${v}"}}\n`, r24(40)],
  [
    "render yaml envVars",
    "render.yaml",
    (v) => `    envVars:\n      - key: API_SECRET\n        value: ${v}\n`,
    r24(40),
  ],
  [
    "railway json variables",
    "railway.json",
    (v) => `{"variables": {"SESSION_SECRET": "${v}"}}\n`,
    r24(40),
  ],
  [
    "github actions env literal",
    ".github/workflows/ci.yml",
    (v) => `    env:\n      NPM_TOKEN: ${v}\n`,
    "npm_" + ch(A, 36),
  ],
  [
    "github actions with password literal",
    ".github/workflows/deploy.yml",
    (v) =>
      `      - uses: docker/login-action@v3\n        with:\n          username: bot\n          password: ${v}\n`,
    ghp(),
  ],
  [
    "jenkinsfile environment literal",
    "Jenkinsfile",
    (v) => `environment {\n    DB_PASS = '${v}'\n}\n`,
    pw(),
  ],
  [
    "jenkinsfile sh with password",
    "Jenkinsfile",
    (v) => `sh "docker login -u bot -p ${v} registry.acme.dev"\n`,
    pw(),
  ],
  [
    "gitlab ci variables literal",
    ".gitlab-ci.yml",
    (v) => `variables:\n  SONAR_TOKEN: "${v}"\n`,
    "sqp_" + hex(40),
  ],
  [
    "azure pipelines variables",
    "azure-pipelines.yml",
    (v) => `variables:\n- name: apiSecret\n  value: ${v}\n`,
    r24(40),
  ],
  [
    "bitbucket pipelines export",
    "bitbucket-pipelines.yml",
    (v) => `        script:\n          - export AWS_SECRET_ACCESS_KEY=${v}\n`,
    b64(40),
  ],
  [
    "circleci environment",
    ".circleci/config.yml",
    (v) => `    environment:\n      CODECOV_TOKEN: ${v}\n`,
    uuid(),
  ],
  [
    "drone secret literal",
    ".drone.yml",
    (v) => `    environment:\n      PLUGIN_PASSWORD: ${v}\n`,
    pw(),
  ],
  ["buildkite env", ".buildkite/pipeline.yml", (v) => `env:\n  DEPLOY_KEY: "${v}"\n`, r24(40)],
);
for (const [n, p, f, v] of t24) add(n, p, f, v);
// the twenty-fourth hunt's look-alikes that must stay
const k24: S24[] = [
  // interface labels in locale files: the word "password" translated, not a password
  [
    "locale json de",
    "locales/de.json",
    (v) => `{"login": {"password": "${v}", "submit": "Anmelden"}}\n`,
    "Passwort",
  ],
  ["locale yaml ru", "config/locales/ru.yml", (v) => `ru:\n  password: ${v}\n`, "Пароль"],
  ["locale yaml es", "config/locales/es.yml", (v) => `es:\n  password: ${v}\n`, "Contraseña"],
  ["locale json zh", "locales/zh-CN.json", (v) => `{"password": "${v}"}\n`, "密码"],
  ["locale json ja", "locales/ja.json", (v) => `{"password": "${v}"}\n`, "パスワード"],
  ["locale properties pl", "messages_pl.properties", (v) => `login.password=${v}\n`, "Hasło"],
  ["locale properties nl", "messages_nl.properties", (v) => `password=${v}\n`, "Wachtwoord"],
  [
    "locale po tr",
    "locale/tr/LC_MESSAGES/django.po",
    (v) => `msgid "Password"\nmsgstr "${v}"\n`,
    "Şifre",
  ],
  [
    "locale strings sv",
    "sv.lproj/Localizable.strings",
    (v) => `"password" = "${v}";\n`,
    "Lösenord",
  ],
  [
    "locale android strings fi",
    "res/values-fi/strings.xml",
    (v) => `<string name="password">${v}</string>\n`,
    "Salasana",
  ],
  [
    "locale resx de",
    "Strings.de.resx",
    (v) => `<data name="Password" xml:space="preserve">\n  <value>${v}</value>\n</data>\n`,
    "Kennwort",
  ],
  [
    "locale arb pt",
    "lib/l10n/app_pt.arb",
    (v) => `{"password": "${v}", "@password": {"description": "label"}}\n`,
    "Senha",
  ],
  ["locale json cs", "locales/cs.json", (v) => `{"password": "${v}"}\n`, "Heslo"],
  [
    "locale json hint de",
    "locales/de.json",
    (v) => `{"password_hint": "${v}"}\n`,
    "Mindestens 8 Zeichen",
  ],
  ["locale ts fr", "i18n/fr.ts", (v) => `export default { password: '${v}' };\n`, "Mot de passe"],
  [
    "locale xliff target",
    "messages.de.xlf",
    (v) =>
      `<trans-unit id="password"><source>Password</source><target>${v}</target></trans-unit>\n`,
    "Passwort",
  ],
  [
    "locale yaml token label",
    "config/locales/ko.yml",
    (v) => `ko:\n  api_token: ${v}\n`,
    "API 토큰",
  ],
  ["locale json foreign key label", "locales/tr.json", (v) => `{"şifre": "${v}"}\n`, "Şifre"],
  // lockfiles' and manifests' hashes
  [
    "pipfile lock sha256",
    "Pipfile.lock",
    (v) => `            "hashes": [\n                "${v}"\n            ],\n`,
    "sha256:" + hex(64),
  ],
  [
    "poetry lock hash",
    "poetry.lock",
    (v) => `    {file = "requests-2.31.0.tar.gz", hash = "${v}"},\n`,
    "sha256:" + hex(64),
  ],
  [
    "uv lock hash",
    "uv.lock",
    (v) =>
      `sdist = { url = "https://files.pythonhosted.org/x.tar.gz", hash = "${v}", size = 1234 }\n`,
    "sha256:" + hex(64),
  ],
  [
    "requirements hash option",
    "requirements.txt",
    (v) => `requests==2.31.0 \\\n    --hash=${v}\n`,
    "sha256:" + hex(64),
  ],
  [
    "composer lock shasum",
    "composer.lock",
    (v) => `            "dist": {"type": "zip", "reference": "${v}", "shasum": ""},\n`,
    hex(40),
  ],
  [
    "nuget packages lock contentHash",
    "packages.lock.json",
    (v) => `        "contentHash": "${v}",\n`,
    b64(86) + "==",
  ],
  [
    "pubspec lock sha256",
    "pubspec.lock",
    (v) => `    description:\n      name: http\n      sha256: "${v}"\n`,
    hex(64),
  ],
  [
    "mix lock hash",
    "mix.lock",
    (v) => `  "jason": {:hex, :jason, "1.4.1", "${v}", [:mix], [], "hexpm"},\n`,
    hex(64),
  ],
  [
    "swift package resolved revision",
    "Package.resolved",
    (v) => `        "revision" : "${v}",\n`,
    hex(40),
  ],
  ["deno lock integrity", "deno.lock", (v) => `      "integrity": "${v}",\n`, hex(64)],
  [
    "gemfile lock checksums",
    "Gemfile.lock",
    (v) => `CHECKSUMS\n  rack (3.0.8) ${v}\n`,
    "sha256=" + hex(64),
  ],
  ["vcpkg sha512", "portfile.cmake", (v) => `    SHA512 ${v}\n`, hex(128)],
  // identifiers
  ["csproj user secrets id", "App.csproj", (v) => `<UserSecretsId>${v}</UserSecretsId>\n`, uuid()],
  [
    "sln project guid",
    "App.sln",
    (v) => `Project("{FAE04EC0-301F-11D3-BF4B-00C04F79EFBC}") = "App", "App.csproj", "${v}"\n`,
    "{" + uuid().toUpperCase() + "}",
  ],
  [
    "unity meta guid",
    "Assets/Player.cs.meta",
    (v) => `fileFormatVersion: 2\nguid: ${v}\n`,
    hex(32),
  ],
  [
    "pbxproj object id",
    "project.pbxproj",
    (v) => `\t\t${v} /* AppDelegate.swift in Sources */ = {isa = PBXBuildFile; };\n`,
    hex(24).toUpperCase(),
  ],
  ["azure tenant and client ids", "azure.tfvars", (v) => `tenant_id = "${v}"\n`, uuid()],
  [
    "google-services mobilesdk_app_id",
    "google-services.json",
    (v) => `"mobilesdk_app_id": "${v}",\n`,
    "1:" + ch("0123456789", 12) + ":android:" + hex(16),
  ],
  [
    "GoogleService-Info GOOGLE_APP_ID",
    "GoogleService-Info.plist",
    (v) => `\t<key>GOOGLE_APP_ID</key>\n\t<string>${v}</string>\n`,
    "1:" + ch("0123456789", 12) + ":ios:" + hex(16),
  ],
  [
    "GoogleService-Info REVERSED_CLIENT_ID",
    "GoogleService-Info.plist",
    (v) => `\t<key>REVERSED_CLIENT_ID</key>\n\t<string>${v}</string>\n`,
    "com.googleusercontent.apps." + ch("0123456789", 12) + "-" + ch(b32, 32),
  ],
  ["ipfs cid", "README.md", (v) => `Pinned at ipfs://${v}\n`, "bafybei" + ch(b32, 52)],
  [
    "ulid request id",
    "app.log",
    (v) => `{"request_id": "${v}", "status": 200}\n`,
    "01H" + ch("0123456789ABCDEFGHJKMNPQRSTVWXYZ", 23),
  ],
  // placeholders and references
  ["placeholder autoconf at", "db.properties.in", (v) => `db.password=${v}\n`, "@DB_PASSWORD@"],
  [
    "placeholder double underscore",
    "appsettings.json",
    (v) => `{"Smtp": {"Password": "${v}"}}\n`,
    "__SMTP_PASSWORD__",
  ],
  [
    "placeholder octopus hash",
    "web.config",
    (v) => `<add key="ApiSecret" value="${v}" />\n`,
    "#{ApiSecret}",
  ],
  [
    "placeholder python percent",
    "alembic.ini",
    (v) => `sqlalchemy.url = postgresql://app:${v}@db/app\n`,
    "%(DB_PASSWORD)s",
  ],
  ["placeholder env colon", "settings.json", (v) => `{"password": "${v}"}\n`, "${env:DB_PASSWORD}"],
  [
    "placeholder spring property",
    "application.yml",
    (v) => `spring:\n  datasource:\n    password: ${v}\n`,
    "${DB_PASSWORD:}",
  ],
  [
    "placeholder file reference",
    "config.yml",
    (v) => `password: ${v}\n`,
    "${file:/run/secrets/db_password}",
  ],
  [
    "placeholder angle brackets foreign",
    "LEEME.md",
    (v) => `contraseña: ${v}\n`,
    "<tu-contraseña>",
  ],
  ["placeholder x run", ".env.example", (v) => `API_SECRET=${v}\n`, "xxxxxxxxxxxxxxxxxxxxxxxx"],
  ["placeholder your_ here", "config.sample.ini", (v) => `password = ${v}\n`, "your_password_here"],
  [
    "ansible vault inline",
    "group_vars/all.yml",
    (v) => `db_password: !vault |\n  ${v}\n`,
    "$ANSIBLE_VAULT;1.1;AES256",
  ],
  [
    "travis secure value",
    ".travis.yml",
    (v) => `env:\n  global:\n    - secure: "${v}"\n`,
    b64(343) + "=",
  ],
  [
    "pulumi secure value",
    "Pulumi.prod.yaml",
    (v) => `config:\n  shop:dbPassword:\n    secure: ${v}\n`,
    "v1:" + b64(16) + ":" + b64(44),
  ],
  [
    "jenkins credentials id",
    "Jenkinsfile",
    (v) =>
      `withCredentials([usernamePassword(credentialsId: '${v}', usernameVariable: 'U', passwordVariable: 'P')]) {\n`,
    "nexus-deploy-creds",
  ],
  [
    "github actions secret reference env",
    ".github/workflows/ci.yml",
    (v) => `    env:\n      NPM_TOKEN: ${v}\n`,
    "${{ secrets.NPM_TOKEN }}",
  ],
  [
    "helm values template reference",
    "values.yaml",
    (v) => `auth:\n  password: ${v}\n`,
    "{{ .Values.global.password | quote }}",
  ],
  // public keys and public identifiers
  [
    "age recipient",
    ".sops.yaml",
    (v) => `creation_rules:\n  - age: ${v}\n`,
    "age1" + ch("023456789acdefghjklmnpqrstuvwxyz", 58),
  ],
  [
    "wireguard public key",
    "wg0.conf",
    (v) => `[Peer]\nPublicKey = ${v}\nAllowedIPs = 10.0.0.2/32\n`,
    b64(43) + "=",
  ],
  [
    "nostr npub",
    "nostr.json",
    (v) => `{"names": {"bob": "${v}"}}\n`,
    "npub1" + ch("023456789acdefghjklmnpqrstuvwxyz", 58),
  ],
  [
    "bitcoin xpub",
    "watch.txt",
    (v) => `xpub: ${v}\n`,
    "xpub661MyMwAqRbc" + ch("123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz", 95),
  ],
  ["ethereum address", "deploy.json", (v) => `{"owner": "${v}"}\n`, "0x" + hex(40)],
  [
    "jwk public only",
    "jwks.json",
    (v) => `{"keys": [{"kty": "RSA", "kid": "k1", "e": "AQAB", "n": "${v}"}]}\n`,
    r24(342),
  ],
  [
    "minisign public key",
    "minisign.pub",
    (v) => `untrusted comment: minisign public key ${hex(16).toUpperCase()}\n${v}\n`,
    "RWQ" + b64(53),
  ],
  [
    "public key pem",
    "keys/public.pem",
    (v) => `-----BEGIN PUBLIC KEY-----\n${v}\n-----END PUBLIC KEY-----\n`,
    b64(64),
  ],
  [
    "hpkp pin",
    "network_security_config.xml",
    (v) => `<pin digest="SHA-256">${v}</pin>\n`,
    b64(43) + "=",
  ],
  [
    "csp hash",
    "index.html",
    (v) => `<meta http-equiv="Content-Security-Policy" content="script-src '${v}'">\n`,
    "sha256-" + b64(43) + "=",
  ],
  [
    "sri integrity in html",
    "index.html",
    (v) =>
      `<script src="https://cdn.example.com/x.js" integrity="${v}" crossorigin="anonymous"></script>\n`,
    "sha384-" + b64(64),
  ],
  // colours, images, maps
  ["css colour", "theme.css", (v) => `:root { --secret-accent: ${v}; }\n`, "#a1b2c3"],
  [
    "css colour under token name",
    "tokens.json",
    (v) => `{"token": {"color": {"primary": "${v}"}}}\n`,
    "#3b82f6",
  ],
  [
    "base64 png data uri",
    "styles.css",
    (v) => `.logo { background: url(data:image/png;base64,${v}); }\n`,
    "iVBORw0KGgoAAAANSUhEUgAA" + b64(120),
  ],
  [
    "base64 woff2 font",
    "fonts.css",
    (v) => `src: url(data:font/woff2;base64,${v}) format("woff2");\n`,
    "d09GMgABAAAAA" + b64(120),
  ],
  [
    "source map mappings",
    "main.js.map",
    (v) => `{"version":3,"mappings":"${v}"}\n`,
    "AAAA,SAAS,CAAC;AACA,IAAI,GAAG,OAAO;AACA",
  ],
  [
    "git lfs pointer",
    "assets/video.mp4",
    (v) => `version https://git-lfs.github.com/spec/v1\noid sha256:${v}\nsize 1048576\n`,
    hex(64),
  ],
  [
    "git sha in tfstate lineage",
    "terraform.tfstate",
    (v) => `{"version": 4, "serial": 12, "lineage": "${v}"}\n`,
    uuid(),
  ],
];
for (const [n, p, f, v] of k24) kv21(n, p, f, v);
// The twenty-fifth hunt: the classes of the twenty-fourth's leaks, each in more shapes, and their
// look-alikes that must stay.
const bech32 = (n: number) => ch("qpzry9x8gf2tvdw0s3jn54khce6mua7l", n);
const t25: S24[] = [
  // a user's password encoded for Basic auth in code
  [
    "btoa basic auth",
    "client.js",
    (v) => `headers.Authorization = "Basic " + btoa("deploy:${v}");\n`,
    pw(),
  ],
  [
    "buffer basic auth",
    "api.ts",
    (v) => `const auth = Buffer.from('svc:${v}').toString('base64');\n`,
    pw(),
  ],
  [
    "b64encode basic auth",
    "client.py",
    (v) => `token = base64.b64encode(b"admin:${v}").decode()\n`,
    pw(),
  ],
  [
    "go base64 basic auth",
    "main.go",
    (v) => `a := base64.StdEncoding.EncodeToString([]byte("root:${v}"))\n`,
    pw(),
  ],
  [
    "java base64 basic auth",
    "Client.java",
    (v) => `String a = Base64.getEncoder().encodeToString("api:${v}".getBytes());\n`,
    pw(),
  ],
  // YAML's complex keys
  ["yaml complex key nested", "values.yaml", (v) => `db:\n  ? db_password\n  : ${v}\n`, pw()],
  ["yaml complex key quoted", "config.yaml", (v) => `? "api_key"\n: "${v}"\n`, r24(40)],
  [
    "yaml complex key token",
    "app.yml",
    (v) => `auth:\n  ? token\n  : ${v}\n  ? user\n  : bob\n`,
    r24(40),
  ],
  // a response's cookie in a capture
  [
    "har set-cookie lower case",
    "session.har",
    (v) => `{"name": "set-cookie", "value": "connect.sid=${v}; Path=/; HttpOnly"}\n`,
    r24(40),
  ],
  [
    "har set-cookie host prefix",
    "login.har",
    (v) =>
      `{"headers": [{"name": "Set-Cookie", "value": "__Host-session=${v}; Secure; Path=/"}]}\n`,
    r24(40),
  ],
  [
    "postman set-cookie",
    "api.postman_collection.json",
    (v) => `{"key": "Set-Cookie", "value": "token=${v}; Path=/; HttpOnly"}\n`,
    r24(40),
  ],
  // a credentials constructor of a realm, a host, a user and a password
  [
    "sbt credentials global",
    "credentials.sbt",
    (v) =>
      `credentials += Credentials("Artifactory Realm", "artifactory.example.com", "deployer", "${v}")\n`,
    pw(),
  ],
  [
    "sbt credentials over lines",
    "publish.sbt",
    (v) =>
      `credentials += Credentials(\n  "Sonatype Nexus Repository Manager",\n  "oss.sonatype.org",\n  "bob",\n  "${v}"\n)\n`,
    pw(),
  ],
  [
    "ivy credentials store",
    "Publish.java",
    (v) =>
      `CredentialsStore.INSTANCE.addCredentials("realm", "repo.example.com", "bob", "${v}");\n`,
    pw(),
  ],
  // Nostr's private keys
  [
    "nostr nsec in js",
    "bot.js",
    (v) => `const sk = nip19.decode("${v}").data;\n`,
    "nsec1" + bech32(58),
  ],
  ["nostr nsec in notes", "notes.md", (v) => `my relay key: ${v}\n`, "nsec1" + bech32(58)],
  ["nostr nsec env", ".env", (v) => `NOSTR_SK=${v}\n`, "nsec1" + bech32(58)],
  // a tool's `-t` that takes a token
  [
    "influx write -t",
    "ingest.sh",
    (v) => `influx write -b metrics -o acme -t ${v} -f data.lp\n`,
    r24(86) + "==",
  ],
  [
    "influx query -t",
    "query.sh",
    (v) => `influx query 'from(bucket:"m")' -t ${v}\n`,
    r24(86) + "==",
  ],
  ["codecov -t", "ci.sh", (v) => `bash <(curl -s https://codecov.io/bash) -t ${v}\n`, uuid()],
  ["codecov uploader -t", ".travis.yml", (v) => `after_success:\n  - ./codecov -t ${v}\n`, uuid()],
  ["vercel -t", "deploy.sh", (v) => `vercel deploy --prod -t ${v}\n`, alnum(24)],
  // a stub's matcher of a secret's header or parameter
  [
    "wiremock equalTo authorization",
    "mappings/auth.json",
    (v) => `{"request": {"headers": {"Authorization": {"equalTo": "Token ${v}"}}}}\n`,
    r24(40),
  ],
  [
    "wiremock java equalTo",
    "StubTest.java",
    (v) => `stubFor(get("/x").withHeader("X-Api-Key", equalTo("${v}")));\n`,
    r24(40),
  ],
  [
    "wiremock matches",
    "mappings/m.json",
    (v) => `{"request": {"headers": {"X-Auth-Token": {"matches": "${v}"}}}}\n`,
    r24(40),
  ],
  // `key = …` in a comment of any language
  ["lua comment key", "init.lua", (v) => `-- key = ${v}\nlocal x = 1\n`, r24(40)],
  ["python comment key", "app.py", (v) => `# key = ${v}\nx = 1\n`, r24(40)],
  ["c comment key", "main.c", (v) => `// key = ${v}\nint x;\n`, r24(40)],
  ["ini comment key", "app.ini", (v) => `; key = ${v}\n[a]\n`, r24(40)],
  ["matlab comment key", "run.m", (v) => `% key: ${v}\nx = 1;\n`, r24(40)],
];
// other scripts' and languages' secret words in code files
const codeFormats: Array<[string, (k: string, v: string) => string]> = [
  ["config.php", (k, v) => `<?php\n$config = ['${k}' => '${v}'];\n`],
  ["config.js", (k, v) => `const cfg = { '${k}': '${v}' };\n`],
  ["settings.py", (k, v) => `${k} = '${v}'\n`],
  ["main.go", (k, v) => `var ${k} = "${v}"\n`],
  ["config.rb", (k, v) => `CONFIG = { '${k}' => '${v}' }\n`],
];
[
  ["пароль", "ru"],
  ["パスワード", "ja"],
  ["密码", "zh"],
  ["비밀번호", "ko"],
  ["lösenord", "sv"],
  ["hasło", "pl"],
  ["şifre", "tr"],
  ["κωδικός", "el"],
  ["סיסמה", "he"],
  ["كلمة_المرور", "ar"],
]
  .forEach(([k, lang], i) => {
    const [path, f] = codeFormats[i % codeFormats.length];
    t25.push([`password named in ${lang} ${k} ${path}`, path, (v) => f(k, v), pw()]);
  });
[["токен", "ru"], ["令牌", "zh"], ["トークン", "ja"], ["토큰", "ko"], ["ключ_api", "ru"]]
  .forEach(([k, lang], i) => {
    const [path, f] = codeFormats[(i + 2) % codeFormats.length];
    t25.push([`token named in ${lang} ${k} ${path}`, path, (v) => f(k, v), r24(40)]);
  });
for (const [n, p, f, v] of t25) add(n, p, f, v);
const k25: S24[] = [
  ["btoa of variables", "client.js", (v) => `const a = btoa(${v});\n`, "`${user}:${password}`"],
  ["btoa of a word", "util.js", (v) => `const a = btoa("${v}");\n`, "hello world"],
  [
    "buffer basic auth placeholder",
    "api.ts",
    (v) => `Buffer.from('${v}').toString('base64');\n`,
    "username:password",
  ],
  ["b64encode key value", "t.py", (v) => `base64.b64encode(b"${v}")\n`, "key:value"],
  ["yaml complex key reference", "values.yaml", (v) => `? password\n: ${v}\n`, "${DB_PASSWORD}"],
  ["yaml complex key translation", "de.yml", (v) => `? password\n: ${v}\n`, "Passwort"],
  [
    "har set-cookie theme",
    "session.har",
    (v) => `{"name": "Set-Cookie", "value": "${v}; Path=/"}\n`,
    "theme=dark",
  ],
  [
    "har set-cookie language",
    "session.har",
    (v) => `{"name": "set-cookie", "value": "${v}; Max-Age=31536000"}\n`,
    "lang=en-US",
  ],
  [
    "sbt credentials file",
    "build.sbt",
    (v) => `credentials += Credentials(Path.userHome / ".sbt" / "${v}")\n`,
    ".credentials",
  ],
  [
    "sbt credentials from env",
    "build.sbt",
    (v) =>
      `credentials += Credentials("Sonatype Nexus", "oss.sonatype.org", sys.env("SONATYPE_USER"), ${v})\n`,
    `sys.env("SONATYPE_PASS")`,
  ],
  ["nostr npub", "README.md", (v) => `Follow me on Nostr: ${v}\n`, "npub1" + bech32(58)],
  ["nostr note id", "notes.md", (v) => `see ${v}\n`, "note1" + bech32(58)],
  [
    "docker build -t",
    "build.sh",
    (v) => `docker build -t ${v} .\n`,
    "registry.example.com/team/app:1.4.2",
  ],
  [
    "influx -t reference",
    "query.sh",
    (v) => `influx query 'from(bucket:"m")' -t ${v}\n`,
    "$INFLUX_TOKEN",
  ],
  ["sort -t", "report.sh", (v) => `sort -t ',' -k2 ${v}\n`, "quarterly_results_2024.csv"],
  [
    "wiremock equalTo content type",
    "mappings/a.json",
    (v) => `{"request": {"headers": {"Content-Type": {"equalTo": "${v}"}}}}\n`,
    "application/json",
  ],
  [
    "wiremock matches pattern",
    "mappings/b.json",
    (v) => `{"request": {"headers": {"X-Api-Key": {"matches": "${v}"}}}}\n`,
    "[a-zA-Z0-9]{40}",
  ],
  ["comment key expression", "app.py", (v) => `# key = ${v}\n`, "hashlib.sha256(name).hexdigest()"],
  ["comment key name", "main.c", (v) => `// key = ${v}\n`, "config.section.name"],
  ["comment key letters", "a.lua", (v) => `-- key = ${v}\n`, "self_cache_key_for_request_object"],
  [
    "locale php password sentence",
    "resources/lang/ru/auth.php",
    (v) => `<?php\nreturn ['password' => '${v}'];\n`,
    "Неверный пароль.",
  ],
  [
    "locale php foreign word",
    "lang/sv.php",
    (v) => `<?php\n$lang['lösenord'] = '${v}';\n`,
    "Lösenord",
  ],
  [
    "locale js foreign word",
    "i18n/ko.js",
    (v) => `export default { '비밀번호': '${v}' };\n`,
    "비밀번호를 입력하세요",
  ],
  [
    "locale py foreign word",
    "messages.py",
    (v) => `MESSAGES = {'пароль': '${v}'}\n`,
    "Введите пароль",
  ],
];
for (const [n, p, f, v] of k25) kv21(n, p, f, v);
// The twenty-sixth hunt (written before reading the rules): where secrets sit in repositories
// nobody here has seen. Infrastructure state and caches, IoT and home-automation configs, logs,
// notebook outputs, code that sets cookies and headers, passwords named in other languages in
// code files, drivers' connection strings, CI secrets in odd places, fixtures that look real.
const awsSecret = () => ch(A + "/+", 40);
const ya29 = () => "ya29.a0" + ch(A + "_-", 150);
const refresh1 = () => "1//0" + ch(A + "_-", 99);
const t26: S24[] = [];
const t26add = (name: string, path: string, f: (v: string) => string, v: string) =>
  t26.push([name, path, f, v]);
// Terraform state: other resources' secret attributes, compact and pretty
// (the fourth item writes the attribute's string around the secret, when it holds more)
const tfRes: Array<[string, string, () => string, ((v: string) => string)?]> = [
  [
    "google_service_account_key",
    "private_key",
    () => btoa('{"type": "service_account", "private_key": "' + b64(60) + '"}'),
  ],
  ["aws_iam_user_login_profile", "password", pw],
  ["azurerm_cosmosdb_account", "primary_key", () => b64(86) + "=="],
  ["github_actions_secret", "plaintext_value", () => "ghp_" + alnum(36)],
  ["azurerm_key_vault_secret", "value", pw],
  ["google_sql_user", "password", pw],
  ["aws_secretsmanager_secret_version", "secret_string", () => mixed(32)],
  ["cloudflare_api_token", "value", () => r24(40)],
  ["tfe_team_token", "token", () => alnum(14) + ".atlasv1." + alnum(67)],
  ["azuread_service_principal_password", "value", () => r24(8) + "~" + r24(31)],
  ["aws_iam_access_key", "ses_smtp_password_v4", () => "B" + b64(43)],
  ["mongodbatlas_database_user", "password", pw],
  ["datadog_api_key", "key", () => hex(32)],
  [
    "azurerm_storage_account",
    "primary_connection_string",
    () => b64(86) + "==",
    (v) =>
      `DefaultEndpointsProtocol=https;AccountName=st1;AccountKey=${v};EndpointSuffix=core.windows.net`,
  ],
  ["random_string", "result", () => mixed(24)],
  ["random_password", "bcrypt_hash", () => "$2a$10$" + ch(A + "./", 53)],
  ["kubernetes_secret", "data.token", () => jwt()],
  ["vault_approle_auth_backend_role_secret_id", "secret_id", uuid],
  ["digitalocean_spaces_bucket", "secret_key", () => b64(43)],
  [
    "heroku_app",
    "sensitive_config_vars.DATABASE_URL",
    () => hex(64),
    (v) => `postgres://u7x2kq9ab:${v}@ec2-1-2-3-4.compute-1.amazonaws.com:5432/d4kq8z1m0x2`,
  ],
];
tfRes.forEach(([type, attr, gen, wrap = (v: string) => v]) => {
  const parts = attr.split(".");
  const attrJson = parts.length === 1
    ? `"${attr}": "%V%"`
    : `"${parts[0]}": {"${parts[1]}": "%V%"}`;
  t26add(
    `tfstate26 ${type} ${attr} compact`,
    "terraform.tfstate",
    (v) =>
      `{"version": 4, "resources": [{"mode": "managed", "type": "${type}", "name": "main", "instances": [{"attributes": {"id": "${uuid()}", ${
        attrJson.replace("%V%", wrap(v))
      }}}]}]}\n`,
    gen(),
  );
  t26add(
    `tfstate26 ${type} ${attr} pretty`,
    "envs/prod/terraform.tfstate.backup",
    (v) =>
      `{\n  "resources": [\n    {\n      "type": "${type}",\n      "name": "this",\n      "instances": [\n        {\n          "schema_version": 0,\n          "attributes": {\n            "id": "projects/p/${
        lowdig(6)
      }",\n            ${
        attrJson.replace("%V%", wrap(v))
      }\n          },\n          "sensitive_attributes": []\n        }\n      ]\n    }\n  ]\n}\n`,
    gen(),
  );
});
// clouds' credential caches
t26add(
  "gcloud token cache line",
  ".config/gcloud/access_tokens.txt",
  (v) => `ci-bot@proj.iam.gserviceaccount.com|${v}|2025-03-04 11:22:33.123456\n`,
  ya29(),
);
t26add(
  "gcloud token cache sqlite dump",
  "access_tokens.sql",
  (v) => `INSERT INTO access_tokens VALUES('dev@example.org','${v}','2025-01-01 00:00:00',NULL);\n`,
  ya29(),
);
t26add(
  "gcloud credentials db dump",
  "credentials.sql",
  (v) =>
    `INSERT INTO credentials VALUES('dev@example.org','{"client_id": "32555940559.apps.googleusercontent.com", "refresh_token": "${v}", "type": "authorized_user"}');\n`,
  refresh1(),
);
t26add(
  "gcloud legacy adc",
  ".config/gcloud/legacy_credentials/dev@example.org/adc.json",
  (v) =>
    `{\n  "client_id": "32555940559.apps.googleusercontent.com",\n  "client_secret": "ZmssLNjJy2998hD4CTg2ejr2",\n  "refresh_token": "${v}",\n  "type": "authorized_user"\n}\n`,
  refresh1(),
);
t26add(
  "boto oauth2 refresh token",
  ".boto",
  (v) => `[Credentials]\ngs_oauth2_refresh_token = ${v}\n`,
  refresh1(),
);
t26add(
  "gcloud print-access-token in log",
  "deploy.log",
  (v) => `+ gcloud auth print-access-token\n${v}\n`,
  ya29(),
);
t26add(
  "gcloud token in curl",
  "call.sh",
  (v) => `curl -H "Authorization: Bearer ${v}" https://storage.googleapis.com/b\n`,
  ya29(),
);
t26add(
  "aws sso cache",
  ".aws/sso/cache/5a3f.json",
  (v) =>
    `{"startUrl": "https://acme.awsapps.com/start", "region": "us-east-1", "accessToken": "${v}", "expiresAt": "2025-01-01T10:00:00Z"}\n`,
  "aoa" + alnum(160),
);
t26add(
  "aws cli cache secret",
  ".aws/cli/cache/ab12.json",
  (v) =>
    `{"Credentials": {"AccessKeyId": "ASIA${
      upper(16)
    }", "SecretAccessKey": "${v}", "SessionToken": "IQoJb3JpZ2luX2VjE${
      alnum(200)
    }", "Expiration": "2025-01-01T10:00:00Z"}}\n`,
  awsSecret(),
);
t26add(
  "aws cli cache session token",
  ".aws/cli/cache/cd34.json",
  (v) =>
    `{\n  "Credentials": {\n    "AccessKeyId": "ASIA${
      upper(16)
    }",\n    "SessionToken": "${v}"\n  }\n}\n`,
  "IQoJb3JpZ2luX2VjE" + alnum(200),
);
t26add(
  "azure msal token cache",
  ".azure/msal_token_cache.json",
  (v) =>
    `{"RefreshToken": {"uid.utid-login.microsoftonline.com-refreshtoken-04b07795--": {"credential_type": "RefreshToken", "secret": "${v}", "home_account_id": "uid.utid"}}}\n`,
  "0.A" + r24(300),
);
t26add(
  "azure accessTokens json",
  ".azure/accessTokens.json",
  (v) =>
    `[{"tokenType": "Bearer", "expiresIn": 3599, "accessToken": "${v}", "refreshToken": "0.AXk${
      r24(200)
    }"}]\n`,
  jwt(),
);
t26add(
  "oci config key content",
  ".oci/config",
  (v) =>
    `[DEFAULT]\nuser=ocid1.user.oc1..aaaa\nfingerprint=20:3b:97:13:55:1c\npass_phrase=${v}\nkey_file=~/.oci/key.pem\n`,
  pw(),
);
t26add(
  "doctl config",
  ".config/doctl/config.yaml",
  (v) => `access-token: ${v}\ncontext: default\n`,
  "dop_v1_" + hex(64),
);
t26add(
  "linode cli",
  ".config/linode-cli",
  (v) => `[DEFAULT]\ndefault-user = bob\n\n[bob]\ntoken = ${v}\n`,
  hex(64),
);
t26add(
  "hcloud cli",
  ".config/hcloud/cli.toml",
  (v) => `active_context = "prod"\n[[contexts]]\n  name = "prod"\n  token = "${v}"\n`,
  alnum(64),
);
t26add(
  "scw config",
  ".config/scw/config.yaml",
  (v) => `access_key: SCW${upper(17)}\nsecret_key: ${v}\ndefault_organization_id: ${uuid()}\n`,
  uuid(),
);
t26add(
  "heroku netrc",
  ".netrc",
  (v) => `machine api.heroku.com\n  login bob@example.com\n  password ${v}\n`,
  uuid(),
);
// kubeconfig's exec and auth-provider
t26add(
  "kubeconfig exec args token",
  ".kube/config",
  (v) =>
    `users:\n- name: ci\n  user:\n    exec:\n      apiVersion: client.authentication.k8s.io/v1beta1\n      command: kubectl-login\n      args:\n      - --token\n      - ${v}\n`,
  r24(48),
);
t26add(
  "kubeconfig exec args token equals",
  ".kube/config",
  (v) =>
    `    exec:\n      command: oidc-login\n      args:\n      - get-token\n      - --oidc-client-secret=${v}\n`,
  r24(40),
);
t26add(
  "kubeconfig exec env secret",
  "kubeconfig.yaml",
  (v) =>
    `    exec:\n      command: aws\n      env:\n      - name: AWS_SECRET_ACCESS_KEY\n        value: ${v}\n`,
  awsSecret(),
);
t26add(
  "kubeconfig gcp access-token",
  ".kube/config",
  (v) =>
    `    auth-provider:\n      name: gcp\n      config:\n        access-token: ${v}\n        cmd-path: /usr/lib/google-cloud-sdk/bin/gcloud\n        expiry: "2025-01-01T10:00:00Z"\n`,
  ya29(),
);
t26add(
  "kubeconfig oidc refresh-token",
  ".kube/config",
  (v) =>
    `    auth-provider:\n      name: oidc\n      config:\n        client-id: kubernetes\n        idp-issuer-url: https://dex.example.com\n        refresh-token: ${v}\n`,
  "Chl" + r24(60),
);
t26add(
  "kubeconfig azure access-token",
  ".kube/config",
  (v) =>
    `    auth-provider:\n      config:\n        access-token: ${v}\n        apiserver-id: ${uuid()}\n      name: azure\n`,
  jwt(),
);
t26add(
  "kubeconfig json token",
  "kubeconfig.json",
  (v) => `{"users": [{"name": "admin", "user": {"token": "${v}"}}]}\n`,
  r24(6) + "." + r24(16),
);
t26add(
  "kubeconfig password flow",
  "admin.conf",
  (v) => `users:\n- {name: admin, user: {username: admin, password: ${v}}}\n`,
  pw(),
);
// docker and registries' client configs
const dcfg = (u: string, p: string) => btoa(`${u}:${p}`);
t26add(
  "docker config auth pretty",
  ".docker/config.json",
  (v) => `{\n\t"auths": {\n\t\t"ghcr.io": {\n\t\t\t"auth": "${v}"\n\t\t}\n\t}\n}\n`,
  dcfg("bob", "ghp_" + alnum(36)),
);
t26add(
  "docker config identitytoken",
  ".docker/config.json",
  (v) =>
    `{"auths": {"acme.azurecr.io": {"auth": "MDAwMDAwMDAtMDAwMC0wMDAwLTAwMDAtMDAwMDAwMDAwMDAwOg==", "identitytoken": "${v}"}}}\n`,
  jwt(),
);
t26add(
  "docker config registrytoken",
  ".docker/config.json",
  (v) => `{"auths": {"registry.example.com": {"registrytoken": "${v}"}}}\n`,
  r24(64),
);
t26add(
  "podman auth json",
  "containers/auth.json",
  (v) => `{"auths": {"quay.io": {"auth": "${v}"}}}\n`,
  dcfg("acme+robot", upper(64)),
);
t26add(
  "legacy dockercfg",
  ".dockercfg",
  (v) => `{"https://index.docker.io/v1/": {"auth": "${v}", "email": "bob@example.com"}}\n`,
  dcfg("bob", pw()),
);
t26add(
  "kaniko config echo",
  ".gitlab-ci.yml",
  (v) =>
    `  script:\n    - echo "{\\"auths\\":{\\"$CI_REGISTRY\\":{\\"auth\\":\\"${v}\\"}}}" > /kaniko/.docker/config.json\n`,
  dcfg("gitlab-ci-token", "glpat-" + r24(20)),
);
t26add(
  "dockerconfigjson secret",
  "regcred.yaml",
  (v) =>
    `apiVersion: v1\nkind: Secret\ntype: kubernetes.io/dockerconfigjson\ndata:\n  .dockerconfigjson: ${v}\n`,
  btoa(
    `{"auths":{"r.example.com":{"username":"u","password":"${pw()}","auth":"${dcfg("u", pw())}"}}}`,
  ),
);
t26add(
  "docker login password-stdin echo",
  "push.sh",
  (v) => `echo '${v}' | docker login -u bob --password-stdin registry.example.com\n`,
  pw(),
);
t26add(
  "helm repo add password",
  "setup.sh",
  (v) => `helm repo add private https://charts.example.com --username ci --password ${v}\n`,
  pw(),
);
t26add(
  "crane auth login",
  "ci.sh",
  (v) => `crane auth login ghcr.io -u bot -p ${v}\n`,
  "ghp_" + alnum(36),
);
// IoT and home automation
const byteList = () => Array.from({ length: 16 }, () => Math.floor(rnd() * 256)).join(", ");
const hexBytes = () => Array.from({ length: 16 }, () => "0x" + hex(2).toUpperCase()).join(", ");
t26add(
  "zigbee2mqtt network key flow",
  "zigbee2mqtt/configuration.yaml",
  (v) => `advanced:\n  pan_id: 6754\n  network_key: [${v}]\n`,
  byteList(),
);
t26add(
  "zigbee2mqtt network key hex",
  "data/configuration.yaml",
  (v) => `advanced:\n  network_key: [${v}]\n  channel: 15\n`,
  hexBytes(),
);
t26add(
  "zigbee2mqtt network key block",
  "configuration.yaml",
  (v) => `advanced:\n  network_key:\n${v}\n`,
  Array.from({ length: 16 }, () => "    - " + Math.floor(rnd() * 256)).join("\n"),
);
t26add(
  "zigbee2mqtt network key json",
  "zigbee2mqtt/coordinator_backup.json",
  (v) => `{"network_key": {"key": "${v}", "sequence_number": 0}}\n`,
  hex(32),
);
t26add(
  "zigbee2mqtt mqtt password",
  "zigbee2mqtt/configuration.yaml",
  (v) =>
    `mqtt:\n  base_topic: zigbee2mqtt\n  server: mqtt://core-mosquitto\n  user: z2m\n  password: ${v}\n`,
  pw(),
);
t26add("zha network key python", "zha_setup.py", (v) => `NETWORK_KEY = [${v}]\n`, hexBytes());
t26add(
  "esphome api encryption key",
  "esphome/garage.yaml",
  (v) => `api:\n  encryption:\n    key: "${v}"\n`,
  b64(43) + "=",
);
t26add(
  "esphome ota password",
  "esphome/living.yaml",
  (v) => `ota:\n  - platform: esphome\n    password: "${v}"\n`,
  hex(32),
);
t26add(
  "esphome wifi ap password",
  "esphome/node.yaml",
  (v) =>
    `wifi:\n  ssid: HomeNet\n  password: ${v}\n  ap:\n    ssid: "Node Fallback"\n    password: "${pw()}"\n`,
  pw(),
);
t26add(
  "home assistant secrets",
  "secrets.yaml",
  (v) => `latitude: 52.3731\nmqtt_password: ${v}\n`,
  pw(),
);
t26add(
  "home assistant long-lived token",
  "configuration.yaml",
  (v) =>
    `rest_command:\n  ping:\n    url: http://ha.local:8123/api/services\n    headers:\n      authorization: "Bearer ${v}"\n`,
  jwt(),
);
t26add(
  "home assistant http api_password",
  "configuration.yaml",
  (v) => `http:\n  api_password: ${v}\n`,
  pw(),
);
t26add(
  "node-red credentialSecret",
  "settings.js",
  (v) => `module.exports = {\n    credentialSecret: "${v}",\n    uiPort: 1880,\n};\n`,
  mixed(24),
);
t26add(
  "node-red flows_cred",
  "flows_cred.json",
  (v) => `{"4f1a2b.c3d4e": {"user": "mqtt", "password": "${v}"}}\n`,
  pw(),
);
t26add(
  "tasmota backlog mqttpassword",
  "tasmota.txt",
  (v) => `Backlog MqttHost 192.168.1.10; MqttUser tas; MqttPassword ${v}; Topic plug1\n`,
  pw(),
);
t26add(
  "tuya local_key",
  "devices.json",
  (v) =>
    `[{"name": "Lamp", "id": "bf${
      hex(20)
    }", "key": "${v}", "ip": "192.168.1.50", "version": "3.3"}]\n`,
  "e" + mixed(15),
);
t26add(
  "tuya local_key snapshot",
  "snapshot.json",
  (v) => `{"devices": [{"id": "eb${hex(18)}", "local_key": "${v}"}]}\n`,
  mixed(16),
);
t26add(
  "hue bridge username",
  "hue.py",
  (v) => `bridge = Bridge("192.168.1.2", username="${v}")\n`,
  alnum(40),
);
t26add(
  "hue api url",
  "lights.sh",
  (v) => `curl -X PUT http://192.168.1.2/api/${v}/lights/1/state -d '{"on":true}'\n`,
  alnum(40),
);
t26add(
  "rtsp camera url",
  "frigate.yml",
  (v) =>
    `cameras:\n  door:\n    ffmpeg:\n      inputs:\n        - path: rtsp://admin:${v}@192.168.1.64:554/Streaming/Channels/101\n`,
  pw(),
);
t26add(
  "homebridge config password",
  "homebridge/config.json",
  (v) =>
    `{"platforms": [{"platform": "Camera-ffmpeg", "cameras": [{"name": "Gate", "videoConfig": {"source": "-i rtsp://viewer:${v}@10.0.0.5/live"}}]}]}\n`,
  pw(),
);
t26add(
  "openhab mqtt broker",
  "services/mqtt.cfg",
  (v) => `broker.url=tcp://localhost:1883\nbroker.user=openhab\nbroker.pwd=${v}\n`,
  pw(),
);
t26add(
  "arduino secrets header",
  "arduino_secrets.h",
  (v) => `#define SECRET_SSID "HomeNet"\n#define SECRET_PASS "${v}"\n`,
  pw(),
);
t26add(
  "wled wifi psk",
  "wsec.json",
  (v) => `{"nw": {"ins": [{"ssid": "HomeNet", "psk": "${v}"}]}}\n`,
  pw(),
);
t26add(
  "wpa_supplicant psk",
  "wpa_supplicant.conf",
  (v) => `network={\n    ssid="HomeNet"\n    psk="${v}"\n}\n`,
  pw(),
);
t26add("micropython wlan connect", "boot.py", (v) => `wlan.connect('HomeNet', '${v}')\n`, pw());
t26add("esp WiFi.begin", "main.ino", (v) => `  WiFi.begin("HomeNet", "${v}");\n`, pw());
t26add("blynk auth token", "main.ino", (v) => `#define BLYNK_AUTH_TOKEN "${v}"\n`, r24(32));
t26add(
  "thingspeak write key",
  "sensor.py",
  (v) => `requests.get(f"https://api.thingspeak.com/update?api_key=${v}&field1={t}")\n`,
  upper(16),
);
// logs
t26add(
  "syslog tencent AKID after api key",
  "var/log/syslog",
  (v) => `Jan 12 03:14:15 web01 worker[812]: using api key ${v}\n`,
  "AKID" + alnum(32),
);
t26add(
  "syslog AKIA key id with secret",
  "var/log/messages",
  (v) =>
    `Mar  3 10:00:01 ip-10-0-0-5 cloud-init[901]: aws_access_key_id=AKIA${
      upper(16)
    } aws_secret_access_key=${v}\n`,
  awsSecret(),
);
t26add(
  "syslog secret key colon",
  "logs/app.log",
  (v) => `2025-01-02T10:00:00Z INFO boto: Found credentials: secret_key: ${v}\n`,
  awsSecret(),
);
t26add(
  "syslog AKID secret",
  "var/log/syslog",
  (v) => `Jan 12 03:14:15 web01 tccli[99]: SecretId=AKID${alnum(32)} SecretKey=${v}\n`,
  alnum(32),
);
t26add(
  "nginx access log access_token",
  "logs/access.log",
  (v) =>
    `10.0.0.1 - - [12/Jan/2025:03:14:15 +0000] "GET /api/v1/me?access_token=${v} HTTP/1.1" 200 512 "-" "curl/8.0"\n`,
  r24(43),
);
t26add(
  "nginx access log api_key",
  "access.log",
  (v) =>
    `203.0.113.7 - - [01/Feb/2025:10:00:00 +0000] "GET /v2/data?format=json&api_key=${v}&page=2 HTTP/2.0" 200 1234\n`,
  hex(32),
);
t26add(
  "apache log token param",
  "access_log",
  (v) =>
    `192.0.2.4 - bob [10/Oct/2024:13:55:36 -0700] "POST /hook?token=${v} HTTP/1.1" 204 0 "-" "GitHub-Hookshot/abc"\n`,
  alnum(40),
);
t26add(
  "apache log basic creds url",
  "access_log",
  (v) =>
    `192.0.2.4 - - [10/Oct/2024:13:55:36 -0700] "GET https://admin:${v}@intranet.example.com/ HTTP/1.1" 200 10\n`,
  pw(),
);
t26add(
  "elb log signature",
  "elb.log",
  (v) =>
    `https 2025-01-01T00:00:00Z app/my-lb 1.2.3.4:5 10.0.0.1:80 0.0 0.1 0.0 200 200 34 366 "GET https://s3.example.com:443/b/o?X-Amz-Credential=AKIA${
      upper(16)
    }%2F20250101%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Signature=${v} HTTP/1.1"\n`,
  hex(64),
);
t26add(
  "curl -v authorization bearer",
  "debug.txt",
  (v) =>
    `* Connected to api.example.com (1.2.3.4) port 443\n> GET /v1/items HTTP/2\n> Host: api.example.com\n> authorization: Bearer ${v}\n> user-agent: curl/8.4.0\n`,
  r24(64),
);
t26add(
  "curl -v authorization basic",
  "curl-trace.txt",
  (v) => `> POST /token HTTP/1.1\n> Authorization: Basic ${v}\n> Accept: */*\n`,
  btoa("client:" + pw()),
);
t26add("curl -v x-api-key", "trace.log", (v) => `> GET / HTTP/1.1\n> X-Api-Key: ${v}\n`, alnum(40));
t26add(
  "curl -v set-cookie reply",
  "trace.log",
  (v) =>
    `< HTTP/1.1 302 Found\n< set-cookie: _session_id=${v}; path=/; secure; HttpOnly; SameSite=Lax\n`,
  hex(64),
);
t26add(
  "curl --trace-ascii header",
  "dump.txt",
  (v) => `0000: POST /api HTTP/1.1\n0022: Host: x.example.com\n0038: Private-Token: ${v}\n`,
  "glpat-" + r24(20),
);
t26add(
  "docker json log",
  "containers/abc-json.log",
  (v) =>
    `{"log":"connecting with DATABASE_URL=postgres://app:${v}@db:5432/app\\n","stream":"stdout","time":"2025-01-01T00:00:00Z"}\n`,
  pw(),
);
t26add(
  "journalctl env dump",
  "journal.txt",
  (v) =>
    `Jan 12 03:14:15 host systemd[1]: Started app.service.\nJan 12 03:14:15 host app[4]: env: STRIPE_SECRET_KEY=${v}\n`,
  "sk_live_" + alnum(24),
);
t26add(
  "rails log parameters password",
  "log/production.log",
  (v) =>
    `Started POST "/login" for 1.2.3.4\nProcessing by SessionsController#create as HTML\n  Parameters: {"authenticity_token"=>"[FILTERED]", "user"=>{"email"=>"a@b.c", "password"=>"${v}"}}\n`,
  pw(),
);
t26add(
  "django debug settings dump",
  "error.log",
  (v) =>
    `DATABASES = {'default': {'ENGINE': 'django.db.backends.postgresql', 'NAME': 'app', 'PASSWORD': '${v}'}}\n`,
  pw(),
);
t26add(
  "urllib3 debug url token",
  "debug.log",
  (v) =>
    `DEBUG:urllib3.connectionpool:https://api.telegram.org:443 "POST /bot${v}/sendMessage HTTP/1.1" 200 312\n`,
  digits(10) + ":AA" + r24(33),
);
t26add(
  "npm debug log authtoken",
  "npm-debug.log",
  (v) => `12 verbose config //registry.npmjs.org/:_authToken=${v}\n`,
  "npm_" + alnum(36),
);
t26add(
  "pip log index url creds",
  "pip.log",
  (v) => `Looking in indexes: https://deploy:${v}@pypi.example.com/simple\n`,
  pw(),
);
t26add(
  "java stack jdbc url",
  "catalina.out",
  (v) =>
    `Caused by: org.postgresql.util.PSQLException: FATAL: connection failed for jdbc:postgresql://db:5432/app?user=app&password=${v}\n`,
  pw(),
);
t26add(
  "k8s event env",
  "events.txt",
  (v) => `Warning  Failed  pod/api-7d9  Error: container env GITHUB_TOKEN=${v} invalid\n`,
  "ghp_" + alnum(36),
);
t26add(
  "gunicorn access log header",
  "gunicorn.log",
  (v) =>
    `[2025-01-01 10:00:00 +0000] [7] [DEBUG] headers: [('host', 'api'), ('x-api-key', '${v}')]\n`,
  alnum(40),
);
t26add(
  "log json authorization",
  "logs/requests.jsonl",
  (v) =>
    `{"level":"debug","msg":"request","headers":{"Authorization":"Token ${v}","Accept":"*/*"}}\n`,
  hex(40),
);
t26add(
  "windows event log password",
  "setup.log",
  (v) => `2025-01-01 10:00:00 Info  msiexec /i app.msi SERVICEPASSWORD=${v} /qn\n`,
  pw(),
);
t26add(
  "heroku log database url",
  "heroku.log",
  (v) =>
    `2025-01-01T10:00:00+00:00 app[web.1]: DATABASE_URL: postgres://u1:${v}@ec2-1-1-1-1.compute-1.amazonaws.com:5432/d1\n`,
  hex(64),
);
// notebook outputs
const nbOut = (text: string) =>
  `{"cells": [{"cell_type": "code", "execution_count": 3, "outputs": [{"name": "stdout", "output_type": "stream", "text": [${
    JSON.stringify(text)
  }]}], "source": ["print(x)"]}]}\n`;
t26add(
  "ipynb printed os.environ repr",
  "explore.ipynb",
  (v) => nbOut(`environ({'HOME': '/root', 'OPENAI_API_KEY': '${v}', 'PATH': '/usr/bin'})\n`),
  "sk-proj-" + r24(64),
);
t26add(
  "ipynb !env output",
  "setup.ipynb",
  (v) => nbOut(`HOSTNAME=abc\nHF_TOKEN=${v}\nLANG=C.UTF-8\n`),
  "hf_" + alnum(34),
);
t26add(
  "ipynb printed config dict",
  "train.ipynb",
  (v) => nbOut(`{'wandb_api_key': '${v}', 'lr': 0.001}\n`),
  hex(40),
);
t26add(
  "ipynb %env magic",
  "run.ipynb",
  (v) =>
    `{"cells": [{"cell_type": "code", "source": ["%env ANTHROPIC_API_KEY=${v}\\n", "import anthropic"]}]}\n`,
  "sk-ant-api03-" + r24(95) + "AA",
);
t26add(
  "ipynb execute_result env get",
  "nb.ipynb",
  (v) =>
    `{"outputs": [{"data": {"text/plain": ["'${v}'"]}, "execution_count": 5, "output_type": "execute_result"}], "source": ["os.environ.get('DB_PASSWORD')"]}\n`,
  pw(),
);
t26add(
  "ipynb printed connection",
  "etl.ipynb",
  (v) => nbOut(`Engine(mysql+pymysql://etl:${v}@warehouse:3306/dw)\n`),
  pw(),
);
t26add(
  "ipynb pandas dataframe token",
  "users.ipynb",
  (v) => nbOut(`   id   name  api_token\n0   1  alice  ${v}\n`),
  hex(40),
);
t26add(
  "ipynb html output key",
  "report.ipynb",
  (v) =>
    `{"outputs": [{"data": {"text/html": ["<td>secret_key</td><td>${v}</td>"]}, "output_type": "display_data"}]}\n`,
  awsSecret(),
);
t26add(
  "ipynb error traceback url",
  "fetch.ipynb",
  (v) =>
    `{"output_type": "error", "ename": "HTTPError", "evalue": "401 Client Error: Unauthorized for url: https://api.example.com/v1/x?apikey=${v}", "traceback": []}\n`,
  alnum(32),
);
// code that sets cookies and headers
const sc = () => r24(48);
t26add(
  "node setHeader Set-Cookie",
  "server.js",
  (v) => `res.setHeader('Set-Cookie', 'sid=${v}; HttpOnly; Path=/');\n`,
  sc(),
);
t26add(
  "node setHeader Set-Cookie array",
  "server.js",
  (v) => `res.setHeader("Set-Cookie", ["session=${v}; Secure", "theme=dark"]);\n`,
  sc(),
);
t26add(
  "node writeHead set-cookie",
  "app.js",
  (v) => `res.writeHead(200, { 'Set-Cookie': 'auth=${v}', 'Content-Type': 'text/plain' });\n`,
  sc(),
);
t26add(
  "express res.cookie",
  "routes.js",
  (v) => `res.cookie('remember_token', '${v}', { httpOnly: true });\n`,
  sc(),
);
t26add(
  "flask set_cookie",
  "app.py",
  (v) => `resp.set_cookie("session_token", "${v}", httponly=True)\n`,
  sc(),
);
t26add(
  "django set_cookie",
  "views.py",
  (v) => `response.set_cookie('sessionid', '${v}', max_age=3600)\n`,
  lowdig(32),
);
t26add(
  "go http.Cookie",
  "main.go",
  (v) => `http.SetCookie(w, &http.Cookie{Name: "session", Value: "${v}", HttpOnly: true})\n`,
  sc(),
);
t26add(
  "php setcookie",
  "login.php",
  (v) => `setcookie("PHPSESSID", "${v}", time() + 3600, "/");\n`,
  lowdig(26),
);
t26add(
  "java Cookie constructor",
  "Login.java",
  (v) => `Cookie c = new Cookie("JSESSIONID", "${v}");\n`,
  hex(32).toUpperCase(),
);
t26add(
  "document.cookie token",
  "auth.js",
  (v) => `document.cookie = "access_token=${v}; path=/";\n`,
  jwt(),
);
t26add(
  "requests cookies dict",
  "scrape.py",
  (v) => `cookies = {"sessionid": "${v}", "csrftoken": "abc"}\n`,
  lowdig(32),
);
t26add(
  "python headers X-Api-Key",
  "client.py",
  (v) => `headers["X-Api-Key"] = "${v}"\n`,
  alnum(40),
);
t26add(
  "python session headers update",
  "client.py",
  (v) => `session.headers.update({"Authorization": "Token ${v}"})\n`,
  hex(40),
);
t26add("js headers set", "api.ts", (v) => `headers.set("x-api-key", "${v}");\n`, alnum(40));
t26add(
  "axios defaults header",
  "http.js",
  (v) => `axios.defaults.headers.common['Authorization'] = 'Bearer ${v}';\n`,
  r24(64),
);
t26add(
  "fetch headers api key",
  "fetch.js",
  (v) => `await fetch(url, { headers: { 'X-RapidAPI-Key': '${v}' } });\n`,
  hex(50),
);
t26add(
  "go req.Header.Set",
  "client.go",
  (v) => `req.Header.Set("Authorization", "Bearer ${v}")\n`,
  r24(64),
);
t26add(
  "go req.Header.Add api key",
  "client.go",
  (v) => `req.Header.Add("X-API-Key", "${v}")\n`,
  alnum(40),
);
t26add(
  "java setRequestProperty",
  "Api.java",
  (v) => `conn.setRequestProperty("X-Auth-Token", "${v}");\n`,
  uuid(),
);
t26add(
  "okhttp addHeader",
  "Api.kt",
  (v) => `.addHeader("Authorization", "Bearer ${v}")\n`,
  r24(64),
);
t26add(
  "csharp DefaultRequestHeaders",
  "Client.cs",
  (v) => `client.DefaultRequestHeaders.Add("X-Api-Key", "${v}");\n`,
  alnum(40),
);
t26add(
  "csharp AuthenticationHeaderValue",
  "Client.cs",
  (v) =>
    `client.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Bearer", "${v}");\n`,
  r24(64),
);
t26add(
  "php curl httpheader",
  "api.php",
  (v) => `curl_setopt($ch, CURLOPT_HTTPHEADER, ['X-API-KEY: ${v}', 'Accept: application/json']);\n`,
  alnum(40),
);
t26add(
  "php header set-cookie",
  "index.php",
  (v) => `header("Set-Cookie: token=${v}; HttpOnly");\n`,
  sc(),
);
t26add(
  "powershell headers hashtable",
  "deploy.ps1",
  (v) => `$headers = @{ 'Authorization' = 'Bearer ${v}' }\n`,
  r24(64),
);
t26add(
  "powershell headers add",
  "deploy.ps1",
  (v) => `$headers.Add("X-Api-Key", "${v}")\n`,
  alnum(40),
);
t26add(
  "ruby net http header",
  "client.rb",
  (v) => `req['Authorization'] = "Token token=${v}"\n`,
  hex(40),
);
t26add("rust reqwest header", "main.rs", (v) => `.header("x-api-key", "${v}")\n`, alnum(40));
t26add("rust cookie new", "main.rs", (v) => `let c = Cookie::new("session", "${v}");\n`, sc());
t26add(
  "swift setValue header",
  "Api.swift",
  (v) => `request.setValue("Bearer ${v}", forHTTPHeaderField: "Authorization")\n`,
  r24(64),
);
t26add(
  "nginx add_header set-cookie",
  "nginx.conf",
  (v) => `add_header Set-Cookie "gate=${v}; Path=/; HttpOnly";\n`,
  sc(),
);
t26add(
  "nginx proxy_set_header auth",
  "nginx.conf",
  (v) => `proxy_set_header Authorization "Bearer ${v}";\n`,
  r24(64),
);
t26add(
  "apache RequestHeader",
  "vhost.conf",
  (v) => `RequestHeader set X-Api-Key "${v}"\n`,
  alnum(40),
);
t26add(
  "envoy request_headers_to_add",
  "envoy.yaml",
  (v) => `request_headers_to_add:\n- header:\n    key: x-api-key\n    value: ${v}\n`,
  alnum(40),
);
t26add(
  "traefik headers middleware",
  "dynamic.yml",
  (v) =>
    `http:\n  middlewares:\n    auth:\n      headers:\n        customRequestHeaders:\n          X-Api-Key: "${v}"\n`,
  alnum(40),
);
// passwords named in other languages in code files
const codeWords: Array<[string, string]> = [
  ["lösenord", "sv"],
  ["losenord", "sv"],
  ["contraseña", "es"],
  ["contrasena", "es"],
  ["mot_de_passe", "fr"],
  ["motdepasse", "fr"],
  ["пароль", "ru"],
  ["密码", "zh"],
  ["パスワード", "ja"],
  ["passwort", "de"],
  ["wachtwoord", "nl"],
  ["senha", "pt"],
  ["hasło", "pl"],
  ["parola", "it"],
  ["salasana", "fi"],
  ["adgangskode", "da"],
  ["passord", "no"],
  ["jelszó", "hu"],
  ["heslo", "cs"],
  ["şifre", "tr"],
  ["비밀번호", "ko"],
  ["κωδικός", "el"],
  ["kata_sandi", "id"],
  ["lozinka", "hr"],
];
const codeForms: Array<[string, (k: string, v: string) => string]> = [
  ["db.go", (k, v) => `const ${k} = "${v}"\n`],
  ["db.js", (k, v) => `const ${k} = '${v}';\n`],
  ["Db.java", (k, v) => `private static final String ${k.toUpperCase()} = "${v}";\n`],
  ["db.rb", (k, v) => `${k} = '${v}'\n`],
  ["Db.kt", (k, v) => `val ${k} = "${v}"\n`],
  ["Db.cs", (k, v) => `var ${k} = "${v}";\n`],
  ["db.ts", (k, v) => `export const config = { user: "app", ${k}: "${v}" };\n`],
  ["db.py", (k, v) => `conn = connect(user="app", ${k}="${v}")\n`],
  ["db.rs", (k, v) => `let ${k} = "${v}";\n`],
  ["db.swift", (k, v) => `let ${k} = "${v}"\n`],
  ["db.php", (k, v) => `$${k} = "${v}";\n`],
  ["db.c", (k, v) => `static const char *${k} = "${v}";\n`],
];
codeWords.forEach(([k, lang], i) => {
  for (const j of [0, 5]) {
    const [path, f] = codeForms[(i + j) % codeForms.length];
    t26add(`password in code ${lang} ${k} ${path}`, path, (v) => f(k, v), pw());
  }
});
t26add("db password foreign compound", "config.py", (v) => `DB_LÖSENORD = "${v}"\n`, pw());
t26add("camel foreign compound", "config.js", (v) => `const dbContraseña = "${v}";\n`, pw());
t26add(
  "foreign compound mot de passe admin",
  "config.rb",
  (v) => `ADMIN_MOT_DE_PASSE = "${v}"\n`,
  pw(),
);
t26add("russian compound", "settings.py", (v) => `пароль_бд = "${v}"\n`, pw());
// bare `key` with few digits
const fewDigits = () => {
  for (;;) {
    const v = ch("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz", 38) + ch("0123456789", 2);
    const a = v.split("");
    for (let i = a.length - 1; i > 0; i--) {
      const j = Math.floor(rnd() * (i + 1));
      [a[i], a[j]] = [a[j], a[i]];
    }
    return a.join("");
  }
};
const noDigits = () => ch("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz", 40);
t26add("c comment key two digits", "crypto.c", (v) => `/* key = ${v} */\n`, fewDigits());
t26add("py comment key no digits", "crypt.py", (v) => `# key = ${v}\n`, noDigits());
t26add(
  "js comment key one digit",
  "app.js",
  (v) => `// key: '${v}'\n`,
  noDigits().slice(0, 39) + "7",
);
t26add("ini bare key few digits", "app.ini", (v) => `[crypto]\nkey = ${v}\n`, fewDigits());
t26add("yaml bare key few digits", "config.yml", (v) => `encryption:\n  key: ${v}\n`, fewDigits());
t26add(
  "json bare key no digits",
  "settings.json",
  (v) => `{"license": {"key": "${v}"}}\n`,
  noDigits(),
);
t26add("go bare key few digits", "main.go", (v) => `var key = []byte("${v}")\n`, fewDigits());
t26add("toml bare key no digits", "app.toml", (v) => `[signing]\nkey = "${v}"\n`, noDigits());
// drivers' connection strings
t26add(
  "odbc PWD",
  "odbc.ini",
  (v) =>
    `[dsn]\nDriver=ODBC Driver 18 for SQL Server\nServer=tcp:sql.example.com,1433\nUID=app\nPWD=${v}\n`,
  pw(),
);
t26add(
  "odbc connection string code",
  "db.py",
  (v) =>
    `pyodbc.connect("DRIVER={ODBC Driver 18 for SQL Server};SERVER=sql;DATABASE=app;UID=sa;PWD=${v}")\n`,
  pw(),
);
t26add(
  "oracle ezconnect",
  "db.sh",
  (v) => `sqlplus scott/${v}@//db.example.com:1521/ORCLPDB1\n`,
  pw(),
);
t26add(
  "oracle cx_Oracle dsn",
  "ora.py",
  (v) => `cx_Oracle.connect("scott", "${v}", "db:1521/orcl")\n`,
  pw(),
);
t26add(
  "snowflake url",
  "dbt/profiles.yml",
  (v) => `sqlalchemy_url: snowflake://etl:${v}@acme-xy12345/analytics/public?warehouse=wh\n`,
  pw(),
);
t26add(
  "clickhouse url",
  "clickhouse.env",
  (v) => `CLICKHOUSE_URL=clickhouse://default:${v}@ch.example.com:9000/default\n`,
  pw(),
);
t26add(
  "neo4j bolt",
  "graph.py",
  (v) => `driver = GraphDatabase.driver("bolt://db:7687", auth=("neo4j", "${v}"))\n`,
  pw(),
);
t26add("neo4j uri", "neo4j.env", (v) => `NEO4J_AUTH=neo4j/${v}\n`, pw());
t26add(
  "cassandra plain auth",
  "cass.py",
  (v) => `auth = PlainTextAuthProvider(username="cassandra", password="${v}")\n`,
  pw(),
);
t26add(
  "couchbase connect",
  "cb.js",
  (v) =>
    `await couchbase.connect('couchbases://cb.example.com', { username: 'app', password: '${v}' });\n`,
  pw(),
);
t26add("nats url", "nats.conf", (v) => `NATS_URL=nats://svc:${v}@nats.example.com:4222\n`, pw());
t26add(
  "mssql pyodbc url",
  "alembic.ini",
  (v) =>
    `sqlalchemy.url = mssql+pyodbc://sa:${v}@sql:1433/app?driver=ODBC+Driver+18+for+SQL+Server\n`,
  pw(),
);
t26add(
  "db2 connection",
  "db2.py",
  (v) =>
    `ibm_db.connect("DATABASE=sample;HOSTNAME=db2;PORT=50000;PROTOCOL=TCPIP;UID=db2inst1;PWD=${v};", "", "")\n`,
  pw(),
);
t26add(
  "firebird dsn",
  "fb.py",
  (v) => `fdb.connect(dsn="db:/var/lib/fb/app.fdb", user="SYSDBA", password="${v}")\n`,
  pw(),
);
t26add(
  "influxdb v1 url",
  "telegraf.conf",
  (v) => `  urls = ["http://telegraf:${v}@influx:8086"]\n`,
  pw(),
);
t26add(
  "elasticsearch url",
  "logstash.conf",
  (v) => `    hosts => ["https://elastic:${v}@es.example.com:9200"]\n`,
  pw(),
);
t26add(
  "rediss url no user",
  "worker.env",
  (v) => `CELERY_BROKER_URL=rediss://:${v}@cache.example.com:6380/0\n`,
  hex(40),
);
t26add(
  "mongodb srv",
  "db.ts",
  (v) =>
    `mongoose.connect("mongodb+srv://app:${v}@cluster0.ab12c.mongodb.net/prod?retryWrites=true")\n`,
  pw(),
);
t26add(
  "jdbc sqlserver password",
  "application.properties",
  (v) =>
    `spring.datasource.url=jdbc:sqlserver://sql:1433;databaseName=app;user=sa;password=${v};encrypt=true\n`,
  pw(),
);
t26add(
  "jdbc oracle thin creds",
  "ds.xml",
  (v) => `<property name="url" value="jdbc:oracle:thin:scott/${v}@db:1521:ORCL"/>\n`,
  pw(),
);
t26add(
  "ado net data source",
  "App.config",
  (v) =>
    `<add name="Main" connectionString="Data Source=sql01;Initial Catalog=App;User ID=app;Password=${v};" />\n`,
  pw(),
);
t26add(
  "npgsql connection",
  "appsettings.json",
  (v) => `{"ConnectionStrings": {"Db": "Host=db;Username=app;Password=${v};Database=app"}}\n`,
  pw(),
);
t26add(
  "mysql dsn go",
  "main.go",
  (v) => `db, _ := sql.Open("mysql", "app:${v}@tcp(db:3306)/app?parseTime=true")\n`,
  pw(),
);
t26add(
  "libpq keyword string",
  "conn.py",
  (v) => `psycopg2.connect("host=db dbname=app user=app password=${v} sslmode=require")\n`,
  pw(),
);
t26add(
  "amqps url",
  "amqp.env",
  (v) => `AMQP_URL=amqps://bunny:${v}@b-1234.mq.us-east-1.amazonaws.com:5671\n`,
  pw(),
);
t26add(
  "sftp url",
  "deploy.cfg",
  (v) => `target = sftp://deploy:${v}@files.example.com:22/var/www\n`,
  pw(),
);
t26add(
  "ldap bind code",
  "ldap.py",
  (v) => `conn = Connection(server, "cn=admin,dc=example,dc=org", "${v}", auto_bind=True)\n`,
  pw(),
);
t26add(
  "redis py password",
  "cache.py",
  (v) => `r = redis.Redis(host="cache", port=6379, password="${v}")\n`,
  pw(),
);
t26add(
  "ioredis options",
  "cache.js",
  (v) => `new Redis({ host: 'cache', port: 6379, password: '${v}' });\n`,
  pw(),
);
// CI and build secrets in odd places
t26add(
  "gitlab ci variables token",
  ".gitlab-ci.yml",
  (v) => `variables:\n  SONAR_TOKEN: "${v}"\n  GIT_DEPTH: "0"\n`,
  "squ_" + hex(40),
);
t26add(
  "jenkinsfile withEnv",
  "Jenkinsfile",
  (v) => `withEnv(["NPM_TOKEN=${v}"]) {\n  sh 'npm publish'\n}\n`,
  "npm_" + alnum(36),
);
t26add(
  "bitbucket pipelines script",
  "bitbucket-pipelines.yml",
  (v) =>
    `pipelines:\n  default:\n    - step:\n        script:\n          - export SNYK_TOKEN=${v}\n`,
  uuid(),
);
t26add(
  "azure pipelines password arg",
  "azure-pipelines.yml",
  (v) => `- script: docker login -u acme -p ${v} acme.azurecr.io\n`,
  pw(),
);
t26add(
  "drone settings",
  ".drone.yml",
  (v) => `steps:\n- name: publish\n  settings:\n    username: bot\n    password: ${v}\n`,
  pw(),
);
t26add(
  "buildkite env",
  ".buildkite/pipeline.yml",
  (v) => `env:\n  CODECOV_TOKEN: "${v}"\n`,
  uuid(),
);
t26add(
  "makefile token default",
  "Makefile",
  (v) => `TOKEN ?= ${v}\n\ndeploy:\n\tcurl -H "Authorization: Bearer $(TOKEN)" $(URL)\n`,
  r24(40),
);
t26add("tox setenv", "tox.ini", (v) => `[testenv]\nsetenv =\n    API_TOKEN = ${v}\n`, hex(40));
t26add(
  "package.json script token",
  "package.json",
  (v) => `{"scripts": {"release": "semantic-release --github-token ${v}"}}\n`,
  "ghp_" + alnum(36),
);
t26add(
  "fastlane match password",
  "fastlane/Fastfile",
  (v) => `ENV["MATCH_PASSWORD"] = "${v}"\n`,
  pw(),
);
t26add(
  "goreleaser env",
  ".goreleaser.yml",
  (v) => `env:\n  - GITHUB_TOKEN=${v}\n`,
  "ghp_" + alnum(36),
);
t26add(
  "circleci context dump",
  "ci-env.txt",
  (v) => `CIRCLE_BRANCH=main\nCOVERALLS_REPO_TOKEN=${v}\n`,
  alnum(32),
);
t26add(
  "github actions env inline",
  ".github/workflows/deploy.yml",
  (v) => `      - run: ./deploy.sh\n        env:\n          VERCEL_TOKEN: ${v}\n`,
  alnum(24),
);
t26add(
  "teamcity parameter",
  ".teamcity/settings.kts",
  (v) => `params {\n    password("env.DEPLOY_KEY", "${v}")\n}\n`,
  pw(),
);
t26add(
  "argo cd repo secret",
  "argocd-repo.yaml",
  (v) => `stringData:\n  url: https://github.com/acme/deploy\n  password: ${v}\n  username: bot\n`,
  "ghp_" + alnum(36),
);
t26add(
  "sonar properties login",
  "sonar-project.properties",
  (v) => `sonar.host.url=https://sonar.example.com\nsonar.login=${v}\n`,
  "squ_" + hex(40),
);
t26add(
  "gradle publish creds",
  "gradle.properties",
  (v) => `ossrhUsername=acme\nossrhPassword=${v}\n`,
  pw(),
);
t26add(
  "maven settings server",
  "settings.xml",
  (v) =>
    `<server>\n  <id>nexus</id>\n  <username>deploy</username>\n  <password>${v}</password>\n</server>\n`,
  pw(),
);
// fixtures that look real
t26add(
  "vcr cassette authorization",
  "spec/cassettes/charge.yml",
  (v) => `    headers:\n      Authorization:\n      - Bearer ${v}\n`,
  "sk_live_" + alnum(24),
);
t26add(
  "nock matchHeader",
  "test/api.test.js",
  (v) =>
    `nock('https://api.example.com').matchHeader('authorization', 'Bearer ${v}').get('/me').reply(200);\n`,
  r24(64),
);
t26add(
  "responses header",
  "tests/test_api.py",
  (v) => `responses.add(responses.GET, URL, headers={"X-Api-Key": "${v}"}, json={})\n`,
  alnum(40),
);
t26add(
  "factory bot api key",
  "spec/factories/accounts.rb",
  (v) => `  api_key { "${v}" }\n`,
  hex(40),
);
t26add(
  "conftest environ stripe",
  "tests/conftest.py",
  (v) => `os.environ["STRIPE_API_KEY"] = "${v}"\n`,
  "sk_live_" + alnum(24),
);
t26add(
  "pytest monkeypatch setenv",
  "tests/test_s3.py",
  (v) => `monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "${v}")\n`,
  awsSecret(),
);
t26add(
  "jest process env",
  "jest.setup.js",
  (v) => `process.env.SENDGRID_API_KEY = '${v}';\n`,
  "SG." + r24(22) + "." + r24(43),
);
t26add(
  "fixture users json password",
  "fixtures/users.json",
  (v) => `[{"model": "auth.user", "fields": {"username": "admin", "password": "${v}"}}]\n`,
  pw(),
);
t26add(
  "msw handler token",
  "mocks/handlers.ts",
  (v) => `if (req.headers.get('Authorization') !== 'Bearer ${v}') return res(ctx.status(401));\n`,
  r24(64),
);
t26add(
  "wiremock response token",
  "mappings/token.json",
  (v) =>
    `{"response": {"status": 200, "jsonBody": {"access_token": "${v}", "token_type": "bearer"}}}\n`,
  r24(64),
);
for (const [n, p, f, v] of t26) add(n, p, f, v);
// the twenty-sixth hunt's values that must stay
const integ26 = (n: number) => "sha512-" + b64(n) + "==";
const k26: S24[] = [
  [
    "yarn lock integrity",
    "yarn.lock",
    (v) =>
      `left-pad@^1.3.0:\n  version "1.3.0"\n  resolved "https://registry.yarnpkg.com/left-pad/-/left-pad-1.3.0.tgz#5b8a3a7765dfe001261dde915589e782f8c94d1e"\n  integrity ${v}\n`,
    integ26(86),
  ],
  [
    "package-lock integrity",
    "package-lock.json",
    (v) =>
      `"node_modules/ms": {"version": "2.1.3", "resolved": "https://registry.npmjs.org/ms/-/ms-2.1.3.tgz", "integrity": "${v}"}\n`,
    integ26(86),
  ],
  [
    "pnpm lock integrity",
    "pnpm-lock.yaml",
    (v) => `  /ms@2.1.3:\n    resolution: {integrity: ${v}}\n`,
    integ26(86),
  ],
  [
    "poetry lock hash",
    "poetry.lock",
    (v) => `files = [\n    {file = "requests-2.31.0.tar.gz", hash = "${v}"},\n]\n`,
    "sha256:" + hex(64),
  ],
  [
    "cargo lock checksum",
    "Cargo.lock",
    (v) => `[[package]]\nname = "serde"\nversion = "1.0.190"\nchecksum = "${v}"\n`,
    hex(64),
  ],
  ["go sum", "go.sum", (v) => `github.com/pkg/errors v0.9.1 ${v}\n`, "h1:" + b64(43) + "="],
  [
    "composer lock shasum",
    "composer.lock",
    (v) =>
      `"dist": {"type": "zip", "url": "https://api.github.com/repos/a/b/zipball/x", "reference": "${v}", "shasum": ""}\n`,
    hex(40),
  ],
  [
    "gemfile lock checksum",
    "Gemfile.lock",
    (v) => `CHECKSUMS\n  rack (3.0.8) sha256=${v}\n`,
    hex(64),
  ],
  ["pipfile lock hash", "Pipfile.lock", (v) => `"hashes": ["${v}"]\n`, "sha256:" + hex(64)],
  [
    "nix flake lock narHash",
    "flake.lock",
    (v) =>
      `"locked": {"lastModified": 1700000000, "narHash": "${v}", "owner": "NixOS", "repo": "nixpkgs", "rev": "${
        hex(40)
      }"}\n`,
    "sha256-" + b64(43) + "=",
  ],
  [
    "html sri integrity",
    "index.html",
    (v) =>
      `<script src="https://cdn.example.com/lib.min.js" integrity="${v}" crossorigin="anonymous"></script>\n`,
    "sha384-" + b64(64),
  ],
  [
    "tfstate lineage uuid",
    "terraform.tfstate",
    (v) => `{"version": 4, "terraform_version": "1.6.0", "serial": 12, "lineage": "${v}"}\n`,
    uuid(),
  ],
  [
    "tfstate key_id uuid",
    "terraform.tfstate",
    (v) =>
      `"attributes": {"display_name": "ci", "key_id": "${v}", "end_date": "2026-01-01T00:00:00Z"}\n`,
    uuid(),
  ],
  [
    "tfstate arn",
    "terraform.tfstate",
    (v) => `"attributes": {"arn": "${v}", "name": "deploy"}\n`,
    "arn:aws:iam::123456789012:user/deploy-bot-service",
  ],
  [
    "tfstate random_string placeholder",
    "terraform.tfstate",
    (v) =>
      `"type": "random_id",\n"instances": [{"attributes": {"hex": "${v}", "byte_length": 8}}]\n`,
    "deadbeefcafebabe",
  ],
  [
    "tfstate etag",
    "terraform.tfstate",
    (v) => `"attributes": {"etag": "${v}", "bucket": "logs"}\n`,
    '\\"' + hex(32) + '\\"',
  ],
  [
    "kubeconfig client-certificate-data",
    ".kube/config",
    (v) => `    client-certificate-data: ${v}\n`,
    btoa("-----BEGIN CERTIFICATE-----\nMIIC" + b64(80) + "\n-----END CERTIFICATE-----\n"),
  ],
  [
    "kubeconfig exec command args",
    ".kube/config",
    (v) =>
      `    exec:\n      command: aws\n      args:\n      - eks\n      - get-token\n      - --cluster-name\n      - ${v}\n`,
    "production-eu-west-1-cluster",
  ],
  [
    "docker config credsStore osxkeychain",
    ".docker/config.json",
    (v) => `{"auths": {"https://index.docker.io/v1/": {}}, "credsStore": "${v}"}\n`,
    "osxkeychain",
  ],
  [
    "docker config credHelpers",
    ".docker/config.json",
    (v) => `{"credHelpers": {"${v}": "ecr-login"}}\n`,
    "123456789012.dkr.ecr.us-east-1.amazonaws.com",
  ],
  [
    "zigbee2mqtt pan id",
    "configuration.yaml",
    (v) => `advanced:\n  pan_id: ${v}\n  channel: 11\n`,
    "0x1a62",
  ],
  [
    "zigbee2mqtt ext pan id",
    "configuration.yaml",
    (v) => `advanced:\n  ext_pan_id: [${v}]\n`,
    "221, 221, 221, 221, 221, 221, 221, 221",
  ],
  [
    "zigbee2mqtt network key GENERATE",
    "configuration.yaml",
    (v) => `advanced:\n  network_key: ${v}\n`,
    "GENERATE",
  ],
  [
    "zigbee2mqtt device ieee",
    "devices.yaml",
    (v) => `'${v}':\n  friendly_name: kitchen_light\n`,
    "0x00158d0001a2b3c4",
  ],
  [
    "esphome secret reference",
    "esphome/a.yaml",
    (v) => `api:\n  encryption:\n    key: ${v}\n`,
    "!secret api_encryption_key",
  ],
  [
    "home assistant coordinates",
    "secrets.yaml",
    (v) => `latitude: ${v}\nlongitude: 4.8952\n`,
    "52.37310000",
  ],
  [
    "rgb color list",
    "lights.yaml",
    (v) => `effect_colors: [${v}]\n`,
    "255, 128, 0, 255, 255, 255, 0, 0, 128, 64, 32, 16, 8, 4, 2, 1",
  ],
  [
    "syslog sshd fingerprint",
    "auth.log",
    (v) =>
      `Jan 12 03:14:15 host sshd[7]: Accepted publickey for bob from 10.0.0.2 port 5022 ssh2: ED25519 ${v}\n`,
    "SHA256:" + b64(43),
  ],
  [
    "syslog request id",
    "var/log/syslog",
    (v) => `Jan 12 03:14:15 web01 api[9]: request_id=${v} status=200\n`,
    uuid(),
  ],
  [
    "access log static asset hash",
    "access.log",
    (v) => `10.0.0.1 - - [12/Jan/2025:03:14:15 +0000] "GET /assets/${v} HTTP/1.1" 200 512\n`,
    "app-" + hex(20) + ".js",
  ],
  [
    "access log page query",
    "access.log",
    (v) => `10.0.0.1 - - [12/Jan/2025:03:14:15 +0000] "GET /search?${v} HTTP/1.1" 200 512\n`,
    "q=terraform+state+locking&page=2",
  ],
  [
    "curl -v content type",
    "trace.log",
    (v) => `> POST /v1 HTTP/1.1\n> Content-Type: ${v}\n`,
    "application/x-www-form-urlencoded",
  ],
  ["git log sha", "CHANGELOG.md", (v) => `* fix parser (${v})\n`, hex(40)],
  [
    "ipynb image png",
    "plot.ipynb",
    (v) =>
      `{"outputs": [{"data": {"image/png": "${v}", "text/plain": ["<Figure>"]}, "output_type": "display_data"}]}\n`,
    "iVBORw0KGgoAAAANSUhEUgAA" + b64(120),
  ],
  [
    "ipynb cell id",
    "a.ipynb",
    (v) => `{"cell_type": "code", "id": "${v}", "metadata": {}}\n`,
    hex(8) + "-" + hex(4),
  ],
  [
    "ipynb printed env placeholder",
    "setup.ipynb",
    (v) => nbOut(`OPENAI_API_KEY=${v}\n`),
    "<your-api-key-here>",
  ],
  [
    "data uri image css",
    "style.css",
    (v) => `.logo { background: url(data:image/png;base64,${v}); }\n`,
    "iVBORw0KGgo" + b64(100),
  ],
  [
    "setHeader content type",
    "server.js",
    (v) => `res.setHeader('Content-Type', '${v}');\n`,
    "application/json; charset=utf-8",
  ],
  [
    "setHeader set-cookie template",
    "server.js",
    (v) => `res.setHeader('Set-Cookie', ${v});\n`,
    "`sid=${sessionId}; HttpOnly`",
  ],
  [
    "set_cookie from variable",
    "views.py",
    (v) => `response.set_cookie("sessionid", ${v})\n`,
    "request.session.session_key",
  ],
  [
    "headers api key from env",
    "client.py",
    (v) => `headers["X-Api-Key"] = ${v}\n`,
    'os.environ["EXAMPLE_API_KEY"]',
  ],
  [
    "header cache control",
    "nginx.conf",
    (v) => `add_header Cache-Control "${v}";\n`,
    "public, max-age=31536000, immutable",
  ],
  ["cookie theme", "prefs.js", (v) => `document.cookie = "${v}; path=/";\n`, "theme=dark"],
  [
    "foreign password label",
    "i18n/sv.js",
    (v) => `export const lösenord = "${v}";\n`,
    "Ange ditt lösenord",
  ],
  [
    "foreign password from env",
    "db.go",
    (v) => `contraseña := ${v}\n`,
    'os.Getenv("DB_CONTRASENA")',
  ],
  ["foreign password prompt", "login.py", (v) => `密码 = input("${v}")\n`, "请输入密码："],
  [
    "foreign password field name",
    "forms.py",
    (v) => `mot_de_passe = forms.CharField(${v})\n`,
    "widget=forms.PasswordInput, label='Mot de passe'",
  ],
  ["key with enum word", "keys.py", (v) => `key = ${v}\n`, "KeyboardLayoutSwedish"],
  ["bare key dotted", "app.ini", (v) => `[sort]\nkey = ${v}\n`, "customer.address.postalCode"],
  ["bare key sentence", "config.yml", (v) => `shortcut:\n  key: ${v}\n`, "ControlShiftAltPageDown"],
  [
    "odbc driver name",
    "odbc.ini",
    (v) => `[dsn]\nDriver=${v}\nServer=sql\n`,
    "ODBC Driver 18 for SQL Server",
  ],
  [
    "connection string placeholder",
    "appsettings.json",
    (v) => `{"ConnectionStrings": {"Db": "Host=db;Username=app;Password=${v};Database=app"}}\n`,
    "{{DB_PASSWORD}}",
  ],
  [
    "mongodb url template",
    "db.ts",
    (v) => `mongoose.connect(${v})\n`,
    "`mongodb+srv://${user}:${pass}@cluster0.mongodb.net/prod`",
  ],
  [
    "public key ed25519",
    "authorized_keys",
    (v) => `${v} bob@laptop\n`,
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI" + b64(43),
  ],
  [
    "public key pem",
    "keys/pub.pem",
    (v) => `-----BEGIN PUBLIC KEY-----\n${v}\n-----END PUBLIC KEY-----\n`,
    "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE" + b64(64),
  ],
  [
    "gitlab ci variable reference",
    ".gitlab-ci.yml",
    (v) => `variables:\n  SONAR_TOKEN: ${v}\n`,
    "$SONAR_TOKEN_MASKED_VALUE",
  ],
  [
    "fixture password digest",
    "test/fixtures/users.yml",
    (v) => `admin:\n  email: admin@example.com\n  password_digest: <%= ${v} %>\n`,
    'BCrypt::Password.create("password")',
  ],
  ["fixture uuid", "fixtures/orders.json", (v) => `[{"id": "${v}", "total": 12.5}]\n`, uuid()],
];
for (const [n, p, f, v] of k26) kv21(n, p, f, v);
// The twenty-seventh hunt (written before reading the rules): IaC, CI configs, notebooks, logs,
// IoT and home-automation configs, mobile apps' configs, SQL dumps, shell histories, Dockerfiles,
// Kubernetes, .env variants, languages' configs and test fixtures, plus the twenty-sixth's
// leftovers (Tasmota's Backlog, Tuya's local keys, Hue's usernames, notebook outputs printed apart
// from their names, DataFrames' token columns, passwords named in other languages in code files).
const t27: S24[] = [];
const a27 = (name: string, path: string, f: (v: string) => string, v: string) =>
  t27.push(["r27 " + name, path, f, v]);
const tuyaKey = () => ch(A + "!#$%&()*+,-./:;<=>?@[]^_`{|}~", 16).replace(/["\\]/g, "x");
const hueUser = () => ch(A + "-", 40);
const miioTok = () => hex(32);
// IaC: Terraform, Pulumi, CloudFormation, Bicep, Ansible, Salt, Puppet, Chef, CDK
a27(
  "tf provider block password",
  "main.tf",
  (v) =>
    `provider "postgresql" {\n  host     = "db.internal"\n  username = "admin"\n  password = "${v}"\n}\n`,
  pw(),
);
a27(
  "tf variable default token",
  "variables.tf",
  (v) => `variable "cloudflare_api_token" {\n  type    = string\n  default = "${v}"\n}\n`,
  r24(40),
);
a27(
  "tf locals map secret",
  "locals.tf",
  (v) => `locals {\n  db = {\n    user = "app"\n    pass = "${v}"\n  }\n}\n`,
  pw(),
);
a27(
  "tf helm set_sensitive",
  "helm.tf",
  (v) =>
    `resource "helm_release" "grafana" {\n  set_sensitive {\n    name  = "adminPassword"\n    value = "${v}"\n  }\n}\n`,
  pw(),
);
a27(
  "tf kubernetes secret data",
  "k8s.tf",
  (v) =>
    `resource "kubernetes_secret" "db" {\n  data = {\n    username = "app"\n    password = "${v}"\n  }\n}\n`,
  pw(),
);
a27(
  "tf env heredoc user_data",
  "ec2.tf",
  (v) =>
    `  user_data = <<-EOT\n    #!/bin/bash\n    export DD_API_KEY=${v}\n    bash install.sh\n  EOT\n`,
  hex(32),
);
a27(
  "tfvars map of tokens",
  "prod.auto.tfvars",
  (v) => `tokens = {\n  github = "${v}"\n}\n`,
  ghp(),
);
a27(
  "tf backend config pg",
  "backend.tf",
  (v) =>
    `terraform {\n  backend "pg" {\n    conn_str = "postgres://tf:${v}@db.internal/terraform_backend"\n  }\n}\n`,
  pw(),
);
a27(
  "pulumi config plain",
  "Pulumi.dev.yaml",
  (v) => `config:\n  aws:region: us-east-1\n  myapp:dbPassword: ${v}\n`,
  pw(),
);
a27(
  "pulumi ts config set",
  "index.ts",
  (v) => `const db = new aws.rds.Instance("db", { username: "admin", password: "${v}" });\n`,
  pw(),
);
a27(
  "cfn parameter default",
  "template.yaml",
  (v) =>
    `Parameters:\n  MasterUserPassword:\n    Type: String\n    NoEcho: true\n    Default: ${v}\n`,
  pw(),
);
a27(
  "cfn json masteruserpassword",
  "stack.json",
  (v) =>
    `{"Resources": {"Db": {"Type": "AWS::RDS::DBInstance", "Properties": {"MasterUsername": "admin", "MasterUserPassword": "${v}"}}}}\n`,
  pw(),
);
a27(
  "bicep param default",
  "main.bicep",
  (v) => `@secure()\nparam adminPassword string = '${v}'\n`,
  pw(),
);
a27(
  "arm parameters file",
  "azuredeploy.parameters.json",
  (v) =>
    `{"parameters": {"adminUsername": {"value": "azureuser"}, "adminPassword": {"value": "${v}"}}}\n`,
  pw(),
);
a27(
  "ansible become pass inventory",
  "inventory/hosts.ini",
  (v) => `[web]\nweb1 ansible_host=10.0.0.5 ansible_user=deploy ansible_become_pass=${v}\n`,
  pw(),
);
a27(
  "ansible group_vars mysql",
  "group_vars/db.yml",
  (v) => `---\nmysql_root_password: "${v}"\nmysql_databases:\n  - name: app\n`,
  pw(),
);
a27(
  "ansible task inline password",
  "roles/db/tasks/main.yml",
  (v) =>
    `- name: Create user\n  community.mysql.mysql_user:\n    name: app\n    password: ${v}\n    priv: '*.*:ALL'\n`,
  pw(),
);
a27(
  "ansible uri basic",
  "playbook.yml",
  (v) =>
    `- uri:\n    url: https://api.example.com\n    url_username: admin\n    url_password: "${v}"\n    force_basic_auth: yes\n`,
  pw(),
);
a27(
  "salt pillar",
  "pillar/secrets.sls",
  (v) => `postgres:\n  users:\n    app:\n      password: '${v}'\n`,
  pw(),
);
a27(
  "puppet hiera",
  "data/common.yaml",
  (v) => `---\nprofile::db::password: '${v}'\n`,
  pw(),
);
a27(
  "puppet manifest",
  "manifests/init.pp",
  (v) => `class { 'mysql::server':\n  root_password => '${v}',\n}\n`,
  pw(),
);
a27(
  "chef attributes",
  "attributes/default.rb",
  (v) => `default['myapp']['db']['password'] = '${v}'\n`,
  pw(),
);
a27(
  "cdk python secret value",
  "stack.py",
  (v) => `SecretValue.unsafe_plain_text("${v}")\n`,
  mixed(32),
);
a27(
  "packer variables",
  "vars.pkr.hcl",
  (v) => `ssh_password = "${v}"\n`,
  pw(),
);
a27(
  "vagrantfile password",
  "Vagrantfile",
  (v) => `  config.ssh.password = "${v}"\n`,
  pw(),
);
// CI configs
a27(
  "gha env token",
  ".github/workflows/ci.yml",
  (v) => `jobs:\n  build:\n    env:\n      NPM_TOKEN: ${v}\n    steps:\n      - run: npm publish\n`,
  "npm_" + alnum(36),
);
a27(
  "gha with password",
  ".github/workflows/release.yml",
  (v) =>
    `      - uses: docker/login-action@v3\n        with:\n          username: bot\n          password: ${v}\n`,
  pw(),
);
a27(
  "gha run curl header",
  ".github/workflows/notify.yml",
  (v) => `      - run: curl -H "X-Api-Key: ${v}" https://hooks.example.com/deploy\n`,
  alnum(32),
);
a27(
  "gitlab ci variables",
  ".gitlab-ci.yml",
  (v) => `variables:\n  SONAR_TOKEN: "${v}"\n  GIT_DEPTH: "0"\n`,
  "squ_" + hex(40),
);
a27(
  "gitlab ci script login",
  ".gitlab-ci.yml",
  (v) => `deploy:\n  script:\n    - docker login -u deployer -p ${v} registry.example.com\n`,
  pw(),
);
a27(
  "circleci environment",
  ".circleci/config.yml",
  (v) =>
    `jobs:\n  test:\n    docker:\n      - image: cimg/node:20.0\n    environment:\n      COVERALLS_REPO_TOKEN: ${v}\n`,
  alnum(33),
);
a27(
  "circleci docker auth",
  ".circleci/config.yml",
  (v) =>
    `    docker:\n      - image: org/private:1\n        auth:\n          username: ci\n          password: ${v}\n`,
  pw(),
);
a27(
  "jenkinsfile environment",
  "Jenkinsfile",
  (v) => `pipeline {\n  environment {\n    SLACK_TOKEN = '${v}'\n  }\n}\n`,
  "xoxb-" + digits(12) + "-" + digits(13) + "-" + alnum(24),
);
a27(
  "jenkinsfile sh login",
  "Jenkinsfile",
  (v) => `        sh "docker login -u admin --password ${v} nexus.local:8082"\n`,
  pw(),
);
a27(
  "azure pipelines variables",
  "azure-pipelines.yml",
  (v) => `variables:\n  - name: sqlPassword\n    value: '${v}'\n`,
  pw(),
);
a27(
  "bitbucket pipelines",
  "bitbucket-pipelines.yml",
  (v) =>
    `pipelines:\n  default:\n    - step:\n        script:\n          - export AWS_SECRET_ACCESS_KEY=${v}\n`,
  awsSecret(),
);
a27(
  "drone secret inline",
  ".drone.yml",
  (v) =>
    `steps:\n  - name: publish\n    image: plugins/docker\n    settings:\n      username: bot\n      password: ${v}\n`,
  pw(),
);
a27(
  "travis env global",
  ".travis.yml",
  (v) => `env:\n  global:\n    - CODECOV_TOKEN=${v}\n`,
  uuid(),
);
a27(
  "buildkite env",
  ".buildkite/pipeline.yml",
  (v) => `steps:\n  - command: make deploy\n    env:\n      HEROKU_API_KEY: "${v}"\n`,
  uuid(),
);
a27(
  "teamcity kotlin param",
  ".teamcity/settings.kts",
  (v) => `    params {\n        password("env.DEPLOY_PASSWORD", "${v}")\n    }\n`,
  pw(),
);
a27(
  "woodpecker settings token",
  ".woodpecker.yml",
  (v) => `    settings:\n      api_key: ${v}\n`,
  hex(40),
);
a27(
  "gha matrix secret",
  ".github/workflows/matrix.yml",
  (v) =>
    `    strategy:\n      matrix:\n        include:\n          - region: eu\n            token: ${v}\n`,
  alnum(40),
);
a27(
  "earthfile secret arg",
  "Earthfile",
  (v) => `    RUN --secret NPM_TOKEN=${v} npm ci\n`,
  "npm_" + alnum(36),
);
a27(
  "taskfile env",
  "Taskfile.yml",
  (v) => `tasks:\n  deploy:\n    env:\n      FLY_API_TOKEN: ${v}\n`,
  "fo1_" + r24(43),
);
a27(
  "makefile export",
  "Makefile",
  (v) => `export REGISTRY_PASSWORD := ${v}\n`,
  pw(),
);
// Notebooks
const nb27 = (src: string, outputs: string) =>
  `{"cells": [{"cell_type": "code", "execution_count": 4, "metadata": {}, "outputs": [${outputs}], "source": [${
    JSON.stringify(src)
  }]}], "nbformat": 4}\n`;
const nbStream = (t: string) =>
  `{"name": "stdout", "output_type": "stream", "text": [${JSON.stringify(t)}]}`;
const nbResult = (t: string) =>
  `{"data": {"text/plain": [${
    JSON.stringify(t)
  }]}, "execution_count": 4, "metadata": {}, "output_type": "execute_result"}`;
a27(
  "ipynb print variable bare",
  "analysis.ipynb",
  (v) => nb27("print(api_key)", nbStream(v + "\n")),
  alnum(40),
);
a27(
  "ipynb getenv result",
  "setup.ipynb",
  (v) => nb27("os.getenv('OPENAI_API_KEY')", nbResult(`'${v}'`)),
  "sk-" + alnum(48),
);
a27(
  "ipynb token variable result",
  "auth.ipynb",
  (v) => nb27("token = client.login()\ntoken", nbResult(`'${v}'`)),
  mixed(40),
);
a27(
  "ipynb secret result hex",
  "keys.ipynb",
  (v) => nb27("secrets.token_hex(32)", nbResult(`'${v}'`)),
  hex(64),
);
a27(
  "ipynb dataframe password column",
  "users.ipynb",
  (v) =>
    nb27(
      "df.head()",
      nbResult(`   id username       password\n0   1    alice  ${v}\n1   2      bob  ${pw()}`),
    ),
  pw(),
);
a27(
  "ipynb dataframe html token",
  "users.ipynb",
  (v) =>
    nb27(
      "df",
      `{"data": {"text/html": ["<table>\\n<thead><tr><th></th><th>user</th><th>access_token</th></tr></thead>\\n<tbody><tr><th>0</th><td>alice</td><td>${v}</td></tr></tbody></table>"]}, "execution_count": 4, "output_type": "execute_result"}`,
    ),
  hex(40),
);
a27(
  "ipynb dataframe secret second column",
  "export.ipynb",
  (v) =>
    nb27(
      "print(keys)",
      nbStream(`        name                     secret  active\n0  service-a  ${v}    True\n`),
    ),
  alnum(32),
);
a27(
  "ipynb env magic",
  "train.ipynb",
  (v) => nb27(`%env WANDB_API_KEY=${v}`, ""),
  hex(40),
);
a27(
  "ipynb source assignment",
  "explore.ipynb",
  (v) => nb27(`openai.api_key = "${v}"`, ""),
  "sk-" + alnum(48),
);
a27(
  "ipynb shell curl output",
  "api.ipynb",
  (v) => nb27(`!curl -s https://auth.example.com/token`, nbStream(`{"access_token": "${v}"}\n`)),
  mixed(48),
);
a27(
  "ipynb dict repr output",
  "cfg.ipynb",
  (v) => nb27("config", nbResult(`{'host': 'db', 'user': 'app', 'password': '${v}'}`)),
  pw(),
);
a27(
  "ipynb print f-string",
  "debug.ipynb",
  (v) => nb27('print(f"using {key}")', nbStream(`using ${v}\n`)),
  alnum(40),
);
a27(
  "ipynb getpass echoed",
  "login.ipynb",
  (v) => nb27("pw = getpass()\nprint(pw)", nbStream(`${v}\n`)),
  pw(),
);
a27(
  "rmarkdown output",
  "report.Rmd",
  (v) => '```{r}\nSys.getenv("GITHUB_PAT")\n```\n\n```\n## [1] "' + v + '"\n```\n',
  ghp(),
);
a27(
  "ipynb percent script",
  "explore.py",
  (v) => `# %%\nHF_TOKEN = "${v}"\n`,
  "hf_" + alnum(34),
);
// Logs
a27(
  "log bearer header",
  "logs/app.log",
  (v) => `2026-11-30T10:00:01Z DEBUG http: > Authorization: Bearer ${v}\n`,
  mixed(40),
);
a27(
  "log query access_token",
  "logs/access.log",
  (v) =>
    `10.0.0.1 - - [30/Nov/2026:10:00:01 +0000] "GET /api/me?access_token=${v} HTTP/1.1" 200 512\n`,
  mixed(40),
);
a27(
  "log json password",
  "logs/events.jsonl",
  (v) => `{"level":"debug","msg":"login","body":{"username":"bob","password":"${v}"}}\n`,
  pw(),
);
a27(
  "log python requests headers",
  "logs/debug.log",
  (v) =>
    `DEBUG:urllib3:send: headers={'User-Agent': 'python-requests/2.31', 'X-API-Key': '${v}'}\n`,
  alnum(32),
);
a27(
  "log jdbc exception",
  "logs/catalina.out",
  (v) => `SEVERE: Cannot connect: jdbc:mysql://db:3306/app?user=app&password=${v}&useSSL=false\n`,
  pw(),
);
a27(
  "log key=value token",
  "logs/worker.log",
  (v) => `time=2026-11-30T10:00:01Z level=info msg="refreshed" token=${v} expires_in=3600\n`,
  mixed(40),
);
a27(
  "log systemd env dump",
  "journal.txt",
  (v) => `Nov 30 10:00:01 host app[123]: Environment: DATABASE_URL=postgres://app:${v}@db/app\n`,
  pw(),
);
a27(
  "log traceback locals",
  "logs/error.log",
  (v) => `  File "app.py", line 10, in connect\n    secret_key = '${v}'\n`,
  mixed(50),
);
a27(
  "log curl verbose",
  "curl.log",
  (v) => `> GET /v1/items HTTP/2\n> Host: api.example.com\n> x-auth-token: ${v}\n`,
  mixed(40),
);
a27(
  "log set-cookie",
  "har.log",
  (v) => `< set-cookie: session=${v}; Path=/; HttpOnly\n`,
  mixed(48),
);
a27(
  "log docker inspect env",
  "inspect.json",
  (v) => `[{"Config": {"Env": ["PATH=/usr/bin", "REDIS_PASSWORD=${v}"]}}]\n`,
  pw(),
);
a27(
  "log k8s describe env",
  "describe.txt",
  (v) => `    Environment:\n      API_SECRET:  ${v}\n      PORT:        8080\n`,
  mixed(40),
);
a27(
  "log gunicorn env",
  "logs/gunicorn.log",
  (v) => `[INFO] Loaded settings: {'SECRET_KEY': '${v}', 'DEBUG': False}\n`,
  mixed(50),
);
a27(
  "log node error config",
  "logs/node.log",
  (v) => `Error: connect failed { host: 'db', user: 'app', password: '${v}', port: 5432 }\n`,
  pw(),
);
a27(
  "log mqtt connect",
  "logs/mqtt.log",
  (v) => `1700000000: New client connected as sensor1 (u'iot', p'${v}')\n`,
  pw(),
);
// IoT and home automation
a27(
  "tasmota backlog web",
  "tasmota/setup.txt",
  (v) => `Backlog SSID1 home; Password1 ${v}; MqttHost 10.0.0.2\n`,
  pw(),
);
a27(
  "tasmota backlog mqtt only",
  "tasmota/plug.txt",
  (v) => `Backlog MqttUser dves; MqttPassword ${v}; Restart 1\n`,
  pw(),
);
a27(
  "tasmota console webpassword",
  "tasmota/notes.md",
  (v) => `WebPassword ${v}\n`,
  pw(),
);
a27(
  "tasmota cmnd url",
  "ha/automation.sh",
  (v) => `curl "http://10.0.0.7/cm?user=admin&password=${v}&cmnd=Power%20TOGGLE"\n`,
  pw(),
);
a27(
  "tuya tinytuya snapshot",
  "snapshot.json",
  (v) =>
    `{"devices": [{"name": "Plug", "id": "${
      hex(20)
    }", "ip": "10.0.0.9", "key": "${v}", "ver": "3.3"}]}\n`,
  tuyaKey(),
);
a27(
  "tuya python device",
  "plug.py",
  (v) => `d = tinytuya.OutletDevice('${hex(20)}', '10.0.0.9', '${v}')\n`,
  tuyaKey(),
);
a27(
  "tuya localtuya yaml",
  "configuration.yaml",
  (v) => `localtuya:\n  - host: 10.0.0.9\n    device_id: ${hex(20)}\n    local_key: ${v}\n`,
  tuyaKey(),
);
a27(
  "tuya ha config entry",
  ".storage/core.config_entries",
  (v) => `{"data": {"device_id": "${hex(20)}", "localKey": "${v}", "protocol_version": "3.3"}}\n`,
  tuyaKey(),
);
a27(
  "hue phue config",
  ".python_hue",
  (v) => `{"10.0.0.2": {"username": "${v}"}}\n`,
  hueUser(),
);
a27(
  "hue api url python",
  "lights.py",
  (v) => `URL = "http://10.0.0.2/api/${v}/lights"\n`,
  hueUser(),
);
a27(
  "hue ha storage",
  ".storage/core.config_entries",
  (v) => `{"domain": "hue", "data": {"host": "10.0.0.2", "api_key": "${v}", "api_version": 2}}\n`,
  hueUser(),
);
a27(
  "hue application key header",
  "hue.sh",
  (v) => `curl -k -H "hue-application-key: ${v}" https://10.0.0.2/clip/v2/resource/light\n`,
  hueUser(),
);
a27(
  "esphome wifi password",
  "esphome/garage.yaml",
  (v) => `wifi:\n  ssid: "HomeNet"\n  password: "${v}"\n`,
  pw(),
);
a27(
  "esphome api encryption key",
  "esphome/garage.yaml",
  (v) => `api:\n  encryption:\n    key: "${v}"\n`,
  b64(43) + "=",
);
a27(
  "esphome ota password",
  "esphome/garage.yaml",
  (v) => `ota:\n  - platform: esphome\n    password: ${v}\n`,
  hex(32),
);
a27(
  "ha secrets yaml",
  "secrets.yaml",
  (v) => `wifi_ssid: HomeNet\nwifi_password: ${v}\nlatitude: 52.1\n`,
  pw(),
);
a27(
  "ha long lived token",
  "secrets.yaml",
  (v) => `ha_token: ${v}\n`,
  jwt(),
);
a27(
  "ha rest command header",
  "configuration.yaml",
  (v) =>
    `rest_command:\n  notify:\n    url: https://api.example.com\n    headers:\n      authorization: "Bearer ${v}"\n`,
  mixed(40),
);
a27(
  "zigbee2mqtt network key",
  "zigbee2mqtt/configuration.yaml",
  (v) => `advanced:\n  network_key: [${v}]\n  pan_id: 6754\n`,
  Array.from({ length: 16 }, () => String(Math.floor(rnd() * 256))).join(", "),
);
a27(
  "zigbee2mqtt mqtt password",
  "zigbee2mqtt/configuration.yaml",
  (v) => `mqtt:\n  server: mqtt://10.0.0.2\n  user: z2m\n  password: ${v}\n`,
  pw(),
);
a27(
  "node-red flows cred",
  "flows_cred.json",
  (v) => `{"a1b2c3d4.e5f6": {"user": "mqtt", "password": "${v}"}}\n`,
  pw(),
);
a27(
  "openhab things",
  "things/mqtt.things",
  (v) => `Bridge mqtt:broker:home [ host="10.0.0.2", username="oh", password="${v}" ]\n`,
  pw(),
);
a27(
  "miio token yaml",
  "configuration.yaml",
  (v) => `vacuum:\n  - platform: xiaomi_miio\n    host: 10.0.0.11\n    token: ${v}\n`,
  miioTok(),
);
a27(
  "miio python",
  "vacuum.py",
  (v) => `vac = miio.RoborockVacuum("10.0.0.11", "${v}")\n`,
  miioTok(),
);
a27(
  "homebridge config",
  "homebridge/config.json",
  (v) => `{"platforms": [{"platform": "Ring", "refreshToken": "${v}"}]}\n`,
  r24(120),
);
a27(
  "frigate rtsp",
  "frigate.yml",
  (v) =>
    `cameras:\n  door:\n    ffmpeg:\n      inputs:\n        - path: rtsp://admin:${v}@10.0.0.20:554/stream1\n`,
  pw(),
);
a27(
  "octoprint api key",
  "octoprint.sh",
  (v) => `curl -H "X-Api-Key: ${v}" http://octopi.local/api/job\n`,
  hex(32).toUpperCase(),
);
a27(
  "arduino secrets header",
  "arduino_secrets.h",
  (v) => `#define SECRET_SSID "HomeNet"\n#define SECRET_PASS "${v}"\n`,
  pw(),
);
a27(
  "micropython wifi connect",
  "boot.py",
  (v) => `wlan.connect('HomeNet', '${v}')\n`,
  pw(),
);
a27(
  "esp-idf sdkconfig",
  "sdkconfig",
  (v) => `CONFIG_EXAMPLE_WIFI_PASSWORD="${v}"\n`,
  pw(),
);
a27(
  "platformio build flags",
  "platformio.ini",
  (v) => `build_flags =\n  -DWIFI_SSID=\\"HomeNet\\"\n  -DWIFI_PASS=\\"${v}\\"\n`,
  pw(),
);
a27(
  "wpa_supplicant psk",
  "wpa_supplicant.conf",
  (v) => `network={\n    ssid="HomeNet"\n    psk="${v}"\n}\n`,
  pw(),
);
a27(
  "shelly script",
  "shelly.js",
  (v) => `Shelly.call("HTTP.GET", {url: "http://admin:${v}@10.0.0.30/rpc/Switch.Toggle?id=0"});\n`,
  pw(),
);
a27(
  "mosquitto passwd plain",
  "mosquitto/passwd.txt",
  (v) => `sensor1:${v}\n`,
  pw(),
);
// Mobile apps
a27(
  "gradle properties store password",
  "gradle.properties",
  (v) => `MYAPP_UPLOAD_STORE_FILE=upload.keystore\nMYAPP_UPLOAD_STORE_PASSWORD=${v}\n`,
  pw(),
);
a27(
  "gradle signing config",
  "app/build.gradle",
  (v) =>
    `    signingConfigs {\n        release {\n            storePassword "${v}"\n            keyAlias "upload"\n        }\n    }\n`,
  pw(),
);
a27(
  "gradle kts key password",
  "app/build.gradle.kts",
  (v) => `            keyPassword = "${v}"\n`,
  pw(),
);
a27(
  "key.properties flutter",
  "android/key.properties",
  (v) => `storePassword=${v}\nkeyPassword=${pw()}\nkeyAlias=upload\n`,
  pw(),
);
a27(
  "buildConfigField api key",
  "app/build.gradle",
  (v) => `        buildConfigField "String", "API_SECRET", "\\"${v}\\""\n`,
  mixed(40),
);
a27(
  "android strings secret",
  "app/src/main/res/values/secrets.xml",
  (v) => `<resources>\n    <string name="client_secret">${v}</string>\n</resources>\n`,
  mixed(40),
);
a27(
  "android manifest meta-data",
  "AndroidManifest.xml",
  (v) => `<meta-data android:name="com.example.sdk.ApiSecret" android:value="${v}" />\n`,
  mixed(40),
);
a27(
  "xcconfig secret",
  "Config/Secrets.xcconfig",
  (v) => `API_SECRET = ${v}\n`,
  mixed(40),
);
a27(
  "info plist secret",
  "Info.plist",
  (v) => `<key>StripeSecretKey</key>\n<string>${v}</string>\n`,
  "sk_live_" + alnum(99),
);
a27(
  "swift constants",
  "Constants.swift",
  (v) => `static let clientSecret = "${v}"\n`,
  mixed(40),
);
a27(
  "fastlane appfile env",
  "fastlane/Fastfile",
  (v) => `ENV["FASTLANE_PASSWORD"] = "${v}"\n`,
  pw(),
);
a27(
  "fastlane match password",
  "fastlane/Matchfile",
  (v) => `ENV["MATCH_PASSWORD"] = '${v}'\n`,
  pw(),
);
a27(
  "app store connect key p8 json",
  "fastlane/api_key.json",
  (v) =>
    `{"key_id": "${
      up(10)
    }", "issuer_id": "${uuid()}", "key": "-----BEGIN PRIVATE KEY-----\\n${v}\\n-----END PRIVATE KEY-----"}\n`,
  b64(64),
);
a27(
  "expo app.json extra",
  "app.json",
  (v) => `{"expo": {"extra": {"apiSecret": "${v}"}}}\n`,
  mixed(40),
);
a27(
  "eas json env",
  "eas.json",
  (v) => `{"build": {"production": {"env": {"SENTRY_AUTH_TOKEN": "${v}"}}}}\n`,
  "sntrys_" + alnum(60),
);
a27(
  "flutter dart define json",
  "config/prod.json",
  (v) => `{"API_KEY": "${v}", "ENV": "prod"}\n`,
  mixed(40),
);
a27(
  "dart const",
  "lib/env.dart",
  (v) => `const String apiSecret = '${v}';\n`,
  mixed(40),
);
a27(
  "react native config env",
  ".env.production",
  (v) => `API_URL=https://api.example.com\nAPI_SECRET=${v}\n`,
  mixed(40),
);
a27(
  "capacitor config",
  "capacitor.config.ts",
  (v) => `  plugins: { Push: { serverKey: '${v}' } },\n`,
  "AAAA" + r24(7) + ":APA91b" + r24(134),
);
a27(
  "kotlin companion const",
  "Keys.kt",
  (v) => `    const val API_SECRET = "${v}"\n`,
  mixed(40),
);
a27(
  "google-services private key",
  "app/google-services.json",
  (v) => `{"client": [{"oauth_client": [{"client_id": "x", "client_secret": "${v}"}]}]}\n`,
  "GOCSPX-" + r24(28),
);
// SQL dumps
a27(
  "sql insert users plaintext",
  "dump.sql",
  (v) =>
    `INSERT INTO \`users\` (\`id\`, \`email\`, \`password\`) VALUES (1,'admin@example.com','${v}');\n`,
  pw(),
);
a27(
  "sql insert api keys",
  "dump.sql",
  (v) => `INSERT INTO api_keys (id, user_id, key) VALUES (7, 1, '${v}');\n`,
  hex(40),
);
a27(
  "sql copy tokens",
  "backup.sql",
  (v) =>
    `COPY public.oauth_tokens (id, user_id, access_token, created_at) FROM stdin;\n1\t3\t${v}\t2026-11-30 10:00:00\n\\.\n`,
  mixed(40),
);
a27(
  "sql create user identified",
  "init.sql",
  (v) => `CREATE USER 'app'@'%' IDENTIFIED BY '${v}';\n`,
  pw(),
);
a27(
  "sql alter role",
  "migrate.sql",
  (v) => `ALTER ROLE app WITH LOGIN PASSWORD '${v}';\n`,
  pw(),
);
a27(
  "sql set password",
  "reset.sql",
  (v) => `SET PASSWORD FOR 'root'@'localhost' = '${v}';\n`,
  pw(),
);
a27(
  "sql update settings",
  "seed.sql",
  (v) => `UPDATE settings SET value = '${v}' WHERE name = 'smtp_password';\n`,
  pw(),
);
a27(
  "sql insert config kv",
  "wp.sql",
  (v) => `INSERT INTO wp_options (option_name, option_value) VALUES ('mailserver_pass', '${v}');\n`,
  pw(),
);
a27(
  "sql multi row insert",
  "dump.sql",
  (v) => `INSERT INTO integrations VALUES (1,'slack','${v}'),(2,'github','${ghp()}');\n`,
  "xoxb-" + digits(12) + "-" + digits(13) + "-" + alnum(24),
);
a27(
  "sql mssql login",
  "setup.sql",
  (v) => `CREATE LOGIN app WITH PASSWORD = N'${v}', CHECK_POLICY = OFF;\n`,
  pw(),
);
a27(
  "sql oracle user",
  "create_user.sql",
  (v) => `CREATE USER app IDENTIFIED BY "${v}" DEFAULT TABLESPACE users;\n`,
  pw(),
);
a27(
  "sql sqlite dump secret row",
  "app.db.sql",
  (v) => `INSERT INTO "secrets" VALUES('stripe','${v}');\n`,
  "sk_live_" + alnum(24),
);
a27(
  "sql dblink connstr",
  "fdw.sql",
  (v) => `CREATE USER MAPPING FOR app SERVER remote OPTIONS (user 'remote', password '${v}');\n`,
  pw(),
);
a27(
  "sql pg_dump comment password",
  "dump.sql",
  (v) => `-- connection: host=db user=postgres password=${v}\n`,
  pw(),
);
// Shell histories
a27(
  "bash history export",
  ".bash_history",
  (v) => `cd app\nexport OPENAI_API_KEY=${v}\npython run.py\n`,
  "sk-proj-" + r24(64),
);
a27(
  "zsh history mysql",
  ".zsh_history",
  (v) => `: 1700000000:0;mysql -h db -u root -p${v} app\n`,
  pw(),
);
a27(
  "zsh history sshpass",
  ".zsh_history",
  (v) => `: 1700000001:0;sshpass -p '${v}' ssh pi@10.0.0.4\n`,
  pw(),
);
a27(
  "fish history",
  ".local/share/fish/fish_history",
  (v) => `- cmd: set -x GITHUB_TOKEN ${v}\n  when: 1700000000\n`,
  ghp(),
);
a27(
  "history kubectl literal",
  ".bash_history",
  (v) => `kubectl create secret generic db --from-literal=password=${v}\n`,
  pw(),
);
a27(
  "history aws configure set",
  ".bash_history",
  (v) => `aws configure set aws_secret_access_key ${v}\n`,
  awsSecret(),
);
a27(
  "history vault login",
  ".bash_history",
  (v) => `vault login ${v}\n`,
  "hvs." + alnum(90),
);
a27(
  "history heroku config set",
  ".bash_history",
  (v) => `heroku config:set STRIPE_SECRET=${v} -a shop\n`,
  "sk_live_" + alnum(24),
);
a27(
  "history gh secret set",
  ".bash_history",
  (v) => `gh secret set NPM_TOKEN --body "${v}"\n`,
  "npm_" + alnum(36),
);
a27(
  "history redis-cli -a",
  ".bash_history",
  (v) => `redis-cli -h cache -a ${v} ping\n`,
  pw(),
);
a27(
  "history mongosh",
  ".bash_history",
  (v) => `mongosh "mongodb://admin:${v}@10.0.0.3:27017/admin"\n`,
  pw(),
);
a27(
  "history zip -P",
  ".bash_history",
  (v) => `zip -P ${v} backup.zip dump.sql\n`,
  pw(),
);
a27(
  "history openssl pass",
  ".bash_history",
  (v) => `openssl enc -aes-256-cbc -in db.sql -out db.enc -pass pass:${v}\n`,
  pw(),
);
a27(
  "history psql env",
  ".bash_history",
  (v) => `PGPASSWORD=${v} psql -h db -U app\n`,
  pw(),
);
a27(
  "history docker run -e",
  ".bash_history",
  (v) => `docker run -d -e POSTGRES_PASSWORD=${v} postgres:16\n`,
  pw(),
);
a27(
  "history curl -d password",
  ".bash_history",
  (v) => `curl -X POST https://api.example.com/login -d 'user=bob&password=${v}'\n`,
  pw(),
);
a27(
  "history smbclient",
  ".bash_history",
  (v) => `smbclient //nas/share -U bob%${v}\n`,
  pw(),
);
a27(
  "history mysqldump long",
  ".bash_history",
  (v) => `mysqldump --user=root --password=${v} --all-databases > all.sql\n`,
  pw(),
);
a27(
  "powershell history",
  "ConsoleHost_history.txt",
  (v) => `$pw = ConvertTo-SecureString "${v}" -AsPlainText -Force\n`,
  pw(),
);
a27(
  "psql history",
  ".psql_history",
  (v) => `ALTER USER app PASSWORD '${v}';\n`,
  pw(),
);
// Dockerfiles and compose
a27(
  "dockerfile env",
  "Dockerfile",
  (v) => `FROM node:20\nENV SENTRY_AUTH_TOKEN=${v}\n`,
  hex(64),
);
a27(
  "dockerfile env space",
  "Dockerfile",
  (v) => `ENV DB_PASSWORD ${v}\n`,
  pw(),
);
a27(
  "dockerfile arg default",
  "Dockerfile",
  (v) => `ARG GITHUB_TOKEN=${v}\n`,
  ghp(),
);
a27(
  "dockerfile npmrc echo",
  "Dockerfile",
  (v) => `RUN echo "//npm.pkg.github.com/:_authToken=${v}" > ~/.npmrc && npm ci\n`,
  ghp(),
);
a27(
  "dockerfile pip extra index",
  "Dockerfile",
  (v) =>
    `RUN pip install --extra-index-url https://__token__:${v}@gitlab.example.com/api/v4/projects/1/packages/pypi/simple app\n`,
  "glpat-" + r24(20),
);
a27(
  "dockerfile git clone token",
  "Dockerfile",
  (v) => `RUN git clone https://oauth2:${v}@gitlab.example.com/team/lib.git\n`,
  "glpat-" + r24(20),
);
a27(
  "dockerfile multi env",
  "Dockerfile",
  (v) => `ENV NODE_ENV=production \\\n    JWT_SECRET=${v} \\\n    PORT=3000\n`,
  mixed(48),
);
a27(
  "compose env list",
  "docker-compose.yml",
  (v) =>
    `services:\n  db:\n    image: mysql:8\n    environment:\n      - MYSQL_ROOT_PASSWORD=${v}\n`,
  pw(),
);
a27(
  "compose healthcheck",
  "docker-compose.yml",
  (v) =>
    `    healthcheck:\n      test: ["CMD", "mysqladmin", "ping", "-h", "localhost", "-uroot", "-p${v}"]\n`,
  pw(),
);
a27(
  "compose command requirepass",
  "compose.yaml",
  (v) => `  redis:\n    image: redis:7\n    command: redis-server --requirepass ${v}\n`,
  pw(),
);
a27(
  "compose env map",
  "docker-compose.override.yml",
  (v) => `    environment:\n      MINIO_ROOT_PASSWORD: ${v}\n`,
  pw(),
);
a27(
  "compose env default",
  "docker-compose.yml",
  (v) => `      POSTGRES_PASSWORD: \${POSTGRES_PASSWORD:-${v}}\n`,
  pw(),
);
a27(
  "dockerfile healthcheck curl",
  "Dockerfile",
  (v) => `HEALTHCHECK CMD curl -fsu admin:${v} http://localhost:8080/health || exit 1\n`,
  pw(),
);
a27(
  "docker config auths",
  ".docker/config.json",
  (v) => `{"auths": {"ghcr.io": {"auth": "${v}"}}}\n`,
  btoa("bot:" + ghp()),
);
// Kubernetes
a27(
  "k8s secret stringData",
  "k8s/secret.yaml",
  (v) =>
    `apiVersion: v1\nkind: Secret\nmetadata:\n  name: app\nstringData:\n  DATABASE_PASSWORD: ${v}\n`,
  pw(),
);
a27(
  "k8s secret data b64",
  "k8s/secret.yaml",
  (v) => `apiVersion: v1\nkind: Secret\ntype: Opaque\ndata:\n  api-key: ${v}\n`,
  btoa(mixed(32)),
);
a27(
  "k8s deployment env value",
  "k8s/deploy.yaml",
  (v) => `        env:\n          - name: STRIPE_API_KEY\n            value: "${v}"\n`,
  "sk_live_" + alnum(24),
);
a27(
  "k8s configmap password",
  "k8s/configmap.yaml",
  (v) => `kind: ConfigMap\ndata:\n  SMTP_PASSWORD: "${v}"\n`,
  pw(),
);
a27(
  "k8s configmap properties file",
  "k8s/configmap.yaml",
  (v) =>
    `kind: ConfigMap\ndata:\n  application.properties: |\n    spring.datasource.password=${v}\n    server.port=8080\n`,
  pw(),
);
a27(
  "helm values nested",
  "charts/app/values.yaml",
  (v) => `postgresql:\n  auth:\n    postgresPassword: ${v}\n    database: app\n`,
  pw(),
);
a27(
  "helm set flag",
  "deploy.sh",
  (v) => `helm upgrade --install grafana grafana/grafana --set adminPassword=${v}\n`,
  pw(),
);
a27(
  "kustomize secret generator",
  "kustomization.yaml",
  (v) => `secretGenerator:\n  - name: app\n    literals:\n      - API_TOKEN=${v}\n`,
  mixed(40),
);
a27(
  "argocd repo secret",
  "argocd/repo.yaml",
  (v) =>
    `kind: Secret\nmetadata:\n  labels:\n    argocd.argoproj.io/secret-type: repository\nstringData:\n  url: https://github.com/org/repo\n  password: ${v}\n`,
  ghp(),
);
a27(
  "kubeconfig token",
  ".kube/config",
  (v) => `users:\n- name: ci\n  user:\n    token: ${v}\n`,
  jwt(),
);
a27(
  "k8s basic-auth secret",
  "k8s/basic.yaml",
  (v) => `type: kubernetes.io/basic-auth\nstringData:\n  username: admin\n  password: ${v}\n`,
  pw(),
);
a27(
  "k8s dockerconfigjson stringData",
  "k8s/pull.yaml",
  (v) =>
    `type: kubernetes.io/dockerconfigjson\nstringData:\n  .dockerconfigjson: '{"auths":{"ghcr.io":{"username":"bot","password":"${v}"}}}'\n`,
  ghp(),
);
a27(
  "k8s args flag",
  "k8s/deploy.yaml",
  (v) => `        args:\n          - --api-token=${v}\n          - --verbose\n`,
  mixed(40),
);
a27(
  "k8s external secret fake provider",
  "k8s/es.yaml",
  (v) =>
    `  provider:\n    fake:\n      data:\n        - key: /db/password\n          value: "${v}"\n`,
  pw(),
);
a27(
  "k8s cronjob command",
  "k8s/cron.yaml",
  (v) =>
    `            command: ["sh", "-c", "pg_dump postgres://backup:${v}@db/app > /b/app.sql"]\n`,
  pw(),
);
a27(
  "helmfile values inline",
  "helmfile.yaml",
  (v) => `releases:\n  - name: redis\n    values:\n      - auth:\n          password: ${v}\n`,
  pw(),
);
// .env variants
a27("env quoted spaces", ".env", (v) => `DB_PASSWORD = "${v}"\n`, pw());
a27("env export", ".envrc", (v) => `export AWS_SECRET_ACCESS_KEY="${v}"\n`, awsSecret());
a27("env inline comment", ".env.local", (v) => `API_TOKEN=${v} # prod token\n`, mixed(40));
a27("env single quoted", ".env.production", (v) => `SESSION_SECRET='${v}'\n`, mixed(64));
a27("env flaskenv", ".flaskenv", (v) => `FLASK_SECRET_KEY=${v}\n`, hex(48));
a27("env development", ".env.development.local", (v) => `NEXTAUTH_SECRET=${v}\n`, b64(43) + "=");
a27(
  "env staging file",
  "env/staging.env",
  (v) => `SENDGRID_KEY=${v}\n`,
  "SG." + r24(22) + "." + r24(43),
);
a27("env sh file", "env.sh", (v) => `export MAIL_PASS='${v}'\n`, pw());
a27("env default expansion", ".env", (v) => `REDIS_PASSWORD=\${REDIS_PASSWORD:-${v}}\n`, pw());
a27("env crlf", ".env", (v) => `APP_KEY=base64:${v}\r\nAPP_DEBUG=false\r\n`, b64(43) + "=");
a27("env lowercase names", ".env", (v) => `db_pass=${v}\n`, pw());
a27("env secret suffix", ".env.test", (v) => `WEBHOOK_SIGNING_SECRET=${v}\n`, "whsec_" + alnum(32));
a27("env docker env file", "app.env", (v) => `RABBITMQ_DEFAULT_PASS=${v}\n`, pw());
a27("env vite", ".env", (v) => `VITE_SUPABASE_SERVICE_ROLE_KEY=${v}\n`, jwt());
a27("env dotenv vault", ".env.me", (v) => `DOTENV_ME=me_${v}\n`, hex(64));
a27("env systemd environment file", "/etc/default/app", (v) => `API_KEY="${v}"\n`, mixed(40));
a27(
  "env systemd unit",
  "app.service",
  (v) => `[Service]\nEnvironment="DB_PASS=${v}"\nExecStart=/usr/bin/app\n`,
  pw(),
);
a27("env ini style", "env.ini", (v) => `[env]\nOAUTH_CLIENT_SECRET = ${v}\n`, mixed(40));
// Languages' configs
a27(
  "django settings secret",
  "settings.py",
  (v) => `SECRET_KEY = 'django-insecure-${v}'\n`,
  ch(A + "!@#$%^&*(-_=+)", 50),
);
a27(
  "django databases dict",
  "settings/prod.py",
  (v) =>
    `DATABASES = {\n    "default": {\n        "ENGINE": "django.db.backends.postgresql",\n        "PASSWORD": "${v}",\n    }\n}\n`,
  pw(),
);
a27(
  "rails database yml",
  "config/database.yml",
  (v) =>
    `production:\n  adapter: postgresql\n  username: app\n  password: <%= ENV.fetch("DB_PASS") { "${v}" } %>\n`,
  pw(),
);
a27(
  "rails secrets yml",
  "config/secrets.yml",
  (v) => `production:\n  secret_key_base: ${v}\n`,
  hex(128),
);
a27(
  "spring yaml datasource",
  "src/main/resources/application.yml",
  (v) =>
    `spring:\n  datasource:\n    url: jdbc:postgresql://db/app\n    username: app\n    password: ${v}\n`,
  pw(),
);
a27(
  "spring properties mail",
  "application-prod.properties",
  (v) => `spring.mail.password=${v}\n`,
  pw(),
);
a27(
  "dotnet appsettings",
  "appsettings.Production.json",
  (v) =>
    `{"ConnectionStrings": {"Default": "Server=sql;Database=app;User Id=sa;Password=${v};"}}\n`,
  pw(),
);
a27(
  "dotnet user secrets",
  "secrets.json",
  (v) => `{"Authentication:Google:ClientSecret": "${v}"}\n`,
  "GOCSPX-" + r24(28),
);
a27(
  "web.config appsettings",
  "Web.config",
  (v) => `<appSettings>\n  <add key="SmtpPassword" value="${v}" />\n</appSettings>\n`,
  pw(),
);
a27(
  "wp-config define",
  "wp-config.php",
  (v) => `define( 'DB_PASSWORD', '${v}' );\n`,
  pw(),
);
a27(
  "wp-config salts",
  "wp-config.php",
  (v) => `define('AUTH_KEY',         '${v}');\n`,
  ch(A + "!@#$%^&*()-_[]{}<>~+=,.;:/?|", 64).replace(/'/g, "x"),
);
a27(
  "laravel config array",
  "config/services.php",
  (v) => `    'mailgun' => [\n        'secret' => env('MAILGUN_SECRET', '${v}'),\n    ],\n`,
  "key-" + hex(32),
);
a27(
  "phoenix prod exs",
  "config/prod.exs",
  (v) => `config :app, AppWeb.Endpoint,\n  secret_key_base: "${v}"\n`,
  b64(64),
);
a27(
  "rocket toml",
  "Rocket.toml",
  (v) => `[release]\nsecret_key = "${v}"\n`,
  b64(43) + "=",
);
a27(
  "alembic ini url",
  "alembic.ini",
  (v) => `[alembic]\nsqlalchemy.url = postgresql://app:${v}@db/app\n`,
  pw(),
);
a27(
  "node config default json",
  "config/default.json",
  (v) => `{"db": {"host": "db", "password": "${v}"}, "port": 3000}\n`,
  pw(),
);
a27(
  "next config env",
  "next.config.js",
  (v) => `module.exports = {\n  env: {\n    STRIPE_SECRET_KEY: '${v}',\n  },\n};\n`,
  "sk_live_" + alnum(24),
);
a27(
  "maven settings server",
  "settings.xml",
  (v) =>
    `<server>\n  <id>ossrh</id>\n  <username>bot</username>\n  <password>${v}</password>\n</server>\n`,
  pw(),
);
a27(
  "gradle user properties",
  ".gradle/gradle.properties",
  (v) => `ossrhUsername=bot\nossrhPassword=${v}\nsigning.password=${pw()}\n`,
  pw(),
);
a27(
  "nuget config cleartext",
  "NuGet.Config",
  (v) =>
    `<packageSourceCredentials>\n  <feed>\n    <add key="Username" value="bot" />\n    <add key="ClearTextPassword" value="${v}" />\n  </feed>\n</packageSourceCredentials>\n`,
  pw(),
);
a27(
  "composer auth json",
  "auth.json",
  (v) => `{"github-oauth": {"github.com": "${v}"}}\n`,
  ghp(),
);
a27(
  "bundler config",
  ".bundle/config",
  (v) => `---\nBUNDLE_GEMS__CONTRIBSYS__COM: "bot:${v}"\n`,
  hex(32),
);
a27(
  "cargo credentials",
  ".cargo/credentials.toml",
  (v) => `[registry]\ntoken = "${v}"\n`,
  "cio" + alnum(32),
);
a27(
  "pip conf index url",
  "pip.conf",
  (v) => `[global]\nindex-url = https://bot:${v}@pypi.example.com/simple\n`,
  pw(),
);
a27(
  "go viper yaml",
  "config.yaml",
  (v) => `server:\n  port: 8080\nauth:\n  jwt_secret: ${v}\n`,
  mixed(48),
);
a27(
  "scrapy settings",
  "settings.py",
  (v) => `ZYTE_API_KEY = "${v}"\n`,
  hex(32),
);
a27(
  "php array config",
  "config.php",
  (v) => `return ['db' => ['user' => 'app', 'pass' => '${v}']];\n`,
  pw(),
);
a27(
  "java properties colon",
  "app.properties",
  (v) => `db.password: ${v}\n`,
  pw(),
);
a27(
  "hocon password",
  "application.conf",
  (v) => `db {\n  default.password = "${v}"\n}\n`,
  pw(),
);
a27(
  "toml table token",
  "config.toml",
  (v) => `[telegram]\nbot_token = "${v}"\n`,
  digits(10) + ":" + r24(35),
);
// Test fixtures
a27(
  "vcr cassette auth",
  "spec/cassettes/charge.yml",
  (v) =>
    `http_interactions:\n- request:\n    headers:\n      Authorization:\n      - Bearer ${v}\n`,
  "sk_live_" + alnum(24),
);
a27(
  "pytest recording",
  "tests/cassettes/test_api.yaml",
  (v) => `interactions:\n- request:\n    headers:\n      X-Api-Key:\n      - ${v}\n`,
  alnum(32),
);
a27(
  "conftest constant",
  "tests/conftest.py",
  (v) => `LIVE_API_TOKEN = "${v}"\n`,
  mixed(40),
);
a27(
  "jest setup env",
  "jest.setup.js",
  (v) => `process.env.STRIPE_SECRET_KEY = '${v}';\n`,
  "sk_live_" + alnum(24),
);
a27(
  "cypress env json",
  "cypress.env.json",
  (v) => `{"username": "qa@example.com", "password": "${v}"}\n`,
  pw(),
);
a27(
  "playwright storage state",
  "e2e/.auth/user.json",
  (v) =>
    `{"cookies": [{"name": "session", "value": "${v}", "domain": "app.example.com", "path": "/"}]}\n`,
  mixed(48),
);
a27(
  "wiremock mapping header",
  "wiremock/mappings/auth.json",
  (v) => `{"request": {"headers": {"Authorization": {"equalTo": "Bearer ${v}"}}}}\n`,
  mixed(40),
);
a27(
  "fixture json token",
  "test/fixtures/github.json",
  (v) => `{"login": "bot", "token": "${v}"}\n`,
  "gho_" + alnum(36),
);
a27(
  "go test const",
  "client_test.go",
  (v) => `const testAPIKey = "${v}"\n`,
  mixed(40),
);
a27(
  "rspec let password",
  "spec/models/user_spec.rb",
  (v) => `  let(:admin_password) { "${v}" }\n`,
  pw(),
);
a27(
  "phpunit xml env",
  "phpunit.xml",
  (v) => `<php>\n  <env name="API_SECRET" value="${v}"/>\n</php>\n`,
  mixed(40),
);
a27(
  "postman env file",
  "postman/prod.postman_environment.json",
  (v) => `{"values": [{"key": "apiKey", "value": "${v}", "type": "secret", "enabled": true}]}\n`,
  mixed(40),
);
a27(
  "bruno env",
  "environments/prod.bru",
  (v) => `vars {\n  baseUrl: https://api.example.com\n  authToken: ${v}\n}\n`,
  mixed(40),
);
a27(
  "k6 script",
  "load/test.js",
  (v) => `const params = { headers: { Authorization: 'Token ${v}' } };\n`,
  hex(40),
);
a27(
  "locust file",
  "locustfile.py",
  (v) => `        self.client.post("/login", json={"username": "load", "password": "${v}"})\n`,
  pw(),
);
// Passwords named in other languages, in code files
a27("sv lösenord go", "db.go", (v) => `lösenord := "${v}"\n`, pw());
a27("sv losenord py", "db.py", (v) => `losenord = "${v}"\n`, pw());
a27("de passwort js", "db.js", (v) => `const passwort = '${v}';\n`, pw());
a27("de kennwort java", "Db.java", (v) => `String kennwort = "${v}";\n`, pw());
a27("nl wachtwoord php", "db.php", (v) => `$wachtwoord = "${v}";\n`, pw());
a27("da adgangskode rb", "db.rb", (v) => `adgangskode = "${v}"\n`, pw());
a27("fi salasana py dict", "conf.py", (v) => `ASETUKSET = {"salasana": "${v}"}\n`, pw());
a27("pl haslo ts", "db.ts", (v) => `const hasło: string = "${v}";\n`, pw());
a27("pt senha kt", "Db.kt", (v) => `val senha = "${v}"\n`, pw());
a27("it parola cs", "Db.cs", (v) => `var parolaSegreta = "${v}";\n`, pw());
a27("es contrasena rs", "db.rs", (v) => `let contraseña = "${v}";\n`, pw());
a27("cs heslo swift", "Db.swift", (v) => `let heslo = "${v}"\n`, pw());
a27("hu jelszo php", "db.php", (v) => `$jelszo = '${v}';\n`, pw());
a27("tr sifre py", "db.py", (v) => `şifre = "${v}"\n`, pw());
a27("ru parol py", "db.py", (v) => `пароль = "${v}"\n`, pw());
a27("ja password js", "db.js", (v) => `const パスワード = "${v}";\n`, pw());
a27("ko password py", "db.py", (v) => `비밀번호 = "${v}"\n`, pw());
a27("vi matkhau js", "db.js", (v) => `let matKhau = "${v}";\n`, pw());
a27("no passord yaml", "config.yml", (v) => `database:\n  passord: ${v}\n`, pw());
a27(
  "sv lösenord json key",
  "config.json",
  (v) => `{"användare": "app", "lösenord": "${v}"}\n`,
  pw(),
);
a27("de db_passwort env", ".env", (v) => `DB_PASSWORT=${v}\n`, pw());
a27(
  "fr motdepasse java",
  "Config.java",
  (v) => `private static final String MOT_DE_PASSE = "${v}";\n`,
  pw(),
);
a27("ro parola go", "config.go", (v) => `var parola = "${v}"\n`, pw());
a27("id katasandi py", "config.py", (v) => `kata_sandi = "${v}"\n`, pw());
// Providers' tokens in odd places
a27(
  "slack webhook in readme",
  "README.md",
  (v) => `Post to \`${v}\` to notify the channel.\n`,
  "https://hooks.slack.com/services/T" + up(8) + "/B" + up(10) + "/" + alnum(24),
);
a27(
  "discord webhook yaml",
  "alerts.yml",
  (v) => `webhook_url: ${v}\n`,
  "https://discord.com/api/webhooks/" + digits(18) + "/" + r24(68),
);
a27(
  "telegram bot url",
  "notify.sh",
  (v) => `curl "https://api.telegram.org/bot${v}/sendMessage?chat_id=1&text=done"\n`,
  digits(10) + ":AA" + r24(33),
);
a27(
  "twilio sid token python",
  "sms.py",
  (v) => `client = Client("AC${hex(32)}", "${v}")\n`,
  hex(32),
);
a27(
  "mailchimp key",
  "newsletter.rb",
  (v) => `Gibbon::Request.api_key = "${v}"\n`,
  hex(32) + "-us21",
);
a27(
  "openai key in yaml list",
  "litellm.yaml",
  (v) => `model_list:\n  - model_name: gpt\n    litellm_params:\n      api_key: ${v}\n`,
  "sk-proj-" + r24(64),
);
a27(
  "anthropic key in toml",
  "aider.conf.toml",
  (v) => `anthropic-api-key = "${v}"\n`,
  "sk-ant-api03-" + r24(93) + "AA",
);
a27(
  "gcp sa json embedded in yaml",
  "values.yaml",
  (v) =>
    `gcp:\n  credentials: |\n    {"type": "service_account", "private_key_id": "${v}", "client_email": "x@p.iam.gserviceaccount.com"}\n`,
  hex(40),
);
a27(
  "azure storage conn in json",
  "local.settings.json",
  (v) =>
    `{"Values": {"AzureWebJobsStorage": "DefaultEndpointsProtocol=https;AccountName=st;AccountKey=${v};EndpointSuffix=core.windows.net"}}\n`,
  b64(86) + "==",
);
a27(
  "databricks token cfg",
  ".databrickscfg",
  (v) => `[DEFAULT]\nhost = https://adb-1.azuredatabricks.net\ntoken = ${v}\n`,
  "dapi" + hex(32),
);
a27(
  "pagerduty routing key",
  "alertmanager.yml",
  (v) => `receivers:\n  - name: pd\n    pagerduty_configs:\n      - routing_key: ${v}\n`,
  hex(32),
);
a27(
  "opsgenie api key",
  "alertmanager.yml",
  (v) => `global:\n  opsgenie_api_key: ${v}\n`,
  uuid(),
);
a27(
  "grafana datasource basic",
  "provisioning/datasources/ds.yaml",
  (v) =>
    `datasources:\n  - name: prom\n    basicAuthUser: admin\n    secureJsonData:\n      basicAuthPassword: ${v}\n`,
  pw(),
);
a27(
  "prometheus remote write",
  "prometheus.yml",
  (v) =>
    `remote_write:\n  - url: https://prom.example.com/api/v1/write\n    basic_auth:\n      username: "123456"\n      password: ${v}\n`,
  "glc_" + b64(80),
);
a27(
  "rclone conf",
  "rclone.conf",
  (v) => `[s3]\ntype = s3\naccess_key_id = AKIA${up(16)}\nsecret_access_key = ${v}\n`,
  awsSecret(),
);
a27(
  "restic env",
  "backup.env",
  (v) => `RESTIC_PASSWORD=${v}\nRESTIC_REPOSITORY=s3:s3.amazonaws.com/bk\n`,
  pw(),
);
a27(
  "borg passphrase",
  "backup.sh",
  (v) => `export BORG_PASSPHRASE='${v}'\n`,
  pw(),
);
a27(
  "traefik basic auth label",
  "docker-compose.yml",
  (v) => `      - "traefik.http.middlewares.auth.basicauth.users=admin:${v}"\n`,
  pw(),
);
a27(
  "caddyfile basicauth plain",
  "Caddyfile",
  (v) => `reverse_proxy localhost:8080 {\n  header_up Authorization "Bearer ${v}"\n}\n`,
  mixed(40),
);
a27(
  "nginx proxy header",
  "nginx.conf",
  (v) => `    proxy_set_header X-Api-Key "${v}";\n`,
  alnum(32),
);
a27(
  "wireguard private key",
  "wg0.conf",
  (v) => `[Interface]\nPrivateKey = ${v}\nAddress = 10.8.0.1/24\n`,
  b64(43) + "=",
);
a27(
  "openvpn auth user pass",
  "auth.txt",
  (v) => `vpnuser\n${v}\n`,
  pw(),
);
a27(
  "smtp url in yaml",
  "config/mail.yml",
  (v) => `smtp_url: smtps://noreply%40example.com:${v}@smtp.example.com:465\n`,
  pw(),
);
a27(
  "amqp url ruby",
  "sidekiq.rb",
  (v) => `Bunny.new("amqps://app:${v}@mq.example.com/vhost")\n`,
  pw(),
);
a27(
  "redis url ts",
  "queue.ts",
  (v) => `const redis = new Redis("rediss://default:${v}@cache.upstash.io:6379");\n`,
  alnum(32),
);
for (const [n, p, f, v] of t27) add(n, p, f, v);
// the twenty-seventh hunt's values that must stay
const k27: S24[] = [];
const b27 = (name: string, path: string, f: (v: string) => string, v: string) =>
  k27.push(["r27 " + name, path, f, v]);
b27(
  "nix public key nix.conf",
  "nix.conf",
  (v) => `substituters = https://cache.nixos.org\ntrusted-public-keys = ${v}\n`,
  "cache.nixos.org-1:6NCHdD59X431o0gWypbMrAURkbJ16ZPMQFGspcDShjY=",
);
b27(
  "nix public key flake",
  "flake.nix",
  (v) => `  nixConfig.extra-trusted-public-keys = [ "${v}" ];\n`,
  "nix-community.cachix.org-1:" + b64(43) + "=",
);
b27(
  "nix public key nixos module",
  "configuration.nix",
  (v) => `  nix.settings.trusted-public-keys = [\n    "${v}"\n  ];\n`,
  "hydra.example.org-1:" + b64(43) + "=",
);
b27(
  "nix public key yaml ci",
  ".github/workflows/nix.yml",
  (v) =>
    `      - uses: cachix/install-nix-action@v27\n        with:\n          extra_nix_config: |\n            trusted-public-keys = ${v}\n`,
  "cache.garnix.io:" + b64(43) + "=",
);
b27(
  "algolia docsearch apiKey",
  "docusaurus.config.js",
  (v) =>
    `    algolia: {\n      appId: '${
      up(10)
    }',\n      apiKey: '${v}',\n      indexName: 'docs',\n    },\n`,
  hex(32),
);
b27(
  "algolia search-only env",
  ".env",
  (v) => `NEXT_PUBLIC_ALGOLIA_SEARCH_API_KEY=${v}\n`,
  hex(32),
);
b27(
  "algolia liteClient",
  "search.ts",
  (v) => `const client = liteClient('${up(10)}', '${v}');\n`,
  hex(32),
);
b27(
  "algolia searchOnlyApiKey yaml",
  "_config.yml",
  (v) => `algolia:\n  application_id: ${up(10)}\n  search_only_api_key: ${v}\n  index_name: blog\n`,
  hex(32),
);
b27(
  "ssh rsa public key in cloud-init",
  "cloud-init.yaml",
  (v) => `users:\n  - name: deploy\n    ssh_authorized_keys:\n      - ${v}\n`,
  "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ" + b64(300) + " deploy@ci",
);
b27(
  "tf ssh public key",
  "main.tf",
  (v) => `resource "aws_key_pair" "deploy" {\n  public_key = "${v}"\n}\n`,
  "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI" + b64(43),
);
b27(
  "cosign public key",
  "cosign.pub",
  (v) => `-----BEGIN PUBLIC KEY-----\n${v}\n-----END PUBLIC KEY-----\n`,
  "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE" + b64(52),
);
b27(
  "gha pinned action sha",
  ".github/workflows/ci.yml",
  (v) => `      - uses: actions/checkout@${v} # v4.1.1\n`,
  hex(40),
);
b27(
  "docker image digest in compose",
  "docker-compose.yml",
  (v) => `    image: postgres@${v}\n`,
  "sha256:" + hex(64),
);
b27(
  "k8s uid",
  "k8s/dump.yaml",
  (v) => `metadata:\n  name: app\n  uid: ${v}\n  resourceVersion: "123"\n`,
  uuid(),
);
b27(
  "azure tenant id",
  "azure-pipelines.yml",
  (v) => `variables:\n  tenantId: '${v}'\n  subscriptionId: '${uuid()}'\n`,
  uuid(),
);
b27(
  "ha secret reference",
  "configuration.yaml",
  (v) => `wifi:\n  ssid: !secret wifi_ssid\n  password: ${v}\n`,
  "!secret wifi_password",
);
b27(
  "esphome secret reference",
  "esphome/garage.yaml",
  (v) => `api:\n  encryption:\n    key: ${v}\n`,
  "!secret api_key",
);
b27(
  "gha secrets expression",
  ".github/workflows/ci.yml",
  (v) => `        env:\n          NPM_TOKEN: ${v}\n`,
  "${{ secrets.NPM_TOKEN }}",
);
b27(
  "ansible vault reference",
  "group_vars/all.yml",
  (v) => `mysql_root_password: "${v}"\n`,
  "{{ vault_mysql_root_password }}",
);
b27(
  "env example placeholder",
  ".env.example",
  (v) => `OPENAI_API_KEY=${v}\n`,
  "your-openai-api-key-here",
);
b27(
  "compose env interpolation",
  "docker-compose.yml",
  (v) => `      POSTGRES_PASSWORD: ${v}\n`,
  "${POSTGRES_PASSWORD:?set it}",
);
b27(
  "helm template value ref",
  "templates/secret.yaml",
  (v) => `stringData:\n  password: ${v}\n`,
  "{{ .Values.auth.password | quote }}",
);
b27(
  "k8s secretKeyRef",
  "k8s/deploy.yaml",
  (v) =>
    `          - name: DB_PASSWORD\n            valueFrom:\n              secretKeyRef:\n                name: ${v}\n                key: password\n`,
  "postgres-credentials-prod",
);
b27(
  "terraform var ref",
  "main.tf",
  (v) => `  password = ${v}\n`,
  "var.db_password_from_vault",
);
// (not here: a bcrypt hash in a dumped user table; `password-hash` redacts those by design)
b27(
  "sql sha256 checksum",
  "dump.sql",
  (v) => `INSERT INTO files (id, name, sha256) VALUES (3, 'logo.png', '${v}');\n`,
  hex(64),
);
b27(
  "git log commit",
  "CHANGELOG.md",
  (v) => `- Fix the parser (${v})\n`,
  hex(40),
);
b27(
  "notebook image output",
  "plot.ipynb",
  (v) =>
    `{"cells": [{"cell_type": "code", "outputs": [{"data": {"image/png": "${v}"}, "output_type": "display_data"}], "source": ["plt.show()"]}]}\n`,
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk" + b64(80),
);
b27(
  "notebook dataframe ids",
  "orders.ipynb",
  (v) =>
    `{"cells": [{"cell_type": "code", "outputs": [{"name": "stdout", "output_type": "stream", "text": ["   order_id                              uuid\\n0         1  ${v}\\n"]}], "source": ["print(df)"]}]}\n`,
  uuid(),
);
b27(
  "notebook printed model name",
  "train.ipynb",
  (v) =>
    `{"cells": [{"cell_type": "code", "outputs": [{"name": "stdout", "output_type": "stream", "text": ["${v}\\n"]}], "source": ["print(model_name)"]}]}\n`,
  "sentence-transformers/all-MiniLM-L6-v2",
);
b27(
  "log request id",
  "logs/app.log",
  (v) => `2026-11-30T10:00:01Z INFO request_id=${v} status=200 duration_ms=12\n`,
  uuid(),
);
b27(
  "log trace id",
  "logs/app.log",
  (v) => `{"level":"info","trace_id":"${v}","span_id":"${hex(16)}"}\n`,
  hex(32),
);
b27(
  "zigbee ieee address",
  "zigbee2mqtt/configuration.yaml",
  (v) => `devices:\n  '${v}':\n    friendly_name: kitchen_light\n`,
  "0x" + hex(16),
);
b27(
  "tuya device id",
  "snapshot.json",
  (v) => `{"devices": [{"name": "Plug", "id": "${v}", "ip": "10.0.0.9", "ver": "3.3"}]}\n`,
  hex(22),
);
b27(
  "hue bridge id",
  "hue.json",
  (v) => `{"bridgeid": "${v}", "name": "Hue Bridge", "modelid": "BSB002"}\n`,
  hex(16).toUpperCase(),
);
b27(
  "android assetlinks fingerprint",
  ".well-known/assetlinks.json",
  (v) =>
    `[{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android_app", "package_name": "com.example", "sha256_cert_fingerprints": ["${v}"]}}]\n`,
  Array.from({ length: 32 }, () => hex(2).toUpperCase()).join(":"),
);
b27(
  "ios team id",
  "fastlane/Appfile",
  (v) => `team_id("${v}")\napple_id("dev@example.com")\n`,
  up(10),
);
b27(
  "firebase project number",
  "firebase.json",
  (v) => `{"projectId": "app-prod", "messagingSenderId": "${v}"}\n`,
  digits(12),
);
b27(
  "google analytics id",
  "index.html",
  (v) => `<script async src="https://www.googletagmanager.com/gtag/js?id=${v}"></script>\n`,
  "G-" + up(10),
);
b27(
  "oauth client id public",
  "auth.config.ts",
  (v) => `export const clientId = "${v}";\n`,
  digits(12) + "-" + lowdig(32) + ".apps.googleusercontent.com",
);
b27(
  "stripe publishable key",
  "checkout.js",
  (v) => `const stripe = Stripe('${v}');\n`,
  "pk_live_" + alnum(99),
);
b27(
  "wireguard public key",
  "wg0.conf",
  (v) => `[Peer]\nPublicKey = ${v}\nAllowedIPs = 10.8.0.2/32\n`,
  b64(43) + "=",
);
b27(
  "age recipient",
  ".sops.yaml",
  (v) => `creation_rules:\n  - path_regex: secrets/.*\n    age: ${v}\n`,
  "age1" + ch("023456789acdefghjklmnpqrstuvwxyz", 58),
);
b27(
  "sops encrypted value",
  "secrets.enc.yaml",
  (v) => `db_password: ${v}\n`,
  "ENC[AES256_GCM,data:" + b64(24) + ",iv:" + b64(43) + "=,tag:" + b64(22) + "==,type:str]",
);
b27(
  "sealed secret encrypted",
  "k8s/sealed.yaml",
  (v) => `kind: SealedSecret\nspec:\n  encryptedData:\n    password: ${v}\n`,
  "AgB" + b64(400) + "==",
);
b27(
  "swift package resolved revision",
  "Package.resolved",
  (v) =>
    `{"pins": [{"identity": "alamofire", "state": {"revision": "${v}", "version": "5.9.0"}}]}\n`,
  hex(40),
);
b27(
  "pnpm lock integrity",
  "pnpm-lock.yaml",
  (v) => `  /left-pad@1.3.0:\n    resolution: {integrity: ${v}}\n`,
  "sha512-" + b64(86) + "==",
);
b27(
  "password policy prose",
  "docs/security.md",
  (v) => `password: ${v}\n`,
  "at least twelve characters",
);
b27(
  "lösenord label in code",
  "ui/labels.ts",
  (v) => `export const lösenordEtikett = "${v}";\n`,
  "Lösenord",
);
b27(
  "passwort ui label",
  "i18n/de.json",
  (v) => `{"login": {"passwort": "${v}"}}\n`,
  "Passwort vergessen?",
);
b27(
  "fixture example token placeholder",
  "tests/fixtures/config.json",
  (v) => `{"token": "${v}"}\n`,
  "test-token-placeholder",
);
b27(
  "helm chart digest",
  "Chart.lock",
  (v) => `dependencies:\n- name: redis\n  version: 18.1.0\ndigest: ${v}\n`,
  "sha256:" + hex(64),
);
b27(
  "tf lock hash",
  ".terraform.lock.hcl",
  (v) => `  hashes = [\n    "${v}",\n  ]\n`,
  "zh:" + hex(64),
);
b27(
  "pgp fingerprint in readme",
  "SECURITY.md",
  (v) => `Our PGP key fingerprint: ${v}\n`,
  hex(40).toUpperCase(),
);
b27(
  "jwks kid",
  "jwks.json",
  (v) => `{"keys": [{"kty": "RSA", "kid": "${v}", "use": "sig", "alg": "RS256", "e": "AQAB"}]}\n`,
  hex(40),
);
b27(
  "dockerfile arg without default",
  "Dockerfile",
  (v) => `ARG ${v}\nRUN --mount=type=secret,id=npm npm ci\n`,
  "NPM_TOKEN",
);
for (const [n, p, f, v] of k27) kv21(n, p, f, v);
const names = new Set(Deno.args.slice(1)); // only these samples, by name
let leaks = 0;
for (const [name, path, text, hidden] of samples) {
  if (names.size && !names.has(name)) continue;
  const { text: out } = await redactText(text, path);
  const pieces = hidden.length <= 12
    ? [hidden]
    : Array.from({ length: hidden.length - 11 }, (_, i) => hidden.slice(i, i + 12));
  const leaked = pieces.some((p) => out.includes(p));
  if (leaked) {
    leaks++;
    console.log(`LEAK ${name}: ${JSON.stringify(out.slice(0, 300))}`);
  }
}
let lost = 0;
for (const [name, path, text, kept] of keeps) {
  if (names.size && !names.has(name)) continue;
  const { text: out } = await redactText(text, path);
  if (!out.includes(kept)) {
    lost++;
    console.log(`REDACTED ${name}: ${JSON.stringify(out.slice(0, 300))}`);
  }
}
console.log(`${leaks} leaks of ${samples.length}; ${lost} of ${keeps.length} kept values redacted`);
