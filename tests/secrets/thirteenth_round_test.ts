// The thirteenth leak hunt: passwords given by position to databases' and mailers' calls,
// Terraform state's generated passwords, admin commands' password options, a request
// collection's `{"key": "password", "value": …}`, and checksum files (public) kept.
import assert from "node:assert/strict";
import { redactSync, redactText } from "../../pipeline/_scan.ts";

/** Asserts that each `[text, expected]` redacts to `expected`. */
function redactsTo(cases: Array<[string, string]>): void {
  for (const [text, expected] of cases) assert.equal(redactSync(text).text, expected, text);
}

const PW = "Tr0ub4dor3x!K9";
const R = "[REDACTED:password]";

Deno.test("a password given by position to a connect or login call is redacted", () => {
  redactsTo([
    [
      `c = DriverManager.getConnection("jdbc:postgresql://db/app", "app", "${PW}");\n`,
      `c = DriverManager.getConnection("jdbc:postgresql://db/app", "app", "${R}");\n`,
    ],
    [
      `conn = DriverManager.getConnection(url, "postgres", "${PW}");\n`,
      `conn = DriverManager.getConnection(url, "postgres", "${R}");\n`,
    ],
    [
      `return DriverManager.getConnection(\n    JDBC_URL,\n    "admin",\n    "${PW}");\n`,
      `return DriverManager.getConnection(\n    JDBC_URL,\n    "admin",\n    "${R}");\n`,
    ],
    [
      `conn = pymssql.connect("sql01", "report", "${PW}", "sales")\n`,
      `conn = pymssql.connect("sql01", "report", "${R}", "sales")\n`,
    ],
    [
      `const s = new Sequelize("shop", "shop_user", "${PW}", { dialect: "mysql" });\n`,
      `const s = new Sequelize("shop", "shop_user", "${R}", { dialect: "mysql" });\n`,
    ],
    [
      `auth := smtp.PlainAuth("", "alerts@acme.com", "${PW}", "smtp.acme.com")\n`,
      `auth := smtp.PlainAuth("", "alerts@acme.com", "${R}", "smtp.acme.com")\n`,
    ],
  ]);
  const kept = [
    `conn = DriverManager.getConnection(url, user, password);\n`,
    `conn = DriverManager.getConnection(url, "app", System.getenv("DB_PASSWORD"));\n`,
    `auth := smtp.PlainAuth("", user, pass, host)\n`,
    `const s = new Sequelize("shop", "root", "", { dialect: "mysql" });\n`,
  ];
  for (const text of kept) assert.equal(redactSync(text).text, text);
});

Deno.test("Terraform state's random_password result, and a random_string's made with marks", () => {
  const v = "ec]NEhlY=V1]=A3m(x";
  // another resource's result (not the password: a found value is hidden wherever it repeats)
  const other = "Qz]NEhlY=V1]=A3m(x";
  const state = (type: string, special: boolean) =>
    `    {\n      "mode": "managed",\n      "type": "${type}",\n      "name": "db",\n` +
    `      "instances": [\n        {\n          "attributes": {\n            "id": "${
      type === "random_string" ? v : "none"
    }",\n            "length": 18,\n            "result": "${v}",\n            "special": ${special}\n` +
    `          }\n        }\n      ]\n    },\n    {\n      "type": "aws_s3_bucket",\n` +
    `      "instances": [{"attributes": {"id": "logs", "result": "kept-${other}"}}]\n    }\n`;
  const out = redactSync(state("random_password", true)).text;
  assert.ok(!out.includes(`"result": "${v}"`), out);
  assert.ok(out.includes(`"result": "kept-${other}"`), out);
  const str = redactSync(state("random_string", true)).text;
  assert.ok(!str.includes(`"result": "${v}"`) && !str.includes(`"id": "${v}"`), str);
  // a random_string made without marks names a thing (a bucket's suffix): kept
  const name = state("random_string", false).replaceAll(v, "k3x9q2mz7w1p");
  assert.equal(redactSync(name).text, name);
});

Deno.test("admin commands' password options are redacted", () => {
  redactsTo([
    [`net user deploy ${PW} /add /y\n`, `net user deploy ${R} /add /y\n`],
    [
      `openssl enc -aes-256-cbc -in a -out a.enc -pass pass:${PW}\n`,
      `openssl enc -aes-256-cbc -in a -out a.enc -pass pass:${R}\n`,
    ],
    [`zip -r -P ${PW} backup.zip data/\n`, `zip -r -P ${R} backup.zip data/\n`],
    [`7z a -p${PW} -mhe=on backup.7z data/\n`, `7z a -p${R} -mhe=on backup.7z data/\n`],
    [
      `userlist admins\n    user admin insecure-password ${PW}\n`,
      `userlist admins\n    user admin insecure-password ${R}\n`,
    ],
  ]);
  const kept = [
    "net user deploy /delete\n",
    "net user deploy * /add\n",
    // a placeholder in single quotes (Azure's bicep modules' README)
    "Ex: `net user admin-hci '<aNewKnownValue1>'`\n",
    "zip -r -P $ZIP_PASSWORD backup.zip data/\n",
    "7z a -p -mhe=on backup.7z data/\n",
    'unzip -P "$PASS" a.zip\n',
  ];
  for (const text of kept) assert.equal(redactSync(text).text, text);
});

