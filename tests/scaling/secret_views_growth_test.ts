import { findSecrets } from "../../pipeline/secret_rules.ts";
import { assertLinear } from "./_growth.ts";
import { readsOf } from "./_read_meter.ts";

/**
 * One line of the twenty-fourth round's shapes repeated, with no line end: JSON objects that name
 * their `"value"` apart, escapes decoded into a copy, typographic quotes, other scripts' words,
 * commands and SQL that set a value by name. A rule that looked from each start to the line's
 * end, or a copy made per match, would read the line again per unit. (From 16 KB: the password
 * name's rules read a window of up to some KB around each `password=…&`, so below it work grows
 * with the window and only past it with the line, as a quadratic rule's never does; the ratios at
 * 16-256 KB against 64 KB-1 MB are in bench/README.md, "Suite time, twenty-first session".)
 */
const SIZES = [16 * 1024, 256 * 1024];
const LINES: Array<[string, string, string]> = [
  ["JSON objects named apart", '{"name": "password", "value": "Qx7vLm2Rk9Tz"}, ', "a.json"],
  [
    "JSON objects by key",
    '{"key": "db_password", "value": "Qx7vLm2Rk9Tz", "type": "x"},',
    "a.json",
  ],
  ["JSON escapes", "\\u0022password\\u0022:\\u0022Qx7vLm2Rk9Tz\\u0022,", "a.json"],
  ["a run of JSON escapes", "\\u0022\\u003d", "a.json"],
  ["HTML's references", "{&quot;apiKey&quot;:&quot;Qx7vLm2Rk9Tz&quot;}&amp;", "a.html"],
  ["a URL's escapes", "password%3DQx7vLm2Rk9Tz%26", "a.log"],
  ["typographic quotes", "password: “Qx7vLm2Rk9Tz” «x» 「y」\u00a0", "a.md"],
  ["a run of typographic quotes", "“”«»「」", "a.yml"],
  ["other scripts' words", "пароль: Zx9кот42 密码：Qx7vLm2R トークン ", "a.yml"],
  ["commands by name", "etcdctl put /db/password Qx7vLm2Rk9Tz --name password --value x ", "a.sh"],
  ["SQL's settings", "UPDATE settings SET value='Qx7vLm2Rk9Tz' WHERE name='password'; ", "a.sql"],
  ["XML's name and value", "<name>password</name><value>Qx7vLm2Rk9Tz</value>", "a.xml"],
];

for (const [what, unit, path] of LINES) {
  Deno.test(`secret rules read a line of ${what} in linear work`, () => {
    const work = SIZES.map((n) => {
      const text = unit.repeat(Math.ceil(n / unit.length)).slice(0, n);
      return readsOf(() => findSecrets(text, { path }));
    });
    assertLinear(`${what}: ${JSON.stringify(unit)} in ${path}`, work, SIZES);
  });
}
