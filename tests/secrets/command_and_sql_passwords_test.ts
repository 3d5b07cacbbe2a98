// Passwords that have no name before them but a command's option, SQL or a `.pgpass` line around
// them (also tools' one-dash options after their tool, `echo … | … --password-stdin`, long
// options with words before theirs, curl's cookies, a Go DSN): `mysql -pS3cret`, `sshpass -p S3cret`, `psexec -p S3cret`, `redis-cli -a S3cret`, `IDENTIFIED BY 'S3cret'`,
// `PASSWORD 'S3cret'`, `SET PASSWORD FOR … = 'S3cret'`, `host:5432:db:user:S3cret`. Each password
// is made at run time; each is redacted whole, and the code and data that look alike are not.
import assert from "node:assert/strict";
import { redactSync } from "../../pipeline/_scan.ts";
import { piecesOf } from "./_samples.ts";
import { prng } from "../_helpers.ts";

const random = prng(43);
const CHARS = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789!%+.=@^~";
/** A Discord bot's token: a bot's id in base64, a time, and an HMAC made of `pw`'s letters. */
const discord = (pw: string) =>
  btoa(String(1e17 + Math.floor(random() * 8e17))).replace(/=+$/, "") + ".GaBcDe." +
  (pw + pw + pw).replace(/[^A-Za-z0-9]/g, "x").slice(0, 32);
/** A password: letters, digits and marks, never starting with `-`. */
const password = () =>
  "Pw" + Array.from({ length: 10 }, () => CHARS[Math.floor(random() * CHARS.length)]).join("") +
  "7";

