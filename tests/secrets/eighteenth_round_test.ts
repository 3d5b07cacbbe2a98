// The eighteenth leak hunt: values declared with a type or declarator before them, values that
// formats write apart from their names, passwords of letters alone in settings files, prose and
// connection strings, ODBC's braces, SQL as MySQL's history writes it and SQL Server's `N'…'`,
// Redis's `--requirepass`, five providers' prefixes; and the look-alikes that stay.
import { kept, redactsValue } from "./_redacts.ts";

const PW = "Qx7vLm2Rk9!Tz";
const KEY = "pR4nT8sWq2ZkLm6VbX0cYd3HjF5gNa1E";
const WORDS = "RiverMapleFrost";

Deno.test("a value declared with a type or a declarator between its name and it", async () => {
  await redactsValue(`const AdminPassword string = "${WORDS}"\n`, WORDS, "seed.go");
  await redactsValue(`var apiSecret string = "${KEY}"\n`, KEY, "main.go");
  await redactsValue(`\tclientSecret []byte = \`${KEY}\`\n`, KEY, "keys.go");
  await redactsValue(`static const char kClientSecret[] = "${KEY}";\n`, KEY, "client.c");
  await redactsValue(`char api_token[64] = "${KEY}";\n`, KEY, "client.c");
  await redactsValue(`#define WIFI_PASSWORD "${WORDS}"\n`, WORDS, "secrets.h");
  await redactsValue(`#  define MQTT_PASS "${PW}"\n`, PW, "config.h");
  await redactsValue(`#define API_KEY "${KEY}"\n`, KEY, "keys.h");
  await redactsValue(`static SECRET_KEY: &[u8] = b"${KEY}";\n`, KEY, "auth.rs");
  await redactsValue(`pub const API_TOKEN: &'static str = "${KEY}";\n`, KEY, "config.rs");
  await redactsValue(`const char* password = "${WORDS}";\n`, WORDS, "sketch.ino");
  await redactsValue(`  pass: SecretValue.unsafePlainText("${PW}"),\n`, PW, "stack.ts");
  await redactsValue(`const p = cdk.SecretValue.plainText('${PW}');\n`, PW, "stack.ts");
  await redactsValue(`db = pulumi.Output.secret("${PW}")\n`, PW, "__main__.py");
});

Deno.test("declarations and calls that hold no secret stay", async () => {
  await kept(`const PasswordColumn string = "password_hash"\n`, "user.go");
  await kept(`var tokenType string = "bearer"\n`, "auth.go");
  await kept(`#define WIFI_PASSWORD_KEY "wifi_password"\n`, "prefs.h");
  await kept(`#define PASSWORD_MAX 128\n`, "limits.h");
  await kept(`pub const PASSWORD_ENV: &str = "DATABASE_PASSWORD";\n`, "config.rs");
  await kept(`char password[64] = "";\n`, "a.c");
  await kept(`const pass = SecretValue.secretsManager("prod/db/password");\n`, "stack.ts");
  await kept(`const secret = getSecret("name");\n`, "a.ts");
  await kept(`printf("secret %s", secret);\n`, "a.c");
});

Deno.test("values that formats write apart from their names", async () => {
  await redactsValue(`\t<key>APISecret</key>\n\t<string>${KEY}</string>\n`, KEY, "Info.plist");
  await redactsValue(`<key>ClientPassword</key>\n<string>${PW}</string>\n`, PW, "Config.plist");
  await redactsValue(
    `<meta-data android:name="com.example.API_SECRET" android:value="${KEY}" />\n`,
    KEY,
    "AndroidManifest.xml",
  );
  await redactsValue(
    `buildConfigField("String", "API_KEY", "\\"${KEY}\\"")\n`,
    KEY,
    "build.gradle.kts",
  );
  await redactsValue(
    `buildConfigField "String", "CLIENT_SECRET", '"${KEY}"'\n`,
    KEY,
    "build.gradle",
  );
  await redactsValue(`resValue("string", "app_secret", "${KEY}")\n`, KEY, "build.gradle.kts");
  await redactsValue(
    `    "adminPassword": {\n      "value": "${PW}"\n    }\n`,
    PW,
    "azuredeploy.parameters.json",
  );
  await redactsValue(`[credentials]\nadmin = ${PW}\n`, PW, "deploy.ini");
  await redactsValue(`[secrets]\nstripe = ${KEY}\n`, KEY, "app.cfg");
});

