// The twenty-fourth leak hunt: passwords' and tokens' names in more languages, secrets written
// with typographic quotes and wide blanks, or with their quotes and operators escaped (JSON's
// `\u0022`, HTML's `&quot;`, a URL's `%3D`), JSON objects that name their `"value"` apart (in any
// order of members, by their own key, or marked sensitive), XML's name and value elements,
// commands that set a secret by position or by `--name` and `--value`, network devices' configs,
// Java properties' blank separators and escaped keys, comments closed on their line, a bearer
// token with no name, a Rust raw string, XML's CDATA, a shell's escaped sign, BIP 32 keys; and
// the look-alikes that stay (locale files' labels, build tools' placeholders).
import { kept, redactsValue } from "./_redacts.ts";

const PW = "Qx7vLm2Rk9!Tz";
const TOKEN = "Xk29fjQ02aLpZ8wq7Rt5Ym3nB4";

Deno.test("a password or a token named in another language", async () => {
  await redactsValue(`[db]\nsalasana = ${PW}\n`, PW, "settings.ini");
  await redactsValue(`db:\n  geslo: ${PW}\n`, PW, "config.yml");
  await redactsValue(`adgangskode = "${PW}"\n`, PW, "settings.py");
  await redactsValue(`$config['kata_sandi'] = '${PW}';\n`, PW, "config.php");
  await redactsValue(`motDePasse = "${PW}"\n`, PW, "settings.py");
  await redactsValue(`[db]\nκωδικός = ${PW}\n`, PW, "settings.ini");
  await redactsValue(`db.รหัสผ่าน=${PW}\n`, PW, "app.properties");
  await redactsValue(`{"पासवर्ड": "${PW}"}\n`, PW, "config.json");
  await redactsValue(`密码＝${PW}\n`, PW, "設定.ini");
  await redactsValue(`clave_api = "${TOKEN}"\n`, TOKEN, "settings.py");
  await redactsValue(`{"ключ_api": "${TOKEN}"}\n`, TOKEN, "config.json");
  await redactsValue(`TAJNY_KLUCZ=${TOKEN}\n`, TOKEN, ".env");
  await redactsValue(`[api]\nAPIキー = ${TOKEN}\n`, TOKEN, "settings.ini");
});

Deno.test("a locale file's translated label and a build's placeholder stay", async () => {
  await kept(`ru:\n  password: Пароль\n`, "config/locales/ru.yml");
  await kept(`es:\n  password: Contraseña\n`, "config/locales/es.yml");
  await kept(`"password" = "Lösenord";\n`, "sv.lproj/Localizable.strings");
  await kept(`export default { password: 'Mot de passe' };\n`, "i18n/fr.ts");
  await kept(`db.password=@DB_PASSWORD@\n`, "db.properties.in");
  await kept(`{"Smtp": {"Password": "__SMTP_PASSWORD__"}}\n`, "appsettings.json");
  await kept(`<add key="ApiSecret" value="#{ApiSecret}" />\n`, "web.config");
  await kept(`{"Smtp": {"Password": "${PW}"}}\n`.replace(PW, "@Microsoft.KeyVault(x)"), "a.json");
});

Deno.test("typographic quotes, wide blanks and escapes around a secret", async () => {
  await redactsValue(`password: “${PW}”\n`, PW, "config.yml");
  await redactsValue(`password:\u00A0${PW}\n`, PW, "docs/setup.md");
  await redactsValue(`password\u00A0=\u00A0${PW}\n`, PW, "config.ini");
  await redactsValue(`Set the password to “${PW}” before you start.\n`, PW, "README.md");
  await redactsValue(`Das Passwort lautet „${PW}“.\n`, PW, "LIESMICH.md");
  await redactsValue(`Le mot de passe est «${PW}».\n`, PW, "LISEZMOI.md");
  await redactsValue(`パスワードは「${PW}」です。\n`, PW, "README.ja.md");
  await redactsValue(`{"c": "\\u0022password\\u0022:\\u0022${PW}\\u0022"}\n`, PW, "dump.json");
  await redactsValue(
    `<div data-c="{&quot;apiKey&quot;:&quot;${TOKEN}&quot;}"></div>\n`,
    TOKEN,
    "a.html",
  );
  await redactsValue(`{&#34;password&#34;:&#34;${PW}&#34;}\n`, PW, "page.html");
  await redactsValue(`POST /login body=user%3Dbob%26password%3D${TOKEN}\n`, TOKEN, "a.log");
  await redactsValue(`GET /cb?s=%7B%22token%22%3A%22${TOKEN}%22%7D HTTP/1.1\n`, TOKEN, "a.log");
  await redactsValue(`export API_SECRET="${TOKEN}\\$x"\n`, `${TOKEN}\\$x`, "env.sh");
  await redactsValue(`<password><![CDATA[${PW}<&]]></password>\n`, `${PW}<&`, "config.xml");
  await redactsValue(`const TOKEN: &str = r#"${TOKEN}"#;\n`, TOKEN, "src/config.rs");
});

