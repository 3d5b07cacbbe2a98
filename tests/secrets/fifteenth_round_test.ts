// The fifteenth leak hunt: commands that take a secret by position or by a tool's own option
// (`mc alias set`, `mc config host add`, `rclone config create … pass`, `plink -pw`,
// `mosquitto_pub -P`, `security unlock-keychain -p`, `chpasswd`, `passwd --stdin`, `gpg
// --passphrase`, `ssh-keygen -N`, …), Ruby's `SMTP.start` with other names, Erlang's and
// Clojure's configs; and code that stays: a call's keyword arguments written without blanks.
import { kept, redactsValue } from "./_redacts.ts";

const PW = "Tr0ub4dor3x!K9";
const SECRET = "wJalrXUtnFEMIK7MDENGbPxRfiCY9xQe2Lk4ZpN1";

Deno.test("MinIO's client takes the secret key by position", async () => {
  const url = "https://minio.acme.com:9000";
  await redactsValue(`mc alias set prod ${url} minio-admin ${SECRET}\n`, SECRET, "minio.sh");
  await redactsValue(`mc alias set local http://127.0.0.1:9000 admin '${PW}'\n`, PW, "m.sh");
  await redactsValue(`mc config host add s3 ${url} backup ${SECRET} --api S3v4\n`, SECRET, "m.sh");
  await redactsValue(`  - run: mc alias set s3 ${url} "bob" "${PW}"\n`, PW, "ci.yml");
  await kept(`mc alias set myminio "$MINIO_URL" "$MINIO_ACCESS_KEY" "$MINIO_SECRET_KEY"\n`);
  await kept(`mc alias set myminio https://minio.example.com ACCESS_KEY SECRET_KEY\n`);
  await kept(`mc alias set myminio https://minio.example.com\n`);
});

Deno.test("rclone config create's pass and other tools' own password options", async () => {
  await redactsValue(
    `rclone config create nas webdav url https://nas.example.com user bob pass ${PW}\n`,
    PW,
    "setup.sh",
  );
  await redactsValue(`plink -ssh deploy@10.0.0.5 -pw ${PW} "uptime"\n`, PW, "deploy.bat");
  await redactsValue(`pscp -pw "${PW}" build.tgz deploy@host:/srv\n`, PW, "deploy.bat");
  await redactsValue(`mosquitto_pub -h broker -u sensor -P ${PW} -t temp -m 21\n`, PW, "p.sh");
  await redactsValue(`rabbitmqadmin -u admin -p ${PW} declare queue name=jobs\n`, PW, "q.sh");
  await redactsValue(`cqlsh cassandra 9042 -u cassandra -p ${PW} -f schema.cql\n`, PW, "c.sh");
  await redactsValue(`ipmitool -I lanplus -H 10.0.0.50 -U ADMIN -P ${PW} power status\n`, PW);
  await redactsValue(`security unlock-keychain -p ${PW} build.keychain\n`, PW, "ios.sh");
  await redactsValue(
    `security import dist.p12 -k b.keychain -P "${PW}" -T /usr/bin/codesign\n`,
    PW,
  );
  await redactsValue(
    `xcrun altool --upload-app -f a.ipa -u me@x.io -p abcd-efgh-ijkl-mnop\n`,
    "abcd-efgh-ijkl-mnop",
  );
  await redactsValue(`ssh-keygen -t ed25519 -N '${PW}' -f ~/.ssh/deploy\n`, PW, "keys.sh");
  await redactsValue(`gpg --batch --yes --passphrase '${PW}' -d s.gpg\n`, PW, "decrypt.sh");
  const key =
    "/g03ys0PwOl+MuS4UT3kfHUecmSqDhw462WqSNgJZk2Qk0okkDLYowxvUC8JzPu159xnd9FPqv0LdTL9oxJtB7==";
  await redactsValue(`az storage blob upload --account-name shop --account-key ${key} -f a\n`, key);
  await redactsValue(`apksigner sign --ks release.jks --ks-pass pass:${PW} app.apk\n`, PW);
  await redactsValue(`curl --proxy-user proxy:${PW} -x http://proxy:3128 https://x.io\n`, PW);
  await redactsValue(`lftp -u deploy,${PW} ftp.example.com -e "mirror -R dist /www"\n`, PW);
  await kept(`sort -u a,b -k 2,3 file.txt\n`, "a.sh");
  await kept(`rclone config create remote s3 provider AWS env_auth true\n`, "setup.sh");
  await kept(`security unlock-keychain -p "$KEYCHAIN_PASSWORD" build.keychain\n`, "ios.sh");
  await kept(`ssh-keygen -t ed25519 -N '' -f ~/.ssh/ci\n`, "keys.sh");
  await kept(`$null = ssh-keygen -f generated -N (Get-Random -Maximum 99999)\n`, "New-Key.ps1");
  await kept(`gpg --batch --passphrase-fd 0 -d secrets.gpg\n`, "decrypt.sh");
  await kept(`ls -p /srv && grep -P '^a+$' x.txt\n`, "a.sh");
});