const PLACES: Array<[string, (pw: string) => string]> = [
  ["mysql -p attached", (pw) => `mysql -h db -u app -p${pw} shop < dump.sql\n`],
  ["mysqldump -p'…'", (pw) => `mysqldump -uapp -p'${pw} x' shop > shop.sql\n`],
  ["mysql -p apart", (pw) => `mysql -u root -p ${pw} shop\n`],
  ["mysql in a Dockerfile", (pw) => `RUN mysql -uroot -p"${pw}" -e "CREATE DATABASE shop"\n`],
  ["sshpass -p", (pw) => `sshpass -p '${pw}' ssh deploy@host 'uptime'\n`],
  ["redis-cli -a", (pw) => `redis-cli -h cache -p 6379 -a ${pw} ping\n`],
  ["redis-cli --pass", (pw) => `redis-cli --pass "${pw}" info\n`],
  ["IDENTIFIED BY", (pw) => `CREATE USER 'app'@'%' IDENTIFIED BY '${pw}';\n`],
  [
    "IDENTIFIED WITH … BY",
    (pw) => `ALTER USER app IDENTIFIED WITH caching_sha2_password BY '${pw}';\n`,
  ],
  ["identified by, lower case", (pw) => `create user app\n  identified by "${pw}";\n`],
  ["Oracle, unquoted", () => `CREATE USER scott IDENTIFIED BY Tg7${"k".repeat(3)}x9Lm2;\n`],
  ["PASSWORD '…'", (pw) => `CREATE ROLE app WITH LOGIN PASSWORD '${pw}' VALID UNTIL 'infinity';\n`],
  ["password '…' in a user statement", (pw) => `alter user app with password '${pw}';\n`],
  ["ENCRYPTED PASSWORD", (pw) => `CREATE USER app ENCRYPTED PASSWORD '${pw}';\n`],
  [
    "PASSWORD('…')",
    (pw) => `SELECT * FROM mysql.user WHERE authentication_string = PASSWORD('${pw}');\n`,
  ],
  ["SET PASSWORD FOR", (pw) => `SET PASSWORD FOR 'app'@'localhost' = '${pw}';\n`],
  ["SQL in a string", (pw) => `cur.execute("CREATE USER app IDENTIFIED BY '${pw}'")\n`],
  [".pgpass", (pw) => `localhost:5432:shop:app:${pw}\n*:*:*:postgres:${pw}x\n`],
  [".pgpass, CRLF", (pw) => `db.internal:6432:*:app:${pw}\r\n`],
  [".pgpass written by echo", (pw) => `echo "db.internal:5432:shop:app:${pw}" >> ~/.pgpass\n`],
  ["psexec -p", (pw) => `psexec \\\\app1 -u CORP\\admin -p ${pw} cmd /c ipconfig\n`],
  ["PsExec64.exe -p quoted", (pw) => `PsExec64.exe -accepteula -u svc -p "${pw} 9" -h cmd\n`],
  ["paexec in a string", (pw) => `os.system("paexec -u admin -p '${pw}' -s cmd")\n`],
  ["a password before a connection string's quote", (pw) => `cs = "Server=db;Pwd=${pw};"\n`],
  ["docker login -p", (pw) => `docker login -u ci -p ${pw} registry.example.org\n`],
  ["podman login -p in CI YAML", (pw) => `    - podman login quay.io -u bot -p '${pw}'\n`],
  ["mongosh -p", (pw) => `mongosh --host db -u admin -p ${pw} --authenticationDatabase admin\n`],
  ["sqlcmd -P", (pw) => `sqlcmd -S db -U sa -P ${pw} -Q "select 1"\n`],
  ["ldapsearch -w", (pw) => `ldapsearch -x -D "cn=admin,dc=x,dc=org" -w ${pw} -b dc=x\n`],
  ["smbclient -U user%password", (pw) => `smbclient //srv/share -U alice%${pw}\n`],
  ["openssl pass:", (pw) => `openssl pkcs12 -export -in c.pem -out c.p12 -passout pass:${pw}\n`],
  ["openssl enc -k", (pw) => `openssl enc -aes-256-cbc -in f -out f.enc -k ${pw}\n`],
  ["echo | --password-stdin", (pw) => `echo "${pw}" | docker login -u bob --password-stdin\n`],
  ["--db-password", (pw) => `./app migrate --db-password ${pw} --verbose\n`],
  ["--client-secret quoted", (pw) => `az login --service-principal --client-secret '${pw}'\n`],
  [
    "--password as a JSON list's next item",
    (pw) => `{"args": ["--user", "bob", "--password", "${pw}"]}\n`,
  ],
  [
    "--db-password as a YAML list's next item",
    (pw) => `  args:\n    - --db-password\n    - "${pw}"\n`,
  ],
  ["curl -b", (pw) => `curl -b 'sessionid=${pw}x9${pw}; theme=dark' https://x.io/\n`],
  ["curl -H Cookie", (pw) => `curl 'https://x.io/api' -H 'cookie: sid=${pw}4${pw}' --compressed\n`],
  ["Go MySQL DSN", (pw) => `dsn := "app:${pw}@tcp(db:3306)/app?parseTime=true"\n`],
  ["cx_Oracle.connect", (pw) => `conn = cx_Oracle.connect("scott/${pw}@db:1521/orcl")\n`],
  ["a Discord bot's token given to its client", (pw) => `client.run("${discord(pw)}")\n`],
  ["discord.js's login", (pw) => `client.login('${discord(pw)}');\n`],
];

Deno.test("a password in a command, in SQL or on a .pgpass line is redacted whole", () => {
  const leaks: string[] = [];
  for (let n = 0; n < 5; n++) {
    for (const [what, place] of PLACES) {
      const pw = password();
      const placed = place(pw);
      const secrets = what === "Oracle, unquoted"
        ? [placed.match(/BY (\S+);/)![1]]
        : what === "mysqldump -p'…'"
        ? [`${pw} x`]
        : what === "PsExec64.exe -p quoted"
        ? [`${pw} 9`]
        : [pw];
      const { text } = redactSync(placed);
      for (const secret of secrets) {
        if (piecesOf(secret).some((p) => text.includes(p))) leaks.push(`${what}: ${text}`);
      }
    }
  }
  assert.deepEqual(leaks, []);
});

