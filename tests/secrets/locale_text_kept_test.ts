// A locale file's text under a password's or an API key's name is a translation of a label or a
// message, in any language and script (Jellyfin's `src/strings/*.json`: `"ButtonForgotPassword":
// "パスワードを忘れた"`, `"HeaderApiKey": "API-nøgle"`), not a password; a password with a digit or
// a symbol among such letters is still one.
import { kept, redactsValue } from "./_redacts.ts";

/** Translations as locale files write them (Jellyfin's, Element's), of labels and messages. */
const TEXTS = [
  "パスワードを忘れた",
  "新しいパスワード",
  "パスワードをリセットするためにシステムの管理者に連絡してください。",
  "请联系你的管理员以重置你的密码。",
  "如果唔想設密碼，可以直接漏空。",
  "API-ключ",
  "API-nøgle",
  "API-sleutel",
  "API-avain",
  "APIキーの取消",
  "Certifikatslösenord",
  "Fjalëkalim",
  "Loyniorð",
  "გაპაროლი",
  "கடவுச்சொல்",
  "ลืมรหัสผ่าน",
  "Введите пароль",
  "Κωδικός πρόσβασης",
];
/** The keys and file shapes these are written under. */
const SHAPES: Array<[(k: string, v: string) => string, string]> = [
  [(k, v) => `{\n  "${k}": "${v}"\n}\n`, "src/strings/xx.json"],
  [(k, v) => `xx:\n  ${k}: "${v}"\n`, "config/locales/xx.yml"],
  [(k, v) => `${k}=${v}\n`, "messages_xx.properties"],
];

Deno.test("a locale file's translated label or message under a secret's name stays", async () => {
  for (const key of ["ButtonForgotPassword", "HeaderApiKey", "password", "api_key"]) {
    for (const [shape, path] of SHAPES) {
      for (const text of TEXTS) await kept(shape(key, text), path);
    }
  }
});

Deno.test("a translation's unquoted words after a word of another script stay", async () => {
  await kept("ru:\n  пароль: Введите пароль\n", "config/locales/ru.yml");
  await kept("令牌：访问令牌的有效期为一小时\n", "docs/zh.md");
  await kept("密码：请输入您的密码\n", "docs/zh.md");
});

Deno.test("a password of other scripts' letters with a digit or a symbol is still found", async () => {
  for (const pw of ["Пароль2024!", "密码Zx9!q7", "contraseña#84Kq"]) {
    await redactsValue(`{"password": "${pw}"}\n`, pw, "config.json");
    await redactsValue(`db:\n  password: "${pw}"\n`, pw, "config.yml");
  }
  await redactsValue("пароль: Zx9кот42\n", "Zx9кот42", "config.yml");
});
