// The classes the tenth leak hunt closed: passwords a command takes by position (`htpasswd -b`,
// `net use`, `rabbitmqctl add_user`, `composer config http-basic.…`), `curl -u TOKEN:`, Azure
// DevOps PATs, Facebook's `EAA…` tokens, Composer's `auth.json`, `?code=` and `?key=` in a URL,
// `x-functions-key`, `az login -p`, a value split by a `\` line continuation, a YAML anchor and a
// TOML multi-line string before a value. Each value is made at run time and must leave no
// 12-character piece; the code and data that look alike stay as written.
import assert from "node:assert/strict";
import { redactSync } from "../../pipeline/_scan.ts";
import { piecesOf } from "./_samples.ts";
import { prng } from "../_helpers.ts";

const random = prng(1010);
const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const chars = (alphabet: string, n: number) =>
  Array.from({ length: n }, () => alphabet[Math.floor(random() * alphabet.length)]).join("");
/** Letters and digits with both cases and a digit. */
const mixed = (n: number) => "Qz7" + chars(ALNUM, n - 3);
const password = () => mixed(11) + "!" + chars(ALNUM, 2);
/** An Azure DevOps PAT of the format before 2024: 52 of `[a-z0-9]`. */
const devops = () => "k3" + chars("abcdefghijklmnopqrstuvwxyz234567", 50);
const hex = (n: number) => chars("0123456789abcdef", n);

const PLACES: Array<[string, () => string, (v: string) => string]> = [
  ["htpasswd -b", password, (v) => `htpasswd -b /etc/nginx/.htpasswd admin ${v}\n`],
  ["htpasswd -Bbn, quoted", password, (v) => `RUN htpasswd -Bbn user "${v}" > /auth/htpasswd\n`],
  ["htpasswd -bc -C 10", password, (v) => `htpasswd -bc -C 10 .htpasswd admin '${v}'\n`],
  [
    "net use, password after /user:",
    password,
    (v) => `net use \\\\fs\\share /user:CORP\\bob ${v}\n`,
  ],
  ["NET USE Z:, password first", password, (v) => `NET USE Z: \\\\fs01\\data ${v} /USER:bob\n`],
  ["rabbitmqctl add_user", password, (v) => `rabbitmqctl add_user app ${v}\n`],
  ["rabbitmqctl change_password", password, (v) => `rabbitmqctl change_password admin '${v}'\n`],
  [
    "composer http-basic",
    password,
    (v) => `composer config http-basic.repo.example.org bob ${v}\n`,
  ],
  ["az login -p", () => mixed(34), (v) => `az login --service-principal -u http://app -p ${v}\n`],
  ["curl -u TOKEN:", () => mixed(32), (v) => `curl -u ${v}: https://api.example.com/v1/charges\n`],
  ["curl --user hex:, quoted", () => hex(40), (v) => `curl -s --user "${v}:" https://x.example\n`],
  ["AZURE_DEVOPS_EXT_PAT", devops, (v) => `export AZURE_DEVOPS_EXT_PAT="${v}"\n`],
  ["adoPat in code", devops, (v) => `const adoPat = '${v}';\n`],
  ["ado_pat in tfvars", devops, (v) => `ado_pat = "${v}"\n`],
  ["a PAT as a URL's user", devops, (v) => `git clone https://${v}@dev.azure.com/org/p/_git/r\n`],
  [
    "a PAT of 84 characters, bare",
    () => mixed(76) + "AZDO" + chars(ALNUM, 4),
    (v) => `token list: ${v}\n`,
  ],
  ["Facebook EAA, bare", () => "EAAG" + mixed(160), (v) => `const t = '${v}';\n`],
  ["Facebook EAA, unquoted", () => "EAAB" + mixed(150), (v) => `CLIENT_CONFIG=${v}\n`],
  [
    "Composer github-oauth",
    () => hex(40),
    (v) => `{\n    "github-oauth": {\n        "github.com": "${v}"\n    }\n}\n`,
  ],
  [
    "Composer gitlab-token and bearer",
    () => mixed(24),
    (v) => `{"gitlab-token": {"gitlab.example.org": "${v}"}, "bearer": {"r.example": "${v}"}}\n`,
  ],
  [
    "COMPOSER_AUTH with escaped quotes",
    () => hex(40),
    (v) => `"env": "{\\"github-oauth\\": {\\"github.com\\": \\"${v}\\"}}"\n`,
  ],
  [
    "composer config github-oauth",
    () => hex(40),
    (v) => `composer config --global github-oauth.github.com ${v}\n`,
  ],
  [
    "?code= of an Azure Function",
    () => mixed(54) + "==",
    (v) => `curl "https://app.azurewebsites.net/api/HttpTrigger?code=${v}"\n`,
  ],
  ["&key= in a link", () => mixed(39), (v) => `[map](https://maps.example.com/s?c=x&key=${v})\n`],
  ["x-functions-key", () => mixed(54) + "==", (v) => `x-functions-key: ${v}\n`],
  ["a token split by a \\ continuation", () => mixed(40), (v) => splitAt(`API_TOKEN="`, v, `"`)],
  ["a password split by a \\ continuation", password, (v) => splitAt(`DB_PASSWORD='`, v, `'`)],
  ["an unquoted token split by a \\", () => mixed(40), (v) => splitAt("export API_KEY=", v, "")],
  ["a YAML anchor", password, (v) => `defaults: &d\n  password: &pw ${v}\nprod:\n  <<: *d\n`],
  ["a TOML multi-line string", () => mixed(32), (v) => `api_key = """\n${v}"""\n`],
  ["a TOML multi-line literal", () => mixed(32), (v) => `token = '''\n${v}\n'''\n`],
];

