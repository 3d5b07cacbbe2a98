// The twenty-third leak hunt: values declared with a type annotation (Python, TypeScript, KCL, CUE,
// Nickel), a list's parameter's `default:`, values that formats write apart (an Xcode scheme's
// environment, PHP's `var_dump`, CMake's `set`, Meson's options, `… set NAME VALUE` commands,
// DuckDB's `CREATE SECRET`, SQLCipher's keys), files of logins (PgBouncer, pppd, davfs2, rsyncd,
// OpenVPN's inline login), daemons' secrets (SNMP, Nagios, Redis ACLs, systemd credentials),
// passwords in protocol sessions, password hashers fed by a pipe, a user's DN then its password,
// tokens folded over a YAML block, glued `…pass` names and app passwords, providers' prefixes;
// and the look-alikes that stay.
import assert from "node:assert/strict";
import { redactText } from "../../pipeline/_scan.ts";
import { kept, redactsValue } from "./_redacts.ts";

const PW = "Qx7vLm2Rk9!Tz";
const TOKEN = "Xk29fjQ02aLpZ8wq7Rt5Ym3nB4";

Deno.test("a value declared with a type annotation", async () => {
  await redactsValue(`class S(BaseSettings):\n    db_password: str = "${PW}"\n`, PW, "app.py");
  await redactsValue(`    api_key: Optional[str] = "${TOKEN}"\n`, TOKEN, "settings.py");
  await redactsValue(`    secret: str | None = '${TOKEN}'\n`, TOKEN, "settings.py");
  await redactsValue(`  private password: string = "${PW}";\n`, PW, "src/a.ts");
  await redactsValue(`schema Db:\n    password: str = "${PW}"\n`, PW, "main.k");
  await redactsValue(`#C: {\n\tapiToken: string | *"${TOKEN}"\n}\n`, TOKEN, "a.cue");
  await redactsValue(`{\n  password | String = "${PW}",\n}\n`, PW, "a.ncl");
});

Deno.test("a typed annotation's reference, empty value or comparison stays", async () => {
  await kept(`    password: str = ""\n    api_key: str = Field(default=None)\n`, "app.py");
  await kept(`    password: SecretStr = os.environ["DB_PASSWORD"]\n`, "app.py");
  await kept(`if token: str == "x": pass\n`, "a.py");
  await kept(`    password: str = "changeme"\n`, "app.py");
  await kept(`#C: {\n\tpasswordFile: string | *"/run/secrets/db"\n}\n`, "a.cue");
});

Deno.test("values that formats and commands write apart from their names", async () => {
  await redactsValue(
    `  - name: registry-password\n    type: string\n    default: "${PW}"\n`,
    PW,
    "pipeline.yaml",
  );
  await redactsValue(
    `<EnvironmentVariable\n   key = "API_SECRET"\n   value = "${TOKEN}"\n   isEnabled = "YES">\n`,
    TOKEN,
    "App.xcscheme",
  );
  await redactsValue(
    `array(1) {\n  ["pass"]=>\n  string(13) "${PW}"\n}\n`,
    PW,
    "storage/logs/debug.log",
  );
  await redactsValue(`set(LICENSE_PASSWORD "${PW}")\n`, PW, "CMakeLists.txt");
  await redactsValue(
    `option('api_token', type : 'string', value : '${TOKEN}')\n`,
    TOKEN,
    "meson_options.txt",
  );
  await redactsValue(`dotnet user-secrets set "Smtp:Password" "${PW}"\n`, PW, "setup.md");
  await redactsValue(
    `CREATE SECRET s (\n    TYPE S3,\n    SECRET '${TOKEN}',\n    REGION 'eu-west-1'\n);\n`,
    TOKEN,
    "load.sql",
  );
  await redactsValue(`db.execute("PRAGMA key = '${PW}'")\n`, PW, "store.py");
  await redactsValue(`ATTACH DATABASE 'e.db' AS e KEY '${PW}';\n`, PW, "a.sql");
});

