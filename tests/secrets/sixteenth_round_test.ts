// The sixteenth leak hunt: secrets that follow a word by position (`::add-mask::`, `ngrok
// authtoken`, `wpa_passphrase`, `db2 connect … using`, Oracle's `exp user/pass@db`, an `expect`'s
// `send`), one-argument `auth` calls, tools' own options (SNMP's `-c`, `-A`, `-X`, `racadm -p`,
// `dsadd -pwd`, `ktpass -pass`, `x11vnc -passwd`, HTTPie's `-a`, `net rpc -U`, FreeRDP's `/p:`,
// WMIC's `/password:`), config formats' answers (preseed, `reg add … /d`, fetchmail, Sentinel,
// HAProxy's `stats auth`, cloud-init's `chpasswd` list, Nix's `.psk`), and generated values under
// names with no secret word (`pepper`, `signer`, `salt`); and the look-alikes that stay.
import { kept, redactsValue } from "./_redacts.ts";

const PW = "Tr0ub4dor3x!K9";
const TOKEN = "2xyLVABEdcCcOLz4Ixk3onbpSoM_5ni1YCBhsfcUEdRHITZGz";
const HEX = "4dac1e76562939ea333df3c6d3652ee2d1aa7ca56f55c650cb9a37196c72c0cd";

Deno.test("a secret after the word that announces it", async () => {
  const ci = ".github/workflows/ci.yml";
  await redactsValue(`      - run: echo "::add-mask::${TOKEN}"\n`, TOKEN, ci);
  await redactsValue(`echo ::add-mask::${PW}\n`, PW, "mask.sh");
  await kept(`      - run: echo "::add-mask::\${{ steps.token.outputs.value }}"\n`, ci);
  await kept(`      - run: echo "::add-mask::$TOKEN"\n`, ci);
  await redactsValue(`ngrok config add-authtoken ${TOKEN}\n`, TOKEN, "tunnel.sh");
  await redactsValue(`ngrok authtoken ${TOKEN}\n`, TOKEN, "tunnel.sh");
  await kept(`ngrok config add-authtoken $NGROK_AUTHTOKEN\n`, "tunnel.sh");
  await redactsValue(`wpa_passphrase HomeNet ${PW} >> /etc/wpa.conf\n`, PW, "wifi.sh");
  await redactsValue(`wpa_passphrase "Home Net" '${PW}'\n`, PW, "wifi.sh");
  await kept(`wpa_passphrase "$SSID" < /run/psk\n`, "wifi.sh");
  await redactsValue(`db2 connect to SAMPLE user db2inst1 using ${PW}\n`, PW, "db2.sh");
  await redactsValue(`db2 "CONNECT TO sample USER db2inst1 USING ${PW}"\n`, PW, "db2.sh");
  await kept(`db2 connect to SAMPLE\n`, "db2.sh");
  await redactsValue(`exp system/${PW}@ORCL file=full.dmp full=y\n`, PW, "export.sh");
  await redactsValue(`impdp scott/${PW}@pdb1 directory=dp dumpfile=x.dmp\n`, PW, "import.sh");
  await kept(`exp system/$ORACLE_PW@ORCL file=full.dmp\n`, "export.sh");
  await redactsValue(`expect "password:"\nsend "${PW}\\r"\n`, PW, "login.exp");
  await redactsValue(`expect "*assword*"\nsend -- "${PW}\\r"\n`, PW, "login.exp");
  await redactsValue(`expect -re "Password: ?" { send "${PW}\\r" }\n`, PW, "login.exp");
  await kept(`expect "*assword*"\nsend "$env(PASS)\\r"\n`, "login.exp");
  await kept(`expect "$ "\nsend "uptime\\r"\n`, "login.exp");
});

Deno.test("one-argument auth calls and calls that bind with a password", async () => {
  await redactsValue(`local ok, err = red:auth("${PW}")\n`, PW, "lua/cache.lua");
  await redactsValue(`await client.auth('${PW}');\n`, PW, "src/redis.js");
  await redactsValue(`$redis->auth("${PW}");\n`, PW, "cache.php");
  await kept(`local ok, err = red:auth(password)\n`, "lua/cache.lua");
  await kept(`await client.auth(config.redisPassword);\n`, "src/client.js");
  await kept(`router.use(auth("admin"));\n`, "src/app.js");
  await redactsValue(`$ok = ldap_bind($ds, 'cn=admin,dc=x', '${PW}');\n`, PW, "auth.php");
  await redactsValue(`ftp_login($conn, 'deploy', '${PW}');\n`, PW, "sync.php");
  await redactsValue(`conn.simple_bind_s("cn=admin,dc=x", "${PW}")\n`, PW, "ldap.py");
  await redactsValue(`keyring.set_password("deploy", "ci", "${PW}")\n`, PW, "creds.py");
  await kept(`user.set_password(form.cleaned_data["password"])\n`, "views.py");
});

