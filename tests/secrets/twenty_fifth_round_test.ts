// The twenty-fifth leak hunt, by class: a user's password encoded for Basic auth in code, YAML's
// complex keys, a response's cookie, a credentials constructor of a realm, a host, a user and a
// password, Nostr's private keys, tools' `-t` tokens, a stub's matcher under a secret's name,
// `key = …` in a comment of any language, other scripts' secret words in code files; and the
// look-alikes of each that stay.
import { kept, redactsValue } from "./_redacts.ts";

const PW = "Qx7vLm2Rk9!Tz";
const TOKEN = "Xk29fjQ02aLpZ8wq7Rt5Ym3nB4";

Deno.test("a user's password given to a base64 encoder is redacted", async () => {
  const calls: Array<[string, string]> = [
    [`h.Authorization = "Basic " + btoa("deploy:${PW}");\n`, "client.js"],
    ["const h = `Basic ${btoa('admin:" + PW + "')}`;\n", "fetch.ts"],
    [`const a = Buffer.from('svc:${PW}').toString('base64');\n`, "api.ts"],
    [`const a = Buffer.from("svc:${PW}", "utf8").toString("base64");\n`, "api.js"],
    [`token = base64.b64encode(b"admin:${PW}").decode()\n`, "client.py"],
    [`a := base64.StdEncoding.EncodeToString([]byte("root:${PW}"))\n`, "main.go"],
    [`String a = Base64.getEncoder().encodeToString("api:${PW}".getBytes());\n`, "A.java"],
    [`auth = Base64.strict_encode64("bob:${PW}")\n`, "client.rb"],
    [`$auth = base64_encode('bob:${PW}');\n`, "client.php"],
    [
      `$b = [Convert]::ToBase64String([Text.Encoding]::ASCII.GetBytes("bob:${PW}"))\n`,
      "run.ps1",
    ],
  ];
  for (const [text, path] of calls) await redactsValue(text, PW, path);
});

Deno.test("a base64 encoder's other literals stay", async () => {
  await kept("const a = btoa(`${user}:${password}`);\n", "client.js");
  await kept('const a = btoa("hello world");\n', "util.js");
  await kept("Buffer.from('username:password').toString('base64');\n", "api.ts");
  await kept(`Buffer.from('svc:${PW}').toString('hex');\n`, "api.ts");
  await kept('base64.b64encode(b"https://example.org/a/b")\n', "t.py");
  await kept('const a = btoa("user:" + password);\n', "client.js");
});

Deno.test("a YAML complex key's value is redacted as a plain key's", async () => {
  await redactsValue(`? password\n: ${PW}\n`, PW, "config.yml");
  await redactsValue(`db:\n  ? db_password\n  : ${PW}\n  ? user\n  : bob\n`, PW, "values.yaml");
  await redactsValue(`? "api_key"\n: "${TOKEN}"\n`, TOKEN, "config.yaml");
  await redactsValue(`? password\r\n: ${PW}\r\n`, PW, "config.yml");
  await kept(`? password\n: \${DB_PASSWORD}\n`, "values.yaml");
  await kept(`? password\n: Passwort\n`, "de.yml");
  await kept(`? [a, b]\n: c\n`, "a.yml");
  // (not YAML: a `?` line is prose or a ternary)
  await kept(`? password\n: ${PW}\n`.replace(PW, "see above"), "notes.md");
});

Deno.test("a response's Set-Cookie is redacted, its first pair alone", async () => {
  const session = "YgXlif7FJwVeS4Jjsx-AnMmTfpy6Yjv";
  await redactsValue(
    `{"name": "Set-Cookie", "value": "sessionid=${session}; Path=/; HttpOnly"}\n`,
    session,
    "a.har",
  );
  await redactsValue(
    `{"name": "set-cookie", "value": "__Host-s=${session}; Secure"}\n`,
    session,
    "b.har",
  );
  await redactsValue(`HTTP/1.1 200 OK\nSet-Cookie: sid=${session}; Path=/\n`, session, "r.log");
  await redactsValue(`< set-cookie: connect.sid=${session}; Path=/\n`, session, "curl.txt");
  await redactsValue(`> Cookie: theme=dark; sid=${session}\n`, session, "curl.txt");
  await kept(`{"name": "Set-Cookie", "value": "theme=dark; Path=/"}\n`, "a.har");
  // (the OpenAPI specification's example: its digits are its URL escapes')
  await kept("```http\nSet-Cookie: urlSafeData=Hello%2C%20world%21\n```\n", "versions/3.2.0.md");
  await kept(
    `Set-Cookie: lang=en-US; Domain=abcdefghijkl1234567890.example.com; Path=/\n`,
    "r.log",
  );
});

Deno.test("a credentials constructor's fourth argument, after a realm, a host and a user", async () => {
  await redactsValue(
    `credentials += Credentials("Sonatype Nexus", "oss.sonatype.org", "bob", "${PW}")\n`,
    PW,
    "build.sbt",
  );
  await redactsValue(
    `credentials += Credentials(\n  "Realm",\n  "repo.example.com",\n  user,\n  "${PW}"\n)\n`,
    PW,
    "publish.sbt",
  );
  await redactsValue(
    `CredentialsStore.INSTANCE.addCredentials("realm", "h.example.com", "bob", "${PW}");\n`,
    PW,
    "Publish.java",
  );
  await kept(`credentials += Credentials(Path.userHome / ".sbt" / ".credentials")\n`, "build.sbt");
  await kept(
    `credentials += Credentials("R", "h.example.com", "bob", sys.env("SONATYPE_PASS"))\n`,
    "build.sbt",
  );
  await kept(`Credentials("R", "h.example.com", "bob", "password")\n`, "build.sbt");
});

