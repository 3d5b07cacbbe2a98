// A secret's value in Python's parentheses (the fifth and sixth outside sweeps left a Django key
// split over literals): `SECRET_KEY = ('…')`, `(` then the literal on the next line, and a long
// key split over literals side by side on the lines after the `(` (Django's `SECRET_KEY`, its
// marks `!@#$%^&*(-_=+)` among the letters). The values are made here at random: no real secret is
// written in this repository.
import assert from "node:assert/strict";
import { redactText } from "../../pipeline/_scan.ts";
import { prng } from "../_helpers.ts";
import { kept } from "./_redacts.ts";

const random = prng(570);
const pick = (chars: string, n: number) =>
  Array.from({ length: n }, () => chars[Math.floor(random() * chars.length)]).join("");
const AN = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
/** Django's `get_random_secret_key()` alphabet. */
const DJANGO = "abcdefghijklmnopqrstuvwxyz0123456789!@#$%^&*(-_=+)";

const FORMS: Array<[string, (name: string, a: string, b: string) => string]> = [
  ["one literal", (n, a, b) => `${n} = ('${a}${b}')\n`],
  ["next line", (n, a, b) => `${n} = (\n    "${a}${b}"\n)\n`],
  ["two literals", (n, a, b) => `${n} = ('${a}'\n              '${b}')\n`],
  ["two on their lines", (n, a, b) => `${n} = (\n    "${a}"\n    "${b}"\n)\n`],
  ["joined by +", (n, a, b) => `    ${n} = ('${a}' +\n        '${b}')\n`],
];

Deno.test("a secret's value in Python's parentheses is redacted, split over literals too", async () => {
  const leaks: string[] = [];
  let tried = 0;
  for (const [how, form] of FORMS) {
    for (const name of ["SECRET_KEY", "API_TOKEN", "DB_PASSWORD", "client_secret"]) {
      for (let k = 0; k < 8; k++) {
        const value = k < 4 ? pick(DJANGO, 50) : pick(AN, 40);
        const cut = 10 + Math.floor(random() * 25);
        const [a, b] = [value.slice(0, cut), value.slice(cut)];
        const out = (await redactText(form(name, a, b), "settings.py")).text;
        tried++;
        if (out.includes(a) || out.includes(b)) leaks.push(`${how}: ${out.trim()}`);
      }
    }
  }
  assert.ok(tried >= 150, `${tried} tried`);
  assert.deepEqual(leaks, []);
});

Deno.test("code and words in parentheses under a secret's name are kept", async () => {
  for (
    const text of [
      `password = (get_password())\n`,
      `token = ('Bearer ' + tok)\n`,
      `SECRET_KEY = (os.environ.get("SECRET_KEY"))\n`,
      `api_key = (\n    settings.API_KEY\n)\n`,
      `password_help = ("Your password must contain at least 8 characters.")\n`,
      `PASSWORD_HASHERS = ('django.contrib.auth.hashers.PBKDF2PasswordHasher',)\n`,
    ]
  ) await kept(text, "settings.py");
});