Deno.test("a collection's `key` and `value` pair under a secret's key is redacted", () => {
  const out = redactSync(
    `"basic": [\n  {\n    "key": "password",\n    "value": "${PW}",\n    "type": "string"\n  },\n` +
      `  {\n    "key": "username",\n    "value": "ops"\n  }\n]\n`,
  ).text;
  assert.ok(!out.includes(PW), out);
  assert.ok(out.includes('"value": "ops"'), out);
  const env =
    redactSync(`[{"key": "api_key", "value": "3YLbzZ3CafKL9B3fivVJDDdS8Nrc", "enabled": true}]\n`)
      .text;
  assert.ok(!env.includes("3YLbzZ3CafKL9B3fivVJDDdS8Nrc"), env);
  const kept =
    `[{"key": "baseUrl", "value": "https://api.acme.com"}, {"key": "token", "value": "{{token}}"}]\n`;
  assert.equal(redactSync(kept).text, kept);
});

Deno.test("a checksum file's digest stays; a key file of the same shape is redacted", async () => {
  const h = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
  for (
    const path of [
      "dist/app.zip.sha256",
      "release.sum",
      "SHA256SUMS",
      "a.iso.md5",
      "checksums.txt",
      // coreutils' tool names as the ending (python-poetry/poetry's test fixtures), and shasum's
      "fixtures/poetry-1.0.5-darwin.sha256sum",
      "a.iso.md5sum",
      "b.tar.sha512sum",
      "c.zip.shasum",
      "d.tgz.b2sum",
    ]
  ) {
    assert.equal((await redactText(`${h}\n`, path)).text, `${h}\n`, path);
  }
  const md5 = "1c1dafbaef8b9a658b7638578d4aede6";
  assert.equal((await redactText(`${md5}\n`, "pkg.tgz.md5")).text, `${md5}\n`);
  assert.equal((await redactText(`${md5}\n`, "config/master.key")).text, "[REDACTED:key-file]\n");
  assert.equal((await redactText(`${h}\n`, "secret.txt")).text, "[REDACTED:key-file]\n");
});

Deno.test("a password given to a setter or a builder's method is redacted", () => {
  redactsTo([
    [`ds.setPassword("${PW}");\n`, `ds.setPassword("${R}");\n`],
    [
      `PgConnectOptions::new().username("app").password("${PW}").database("app")\n`,
      `PgConnectOptions::new().username("app").password("${R}").database("app")\n`,
    ],
    [
      `Auth: []ssh.AuthMethod{ssh.Password("${PW}")},\n`,
      `Auth: []ssh.AuthMethod{ssh.Password("${R}")},\n`,
    ],
    [
      `System.setProperty("javax.net.ssl.keyStorePassword", "${PW}");\n`,
      `System.setProperty("javax.net.ssl.keyStorePassword", "${R}");\n`,
    ],
  ]);
  const kept = [
    `ds.setPassword(System.getenv("DB_PASSWORD"));\n`,
    `user.setPassword(encoder.encode(raw));\n`,
    `if (!checkPassword("${PW}")) fail();\n`,
    `builder.password("password");\n`,
    `System.setProperty("javax.net.ssl.keyStore", "/etc/app/keystore.jks");\n`,
  ];
  for (const text of kept) assert.equal(redactSync(text).text, text);
});

Deno.test("a Wi-Fi pre-shared key under `psk` is redacted; the key management's name stays", () => {
  redactsTo([
    [
      `network={\n    ssid="AcmeCorp"\n    psk="${PW}"\n    key_mgmt=WPA-PSK\n}\n`,
      `network={\n    ssid="AcmeCorp"\n    psk="${R}"\n    key_mgmt=WPA-PSK\n}\n`,
    ],
    [
      `[wifi-security]\nkey-mgmt=wpa-psk\npsk=${PW}\n`,
      `[wifi-security]\nkey-mgmt=wpa-psk\npsk=${R}\n`,
    ],
  ]);
});