Deno.test("a JSON object's value named apart from it, and XML's name and value elements", async () => {
  await redactsValue(`[{"value": "${PW}", "name": "DB_PASSWORD"}]\n`, PW, "taskdef.json");
  await redactsValue(`{"Key": "SmtpPassword", "Value": "${PW}"}\n`, PW, "settings.json");
  await redactsValue(
    `{"Name": "/prod/db/password", "Type": "SecureString", "Value": "${PW}"}\n`,
    PW,
    "p.json",
  );
  await redactsValue(
    `[\n  {\n    "name": "DB_PASSWORD",\n    "slotSetting": false,\n    "value": "${PW}"\n  }\n]\n`,
    PW,
    "appsettings.azure.json",
  );
  await redactsValue(
    `"sqlAdminPassword": {\n  "type": "securestring",\n  "defaultValue": "${PW}"\n}\n`,
    PW,
    "azuredeploy.json",
  );
  await redactsValue(
    `"db_conn": {\n  "value": "${PW}",\n  "type": "string",\n  "sensitive": true\n}\n`,
    PW,
    "terraform.tfstate",
  );
  await redactsValue(
    `    envVars:\n      - key: API_SECRET\n        value: ${TOKEN}\n`,
    TOKEN,
    "render.yaml",
  );
  await redactsValue(
    `<con:property><con:name>password</con:name><con:value>${PW}</con:value></con:property>\n`,
    PW,
    "project-soapui.xml",
  );
  await redactsValue(
    `<data name="ApiKey" xml:space="preserve">\n  <value>${TOKEN}</value>\n</data>\n`,
    TOKEN,
    "Resources.resx",
  );
  await kept(
    `[{"name": "region", "value": "eu-west-1a"}, {"value": "x1y2z3w4v5", "name": "id"}]\n`,
    "a.json",
  );
  await kept(
    `"db_host": {\n  "value": "db.internal.example",\n  "type": "string"\n}\n`,
    "terraform.tfstate",
  );
});

Deno.test("commands that set a secret by position or by --name and --value", async () => {
  await redactsValue(`etcdctl put /config/db/password '${PW}'\n`, PW, "seed.sh");
  await redactsValue(`consul kv put secret/api/key ${TOKEN}\n`, TOKEN, "seed.sh");
  await redactsValue(`pulumi config set --secret dbPassword ${PW}\n`, PW, "setup.sh");
  await redactsValue(
    `aws ssm put-parameter --name /prod/db/password --type SecureString --value '${PW}'\n`,
    PW,
    "deploy.sh",
  );
  await redactsValue(
    `az keyvault secret set --vault-name kv --name DbPassword --value "${PW}"\n`,
    PW,
    "deploy.sh",
  );
  await redactsValue(
    `echo -n "${PW}" | gcloud secrets create db-password --data-file=-\n`,
    PW,
    "d.sh",
  );
  await redactsValue(`conan remote login acme ci -p ${PW}\n`, PW, "ci.sh");
  await redactsValue(`twine upload -u __token__ -p ${TOKEN} dist/*\n`, TOKEN, "release.sh");
  await kept(`aws ssm put-parameter --name /prod/db/host --value db.internal\n`, "deploy.sh");
  await kept(`etcdctl put /config/db/port 5432\n`, "seed.sh");
  await redactsValue(
    `UPDATE settings SET value = '${PW}' WHERE name = 'smtp_password';\n`,
    PW,
    "fix.sql",
  );
  await kept(
    `UPDATE settings SET value = 'smtp.example.com' WHERE name = 'smtp_host';\n`,
    "fix.sql",
  );
});

