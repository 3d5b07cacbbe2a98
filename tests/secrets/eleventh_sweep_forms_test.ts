// The eleventh outside sweep's forms (thirty-second session), each a value the scan kept on main:
// a web server's directives (nginx's `set $api_token "…"`, `fastcgi_param DB_PASSWORD …`,
// Apache's `SetEnv`), a secret's name compared with a literal (`if token == "…"`), an object of
// a name and its value apart (Postman's `{ key: 'apiKey', value: '…' }`, `pm.environment.set`),
// SQL's `SET "app.jwt_secret" TO '…'`, Chef's `['password']['postgres'] = '…'`, Puppet's
// `Sensitive('…')`, WordPress's salts under a salt's name (`NONCE_SALT`), calls that take a
// password (InSpec's `postgres_session`, Puppet's `postgresql_password`, pgcrypto's `crypt`,
// .NET's `SymmetricSecurityKey(Encoding.UTF8.GetBytes(…))`), base64 encoders of other languages
// given `user:password` (`ngx.encode_base64`, Perl's `encode_base64`, Dart's `base64Encode`) and
// LDAP-style hashes (`{SHA}…`), Kubernetes' `token.csv`. The values are made here at random: no real secret is written in
// this repository.
import assert from "node:assert/strict";
import { prng } from "../_helpers.ts";
import { kept, leaksOf } from "./_redacts.ts";

const random = prng(4531);
const pick = (chars: string, n: number) =>
  Array.from({ length: n }, () => chars[Math.floor(random() * chars.length)]).join("");
