// The seventeenth leak hunt: a password of letters alone declared as a constant of code (PHP's
// typed class constants, C#, Java, TypeScript, Kotlin, Rust), and the look-alikes that stay.
import { kept, redactsValue } from "./_redacts.ts";

const W = "KoelIsCool";

Deno.test("a password of letters alone declared as a constant", async () => {
  const php = "app/Models/User.php";
  await redactsValue(
    `class User {\n    public const string FIRST_ADMIN_PASSWORD = '${W}';\n}\n`,
    W,
    php,
  );
  await redactsValue(`class User {\n    public const FIRST_ADMIN_PASSWORD = '${W}';\n}\n`, W, php);
  await redactsValue(
    `class U {\n    final public const string ADMIN_PASSWORD = '${W}';\n}\n`,
    W,
    php,
  );
  await redactsValue(`class U {\n    private const ADMIN_PASSWORD = '${W}'; // seed\n}\n`, W, php);
  await redactsValue(`<?php\n$adminPassword = '${W}';\n`, W, "seed.php");
  await redactsValue(
    `class A {\n  static readonly ADMIN_PASSWORD: string = '${W}';\n}\n`,
    W,
    "a.ts",
  );
  await redactsValue(`export const ADMIN_PASSWORD = "${W}";\n`, W, "a.ts");
  await redactsValue(`class A {\n  private const string AdminPassword = "${W}";\n}\n`, W, "A.cs");
  await redactsValue(`class A {\n  static final String PASSWORD = "${W}";\n}\n`, W, "A.java");
  await redactsValue(`const val ADMIN_PASSWORD: String = "${W}"\n`, W, "A.kt");
  await redactsValue(`pub const ADMIN_PASSWORD: &str = "${W}";\n`, W, "a.rs");
});

Deno.test("declarations under a password name that hold no password stay", async () => {
  await kept(`class U {\n    public const PASSWORD_FIELD = 'password';\n}\n`, "U.php");
  await kept(`const password = "required";\n`, "a.ts");
  await kept(`  readonly password: string = "hidden";\n`, "a.ts");
  await kept(`const PASSWORD = "Password";\n`, "a.ts");
  await kept(`  static final String PASSWORD = "changeme";\n`, "A.java");
  await kept(`const password = getPassword();\n`, "a.ts");
  await kept(`const password = "swordfish" + suffix;\n`, "a.ts");
  await kept(`if (password === "swordfish") {}\n`, "a.ts");
});

const PW = "Tr0ub4dor3x!K9";

Deno.test("Postfix's sasl_passwd map, by its name", async () => {
  const map = "etc/postfix/sasl_passwd";
  await redactsValue(`[smtp.gmail.com]:587 alerts@example.com:${PW}\n`, PW, map);
  await redactsValue(`# relay\n@example.com  relay-user:${PW}\r\n`, PW, map);
  await kept(`# [smtp.example.com]:587 user:password\n`, map);
  await kept(`[smtp.example.com]:587 user:\${SMTP_PASSWORD}\n`, map);
  await kept(`[smtp.gmail.com]:587 alerts@example.com:${"x".repeat(3)}\n`, "notes.txt");
});

Deno.test("an ftp heredoc's user line", async () => {
  const script = `ftp -n ftp.example.com <<EOF\nuser deploy ${PW}\nbinary\nput a.tar\nbye\nEOF\n`;
  await redactsValue(script, PW, "upload.sh");
  await redactsValue(`ftp -inv $HOST << END\nopen $HOST\nuser "deploy" ${PW}\nEND\n`, PW, "a.sh");
  await kept(`ftp -n host <<EOF\nuser deploy $FTP_PASS\nbye\nEOF\n`, "upload.sh");
  await kept(`ftp -n host <<EOF\nbye\nEOF\nuser deploy ${PW.slice(0, 2)}\n`, "upload.sh");
  await kept(`ftp host\nuser deploy Tr0ub4dor3x\n`, "notes.txt");
});

Deno.test("wpa_cli's psk and iwconfig's WEP key", async () => {
  await redactsValue(`wpa_cli -i wlan0 set_network 0 psk '"${PW}"'\n`, PW, "wifi.sh");
  await redactsValue(`wpa_cli set_network 1 psk \\"${PW}\\"\n`, PW, "wifi.sh");
  const hex = "4dac1e76562939ea333df3c6d3652ee2d1aa7ca56f55c650cb9a37196c72c0cd";
  await redactsValue(`wpa_cli -i wlan0 set_network 0 psk ${hex}\n`, hex, "wifi.sh");
  await kept(`wpa_cli -i wlan0 set_network 0 psk "$PSK"\n`, "wifi.sh");
  await kept(`wpa_cli -i wlan0 set_network 0 key_mgmt WPA-PSK\n`, "wifi.sh");
  await redactsValue(`iwconfig wlan0 essid HomeNet key s:Kx9qLmT2vPzRa\n`, "Kx9qLmT2vPzRa", "w.sh");
  await redactsValue(`iwconfig eth1 key [2] 1a2b-3c4d-5e\n`, "1a2b-3c4d-5e", "wifi.sh");
  await kept(`iwconfig wlan0 key off\n`, "wifi.sh");
  await kept(`iwconfig wlan0 key restricted\n`, "wifi.sh");
  await kept(`iwconfig wlan0 key s:$WEP_KEY\n`, "wifi.sh");
});