Deno.test("a password piped to chpasswd or passwd --stdin", async () => {
  await redactsValue(`echo "deploy:${PW}" | chpasswd\n`, PW, "provision.sh");
  await redactsValue(`echo '${PW}' | passwd --stdin root\n`, PW, "provision.sh");
  await kept(`echo "$USER_NAME:$USER_PASS" | chpasswd\n`, "provision.sh");
  await kept(`echo "done" | tee log.txt\n`, "provision.sh");
});

Deno.test("Ruby's SMTP start with the user and host in variables", async () => {
  await redactsValue(
    `Net::SMTP.start(smtp_host, 587, helo_domain, smtp_user, '${PW}', :plain) do |smtp|\n`,
    PW,
    "notify.rb",
  );
  await kept(
    `Net::SMTP.start(host, 587, 'acme.com', user, ENV['SMTP_PASSWORD'], :login)\n`,
    "m.rb",
  );
  await redactsValue(
    `server = Net::SMTP.new('smtp.gmail.com', 587)\nserver.enable_starttls\n` +
      `server.start('gmail.com', 'me@gmail.com', '${PW}', :login)\n`,
    PW,
    "notify.rb",
  );
  await redactsValue(
    `require "net/smtp"\nNet::SMTP.new(host, 587).tap do |mailer|\n` +
      `  mailer.start(domain, user, "${PW}", :plain) { |s| s.send_message(m, f, t) }\nend\n`,
    PW,
    "mail.rb",
  );
  await kept(`server.start(domain, user, password, :login)\nworker.start("jobs")\n`, "m.rb");
});

Deno.test("Erlang's and Clojure's configs name a secret before its value", async () => {
  await redactsValue(`[{shop, [{db_host, "db"}, {db_password, "${PW}"}]}].\n`, PW, "sys.config");
  await redactsValue(
    `[{rabbit, [{default_user, <<"admin">>}, {default_pass, <<"${PW}">>}]}].\n`,
    PW,
    "rabbitmq.config",
  );
  await redactsValue(`{:db {:user "shop" :password "${PW}"}}\n`, PW, "resources/config.edn");
  await redactsValue(`{:port 3000\n :jwt-secret "${SECRET}"}\n`, SECRET, "config.edn");
  await redactsValue(
    `  :repositories [["r" {:url "https://r.io" :password "${PW}"}]]\n`,
    PW,
    "project.clj",
  );
  await kept(`[{rabbit, [{loopback_users, [<<"guest">>]}]}].\n`, "rabbitmq.config");
  await kept(`{:db {:password (System/getenv "DB_PASSWORD")}}\n`, "config.edn");
  await kept(`(def token-key :auth-token)\n(get m :password "")\n`, "core.clj");
});

Deno.test("a call's keyword arguments written without blanks are code", async () => {
  await kept(`conn = connect(host=h,user=u,password=pw_var)\n`, "db.py");
  await kept(`conn = connect(user=u,password=pw,host=h)\n`, "db.py");
  await kept(`client = Client(api_key=key,secret=secret_value)\n`, "client.py");
  await kept(`f(password=pw,timeout=t)\n`, "a.py");
  await redactsValue(
    `mount -t cifs -o username=bob,password=${PW},uid=1000 //fs/s /mnt\n`,
    PW,
    "m.sh",
  );
  // written on its own, a value keeps its commas (a password may hold `,name=`)
  await redactsValue(`DB_PASSWORD=Xk9v,aB=3qZ!7w\n`, "Xk9v,aB=3qZ!7w", ".env");
});

Deno.test("a JWT signed with a literal key, and code's keys that stay", async () => {
  const key = "hSgYzpwCOwqnilO7jMA5sfbQoVWgcZfc";
  await redactsValue(`const t = jwt.sign({ id: user.id }, "${key}", { expiresIn: "1h" });\n`, key);
  await redactsValue(`token = jwt.encode(payload, "${key}", algorithm="HS256")\n`, key, "a.py");
  await redactsValue(`\tss, err := token.SignedString([]byte("${key}"))\n`, key, "auth.go");
  await redactsValue(`    .signWith(SignatureAlgorithm.HS512, "${key}")\n`, key, "Jwt.java");
  await kept(`jwt.sign(payload, process.env.JWT_SECRET)\n`, "a.js");
  await kept(`var token = jwt.sign({ foo: 'bar' }, 'shhhhh');\n`, "a.js");
  await kept(`jwt.encode(payload, settings.SECRET_KEY, algorithm="HS256")\n`, "a.py");
  await kept(`ss, err := token.SignedString([]byte(os.Getenv("JWT_SECRET")))\n`, "a.go");
});