Deno.test("a Nostr private key is redacted and its public key stays", async () => {
  const body = "tavgtlv9k074ntgudhz749e88j3f3yydgjuuxk55jajkfchsj6c7k8xc48";
  await redactsValue(`my key: nsec1${body}\n`, `nsec1${body}`, "notes.md");
  await redactsValue(`NOSTR_SK=nsec1${body}\n`, `nsec1${body}`, ".env");
  await kept(`Follow me: npub1${body}\n`, "README.md");
  await kept(`see note1${body}\n`, "notes.md");
  // (`b`, `i`, `o` and `1` are no bech32 characters)
  await kept(`nsec1${body.slice(0, 57)}b\n`, "notes.md");
});

Deno.test("a tool's -t token is redacted after that tool only", async () => {
  const influx = "SZ-r7jHJHk5ztqud-KmTfsjNROiYssCiy09EnIoC2yYvOiQpSM2C_a-GaH5P8Q==";
  const uuid = "0a2e06de-4628-027f-1662-3be21eee747e";
  await redactsValue(`influx write -b m -o acme -t ${influx} -f data.lp\n`, influx, "in.sh");
  await redactsValue(
    `influx query 'from(bucket:"m") |> range(start: -1h)' -t ${influx}\n`,
    influx,
    "q.sh",
  );
  await redactsValue(`bash <(curl -s https://codecov.io/bash) -t ${uuid}\n`, uuid, "ci.sh");
  await redactsValue(`  - ./codecov -t ${uuid}\n`, uuid, ".travis.yml");
  await redactsValue(`vercel deploy --prod -t ${TOKEN}\n`, TOKEN, "deploy.sh");
  await kept(`docker build -t registry.example.com/team/app:1.4.2 .\n`, "build.sh");
  await kept(`influx query 'from(bucket:"m")' -t $INFLUX_TOKEN\n`, "q.sh");
  await kept(`sort -t ',' -k2 quarterly_results_2024.csv\n`, "report.sh");
  await kept(`ssh -t bastion-host-01 'influx -t'\n`, "a.sh");
});

Deno.test("a stub's matcher under a secret's name is redacted", async () => {
  await redactsValue(
    `{"request": {"headers": {"X-Api-Key": {"equalTo": "${TOKEN}"}}}}\n`,
    TOKEN,
    "mappings/a.json",
  );
  await redactsValue(
    `{"headers": {"Authorization": {"equalTo": "Token ${TOKEN}"}}}\n`,
    TOKEN,
    "mappings/b.json",
  );
  await redactsValue(
    `stubFor(get("/x").withHeader("X-Api-Key", equalTo("${TOKEN}")));\n`,
    TOKEN,
    "StubTest.java",
  );
  await redactsValue(
    `{"queryParameters": {"password": {"matches": "${PW}"}}}\n`,
    PW,
    "mappings/c.json",
  );
  await kept(`{"headers": {"Content-Type": {"equalTo": "application/json"}}}\n`, "m/a.json");
  await kept(`{"headers": {"X-Api-Key": {"matches": "[a-zA-Z0-9]{40}"}}}\n`, "m/b.json");
  await kept(`assertThat(name, equalTo("${TOKEN}"));\n`, "T.java");
});

Deno.test("key = … in a comment of any language is read as the setting it comments out", async () => {
  const key = "g4crBNJrwAJW4AfOhYOqzXLEwJZfjwvyGcO5ifGv";
  for (const opener of [";", ";;", "#", "//", "--", "%", "!", "'", " *", "REM"]) {
    await redactsValue(`${opener} key = ${key}\nx\n`, key, "a.txt");
  }
  await kept(`# key = hashlib.sha256(name).hexdigest()\n`, "app.py");
  await kept(`// key = config.section.name\n`, "main.c");
  await kept(`-- key = self_cache_key_for_request_object\n`, "a.lua");
});

Deno.test("other scripts' secret words name a secret in code files too", async () => {
  await redactsValue(`<?php\n$config = ['пароль' => '${PW}'];\n`, PW, "config.php");
  await redactsValue(`const cfg = { 'パスワード': '${PW}' };\n`, PW, "config.js");
  await redactsValue(`密码 = '${PW}'\n`, PW, "settings.py");
  await redactsValue(`var 비밀번호 = "${PW}"\n`, PW, "main.go");
  await redactsValue(`CONFIG = { 'ключ_api' => '${TOKEN}' }\n`, TOKEN, "config.rb");
  await kept(`<?php\nreturn ['password' => 'Неверный пароль.'];\n`, "lang/ru/auth.php");
  await kept(`export default { '비밀번호': '비밀번호를 입력하세요' };\n`, "i18n/ko.js");
  await kept(`MESSAGES = {'пароль': 'Введите пароль'}\n`, "messages.py");
});

Deno.test("a Discord webhook whose token's pieces are shorter than its id is redacted past its bound", async () => {
  // (its id of 20 digits was judged as the token's longest piece, and no random one)
  const pieces = ["PF9QgThwDLIjs1Tz0RxV", "rWShzVhZfpEbLn9", "6ur4Gf2BdlpTKgjXt", "I559snLzhzOjC"];
  const url = `https://discord.com/api/webhooks/38719912081796419442/${pieces.join("-")}-x1Y2z3`;
  await redactsValue(`# old one: ${url} (rotated)\n`, url, "notes.md");
});

Deno.test("a LaunchDarkly key past its bound is judged by all its pieces, not its longest", async () => {
  // (its UUID's last piece, `0203704555f4`, reads as ordered alone)
  const key = "sdk-2c550f06-0a70-287b-dee5-0203704555f4gggXHO";
  await redactsValue(`# old one: ${key} (rotated)\n`, key, "notes.md");
});
