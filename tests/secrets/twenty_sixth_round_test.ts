// The twenty-sixth leak hunt, by class: Google's OAuth access tokens wherever they sit, passwords
// named in Latin-script languages in code files, a bare `key` whose random value has few
// digits, a Terraform state's values under attributes that name nothing, a key written as a list
// of its bytes, cookies that code sets, Wi-Fi joins and Oracle's connects given a password by
// position, a `"psk":` in JSON, a bearer scheme given apart from its token; and the look-alikes
// of each that stay.
import assert from "node:assert/strict";
import { redactText } from "../../pipeline/_scan.ts";
import { kept, redactsValue } from "./_redacts.ts";

const PW = "Qx7vLm2Rk9!Tz";
const TOKEN = "Xk29fjQ02aLpZ8wq7Rt5Ym3nB4";
const YA29 = "ya29.a0AfB_byC3x9Kq2LmPz7Rw4Tn8Vb5Hj1Gd6Fs0Ae3Qy9Uo2Ii7Pk4Ll1Mn6Bv8Cx";

Deno.test("a Google OAuth access token is redacted with no name around it", async () => {
  await redactsValue(`bob@example.com|${YA29}|2025-01-01 10:00:00\n`, YA29, "access_tokens.txt");
  await redactsValue(`INSERT INTO access_tokens VALUES('a@b.c','${YA29}',NULL);\n`, YA29, "a.sql");
  await redactsValue(`+ gcloud auth print-access-token\n${YA29}\n`, YA29, "deploy.log");
  await kept("Google's access tokens start with ya29. and are short-lived.\n", "notes.md");
});

Deno.test("a password named in a Latin-script language is redacted in code files too", async () => {
  const cases: Array<[string, string]> = [
    [`const lösenord = "${PW}"\n`, "db.go"],
    [`var lösenord = "${PW}";\n`, "Db.cs"],
    [`CONFIG = { 'lösenord' => '${PW}' }\n`, "config.rb"],
    [`losenord = "${PW}"\n`, "settings.py"],
    [`export const config = { user: "app", losenord: "${PW}" };\n`, "db.ts"],
    [`const parola = '${PW}';\n`, "db.js"],
    [`private static final String SALASANA = "${PW}";\n`, "Db.java"],
    [`$jelszó = "${PW}";\n`, "db.php"],
    [`DB_LÖSENORD = "${PW}"\n`, "config.py"],
    [`ADMIN_MOT_DE_PASSE = "${PW}"\n`, "config.rb"],
  ];
  for (const [text, path] of cases) await redactsValue(text, PW, path);
  await kept(`export const lösenord = "Ange ditt lösenord";\n`, "i18n/sv.js");
  await kept(`parola = "ciao"\n`, "saluti.py");
  // (prose: a page's words are its language's)
  await kept(`lösenord = ${PW}\n`.replace(PW, "ditt hemliga ord"), "README.sv.md");
});

Deno.test("a bare key's random value with fewer than three digits is redacted", async () => {
  const cases: Array<[string, string, string]> = [
    ["/* key = %V */\n", "crypto.c", "lqoIPHDnHjPlQHkPXbmGjW0CXcMp0YThbPPbkDld"],
    ["# key = %V\n", "crypt.py", "fUsSATuKRHRbAriLKKnXZVjOaPiROywSKaTWCGVv"],
    ["[crypto]\nkey = %V\n", "app.ini", "RduvKBn7fHjLbTjPSoZvjGHqECpmesUTnSm3BUMu"],
    ["encryption:\n  key: %V\n", "config.yml", "HYpmyTVcnUbyJ3WNnSkg3zhNyanyGjXYHJWOvcjf"],
    ['{"license": {"key": "%V"}}\n', "settings.json", "GRRFiMboHcNFLNRQnuIcfMSWSCCKXbaYsEhbZxfY"],
  ];
  for (const [form, path, v] of cases) await redactsValue(form.replace("%V", v), v, path);
  await kept("key = KeyboardLayoutSwedishExtended\n", "keys.py");
  await kept("shortcut:\n  key: ControlShiftAltPageDownHome\n", "config.yml");
  await kept('{"key": "userProfileSettings2Default"}\n', "a.json");
});