Deno.test("a parameter's reference, a scheme's plain variable, a CMake path stay", async () => {
  await kept(
    `  - name: registry-password\n    default: $(params.fallback)\n`,
    "pipeline.yaml",
  );
  await kept(`<EnvironmentVariable key = "OS_ACTIVITY_MODE" value = "disable">\n`, "A.xcscheme");
  await kept(`set(CMAKE_CXX_STANDARD 17)\nset(SOURCES main.cpp util.cpp)\n`, "CMakeLists.txt");
  await kept(`npm config set registry https://registry.npmjs.org/\n`, "README.md");
  await kept(`CREATE SECRET (TYPE S3, PROVIDER credential_chain);\n`, "a.sql");
  await kept(`PRAGMA key = :passphrase;\nPRAGMA journal_mode = WAL;\n`, "a.sql");
});

Deno.test("files of logins, daemons' secrets, sessions and pipes into hashers", async () => {
  await redactsValue(`"app" "${PW}"\n`, PW, "pgbouncer/userlist.txt");
  await redactsValue(`# client server secret IP\nbob * "${PW}" *\n`, PW, "ppp/chap-secrets");
  await redactsValue(`https://dav.example.com/dav bob ${PW}\n`, PW, "davfs2/secrets");
  await redactsValue(`backup:${PW}\n`, PW, "rsyncd.secrets");
  await redactsValue(`<auth-user-pass>\nbob\n${PW}\n</auth-user-pass>\n`, PW, "c.ovpn");
  await redactsValue(`createUser mon SHA "${PW}" AES\n`, PW, "snmpd.conf");
  await redactsValue(`rocommunity ${TOKEN} 10.0.0.0/8\n`, TOKEN, "snmpd.conf");
  await redactsValue(`$USER1$=/usr/lib/nagios\n$USER3$=${PW}\n`, PW, "resource.cfg");
  await redactsValue(`user worker on >${PW} ~jobs:* +@all\n`, PW, "users.acl");
  await redactsValue(`redis-cli ACL SETUSER app on >${PW} +@read\n`, PW, "setup.sh");
  await redactsValue(`[Service]\nSetCredential=db:${PW}\n`, PW, "app.service");
  await redactsValue(`--> USER deploy\n331 Password required\n--> PASS ${PW}\n`, PW, "ftp.log");
  await redactsValue(`write(3, "PASS ${PW}\\r\\n", 20) = 20\n`, PW, "strace.out");
  await redactsValue(`C: a001 LOGIN bob "${PW}"\n`, PW, "imap_debug.txt");
  await redactsValue(`echo '${PW}' | mkpasswd -m sha-512 -s\n`, PW, "setup.sh");
  await redactsValue(`echo "${PW}" | openssl passwd -6 -stdin\n`, PW, "setup.sh");
});

Deno.test("public communities, paths, a test run's PASS and SQL's LOGIN stay", async () => {
  await kept(`rocommunity public localhost\n`, "snmpd.conf");
  await kept(`$USER1$=/usr/lib/nagios/plugins\n`, "resource.cfg");
  await kept(`PASS tests/test_auth.py::test_login\nPASS src/a.test.ts\n`, "ci.log");
  await kept(`--- PASS: TestLogin (0.00s)\n`, "test.log");
  await kept(`USER root\nPASS tests/auth/login_test.go\n`, "ci.log");
  await kept(`ALTER LOGIN sa WITH DEFAULT_DATABASE = app;\n`, "a.sql");
  await kept(`user default on nopass ~* +@all\n`, "users.acl");
  // (what the mirrors' audit found: redis' tests give a user its own name, or a word of a password)
  await kept(`user alice on allcommands allkeys &* >alice\n`, "tests/assets/user.acl");
  await kept(`r ACL setuser foo >defaultpwd on ~* &* +@all\n`, "tests/unit/acl.tcl");
  await kept(`auth-user-pass /etc/openvpn/auth.txt\n`, "client.ovpn");
});