Deno.test("tools' own password options", async () => {
  await redactsValue(`snmpwalk -v2c -c ${PW} 10.0.0.1 system\n`, PW, "snmp.sh");
  await redactsValue(`snmpget -v3 -u mon -a SHA -A ${PW} -x AES -X x 10.0.0.1\n`, PW, "snmp.sh");
  await kept(`snmpwalk -v2c -c public 10.0.0.1 system\n`, "snmp.sh");
  await kept(`bash -c ${PW}\n`, "run.sh");
  await redactsValue(`racadm -r 10.0.0.9 -u root -p ${PW} serveraction powercycle\n`, PW);
  await redactsValue(`dsadd user "CN=svc,DC=corp" -pwd ${PW} -mustchpwd no\n`, PW, "u.cmd");
  await kept(`dsadd user "CN=svc,DC=corp" -pwd * -mustchpwd yes\n`, "u.cmd");
  await redactsValue(`ktpass -princ HTTP/web@CORP -mapuser svc -pass ${PW} -out w.keytab\n`, PW);
  await redactsValue(`x11vnc -display :0 -passwd ${PW} -forever\n`, PW, "vnc.sh");
  await redactsValue(`http -a admin:${PW} POST https://api.example.com/items\n`, PW, "api.sh");
  await kept(`http -a admin POST https://api.example.com/items\n`, "api.sh");
  await kept(`tar -a ${PW}.tar.gz src\n`, "pack.sh");
  await redactsValue(`net rpc password bob -U admin%${PW} -S dc01\n`, PW, "samba.sh");
  await redactsValue(`xfreerdp /v:10.0.0.7 /u:Administrator /p:${PW} /cert:ignore\n`, PW);
  await redactsValue(`wmic /node:10.0.0.4 /user:admin /password:${PW} os get caption\n`, PW);
  await kept(`curl https://example.com/p:${PW}\n`, "get.sh");
});

Deno.test("config formats' answers and lists", async () => {
  await redactsValue(`d-i passwd/root-password password ${PW}\n`, PW, "preseed.cfg");
  await redactsValue(
    `d-i passwd/user-password password ${PW}\nd-i passwd/user-password-again password ${PW}\n`,
    PW,
    "preseed.cfg",
  );
  await kept(`d-i passwd/root-login boolean false\n`, "preseed.cfg");
  await redactsValue(
    `reg add "HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Winlogon" /v DefaultPassword /t REG_SZ /d ${PW} /f\n`,
    PW,
    "logon.cmd",
  );
  await redactsValue(
    `poll imap.example.com protocol IMAP user 'bob' there with password '${PW}' is bob here\n`,
    PW,
    ".fetchmailrc",
  );
  await kept(`Log in with password authentication disabled.\n`, "README.md");
  await redactsValue(`sentinel auth-pass mymaster ${PW}\n`, PW, "sentinel.conf");
  await redactsValue(`    stats auth admin:${PW}\n`, PW, "haproxy.cfg");
  await kept(`    stats uri /haproxy?stats\n`, "haproxy.cfg");
  await redactsValue(
    `#cloud-config\nchpasswd:\n  list: |\n    root:${PW}\n    ops:${PW}\n  expire: false\n`,
    PW,
    "user-data",
  );
  await kept(`#cloud-config\nchpasswd:\n  list: |\n    root:RANDOM\n  expire: false\n`);
  await redactsValue(`echo "${PW}" | vncpasswd -f > ~/.vnc/passwd\n`, PW, "vnc.sh");
  await redactsValue(
    `  networking.wireless.networks."HomeNet".psk = "${PW}";\n`,
    PW,
    "configuration.nix",
  );
  await kept(`  networking.wireless.networks."HomeNet".pskRaw = config.sops.x;\n`, "c.nix");
});

Deno.test("generated values under pepper, signer and salt names", async () => {
  await redactsValue(`  config.pepper = '${HEX}'\n`, HEX, "config/initializers/devise.rb");
  await redactsValue(`config :joken, default_signer: "${TOKEN}"\n`, TOKEN, "config/config.exs");
  await redactsValue(`PASSWORD_SALT = "${HEX}"\n`, HEX, "myapp/settings.py");
  await redactsValue(`export SIGNER_PEPPER=${TOKEN}\n`, TOKEN, ".env.production");
  await kept(`  config.pepper = ENV["DEVISE_PEPPER"]\n`, "config/initializers/devise.rb");
  await kept(`config :joken, default_signer: MyApp.Signer\n`, "config/config.exs");
  await kept(`    signing_salt: "Jx8Tq2Lm"\n`, "lib/my_app_web/endpoint.ex");
  await kept(`  signer: "HS256_default_signer_name"\n`, "config/jwt.yml");
});

Deno.test("a kickstart's rootpw and git's sendemail smtppass", async () => {
  await redactsValue(`rootpw --plaintext ${PW}\n`, PW, "ks.cfg");
  await redactsValue(`lang en_US\nrootpw ${PW}\n`, PW, "ks.cfg");
  await kept(`rootpw --lock\n`, "ks.cfg");
  await kept(`rootpw --iscrypted --lock\n`, "ks.cfg");
  await redactsValue(`[sendemail]\n\tsmtpuser = bob\n\tsmtppass = ${PW}\n`, PW, ".gitconfig");
});

Deno.test("prose's password in a Markdown code span stays", async () => {
  await kept("We want to enter user `foobar` with password `12345`.\n", "docs/MANUAL.md");
});