Deno.test("a Terraform state's values under attributes that name nothing are redacted", async () => {
  const secret = "DTudHZGh0Z7tcHL5k_VeqJyy0eENUjCtKh~YMwpT";
  await redactsValue(
    `"attributes": {"display_name": "ci", "key_id": "0486edb9-358e-e04b-1501-a5a12bae6d62", "value": "${secret}"}\n`,
    secret,
    "terraform.tfstate",
  );
  await redactsValue(
    `{"type": "azurerm_key_vault_secret", "instances": [{"attributes": {"value": "${PW}"}}]}\n`,
    PW,
    "envs/prod/terraform.tfstate.backup",
  );
  const result = "BJSclbxyhxnJq0hMNeT4UYx9c74yr1SO";
  await redactsValue(
    `"type": "random_string",\n"instances": [{"attributes": {"result": "${result}", "length": 32}}]\n`,
    result,
    "terraform.tfstate",
  );
  await kept(
    `"type": "random_string", "attributes": {"result": "${result}", "special": false}\n`,
    "terraform.tfstate",
  );
  await kept(`{"tags": [{"key": "Name", "value": "web-server-prod-01"}]}\n`, "terraform.tfstate");
  await kept(`{"lineage": "0486edb9-358e-e04b-1501-a5a12bae6d62"}\n`, "terraform.tfstate");
  // (not a state: a `value` is the named rules' to judge)
  await kept(`{"value": "${secret}"}\n`, "fixtures/data.json");
});

Deno.test("a key written as a list of its bytes under a key's name is redacted", async () => {
  const flow = "232, 94, 200, 211, 22, 50, 162, 130, 119, 89, 164, 142, 129, 101, 65, 227";
  await redactsValue(`advanced:\n  network_key: [${flow}]\n`, flow, "configuration.yaml");
  const hex =
    "0x5E, 0x3F, 0x9B, 0x71, 0x7D, 0xC1, 0x2F, 0x30, 0xAD, 0x2A, 0x94, 0xD7, 0x6F, 0xD3, 0x59, 0xFF";
  await redactsValue(`NETWORK_KEY = [${hex}]\n`, hex, "zha_setup.py");
  const block = [18, 186, 135, 6, 56, 245, 102, 184, 249, 224, 243, 219, 40, 198, 66, 94];
  const yaml = `advanced:\n  network_key:\n${block.map((b) => `    - ${b}`).join("\n")}\n`;
  const out = (await redactText(yaml, "c.yaml")).text;
  // (a marker on each of the list's lines: the document keeps its lines)
  const markers = block.map(() => "    - [REDACTED:private-key]\n").join("");
  assert.equal(out, `advanced:\n  network_key:\n${markers}`);
  // zigbee2mqtt's documented default, a test's run, an id of 8 bytes, colours
  await kept(
    "network_key: [1, 3, 5, 7, 9, 11, 13, 15, 0, 2, 4, 6, 8, 10, 12, 13]\n",
    "configuration.yaml",
  );
  await kept(`key: [${Array.from({ length: 16 }, (_, i) => i + 1).join(", ")}]\n`, "a.yaml");
  await kept("ext_pan_id: [221, 221, 221, 221, 221, 221, 221, 221]\n", "configuration.yaml");
  await kept(`effect_colors: [${flow}]\n`, "lights.yaml");
  await kept(`public_key: [${flow}]\n`, "keys.yaml");
});

Deno.test("a session cookie that code sets is redacted", async () => {
  const sid = "VVBA5nnNAz83BC2R66oiS2dkltrKxtvaUhv3RTYdpTcBNyC7";
  const cases: Array<[string, string]> = [
    [`res.setHeader('Set-Cookie', 'sid=${sid}; HttpOnly; Path=/');\n`, "server.js"],
    [`res.setHeader("Set-Cookie", ["session=${sid}; Secure", "theme=dark"]);\n`, "server.js"],
    [`res.writeHead(200, { 'Set-Cookie': 'auth=${sid}' });\n`, "app.js"],
    [`add_header Set-Cookie "gate=${sid}; Path=/; HttpOnly";\n`, "nginx.conf"],
    [`res.cookie('remember_token', '${sid}', { httpOnly: true });\n`, "routes.js"],
    [`resp.set_cookie("session_token", "${sid}", httponly=True)\n`, "app.py"],
    [`setcookie("PHPSESSID", "${sid}", time() + 3600, "/");\n`, "login.php"],
    [`Cookie c = new Cookie("JSESSIONID", "${sid}");\n`, "Login.java"],
    [`let c = Cookie::new("session", "${sid}");\n`, "main.rs"],
    [`http.SetCookie(w, &http.Cookie{Name: "session", Value: "${sid}", HttpOnly: true})\n`, "a.go"],
    [`cookies = {"sessionid": "${sid}", "csrftoken": "abc"}\n`, "scrape.py"],
  ];
  for (const [text, path] of cases) await redactsValue(text, sid, path);
  await kept(`res.setHeader('Set-Cookie', 'theme=dark; Path=/');\n`, "server.js");
  await kept("res.setHeader('Set-Cookie', `sid=${sessionId}; HttpOnly`);\n", "server.js");
  await kept(`res.cookie('lang', 'en-US');\n`, "routes.js");
  await kept(`response.set_cookie("sessionid", request.session.session_key)\n`, "views.py");
});

