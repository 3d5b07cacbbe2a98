// The fourteenth leak hunt: the thirteenth's leftovers. Windows' `cmdkey /pass:` and
// `schtasks /RP`, `cargo login`, a conda channel's `/t/TOKEN/`, ipsec.secrets, Consul's gossip
// key, Bitcoin WIF keys, HAR's and `.http` files' cookies, Rust's `basic_auth`, Ruby's
// `Net::SMTP` `start`, Python bytes with escapes, a `%3D` inside a query token, `net user` and
// `mnemonic` in any case; and the values beside them that stay.
import { kept, redactsValue } from "./_redacts.ts";

const PW = "Tr0ub4dor3x!K9";
const B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

Deno.test("Windows' cmdkey /pass:, schtasks /RP and net user in any case", async () => {
  await redactsValue(`cmdkey /add:fs01 /user:CORP\\svc /pass:${PW}\n`, PW, "map.cmd");
  await redactsValue(`CMDKEY /generic:TERMSRV/app /user:"svc" /pass:"${PW}"\n`, PW, "map.cmd");
  await redactsValue(`schtasks /Create /TN B /TR b.cmd /SC DAILY /RU svc /RP ${PW}\n`, PW, "t.cmd");
  await redactsValue(`schtasks /create /tn B /tr b.cmd /ru svc /rp "${PW}" /f\n`, PW, "t.ps1");
  await redactsValue(`NET USER backup ${PW} /ADD\n`, PW, "setup.bat");
  await redactsValue(`Net User "svc_sql" "${PW}" /add\n`, PW, "setup.ps1");
  await kept(`cmdkey /add:server01 /user:mikedan /pass\n`, "map.cmd");
  await kept(`cmdkey /add:%HOST% /user:%USER% /pass:%PASSWORD%\n`, "map.cmd");
  await kept(`schtasks /create /tn Job /tr job.cmd /ru CORP\\svc /rp *\n`, "t.cmd");
  await kept(`NET USER %USERNAME% /DOMAIN\n`, "audit.bat");
});

Deno.test("cargo login's token and a conda channel's /t/ token", async () => {
  const cio = "cioAbCdEfGhIjKlMnOpQrStUvWxYz012345";
  await redactsValue(`cargo login ${cio}\n`, cio, "release.sh");
  await redactsValue(`      - run: cargo login --registry acme ${cio}\n`, cio, "ci.yml");
  const conda = "ac-6f0e2b9d7c1a4e3f8b5d2c7a9e1f4b3d";
  await redactsValue(`  - https://conda.anaconda.org/t/${conda}/acme\n`, conda, ".condarc");
  await redactsValue(
    `conda config --add channels https://repo.anaconda.cloud/t/${conda}/x\n`,
    conda,
  );
  await kept(`cargo login "$CARGO_REGISTRY_TOKEN"\n`, "publish.sh");
  await kept(`  - https://conda.anaconda.org/t/<TOKEN>/acme\n`, ".condarc");
  await kept(`See https://discuss.python.org/t/pep-703-making-the-gil-optional-3x1/30319\n`);
});

Deno.test("ipsec.secrets' PSK, EAP and XAUTH, and Consul's gossip key", async () => {
  await redactsValue(`: PSK "${PW}"\n`, PW, "ipsec.secrets");
  await redactsValue(`carol@strongswan.org : EAP "${PW}"\n`, PW, "ipsec.secrets");
  await redactsValue(
    `@moon @sun : PSK 0sVGhpc0lzQVNlY3JldEtleTEyMw==\n`,
    "0sVGhpc0lzQVNlY3JldEtleTEyMw==",
  );
  await redactsValue(`john : XAUTH "${PW}"\n`, PW, "ipsec.secrets");
  await kept(`: RSA moonKey.pem\n`, "ipsec.secrets");
  await kept(`# : PSK "secret"  (see ipsec.secrets(5))\n`, "ipsec.secrets");
  const gossip = "pUqJrVyVRj5jsiYEkM/tFQYfWyJIv4s3XkvDwy7Cu5s=";
  await redactsValue(`datacenter = "dc1"\nencrypt = "${gossip}"\n`, gossip, "consul.hcl");
  await redactsValue(`{\n  "encrypt": "${gossip}",\n  "server": true\n}\n`, gossip, "consul.json");
  await redactsValue(
    `consul agent -server -encrypt=${gossip} -data-dir=/opt/consul\n`,
    gossip,
    "a.sh",
  );
  await kept(`encrypt = "{{ consul_gossip_key }}"\nencrypt_verify_incoming = true\n`, "c.hcl");
});

