// A YAML value on the line after its key: in a block scalar (`password: |`, `>-`) as before, and
// now also as a plain or quoted continuation (`password:` then `  S3cr3t9` below it). A key's
// nested mapping, list or comment below it, and code after a `password:` line, are not values.
import assert from "node:assert/strict";
import { redactSync } from "../../pipeline/_scan.ts";
import { piecesOf } from "./_samples.ts";
import { prng } from "../_helpers.ts";

const random = prng(47);
const ALNUM = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";
const value = (n: number) =>
  "a9" + Array.from({ length: n }, () => ALNUM[Math.floor(random() * ALNUM.length)]).join("");

const PLACES: Array<(v: string) => string> = [
  (v) => `db:\n  password:\n    ${v}\n  user: app\n`,
  (v) => `db:\n  password:\n    "${v}"\n`,
  (v) => `db:\n  password:\n    '${v}'\n`,
  (v) => `DB_PASSWORD:\r\n  ${v}\r\n`,
  (v) => `api_token:\n\t${v}\n`,
  (v) => `service:\n  client_secret:\n      ${v}\n`,
  (v) => `db:\n  password: |\n    ${v}\n`,
  (v) => `db:\n  password: >-\n    ${v}\n`,
  (v) => `{"password":\n    "${v}"}\n`,
];

Deno.test("a YAML value on the line after its key is redacted, plain, quoted or in a block", () => {
  const leaks: string[] = [];
  for (let n = 0; n < 5; n++) {
    for (const place of PLACES) {
      for (const v of [value(8), value(30)]) {
        const { text } = redactSync(place(v));
        if (piecesOf(v).some((p) => text.includes(p))) leaks.push(text);
      }
    }
  }
  assert.deepEqual(leaks, []);
});

Deno.test("a nested mapping, a list, a comment or code below a password key is not its value", () => {
  const texts = [
    "db:\n  password:\n    hashed: abc123def\n    algo: bcrypt2\n",
    "password:\n  - rule1: x\n  - min_length9\n",
    "password:\n  # set in the environment2\n",
    "password:\n\n  next: 1\n",
    "if password:\n    return check_password(password)\n",
    "def check(password):\n    return hashed_password(password, salt2)\n",
    "interface User {\n  password:\n    string;\n}\n",
    "password:\nuser: app1234\n",
  ];
  for (const text of texts) assert.deepEqual(redactSync(text).findings, [], text);
});

// The same gap after `=`: an argument on the line after its name, whose line ends the call like a
// YAML key (`"…"):`), and a value after a `\` line continuation, indented or not.
const CALL_PLACES: Array<(v: string) => string> = [
  (v) => `def connect(password=\n    "${v}"):\n    pass\n`,
  (v) => `def connect(api_key=\n        '${v}'):\n`,
  (v) => `client = Client(auth_token=\n    "${v}"):\n`,
  (v) => `connect(password=\n\t"${v}")\n`,
  (v) => `api_key = \\\n    "${v}"\n`,
  (v) => `export API_TOKEN=\\\n${v}\n`,
  (v) => `DB_PASSWORD=\\\r\n  '${v}'\r\n`,
  (v) => `$client_secret = \\\n  "${v}";\n`,
];

Deno.test("a value after a line break inside a call or a backslash continuation is redacted", () => {
  const leaks: string[] = [];
  for (let n = 0; n < 5; n++) {
    for (const place of CALL_PLACES) {
      for (const v of [value(8), value(30)]) {
        const { text } = redactSync(place(v));
        if (piecesOf(v).some((p) => text.includes(p))) leaks.push(text);
      }
    }
  }
  assert.deepEqual(leaks, []);
});

Deno.test("a key of its own below a name, plain or quoted, is still not its value", () => {
  const texts = [
    '{"password":\n    "sha256x": "abc123def"}\n',
    "password:\n  'sha256x': abc123def\n",
    "password:\n  hashed.sha256: abc123def\n",
    "x = f(password=\n    hashed_password(pw, salt2)):\n",
    "password = \\\n    get_password()\n",
  ];
  for (const text of texts) assert.deepEqual(redactSync(text).findings, [], text);
});