Deno.test("Perl's DBI and FTP logins, PowerShell's -AsPlainText first, Erlang's cookie", async () => {
  await redactsValue(
    `my $dbh = DBI->connect("DBI:Pg:dbname=shop", "shop", "${PW}", { RaiseError => 1 });\n`,
    PW,
    "DB.pm",
  );
  await redactsValue(`$ftp->login("deploy", "${PW}") or die;\n`, PW, "upload.pl");
  await redactsValue(
    `$p = ConvertTo-SecureString -AsPlainText "${PW}" -Force\n`,
    PW,
    "reset.ps1",
  );
  await redactsValue(`erl -sname shop -setcookie PFIIFHWYLKEVSNCVKANI\n`, "PFIIFHWYLKEVSNCVKANI");
  await redactsValue(`PFIIFHWYLKEVSNCVKANI`, "PFIIFHWYLKEVSNCVKANI", ".erlang.cookie");
  await redactsValue(`${SECRET}\n`, SECRET, "ansible/.vault_pass");
  await kept(`my $dbh = DBI->connect($dsn, $user, $password, { RaiseError => 1 });\n`, "DB.pm");
  await kept(`$p = ConvertTo-SecureString -AsPlainText $env:PW -Force\n`, "reset.ps1");
  await kept(`erl -sname shop -setcookie $COOKIE\n`, "start.sh");
  await kept(`-name project_name@127.0.0.1\n-setcookie project_name\n`, "erlang.mk");
  await kept(`#!/bin/sh\nexec pass show ansible/vault\n`, ".vault_pass");
  await kept(`vault_password_file = .vault_pass\n`, "ansible.cfg");
});

Deno.test("a webhook's token in its URL's path, and nmcli's Wi-Fi password", async () => {
  const mm = "8akx9r5cm54m858msy4rhhz47k";
  await redactsValue(`curl -d 'payload={}' https://chat.example.com/hooks/${mm}\n`, mm);
  const lark = "9919474b-2cad-f40d-f9c7-b39e8e0ed964";
  await redactsValue(
    `HOOK = "https://open.feishu.cn/open-apis/bot/v2/hook/${lark}"\n`,
    lark,
    "a.py",
  );
  const ifttt = "aoBqTn0N0NHXUOUTyjt_Ry";
  await redactsValue(`post("https://maker.ifttt.com/trigger/door/with/key/${ifttt}")\n`, ifttt);
  await redactsValue(`nmcli dev wifi connect HomeNet password ${PW}\n`, PW, "wifi.sh");
  await kept(`import { useFetch } from "../hooks/useFetchWithRetries2";\n`, "a.ts");
  await kept(`GET https://api.github.com/repos/acme/shop/hooks/123456789\n`);
  await kept(`See https://pre-commit.com/hooks/pre-commit-hooks-end-of-file-fixer.html\n`);
  await kept(`nmcli dev wifi connect HomeNet password "$WIFI_PASSWORD"\n`, "wifi.sh");
});

Deno.test("an SSH2 private key's armor and mysqladmin's -p as an exec list's item", async () => {
  const body = "nRRj3ZKi7UElmvQe/S1DNiT9zb5SVz5+KX4LMxMqB09KUFkfYNCTrtmLM0HOraXKVmrQ89";
  const key = `---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----\nComment: "rsa-key"\n${body}\n` +
    `---- END SSH2 ENCRYPTED PRIVATE KEY ----`;
  await redactsValue(`${key}\n`, key, "keys/id_ssh2");
  await redactsValue(
    `      test: ["CMD", "mysqladmin", "ping", "-uroot", "-p${PW}"]\n`,
    PW,
    "docker-compose.yml",
  );
  await kept(
    `---- BEGIN SSH2 PUBLIC KEY ----\nComment: "x"\n${body}\n---- END SSH2 PUBLIC KEY ----\n`,
    "id.pub",
  );
  await kept(
    `      test: ["CMD", "mysqladmin", "ping", "-uroot", "-p$$MYSQL_ROOT_PASSWORD"]\n`,
    "docker-compose.yml",
  );
});
