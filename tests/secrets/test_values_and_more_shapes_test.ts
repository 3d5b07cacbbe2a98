// The eleventh leak hunt: a test's values that say what they are stay as written (a value that
// spells its own name and a counter, `AccessToken: "ACCESSX1"`; words and numbers with `test` or
// `fake` among them, git's `--token "builtin:test_00000001:0"`), while the same names over random
// values are still redacted.
import assert from "node:assert/strict";
import { redactSync } from "../../pipeline/_scan.ts";

Deno.test("a test's values that name themselves stay as written", () => {
  const kept = [
    '\tcfg := Config{AccessToken: "ACCESSX1", RefreshToken: "REFRESHX1"}\n',
    '\tgit credential fill --token "builtin:test_00000001:0" </dev/null\n',
    "api_key = 'test_api_key_0001'\n",
    'client.auth(password: "fake-password-2")\n',
    'secret: "secret_02"\n',
    '{"apiToken": "apitoken1"}\n',
  ];
  for (const text of kept) assert.equal(redactSync(text).text, text);
});

Deno.test("the same names over values that are not their own words are still redacted", () => {
  const found: Array<[string, string]> = [
    [
      'cfg := Config{AccessToken: "ACC9zq7X1"}\n',
      'cfg := Config{AccessToken: "[REDACTED:password]"}\n',
    ],
    [
      'git credential fill --token "k7Pq2ZxW9r"\n',
      'git credential fill --token "[REDACTED:password]"\n',
    ],
    ["api_key = 'test_Pa55w0rd9'\n", "api_key = '[REDACTED:password]'\n"],
    ["MLAB_PASS='password123'\n", "MLAB_PASS='[REDACTED:password]'\n"],
    ['secret: "secretive_02"\n', 'secret: "[REDACTED:password]"\n'],
    // A service's default password spells the name's first word, not its own, with no `x`s.
    ["POSTGRES_PASSWORD=postgres123\n", "POSTGRES_PASSWORD=[REDACTED:password]\n"],
    ['ADMIN_PASSWORD = "admin1234"\n', 'ADMIN_PASSWORD = "[REDACTED:password]"\n'],
    ["  MYSQL_ROOT_PASSWORD: mysql-2024\n", "  MYSQL_ROOT_PASSWORD: [REDACTED:password]\n"],
    [
      "POSTGRES_PASSWORD: ${POSTGRES_PASSWORD:-postgres123}\n",
      "POSTGRES_PASSWORD: ${POSTGRES_PASSWORD:-[REDACTED:password]}\n",
    ],
  ];
  for (const [text, want] of found) assert.equal(redactSync(text).text, want);
});

const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
let seed = 1111;
const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
const chars = (alphabet: string, n: number) =>
  Array.from({ length: n }, () => alphabet[Math.floor(random() * alphabet.length)]).join("");
const password = () => "Qz7" + chars(ALNUM, 8) + "!" + chars(ALNUM, 2);
const hex = (n: number) => chars("0123456789abcdef", n);
/** Every 12-character piece of `value`. */
const pieces = (value: string) =>
  Array.from({ length: value.length - 11 }, (_, i) => value.slice(i, i + 12));

const PLACES: Array<[string, () => string, (v: string) => string]> = [
  // a password by position in a database's connect call
  ["PDO", password, (v) => `$pdo = new PDO('mysql:host=db;dbname=app', 'app', '${v}');\n`],
  ["mysqli_connect", password, (v) => `$c = mysqli_connect("localhost", "root", "${v}", "app");\n`],
  ["new mysqli", password, (v) => `$db = new mysqli('db', 'app', '${v}');\n`],
  [
    "DriverManager.getConnection",
    password,
    (v) =>
      `Connection c = DriverManager.getConnection("jdbc:mysql://db:3306/app", "app", "${v}");\n`,
  ],
  ["pymysql.connect", password, (v) => `db = pymysql.connect("db", "root", "${v}", "app")\n`],
  // a Twilio auth token after its account SID
  ["Twilio Client", () => hex(32), (v) => `client = Client("AC${hex(32)}", "${v}")\n`],
  ["twilio node", () => hex(32), (v) => `const c = twilio('AC${hex(32)}', '${v}');\n`],
];

Deno.test("passwords and tokens by position in connect calls are redacted", () => {
  const leaks: string[] = [];
  for (const [place, make, write] of PLACES) {
    const value = make();
    const { text } = redactSync(write(value));
    if (pieces(value).some((p) => text.includes(p))) {
      leaks.push(`${place}: ${JSON.stringify(text)}`);
    }
  }
  assert.deepEqual(leaks, []);
});

const DEFAULTS: Array<(v: string) => string> = [
  (v) => `spring.datasource.password=\${DB_PASSWORD:${v}}\n`,
  (v) => `    environment:\n      POSTGRES_PASSWORD: \${POSTGRES_PASSWORD:-${v}}\n`,
  (v) => `@Value("\${app.api-key:${v}}")\n`,
  (v) => `db_password = os.environ.get("DB_PASSWORD", "${v}")\n`,
  (v) => `pw := getEnv("DB_PASSWORD", "${v}")\n`,
  (v) => `password = ENV.fetch("DB_PASSWORD") { "${v}" }\n`,
  (v) => `'password' => env('DB_PASSWORD', '${v}'),\n`,
  (v) => `const pw = process.env.DB_PASSWORD || "${v}";\n`,
  (v) => `$pw = $_ENV['DB_PASSWORD'] ?? '${v}';\n`,
  (v) => `  password: "{{ db_password | default('${v}') }}"\n`,
  (v) =>
    `variable "db_password" {\n  type      = string\n  default   = "${v}"\n  sensitive = true\n}\n`,
];