Deno.test("names and values written apart that are no secret stay", async () => {
  await kept(
    `\t<key>NSFaceIDUsageDescription</key>\n\t<string>Unlock your saved passwords</string>\n`,
    "Info.plist",
  );
  await kept(`<key>CFBundleName</key>\n<string>Qx7vLm2Rk9</string>\n`, "Info.plist");
  await kept(
    `<meta-data android:name="com.google.android.geo.API_KEY" android:value="\${MAPS_API_KEY}" />\n`,
    "AndroidManifest.xml",
  );
  await kept(`buildConfigField("String", "API_URL", "\\"https://api.example.com\\"")\n`, "b.kts");
  await kept(`    "adminUsername": {\n      "value": "azureuser"\n    }\n`, "p.json");
  await kept(
    `[credential]\n\thelper = store\n[credentials]\n\thelper = osxkeychain\n`,
    ".gitconfig",
  );
  await kept(`[secrets]\nprovider = vault\npath = /etc/app/secrets.json\n`, "app.cfg");
});

Deno.test("a password of letters alone in a settings file, a page, a connection string", async () => {
  await redactsValue(`auth:\n  rootPassword: ${WORDS}\n`, WORDS, "values.yaml");
  await redactsValue(`SUPABASE_DB_PASSWORD=${WORDS}\n`, WORDS, ".env.local");
  await redactsValue(`RELEASE_STORE_PASSWORD=${WORDS}\n`, WORDS, "local.properties");
  await redactsValue(`APP_STORE_PASSWORD = ${WORDS}\n`, WORDS, "Shared.xcconfig");
  await redactsValue(`[dsn]\nPWD = ${WORDS}\n`, WORDS, "odbc.ini");
  await redactsValue(`config:\n  myapp:dbPassword: ${WORDS}\n`, WORDS, "Pulumi.prod.yaml");
  await redactsValue(`database = { user = "app", password = "${WORDS}" }\n`, WORDS, "c.toml");
  await redactsValue(
    "```\nEmail: admin@example.com\nPassword: KoelIsCool\n```\n",
    "KoelIsCool",
    "docs/install.md",
  );
  await redactsValue(`cs = "Data Source=ORCL;User Id=scott;Password=${WORDS};"\n`, WORDS, "a.cs");
  await redactsValue(`url = "jdbc:clickhouse://ch/db?user=u&password=${WORDS}"\n`, WORDS, "a.conf");
});

Deno.test("letters under a password name that are no password stay", async () => {
  await kept(`password: hashedPassword\n`, "values.yaml");
  await kept(`  password: Password\n`, "values.yaml");
  await kept(`PASSWORD=${"x".repeat(4)}\n`, ".env");
  await kept(`  existingSecret: postgres-credentials\n`, "values.yaml");
  await kept(`Password: the one you chose\n`, "README.md");
  await kept(`Password: Required\n`, "README.md");
  await kept(`  password: hashedPassword\n`, "src/a.js");
  await kept(`url = "jdbc:postgresql://db/app?user=app&password=\${DB_PASSWORD}"\n`, "a.conf");
  await kept(`conn = "Server=db;Integrated Security=SSPI;Password=;"\n`, "a.cs");
  // (found by the audit of the mirrored trees: a template's attribute, a test's table, a stand-in)
  await kept(`      data-client-secret={@client_secret}\n`, "billing.ex");
  await kept(`    ("secret = {hunter2}", False),\n`, "filter_test.py");
  await kept(`config:\n  defaults:\n    user: jiraUser\n    password: jiraToken\n`, "values.yaml");
});