const AN = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** A generated token (even `k`) or a password with a mark (odd `k`; not `%`, a format's). */
function value(k: number): string {
  if (k % 2 === 0) {
    return pick("ABCDEFGHJKLMNPQRSTUVWXYZ", 2) + pick("abcdefghjkmnpqrstuvwxyz", 2) +
      pick("23456789", 2) + pick(AN, 26);
  }
  return pick("ABCDEFGHJKLMNPQRSTUVWXYZ", 1) + pick("abcdefghjkmnpqrstuvwxyz", 5) +
    pick("23456789", 3) + pick("!#&*?", 1) + pick("abcdefghjkmnpqrstuvwxyz", 3);
}

/** Each form, with its file and names; `{N}` is the name's place, `{V}` the value's. */
const FORMS: Array<[string, string, string[], number[]?]> = [
  ["conf.d/api.conf", `  set $\{N} "{V}";`, ["api_token", "db_password"]],
  ["conf.d/api.conf", `  fastcgi_param {N} "{V}";`, ["DB_PASSWORD", "APP_SECRET"]],
  ["conf.d/api.conf", `  uwsgi_param {N} {V};`, ["SECRET_KEY"]],
  ["sites-available/app", `  scgi_param {N} {V};`, ["API_TOKEN"]],
  ["public/.htaccess", `SetEnv {N} {V}`, ["DB_PASSWORD", "STRIPE_SECRET"]],
  ["t/01-auth.t", `        set $\{N} "{V}";`, ["upstream_token"]],
  ["conf.d/hook.conf", `if ($http_x_{N} != "{V}") { return 403; }`, ["hook_secret", "api_key"], [
    0,
    2,
  ]],
  ["app/hooks.py", `if {N} == "{V}":\n    pass`, ["token", "api_key"], [0, 2]],
  ["src/hooks.ts", `if (req.headers.{N} !== '{V}') throw new Error("no");`, ["apiKey", "secret"], [
    0,
    2,
  ]],
  ["src/Hook.java", `if (!{N}.equals("x") || {N} != "{V}") return;`, ["webhookSecret"], [0, 2]],
  ["examples/run.js", `envVar: [{ key: '{N}', value: '{V}' }]`, ["apiKey", "password"]],
  ["src/env.ts", `{ name: "{N}", value: "{V}" }`, ["DB_PASSWORD", "X-Api-Key"]],
  ["lib/env.rb", `{ key: "{N}", value: "{V}" }`, ["client_secret"]],
  [
    "c.postman_collection.json",
    `"exec": ["pm.request.headers.add({ key: \\"{N}\\", value: \\"{V}\\" });"]`,
    [
      "X-Secret",
    ],
  ],
  ["c.postman_collection.json", `"exec": ["pm.environment.set(\\"{N}\\", \\"{V}\\");"]`, ["token"]],
  ["tests/pre.js", `pm.globals.set("{N}", "{V}");`, ["accessToken", "token"]],
  ["db/migrate/001.sql", `ALTER DATABASE app SET "app.{N}" TO '{V}';`, ["jwt_secret"]],
  ["db/migrate/001.sql", `alter role authenticator set pgrst.{N} to '{V}';`, ["jwt_secret"]],
  ["attributes/default.rb", `default['app']['{N}']['postgres'] = '{V}'`, [
    "password",
    "db_password",
  ]],
  ["attributes/default.rb", `node.default['{N}']['db']['root'] = "{V}"`, ["passwords"]],
  ["config/settings.py", `CONFIG["{N}"]["stripe"] = "{V}"`, ["passwords"]],
  ["manifests/init.pp", `$\{N} = Sensitive('{V}')`, ["api_token", "db_password"]],
  ["manifests/init.pp", `  {N} => Sensitive("{V}"),`, ["password"]],
  ["app/settings.py", `{N} = SecretStr("{V}")`, ["api_key"]],
  ["test/integration/db_spec.rb", `sql = {N}('postgres', '{V}', '127.0.0.1')`, [
    "postgres_session",
    "mysql_session",
  ]],
  ["manifests/db.pp", `password => postgresql::{N}('app', '{V}'),`, ["postgresql_password"]],
  ["db/seed.sql", `INSERT INTO users (pw) VALUES ({N}('{V}', gen_salt('bf')));`, ["crypt"]],
  ["src/login.php", `$h = {N}("{V}", $salt);`, ["crypt"]],
  ["Auth/Jwt.cs", `var key = new {N}(Encoding.UTF8.GetBytes("{V}"));`, ["SymmetricSecurityKey"]],
  ["src/Jwt.java", `Key key = Keys.{N}("{V}".getBytes());`, ["hmacShaKeyFor"]],
];

/** A base64 encoder given `user:password` in another language; `{V}` is the password. */
const ENCODERS: Array<[string, string]> = [
  ["lib/auth.lua", `local h = "Basic " .. ngx.encode_base64("svc:{V}")`],
  ["lib/auth.lua", `local h = "Basic " .. mime.b64("svc:{V}")`],
  ["lib/Auth.pm", `my $h = "Basic " . encode_base64("svc:{V}", "");`],
  ["lib/auth.dart", `final h = 'Basic \${base64Encode(utf8.encode('svc:{V}'))}';`],
  ["src/auth.ts", `const h = "Basic " + encodeBase64("svc:{V}");`],
  ["src/auth.nim", `let h = "Basic " & base64.encode("svc:{V}")`],
];

Deno.test("a secret in the eleventh sweep's forms is redacted", async () => {
  const cases = FORMS.flatMap(([path, form, names, ks]) =>
    names.flatMap((name) =>
      (ks ?? [0, 1, 2, 3]).map((k): [string, string, string] => {
        const v = value(k);
        return [path, form.replaceAll("{N}", name).replace("{V}", v) + "\n", v];
      })
    )
  );
  const { tried, leaks } = await leaksOf(cases);
  assert.ok(tried >= 154, `${tried} tried`);
  assert.deepEqual(leaks, []);
});

Deno.test("a user's password given to another language's base64 encoder is redacted", async () => {
  const cases = ENCODERS.flatMap(([path, form]) =>
    [1, 3].map((k): [string, string, string] => {
      const v = value(k);
      return [path, form.replace("{V}", v) + "\n", v];
    })
  );
  const { leaks } = await leaksOf(cases);
  assert.deepEqual(leaks, []);
});

Deno.test("LDAP-style password hashes and WordPress's salts are redacted", async () => {
  const sha = pick(AN + "+/", 27) + "=";
  const ssha = pick(AN + "+/", 40);
  // WordPress's salts: letters, digits and its marks (no quote or `\`)
  const salt = pick(AN, 24) + pick("!@#$%^&*()-_[]{}<>~+=,.;:/?|", 16) + pick(AN, 24);
  const { leaks } = await leaksOf([
    [".htpasswd", `deploy:{SHA}${sha}\n`, sha],
    ["slapd.conf", `rootpw {SSHA}${ssha}\n`, ssha],
    ["users.ldif", `userPassword: {SSHA512}${ssha}\n`, ssha],
    [".env", `NONCE_SALT='${salt}'\n`, salt],
    ["scripts/env.sh", `export NONCE_SALT="${salt}"\n`, salt],
    ["web/wp-config.php", `define( 'NONCE_SALT', '${salt}' );\n`, salt],
  ]);
  assert.deepEqual(leaks, []);
});

Deno.test("the first column of Kubernetes' static token and basic-auth files is redacted", async () => {
  const token = value(0);
  const password = value(1);
  const { leaks } = await leaksOf([
    ["configs/token.csv", `${token},kubelet-bootstrap,10001,"system:node-bootstrapper"\n`, token],
    ["srv/kubernetes/known_tokens.csv", `${token},admin,admin\n`, token],
    ["srv/kubernetes/basic_auth.csv", `${password},admin,admin,"system:masters"\n`, password],
  ]);
  assert.deepEqual(leaks, []);
});

Deno.test("code, names and words in these forms are kept", async () => {
  for (
    const [path, text] of [
      [
        "conf.d/a.conf",
        'set $api_token "";\nset $api_token $http_x_token;\nfastcgi_param DB_PASSWORD $db_password;\n',
      ],
      ["conf.d/a.conf", "fastcgi_param SCRIPT_FILENAME $document_root$fastcgi_script_name;\n"],
      [
        "app/a.py",
        'if token == "":\n    pass\nif password != "password":\n    pass\nif key == "Enter":\n    pass\n',
      ],
      // a password's shape compared is a check's example (a token's is redacted)
      ["app/b.py", "if password == 'abcdef1':\n    pass\nif token != 'Tr0ub4dor&3':\n    pass\n"],
      [
        "src/a.ts",
        'if (token === "undefined") return;\nif (apiKey !== process.env.API_KEY) return;\n',
      ],
      [
        "examples/a.js",
        "envVar: [{ key: 'apiKey', value: process.env.API_KEY }, { key: 'password', value: '' }]\n",
      ],
      ["src/env.ts", '{ name: "DB_PASSWORD", value: "${DB_PASSWORD}" }\n'],
      [
        "db/a.sql",
        "ALTER DATABASE app SET \"app.jwt_secret\" TO current_setting('x');\nSET search_path TO 'public';\n",
      ],
      [
        "attributes/default.rb",
        "default['app']['password']['length'] = '16'\ndefault['a']['b']['c'] = 'Xk29fjQ02aLpZ8wq7Rt5Ym3n'\n",
      ],
      ["manifests/init.pp", "$api_token = Sensitive($token)\n"],
      [".env", "NONCE_SALT='generateme'\nAUTH_SALT='put your unique phrase here'\n"],
      [
        "db/a.sql",
        "select crypt(password, gen_salt('bf')) from t;\nselect encrypt('hello world', 'k');\n",
      ],
      ["lib/a.lua", 'local h = ngx.encode_base64("hello world")\n'],
      [".htpasswd", "deploy:{SHA}AAAAAAAAAAAAAAAAAAAAAAAAAAA=\n"],
      ["lib/a.rb", "sql = postgres_session(user, password, host)\n"],
      ["configs/token.csv", "token,user,uid,groups\n${BOOTSTRAP_TOKEN},kubelet,10001\n"],
      ["data/words.csv", "ab12cd34ef56gh78,x,y\n"],
    ]
  ) await kept(text, path);
});