Deno.test("options, SQL and colon-separated data that hold no password stay as written", () => {
  const texts = [
    "mysql -u root -p shop\n", // -p then a database's name: mysql prompts for the password
    "mysql -uroot -p$MYSQL_ROOT_PASSWORD shop\n",
    'mysql -u root -p"${DB_PASSWORD}" shop\n',
    "mkdir -p build && cp -p a b\n",
    "redis-cli -a $REDIS_PASSWORD ping\n",
    "CREATE USER app IDENTIFIED EXTERNALLY;\n",
    "The account is identified by its email address.\n",
    "bauth.add_password('realm', host, 'user', 'secret')\n",
    'self.zip.setpassword("unicode")\n',
    "print(\"Enter the password 'twice'\")\n",
    "CREATE USER app IDENTIFIED BY '%s';\n",
    "CREATE ROLE app PASSWORD 'changeme';\n",
    '        "0002-03-02T00:00:00+00:00:16",\n',
    "b'52:54:00:9d:0e'\n",
    "00:11:22:33:44\n",
    "12:30:45:678:Z\n",
    "localhost:5432:shop:app:*\n",
    "a[1:2:3]\n",
    "redis-cli -u redis://default:PASSWORD@localhost:6379/0\n", // a URL, its password the word
    "psql -u postgres://app:<password>@db/app\n",
    "psexec \\\\host -u admin -p %PASSWORD% cmd\n", // a reference
    "psexec \\\\host -u admin -p -i cmd\n", // `-p` with no value: psexec prompts
    "sonar.login=admin\nsonar.password=admin\n", // a user's name and a stand-in
    "license_key: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaNRAL\n", // a stand-in
    "--set global.licenseKey=a1b2c3d4e5f6g7h8i9j0k1l2m3n4o5p6q7r8NRAL\n", // not hex
    "docker run -p 8080:80 -w /app -k img\n", // -p of `docker run` is a port
    "docker login -u ci -p $CI_REGISTRY_PASSWORD $CI_REGISTRY\n", // a reference
    "mongosh -u admin -p --authenticationDatabase admin\n", // -p alone: it prompts
    "tar -xk -f a.tgz && grep -w needle -P file\n",
    'echo "$TOKEN" | docker login -u bob --password-stdin\n',
    "pg_dump --no-password --host=db shop\n",
    "gh auth login --with-token < token.txt\n",
    "curl -b cookies.txt -c cookies.txt https://x.io/\n", // a cookie jar
    "curl -b 'theme=dark; lang=en' https://x.io/\n",
    "openssl req -new -key k.pem -passin pass:$KEY_PASS\n",
    "\tgit push -u topic_2:topic_2 &&\n", // git's -u sets an upstream: a refspec
    "test_expect_success 'push -u topic_2:topic_2' '\n", // the same, in a test's title
    'A commit is identified by "squash" or "fixup" in its subject.\n', // prose
  ];
  for (const text of texts) assert.deepEqual(redactSync(text).findings, [], text);
});

Deno.test("a tool's token with no secret word around it is redacted: New Relic, SonarQube", () => {
  const hex = (n: number) =>
    Array.from({ length: n }, () => "0123456789abcdef"[Math.floor(random() * 16)]).join("");
  for (let n = 0; n < 5; n++) {
    const license = hex(32) + "FFFFNRAL";
    const eu = "eu01xx" + hex(30) + "NRAL";
    const sonar = hex(40);
    const placed = `license: ${license}\n  newrelic_license = "${eu}"\n` +
      `mvn sonar:sonar -Dsonar.login=${sonar}\n<add key="sonar.login"\n  value="${sonar}" />\n`;
    assert.equal(
      redactSync(placed).text,
      'license: [REDACTED:newrelic]\n  newrelic_license = "[REDACTED:newrelic]"\n' +
        "mvn sonar:sonar -Dsonar.login=[REDACTED:sonar]\n" +
        '<add key="sonar.login"\n  value="[REDACTED:sonar]" />\n',
    );
  }
});