Deno.test("a Bitcoin key in wallet import format under a WIF name", async () => {
  const compressed = "L" + B58.repeat(2).slice(3, 54);
  const uncompressed = "5K" + B58.slice(7, 56);
  await redactsValue(`WIF = "${compressed}"\n`, compressed, "wallet.py");
  await redactsValue(`wif: ${uncompressed}\n`, uncompressed, "keys.yaml");
  const address = "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2";
  await kept(`BTC: ${address}\n`, "donate.md");
  await kept(`WIF_VERSION = 0x80\n`, "wallet.py");
});

Deno.test("a HAR's cookies and an .http file's Cookie header", async () => {
  const sid = "kj9a9j0rprot7ygn754j0a0qak1tlur6";
  await redactsValue(
    `          {\n            "name": "Cookie",\n            "value": "_ga=GA1.2.1; sessionid=${sid}"\n          },\n`,
    sid,
    "trace.har",
  );
  await redactsValue(
    `"cookies": [{"name": "session", "value": "${sid}", "httpOnly": true}]\n`,
    sid,
    "trace.har",
  );
  await redactsValue(
    `GET https://app.acme.com/me\nAccept: application/json\nCookie: theme=dark; session=${sid}\n`,
    sid,
    "api.http",
  );
  await kept(`{"name": "Accept", "value": "text/html,application/xhtml+xml;q=0.9"}\n`, "t.har");
  await kept(`{"name": "Cookie", "value": "theme=dark"}\n`, "t.har");
  await kept(`"headers": [{"name": "x-request-id", "value": "${sid}"}], "cookies": []\n`, "t.har");
});

Deno.test("Rust's basic_auth and Ruby's Net::SMTP start take a password by position", async () => {
  await redactsValue(`let r = c.get(u).basic_auth("api", Some("${PW}")).send()?;\n`, PW, "m.rs");
  await redactsValue(`    .basic_auth(&self.username, Some("${PW}"))\n`, PW, "client.rs");
  await redactsValue(
    `    .basic_auth(\n        "deploy",\n        Some("${PW}"),\n    );\n`,
    PW,
    "m.rs",
  );
  await redactsValue(
    `Net::SMTP.start("smtp.acme.com", 587, "acme.com", "alerts", "${PW}", :plain) do |smtp|\n`,
    PW,
    "mailer.rb",
  );
  await redactsValue(`smtp.start('acme.com', 'alerts@acme.com', '${PW}', :login)\n`, PW, "m.rb");
  await redactsValue(
    `Net::SMTP.new('smtp.gmail.com', 587).start('gmail.com', 'me', "${PW}", :login) { |s| }\n`,
    PW,
    "m.rb",
  );
  await kept(`    .basic_auth(&self.username, Some(&self.password))\n`, "client.rs");
  await kept(
    `Net::SMTP.start(host, 587, 'acme.com', user, ENV['SMTP_PASSWORD'], :login)\n`,
    "m.rb",
  );
  await kept(`Worker.new(pool).start('a', 'main', 'x-1234567', :login)\n`, "w.rb");
});

Deno.test("Python bytes with escapes under a secret's name, a %3D inside a query token", async () => {
  const flask = `_5#y2L\\"F4Q8z\\n\\xec]/`;
  await redactsValue(`app.secret_key = b'${flask}'\n`, flask, "app.py");
  const raw = `\\x8f\\x1d5AJWkX\\xe2\\x919aKXYcif\\x00`;
  await redactsValue(`SECRET_KEY = b"${raw}"\n`, raw, "settings.py");
  await kept(`PNG_SIGNATURE = b"\\x89PNG\\r\\n\\x1a\\n"\n`, "png.py");
  await kept(`key_prefix = b"\\x00\\x01"\n`, "codec.py");
  const token = "TWGNmYgV81xVPcCTB7mAHjr6_VjntJVRX-l_y9Rs8gu%3D";
  await redactsValue(
    `curl 'https://chat.googleapis.com/v1/spaces/A/messages?token=${token}'\n`,
    token,
  );
  await kept(`https://www.google.com/search?q=a%3Db+c%3Dd\n`, "search.md");
});

Deno.test("recovery words under mnemonic in any case or a seed phrase's name", async () => {
  const words = "legal winner thank year wave sausage worth useful legal winner thank yellow";
  await redactsValue(`      accounts: { mnemonic: "${words}" },\n`, words, "hardhat.config.ts");
  await redactsValue(`Mnemonic = "${words}"\n`, words, "wallet.cs");
  await redactsValue(`seed_phrase = '${words}'\n`, words, "wallet.py");
  await redactsValue(`RECOVERY_PHRASE=${words}\n`, words, ".env");
  await kept(`accounts: { mnemonic: process.env.MNEMONIC },\n`, "hardhat.config.js");
  const junk = "test test test test test test test test test test test junk";
  await kept(`accounts: { mnemonic: "${junk}" },\n`, "hardhat.config.js");
});