/** `before`, `value` split in two by a `\` line continuation, `after`. */
function splitAt(before: string, value: string, after: string): string {
  const half = Math.floor(value.length / 2);
  return `${before}${value.slice(0, half)}\\\n${value.slice(half)}${after}\n`;
}

Deno.test("passwords by position and services' tokens are redacted whole", () => {
  const leaks: string[] = [];
  for (const [place, make, write] of PLACES) {
    const value = make();
    const { text } = redactSync(write(value));
    // a value split in two is checked half by half
    const half = Math.floor(value.length / 2);
    const pieces = [
      ...piecesOf(value),
      ...piecesOf(value.slice(0, half)),
      ...piecesOf(value.slice(half)),
    ];
    if (pieces.some((p) => text.includes(p))) leaks.push(`${place}: ${JSON.stringify(text)}`);
  }
  assert.deepEqual(leaks, []);
});

Deno.test("commands, names and numbers that look alike stay as written", () => {
  const kept = [
    "htpasswd -c /etc/nginx/.htpasswd admin\n", // prompts for the password
    "htpasswd -b .htpasswd admin $ADMIN_PASSWORD\n",
    "net use Z: \\\\fs01\\share * /user:bob\n", // `*` prompts
    "net use Z: \\\\fs01\\share /persistent:yes\n",
    'rabbitmqctl add_user app "$RABBIT_PASSWORD"\n',
    "curl -u admin: https://localhost/\n", // a user's name
    "sudo -u www-data: true\n",
    "git push -u origin main:main\n",
    "public const ulong FunctionKeySeed = 0x46756e6374693030;\n",
    "filePat = re.compile(r'^[a-z0-9]{52}$')\n",
    "see https://example.org/login?code=200&key=value\n",
    "GET /oauth/callback?code=abc123&key=build-cache-key-linux\n",
    '{"github-oauth": {"github.com": "your-github-token-here"}}\n',
    "x = y \\\n  + z\n",
    "key: &anchor\n  nested: value\n",
  ];
  for (const text of kept) assert.equal(redactSync(text).text, text);
});