Deno.test("OpenVPN static keys, minisign secret keys and .NET's XML RSA private members", () => {
  const hexLines = Array.from({ length: 4 }, (_, i) => `${i}c4a5ed38178aeb282028c55ff0f752e`).join(
    "\n",
  );
  const vpn =
    `#\n# 2048 bit OpenVPN static key\n#\n-----BEGIN OpenVPN Static key V1-----\n${hexLines}\n` +
    `-----END OpenVPN Static key V1-----\n`;
  assert.ok(!redactSync(vpn).text.includes("c4a5ed38178aeb"), redactSync(vpn).text);
  const sk = "RWRTY0Iy" +
    "kHrblX8IqOaeDijO8u3rCKeG+kMZcs3oz3dr1qbD4NbWWQe0OtpLIJWcBaRUhaEvVx8vy".repeat(3);
  const mini = `untrusted comment: minisign encrypted secret key\n${sk}\n`;
  assert.equal(
    redactSync(mini).text,
    "untrusted comment: minisign encrypted secret key\n[REDACTED:private-key]\n",
  );
  const pubMini =
    `untrusted comment: minisign public key 3A1F\nRWQf6LRCGA9i53mlYecO4IzT51TGPpvWucNSCh1CBM0QTaLn73Y7GFO3\n`;
  assert.equal(redactSync(pubMini).text, pubMini);
  const d = "q3Zk8/Xw1+Lr5TnB2vYc9HmPd0Aa7EwGtJqLsN4oP6sk3Lm9";
  const xml =
    `<RSAKeyValue><Modulus>AQAB${d}</Modulus><Exponent>AQAB</Exponent><P>${d}</P><D>${d}x</D></RSAKeyValue>\n`;
  const out = redactSync(xml).text;
  assert.ok(
    out.includes(`<Modulus>AQAB${d}</Modulus>`) && !out.includes(`<P>${d}`) &&
      !out.includes(`${d}x`),
    out,
  );
  const pub = `<RSAKeyValue><Modulus>${d}</Modulus><Exponent>AQAB</Exponent></RSAKeyValue>\n`;
  assert.equal(redactSync(pub).text, pub);
});

Deno.test("a chain's private key (0x and 64 hex digits) under a key's or accounts' name", () => {
  const k = "0xb248be4f9a0b623c60469229dc29164640eeb7244a6fc0486edb9358ee04b150";
  for (
    const text of [
      `DEPLOYER_PRIVATE_KEY=${k}\n`,
      `      accounts: ["${k}"],\n`,
      `const signerKey = "${k}";\n`,
    ]
  ) {
    assert.ok(!redactSync(text).text.includes(k.slice(2, 20)), text);
  }
  const kept = [
    `{"transactionHash": "${k}", "status": "0x1"}\n`,
    `bytes32 constant SLOT = ${k};\n`,
    `  blockHash: "${k}",\n`,
  ];
  for (const text of kept) assert.equal(redactSync(text).text, text);
});

Deno.test("a Mapbox public token (`pk.eyJ…`) stays under any name; its secret `sk.eyJ…` does not", () => {
  const pk = "pk.eyJ1IjoiYWNtZSIsImEiOiJjbHgyM3Q0ZXQwMDFzMmtw.Zk3sR9yQ2bHk1pLw8vTn4A";
  const text = `mapboxgl.accessToken = "${pk}";\n`;
  assert.equal(redactSync(text).text, text);
  assert.ok(
    !redactSync(`MAPBOX_TOKEN = "${pk.replace("pk.", "sk.")}"\n`).text.includes("Zk3sR9yQ2"),
  );
});

Deno.test("secrets of admins' files and commands with no secret word before them", () => {
  const b64 = "xOvqVSb2fvoi/A0vhBZD3xUFvZjyyptaBvGMqexkfL0=";
  redactsTo([
    [
      `<AdministratorPassword>\n  <Value>${PW}</Value>\n  <PlainText>true</PlainText>\n</AdministratorPassword>\n`,
      `<AdministratorPassword>\n  <Value>${R}</Value>\n  <PlainText>true</PlainText>\n</AdministratorPassword>\n`,
    ],
    [`Unseal Key 1: ${b64}\n`, `Unseal Key 1: ${R}\n`],
    [
      `BUNDLE_GEMS__CONTRIBSYS__COM: "ea45f122:8c2858c5"\n`,
      `BUNDLE_GEMS__CONTRIBSYS__COM: "${R}"\n`,
    ],
    [
      "Raw: `export BUNDLE_ENTERPRISE__CONTRIBSYS__COM=ab12cd34:ef56ab78;`,\n",
      `Raw: \`export BUNDLE_ENTERPRISE__CONTRIBSYS__COM=${R};\`,\n`,
    ],
    [
      `MNEMONIC="abandon zebra orbit velvet canal wisdom harbor ripple fossil gadget lunar tunnel"\n`,
      `MNEMONIC="${R}"\n`,
    ],
  ]);
  const kept = [
    `<Password>\n  <Value></Value>\n</Password>\n`,
    `<AutoLogon>\n  <Password>\n    <Value>*SENSITIVE*DATA*DELETED*</Value>\n  </Password>\n</AutoLogon>\n`,
    `BUNDLE_JOBS: "4"\n`,
    `MNEMONIC="test test test test test test test test test test test junk"\n`,
  ];
  for (const text of kept) assert.equal(redactSync(text).text, text);
  const pair = Array.from({ length: 64 }, (_, i) => (i * 37 + 11) % 256).join(",");
  assert.equal(redactSync(`[${pair}]\n`).text, "[[REDACTED:private-key]]\n");
  const short = Array.from({ length: 32 }, (_, i) => i).join(",");
  assert.equal(redactSync(`[${short}]\n`).text, `[${short}]\n`);
});