Deno.test("a password given by position to a Wi-Fi join or an Oracle connect is redacted", async () => {
  await redactsValue(`  WiFi.begin("HomeNet", "${PW}");\n`, PW, "main.ino");
  await redactsValue(`wlan.connect('HomeNet', '${PW}')\n`, PW, "boot.py");
  await redactsValue(`wifiMulti.addAP("HomeNet", "${PW}");\n`, PW, "main.cpp");
  await redactsValue(`cx_Oracle.connect("scott", "${PW}", "db:1521/orcl")\n`, PW, "ora.py");
  await redactsValue(`oracledb.connect("scott", "${PW}", "db:1521/orcl")\n`, PW, "ora.py");
  await redactsValue(`{"nw": {"ins": [{"ssid": "HomeNet", "psk": "${PW}"}]}}\n`, PW, "wsec.json");
  await kept(`  WiFi.begin(WIFI_SSID, WIFI_PASSWORD);\n`, "main.ino");
  await kept(`wlan.connect(ssid, password)\n`, "boot.py");
});

Deno.test("a bearer scheme given apart from its token is redacted", async () => {
  await redactsValue(
    `client.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Bearer", "${TOKEN}");\n`,
    TOKEN,
    "Client.cs",
  );
  await kept(`new AuthenticationHeaderValue("Bearer", accessToken);\n`, "Client.cs");
  await kept(`new AuthenticationHeaderValue("Bearer", "<your-token-here>");\n`, "Client.cs");
});

Deno.test("a Tencent key id with `_` or `-` among its characters is redacted when it reads as random", async () => {
  const id = "AKIDI5_TWGNmYgV81xVPcCTB7mAHjr6_Vjnt";
  await redactsValue(`May  1 10:00:00 host app[123]: using api key ${id}\n`, id, "syslog");
  await kept("AKID_SOME_CONSTANT_NAME_FOR_TESTS_1\n", "consts.py");
});

Deno.test("make's conditional assignment under a token's name is read as a default", async () => {
  const token = "6dy4iEkwlKVJeLykbsbiHWHvepzxCiBRyD2xmwlm";
  await redactsValue(`TOKEN ?= ${token}\n\ndeploy:\n\tcurl $(URL)\n`, token, "Makefile");
  await kept("TOKEN ?= $(shell cat .token)\n", "Makefile");
  await kept("TOKEN ?= changeme\n", "Makefile");
});

Deno.test("a server's directive that sets a header under a secret's name is redacted", async () => {
  const key = "1jue0BPyCz6K32zIT9oRbf1XDvEegOBt2VcafWVr";
  await redactsValue(`RequestHeader set X-Api-Key "${key}"\n`, key, "vhost.conf");
  await redactsValue(`    proxy_set_header X-Auth-Token ${key};\n`, key, "nginx.conf");
  await kept(`RequestHeader set X-Forwarded-Proto "https"\n`, "vhost.conf");
  await kept(`add_header Cache-Control "public, max-age=31536000";\n`, "nginx.conf");
  await kept(`proxy_set_header X-Api-Key $http_x_api_key;\n`, "nginx.conf");
});

Deno.test("Go's conversion of a literal to bytes under a secret's name is read as the literal", async () => {
  const key = "ylUHsQGVg1yslRHxTltYCaUHyHbCGhwtm3RwJowG";
  await redactsValue(`var jwtSecret = []byte("${key}")\n`, key, "auth.go");
  await redactsValue(`key := []byte(\`${key}\`)\n`, key, "main.go");
  await redactsValue(`var password = []byte("${PW}")\n`, PW, "main.go");
  await kept(`var jwtSecret = []byte(os.Getenv("JWT_SECRET"))\n`, "auth.go");
  await kept(`var key = []byte("hello")\n`, "main.go");
});

Deno.test("a Ruby block that gives a literal under a secret's name is redacted", async () => {
  const key = "28fa094bd27970fd9c45061cb5fa21b7a5c962f5";
  await redactsValue(`  api_key { "${key}" }\n`, key, "spec/factories/accounts.rb");
  await redactsValue(`  password { '${PW}' }\n`, PW, "spec/factories/users.rb");
  await kept(`  password { "password" }\n`, "spec/factories/users.rb");
  await kept(`  api_key { SecureRandom.hex(20) }\n`, "spec/factories/accounts.rb");
});

Deno.test("an auth's user and password written with a slash is redacted", async () => {
  await redactsValue(`NEO4J_AUTH=neo4j/${PW}\n`, PW, "neo4j.env");
  await kept("NEO4J_AUTH=none\n", "neo4j.env");
  await kept("auth: oauth/callback_url\n", "a.yml");
  await kept("NEO4J_AUTH=neo4j/test\n", "neo4j.env");
});

Deno.test("a parameter that a call named for a password defines is redacted", async () => {
  await redactsValue(`params {\n    password("env.DEPLOY_KEY", "${PW}")\n}\n`, PW, "settings.kts");
  await kept(`x = getpass.password("Enter password", "default")\n`, "a.py");
  await kept(`params {\n    password("env.DEPLOY_KEY", "%env.OTHER%")\n}\n`, "settings.kts");
});