Deno.test("ODBC braces, MySQL's history, SQL Server's N'', --requirepass", async () => {
  await redactsValue(`cs = "DRIVER={ODBC Driver 18};SERVER=db;UID=sa;PWD={${PW}}"\n`, PW, "a.py");
  await redactsValue(`url=jdbc:sqlserver://db;user=sa;password={${PW}}\n`, PW, "db.properties");
  await kept(`dsn = "SERVER=db;UID=sa;PWD={password}"\n`, "a.py");
  await kept(`dsn = f"UID={user};PWD={pw}"\n`, "a.py");
  await redactsValue(
    `CREATE\\040USER\\040'a'@'%'\\040IDENTIFIED\\040BY\\040'${PW}';\n`,
    PW,
    ".mysql_history",
  );
  await redactsValue(
    `CREATE LOGIN app WITH PASSWORD = N'${PW}', CHECK_POLICY = OFF;\n`,
    PW,
    "a.sql",
  );
  await redactsValue(`command: redis-server --requirepass ${PW}\n`, PW, "compose.yml");
  await redactsValue(`command: ["redis-server", "--requirepass", "${PW}"]\n`, PW, "compose.yml");
  await kept(`command: redis-server --requirepass "\${REDIS_PASSWORD}"\n`, "compose.yml");
});

Deno.test("five providers' prefixes", async () => {
  const run = "Xk3v9Q2m8X1w7Z4r6T0y5U8i2O4p6A1s3D5f7G9h2J4k6L8z1X3c5V7b9N2m4Q6w8E0r";
  const tokens = [
    "napi_" + run.toLowerCase().slice(0, 64),
    "y0_" + run.slice(0, 55),
    "re_" + run.slice(0, 8) + "_" + run.slice(8, 32),
    "patAb3Cd5Ef7Gh9Ij." + "0123456789abcdef".repeat(4),
    "Ab3Cd5Ef7Gh9Ij.atlasv1." + run.slice(0, 64),
  ];
  for (const t of tokens) await redactsValue(`client = Client("${t}")\n`, t, "a.py");
  await kept(`m = re_compile_pattern_with_flags(x)\n`, "a.py");
  await kept(`const re_Xk3v9Q2m = 1;\n`, "a.js");
});

Deno.test("YAML's !!str, fastlane's basic authorization, .yarnrc, a NoEcho parameter's Default", async () => {
  await redactsValue(`password: !!str ${WORDS}\n`, WORDS, "secrets.yml");
  await redactsValue(`db_password: !!str ${PW}\n`, PW, "secrets.yml");
  const basic = btoa(`ci:${PW}`);
  await redactsValue(`git_basic_authorization("${basic}")\n`, basic, "fastlane/Matchfile");
  const uuid = "5f1c2a9e-8b3d-4e7f-9a6c-1d2e3f4a5b6c";
  await redactsValue(`"//registry.yarnpkg.com/:_authToken" "${uuid}"\n`, uuid, ".yarnrc");
  const cfn = (v: string) =>
    `Parameters:\n  DBPassword:\n    Type: String\n    NoEcho: true\n    Default: ${v}\n`;
  await redactsValue(cfn(WORDS), WORDS, "template.yaml");
  await redactsValue(cfn(`"${PW}"`), PW, "template.yaml");
  await kept(`password: !!str changeme\n`, "secrets.yml");
  await kept(
    `"registry" "https://registry.yarnpkg.com"\n"lastUpdateCheck" 1700000000000\n`,
    ".yarnrc",
  );
  await kept(
    `  Env:\n    Type: String\n    NoEcho: false\n    Default: ProductionStage\n`,
    "t.yaml",
  );
  await kept(`  Secret:\n    Type: String\n    NoEcho: true\n    Default: ""\n`, "t.yaml");
});

Deno.test("a token as a git URL's user, no password", async () => {
  const hex40 = "0123456789abcdef".repeat(3).slice(0, 40);
  await redactsValue(
    `RUN git clone https://${hex40}@github.com/org/app.git\n`,
    hex40,
    "Dockerfile",
  );
  await redactsValue(`url = https://${KEY}@git.corp.example/team/app\n`, KEY, ".gitmodules");
  await kept(
    `dsn: "https://${"0123456789abcdef".repeat(2)}@o450123.ingest.sentry.io/5501234"\n`,
    "a.yml",
  );
  await kept(`git clone https://deploy-bot-for-ci-builds@github.com/org/app.git\n`, "a.sh");
});