Deno.test("a secret's default is redacted", () => {
  const leaks: string[] = [];
  for (const write of DEFAULTS) {
    const value = password();
    const { text } = redactSync(write(value));
    if (pieces(value).some((p) => text.includes(p))) leaks.push(JSON.stringify(text));
  }
  assert.deepEqual(leaks, []);
});

Deno.test("references with no default, empty or stand-in defaults stay as written", () => {
  const kept = [
    "POSTGRES_PASSWORD: ${POSTGRES_PASSWORD:-}\n",
    "POSTGRES_PASSWORD: ${POSTGRES_PASSWORD:?set a password}\n",
    'case "${MVNW_PASSWORD:+has-password}" in\n', // Maven's wrapper: a value when it is set
    "spring.datasource.password=${DB_PASSWORD:changeme}\n",
    'db_password = os.environ.get("DB_PASSWORD", "")\n',
    'api_key = os.getenv("API_KEY", default_key)\n',
    "const pw = process.env.DB_PASSWORD || '';\n",
    '  password: "{{ db_password | default(omit) }}"\n',
    'variable "db_password" {\n  type      = string\n  sensitive = true\n}\n',
    'variable "db_password" {\n  default = "password_1"\n}\n',
    'variable "cache_name" {\n  default = "Qz7kP2mX9w!Lr"\n}\n',
  ];
  for (const text of kept) assert.equal(redactSync(text).text, text);
});

Deno.test("mysqladmin's password, Redis's requirepass and masterauth, an escaped quote inside", () => {
  const places: Array<(v: string) => string> = [
    (v) => `mysqladmin -u root password '${v}'\n`,
    (v) => `mysqladmin --user=root -h db password ${v}\n`,
    (v) => `bind 0.0.0.0\nrequirepass ${v}\n`,
    (v) => `masterauth "${v}"\n`,
    (v) => `DB_PASSWORD="${v.slice(0, 6)}\\"${v.slice(6)}"\n`,
    (v) => `password = '${v.slice(0, 6)}\\'${v.slice(6)}'\n`,
  ];
  const leaks: string[] = [];
  for (const write of places) {
    const value = password();
    const { text } = redactSync(write(value));
    const all = [...pieces(value), value.slice(0, 6), value.slice(6)];
    if (all.some((p) => text.includes(p))) leaks.push(JSON.stringify(text));
  }
  assert.deepEqual(leaks, []);
});

Deno.test("mysqladmin and Redis lines with no password stay as written", () => {
  const kept = [
    "mysqladmin -u root password\n", // prompts
    'mysqladmin -u root password "$MYSQL_ROOT_PASSWORD"\n',
    "# requirepass foobared\n",
    "requirepass $REDIS_PASSWORD\n",
    "masterauth <master-password>\n",
    'DB_PASSWORD="abc\\"\n',
  ];
  for (const text of kept) assert.equal(redactSync(text).text, text);
});

Deno.test("tokens in a list under a secret's name are redacted, words and ids stay", () => {
  const token = () => "Qz7" + chars(ALNUM, 29);
  const discord = () => "MT" + chars(ALNUM, 22) + "." + chars(ALNUM, 6) + "." + chars(ALNUM, 38);
  const places: Array<[() => string, (v: string, w: string) => string]> = [
    [discord, (v, w) => `TOKEN_LIST = ['${v}', '${w}']\n`],
    [token, (v, w) => `API_KEYS = ["${v}", "${w}"]\n`],
    [token, (v, w) => `{"tokens": [\n  "${v}",\n  "${w}"\n]}\n`],
    [token, (v, w) => `api_keys: ['${v}', '${w}']\n`],
  ];
  const leaks: string[] = [];
  for (const [make, write] of places) {
    const [v, w] = [make(), make()];
    const { text } = redactSync(write(v, w));
    if ([...pieces(v), ...pieces(w)].some((p) => text.includes(p))) {
      leaks.push(JSON.stringify(text));
    }
  }
  assert.deepEqual(leaks, []);
  const kept = [
    'SECRET_NAMES = ["password", "api_key", "token"]\n',
    "TOKEN_TYPES = ['Bearer', 'Basic']\n",
    '"keys": ["id", "name", "created_at"]\n',
    "api_keys = [key.id for key in keys]\n",
  ];
  for (const text of kept) assert.equal(redactSync(text).text, text);
});

Deno.test("a value split over a string concatenation is redacted whole", () => {
  const jwt = () =>
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9." +
    btoa(`{"sub":"${chars(ALNUM, 10)}"}`).replace(/=+$/, "") + "." +
    chars(ALNUM, 43);
  const places: Array<[() => string, (v: string) => string]> = [
    [jwt, (v) => `const token = "${v.slice(0, 40)}" +\n  "${v.slice(40)}";\n`],
    [jwt, (v) => `TOKEN = ("${v.slice(0, 40)}"\n         "${v.slice(40)}")\n`],
    [jwt, (v) => `$jwt = '${v.slice(0, 50)}' .\n  '${v.slice(50)}';\n`],
    [() => "Qz7" + chars(ALNUM, 37), (v) => `api_key = "${v.slice(0, 24)}" + "${v.slice(24)}"\n`],
  ];
  const leaks: string[] = [];
  for (const [make, write] of places) {
    const value = make();
    const { text } = redactSync(write(value));
    if (pieces(value).some((p) => text.includes(p))) leaks.push(JSON.stringify(text));
  }
  assert.deepEqual(leaks, []);
  const kept = ['msg = "see " + "the docs"\n', 'url = "https://example.org/" +\n  "api/v1"\n'];
  for (const text of kept) assert.equal(redactSync(text).text, text);
});
