// The twenty-ninth leak hunt, by class: a Django `SECRET_KEY` as `get_random_secret_key()` writes
// it (50 of `a-z0-9!@#$%^&*(-_=+)`), without the `django-insecure-` prefix that older projects and
// `.env` files lack. Its marks spell a reference's opener by chance (`%(`, `$(`, a leading `$`:
// about one key in seven, read as `%(name)s` or `$VAR`), its `(` and `)` read as a call's when
// unquoted (most keys in a `.env`), a `))` ended an unquoted value, and a quoted value that starts
// with `=` was passed over (read as `==`). The keys are drawn here at test time. And two kept
// values that were redacted: django-environ's `env("SECRET_KEY", default=None)`, a CJK message.
import assert from "node:assert/strict";
import { redactText } from "../../pipeline/_scan.ts";
import { prng } from "../_helpers.ts";
import { kept, redactsValue } from "./_redacts.ts";

const ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789!@#$%^&*(-_=+)";

function djangoKey(random: () => number, head = ""): string {
  let key = head;
  while (key.length < 50) key += ALPHABET[Math.floor(random() * ALPHABET.length)];
  return key;
}

/** The places a Django key is kept in, each with its file's path. */
const PLACES: Array<[string, (key: string) => string]> = [
  ["mysite/settings.py", (k) => `SECRET_KEY = '${k}'\n`],
  ["mysite/settings.py", (k) => `SECRET_KEY = "${k}"\n`],
  ["mysite/settings.py", (k) => `SECRET_KEY = os.environ.get("SECRET_KEY", "${k}")\n`],
  [".env", (k) => `DJANGO_SECRET_KEY=${k}\n`],
  [".env", (k) => `DJANGO_SECRET_KEY='${k}'\n`],
  ["config.yml", (k) => `secret_key: "${k}"\n`],
];

Deno.test("a Django key without its insecure prefix is redacted whatever its marks spell", async () => {
  const random = prng(29);
  // the classes each drawn key is made to hold, then keys as drawn
  const keys = [
    djangoKey(random, "6y%n&a%(44k"), // `%(`: a Python format's reference
    djangoKey(random, "$9%0$u2o0#e"), // a leading `$`: a shell variable
    djangoKey(random, "xti-p#x7**p@27)$(sa"), // `$(`: a command's output
    djangoKey(random, "=7&6k^%xkg=(@"), // a leading `=`: read as `==`
    djangoKey(random, "vlmid6ddbju5ospao$+$xpyw))ic*0^3(6m)&qw4"), // `))`: an unquoted value's end
    ...Array.from({ length: 60 }, () => djangoKey(random)),
  ];
  const leaks: string[] = [];
  for (const key of keys) {
    for (const [path, write] of PLACES) {
      const text = write(key);
      const out = (await redactText(text, path)).text;
      // (a key with 3 or more different marks of `!@#$%^&*()`: nearly every drawn one)
      if (new Set(key.replace(/[^!@#$%^&*()]/g, "")).size < 3) continue;
      if (out.includes(key.slice(10, 22)) || out.includes(key.slice(38))) {
        leaks.push(`${path}: ${text.trim()} -> ${out.trim()}`);
      }
    }
  }
  assert.deepEqual(leaks, []);
});

Deno.test("a quoted password that starts with = is redacted", async () => {
  await redactsValue(`PASSWORD = "=Qx7vLm2Rk9Tz"\n`, "=Qx7vLm2Rk9Tz", "app.py");
  await redactsValue(`password: '=Qx7vLm2Rk9Tz'\n`, "=Qx7vLm2Rk9Tz", "config.yml");
  await kept(`if password == other_password_9:\n    pass\n`, "app.py");
  await kept(`assert token >= min_length_8\n`, "app.py");
});

Deno.test("references and code beside a password's name stay", async () => {
  await kept(`SECRET_KEY = "%(secret_key)s"\n`, "app.ini");
  await kept(`PASSWORD=$(cat /run/secrets/db_password)\n`, ".env");
  await kept(`DJANGO_SECRET_KEY=\${DJANGO_SECRET_KEY_FROM_VAULT_2024}\n`, ".env");
  await kept(`LOG_FORMAT = "%(asctime)s - %(levelname)s - %(message)s"\n`, "settings.py");
  await kept(`secret_key = get_random_secret_key()\n`, "settings.py");
  // django-environ's read: a keyword argument after the name is no value (`default=None` was
  // redacted on main), `default=` is read past to its value
  await kept(`SECRET_KEY = env("DJANGO_SECRET_KEY", default=None)\n`, "settings.py");
  await kept(`DEBUG = env("DEBUG_TOKEN_CHECK", cast=bool)\n`, "settings.py");
  await redactsValue(
    `SECRET_KEY = env("SECRET_KEY", default="Xk29fjQ02aLpZ8wq7Rt5")\n`,
    "Xk29fjQ02aLpZ8wq7Rt5",
    "settings.py",
  );
});

Deno.test("a message in Chinese with full-width marks under a password's name stays", async () => {
  // (ptt/pttbbs's `include/common.h`, read from Big5: redacted on main)
  await kept(`#define ERR_PASSWD "密碼不對喔！請檢查帳號及密碼大小寫有無輸入錯誤。"\n`, "common.h");
  await kept(`PASSWORD_HINT = "請輸入6位數字密碼（至少六位）"\n`, "strings.py");
  await redactsValue(`password = "密碼Qx7vLm2Rk9"\n`, "密碼Qx7vLm2Rk9", "app.py");
});

Deno.test("a form's control named as itself under a key's name stays", async () => {
  // (ShareX's `UploadersConfigForm.Designer.cs`: six controls' names redacted on main)
  const designer = [
    `            txtAmazonS3SecretKey.Name = "txtAmazonS3SecretKey";`,
    `            btnAmazonS3AccessKeyOpen.Name = "btnAmazonS3AccessKeyOpen";`,
    "",
  ].join("\n");
  await kept(designer, "Forms/UploadersConfigForm.Designer.cs");
  await redactsValue(
    `            txtSecretKey.Text = "Xk29fjQ02aLpZ8wq7Rt5Ym3n";\n`,
    "Xk29fjQ02aLpZ8wq7Rt5Ym3n",
    "Forms/Form1.Designer.cs",
  );
});