Deno.test("binds, folded tokens, glued names, app passwords and providers' prefixes", async () => {
  await redactsValue(
    `conn = Connection(server, "uid=sync,ou=svc,dc=corp", "${PW}", auto_bind=True)\n`,
    PW,
    "sync.py",
  );
  const jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhYmMiLCJpYXQiOjE3MDAwMDAwMDB9." +
    "Xk29fjQ02aLpZ8wq7Rt5Ym3nB4Xk29fjQ02aLpZ8w";
  const folded = await redactText(
    `service_token: >-\n  ${jwt.slice(0, 40)}\n  ${jwt.slice(40)}\n`,
    "config.yml",
  );
  // (its lines are one wrapped JWT since rules 46: one redaction over both, as a `\` continuation's)
  assert.equal(folded.text, "service_token: >-\n  [REDACTED:jwt]\n  [REDACTED:jwt]\n");
  await redactsValue(
    `[sendemail]\n\tsmtppass = xobysabbwqbfwozk\n`,
    "xobysabbwqbfwozk",
    ".gitconfig",
  );
  await redactsValue(
    `EMAIL_HOST_PASSWORD = 'vkrq tzpm hwxa ydlo'\n`,
    "vkrq tzpm hwxa ydlo",
    "s.py",
  );
  const telegram = "8415165287:AAlVMNo4ggZsbKN4K-hKc9RuHwdcqx5Bkh_";
  await redactsValue(`curl "https://api.telegram.org/bot${telegram}/getMe"\n`, telegram, "a.sh");
  const nuget = "oy2" + "k3m9q2x8w7v6b5n4a1s0d9f8g7h6j5k4l3z2x1c0v9b";
  await redactsValue(`dotnet nuget push a.nupkg -k ${nuget}\n`, nuget, "publish.sh");
  const telnyx = "KEY0" + "1A2B3C4D5E6F708192A3B4C5D6E7F80" + "_" + "Ab3dEf5hIj7lMn9pQr1tUv";
  await redactsValue(`Telnyx("${telnyx}")\n`, telnyx, "sms.ts");
  const braintree = "access_token$production$k3m9q2x8w7v6b5n4$" +
    "4d1f0c9e8b7a6f5e4d3c2b1a0f9e8d7c";
  await redactsValue(`BT = "${braintree}"\n`, braintree, "gateway.py");
  const ld = "sdk-3580b286-3ca4-46a3-89ba-b09b5ad06c74";
  await redactsValue(`ld.MakeClient("${ld}", 5*time.Second)\n`, ld, "flags.go");
  const pfx = "MIIKcQIBAzCCCjcGCSqGSIb3DQEHAaCC" + "Xk29fjQ02aLpZ8wq7Rt5Ym3nB4".repeat(3);
  await redactsValue(`{"Certificate": {"Base64": "${pfx}"}}\n`, pfx, "appsettings.json");
});

Deno.test("a list of DNs, a public key folded, encrypted settings and stand-ins stay", async () => {
  await kept(`ADMINS = ["cn=a,dc=x,dc=y", "cn=b,dc=x,dc=y"]\n`, "a.py");
  await kept(
    `public_key: |\n  MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEXk29fjQ02aLpZ8wq7Rt5Ym3nB4\n  Xk29fjQ02aLpZ8wq7Rt5Ym3nB4Xk29fjQ02aLpZ8wq7Rt5Ym3nB4Xk29fjQ0\n`,
    "values.yaml",
  );
  await kept(
    `{"hostRules": [{"encrypted": {"token": "wcFMA/xDeSfz${
      "Xk29fjQ02aLpZ8wq7Rt5Ym3nB4".repeat(5)
    }"}}]}\n`,
    "renovate.json",
  );
  await kept(`EMAIL_HOST_PASSWORD = 'abcd efgh ijkl mnop'\n`, "settings.py");
  await kept(`[sendemail]\n\tsmtppass = changeme\n`, ".gitconfig");
  await kept(`lowpass = butterworth\n`, "filter.ini");
  await kept(`Install the sdk-3580b286 build.\n`, "README.md");
});