Deno.test("network devices' and daemons' configs", async () => {
  await redactsValue(`username admin privilege 15 password 0 ${PW}\n`, PW, "router.cfg");
  await redactsValue(
    `line vty 0 4\n password 7 0822455D0A16544541\n`,
    "0822455D0A16544541",
    "sw.cfg",
  );
  await redactsValue(`snmp-server community ${TOKEN} RO 10\n`, TOKEN, "router.cfg");
  await redactsValue(`tacacs-server host 10.0.0.5 key ${TOKEN}\n`, TOKEN, "router.cfg");
  await redactsValue(
    `set system radius-server 10.0.0.5 secret "$9$bSoGqjVdLSARfDaK2o0pDf"\n`,
    "$9$bSoGqjVdLSARfDaK2o0pDf",
    "junos-set.txt",
  );
  await redactsValue(`    pre-shared-secret ${TOKEN}\n`, TOKEN, "config.boot");
  await redactsValue(`        auth_pass ro0x4K60\n`, "ro0x4K60", "keepalived.conf");
  await redactsValue(`bob@acme.dev:{PLAIN}${PW}:1000:1000::/home/bob\n`, PW, "dovecot/users");
  await redactsValue(`cache_peer p.example parent 3128 0 login=bob:${PW}\n`, PW, "squid.conf");
  await kept(`snmp-server community public RO\n`, "router.cfg");
  await kept(`line vty 0 4\n password\n login local\n`, "router.cfg");
});

Deno.test("Java properties, comments closed on their line, bare bearer tokens, BIP 32 keys", async () => {
  await redactsValue(`signing.password ${PW}\n`, PW, "gradle.properties");
  await redactsValue(`db.password\t${PW}\n`, PW, "db.properties");
  await redactsValue(`pass\\u0077ord=${PW}\n`, PW, "i18n.properties");
  await redactsValue(`(* password: ${PW} *)\nlet () = ()\n`, PW, "main.ml");
  await redactsValue(`<%-- db password = ${PW} --%>\n`, PW, "login.jsp");
  await redactsValue(`:: api key = ${TOKEN}\n`, TOKEN, "run.cmd");
  await redactsValue(`@* api key: ${TOKEN} *@\n`, TOKEN, "Index.cshtml");
  await redactsValue(`.header("Authorization", "Bearer ${TOKEN}")\n`, TOKEN, "ApiTest.java");
  await redactsValue(
    `    headers:\n      Authorization:\n      - Bearer ${TOKEN}\n`,
    TOKEN,
    "c.yaml",
  );
  await redactsValue(`pass_phrase=${PW}\n`, PW, ".oci/config");
  await redactsValue(`PasswordPlain=${PW}\n`, PW, "WinSCP.ini");
  await redactsValue(`    npmAuthIdent: "deploy:${PW}"\n`, `deploy:${PW}`, ".yarnrc.yml");
  await redactsValue(`set :password, "${PW}"\n`, PW, "config/deploy.rb");
  await redactsValue(`val cred = Credentials.basic("svc", "${PW}")\n`, PW, "ClientTest.kt");
  const xprv =
    "xprv9s21ZrQH143K2g226UzPYLtRNBndyRHjX5iMCyAaGka5e9NVcA9pmxaBgA9TDRuCaaESM4854JhuoabMhxhreE1V1rWtXWCfvpKaCSnJAQc";
  await redactsValue(`master: ${xprv}\n`, xprv, "wallet.txt");
  await redactsValue(`a2mk69ncwpb17aqp6yrbqt23\n`, "a2mk69ncwpb17aqp6yrbqt23", "authtoken.secret");
  await kept(`/run/secrets/token\n`, "token.secret");
  await kept(`signing.keyId 24875D73\n`, "gradle.properties");
  await kept(`"Bearer <token>" and 'Bearer ${"$"}{TOKEN}'\n`, "docs.ts");
  await kept(`ui.label = "Bearer token"\n`, "a.properties");
});
