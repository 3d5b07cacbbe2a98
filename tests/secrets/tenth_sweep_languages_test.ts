// The tenth outside sweep's languages' own forms (thirty-first session), each a value the scan
// kept on main: a function named for a secret that returns a literal (Go's `func Password()
// string { return "…" }`, Rust's, Kotlin's, Swift's, C's, PHP's, Ruby's, Python's, Erlang's,
// Clojure's), a value split over a Python list's literals whose first piece is short, Swift's and
// C++'s raw strings and Ruby's `%q(…)`, Erlang's `-define(SECRET, "…")`, a release's cookie
// (`-setcookie` of letters and digits, `{cookie, "…"}`), CMake's `set(ENV{API_TOKEN} "…")`,
// aero's `#or [#env X "…"]` and `#profile {:dev "…"}`, Salt's `pillar.get('x:password', '…')`,
// Rust's `option_env!("TOKEN").unwrap_or("…")` and Rails' `password_confirmation`. The values
// are made here at random: no real secret is written in this repository.
import assert from "node:assert/strict";
import { prng } from "../_helpers.ts";
import { kept, leaksOf } from "./_redacts.ts";

const random = prng(4431);
const pick = (chars: string, n: number) =>
  Array.from({ length: n }, () => chars[Math.floor(random() * chars.length)]).join("");
const AN = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/**
 * A generated token (even `k`) or a password with a mark (odd `k`; not `%`, which before letters
 * reads as a format's placeholder in a call's argument).
 */
function value(k: number): string {
  if (k % 2 === 0) {
    return pick("ABCDEFGHJKLMNPQRSTUVWXYZ", 2) + pick("abcdefghjkmnpqrstuvwxyz", 2) +
      pick("23456789", 2) + pick(AN, 26);
  }
  return pick("ABCDEFGHJKLMNPQRSTUVWXYZ", 1) + pick("abcdefghjkmnpqrstuvwxyz", 5) +
    pick("23456789", 3) + pick("!#&*?", 1) + pick("abcdefghjkmnpqrstuvwxyz", 3);
}

/** Each form, with its file and names; `{N}` is the name's place, `{V}` the value's. */
const FORMS: Array<[string, string, string[]]> = [
  ["auth/keys.go", `func {N}() string {\n\treturn "{V}"\n}`, ["Password", "APIKey", "getSecret"]],
  ["auth/keys.go", `func (c *Config) {N}() string { return "{V}" }`, ["Password", "AccessToken"]],
  ["src/keys.rs", `pub fn {N}() -> &'static str {\n    "{V}"\n}`, ["api_token", "password"]],
  ["src/keys.rs", `fn {N}() -> String {\n    return "{V}".to_string();\n}`, ["secret_key"]],
  ["app/Keys.kt", `fun {N}(): String = "{V}"`, ["apiKey", "password"]],
  ["app/Keys.kt", `val {N}: String\n    get() = "{V}"`, ["apiKey", "dbPassword"]],
  ["App/Keys.swift", `func {N}() -> String {\n    return "{V}"\n}`, ["apiKey", "password"]],
  ["App/Keys.swift", `var {N}: String { "{V}" }`, ["apiKey", "clientSecret"]],
  ["src/keys.c", `const char *{N}(void) {\n    return "{V}";\n}`, ["api_token", "password"]],
  ["src/Keys.php", `<?php\nfunction {N}() {\n    return '{V}';\n}`, ["getPassword", "apiKey"]],
  ["src/Keys.java", `  public static String {N}() {\n    return "{V}";\n  }`, ["getApiKey"]],
  ["lib/keys.rb", `def {N}\n  "{V}"\nend`, ["password", "api_token"]],
  ["lib/keys.rb", `def self.{N}() = "{V}"`, ["secret_key"]],
  ["app/keys.py", `def {N}():\n    return "{V}"`, ["get_password", "api_key"]],
  ["src/keys.erl", `{N}() -> "{V}".`, ["password", "api_token"]],
  ["src/keys.erl", `{N}() ->\n    <<"{V}">>.`, ["secret_key"]],
  ["src/keys.clj", `(defn {N} [] "{V}")`, ["api-key", "password"]],
  ["src/keys.clj", `(defn- {N}\n  "The key."\n  []\n  "{V}")`, ["secret-token"]],
  ["App/Keys.swift", `let {N} = #"{V}"#`, ["apiKey", "password"]],
  ["src/keys.cpp", `const char* {N} = R"({V})";`, ["api_key", "password"]],
  ["src/keys.cpp", `auto {N} = R"key({V})key";`, ["secret"]],
  ["lib/keys.rb", `{N} = %q({V})`, ["API_KEY", "password"]],
  ["lib/keys.rb", `{N} = %Q{{V}}`, ["token"]],
  ["include/keys.hrl", `-define({N}, "{V}").`, ["SECRET", "API_KEY", "PASSWORD"]],
  ["src/keys.erl", `-define({N}, <<"{V}">>).`, ["SECRET_KEY"]],
  ["rel/vars.config", `{{N}, "{V}"}.`, ["cookie"]],
  ["CMakeLists.txt", `set(ENV{{N}} "{V}")`, ["API_TOKEN", "DB_PASSWORD"]],
  ["cmake/keys.cmake", `set(ENV{{N}} {V})`, ["GITHUB_TOKEN"]],
  ["resources/config.edn", `{:{N} #or [#env API_KEY "{V}"]}`, ["api-key", "password"]],
  ["resources/config.edn", `{:{N} #profile {:dev "{V}" :prod #env DB_PASS}}`, ["password"]],
  ["salt/mysql/init.sls", `{% set pw = salt['pillar.get']('mysql:server:{N}', '{V}') %}`, [
    "root_password",
    "api_token",
  ]],
  ["salt/app/files/app.conf.jinja", `password={{ pillar.get('app:{N}', "{V}") }}`, ["password"]],
  ["build.rs", `let t = option_env!("{N}").unwrap_or("{V}");`, ["API_TOKEN", "DB_PASSWORD"]],
  ["src/main.rs", `const T: &str = match option_env!("{N}") { Some(t) => t, None => "{V}" };`, [
    "TOKEN",
  ]],
  ["spec/factories/users.rb", `    {N} { "{V}" }`, ["password_confirmation"]],
  ["config/users.yml", `{N}: "{V}"`, ["password_confirmation", "passwordConfirmation"]],
  ["app/Keys.kt", `val creds = mapOf("{N}" to "{V}")`, ["password", "apiKey"]],
  ["App/Keys.swift", `UserDefaults.standard.set("{V}", forKey: "{N}")`, ["apiToken", "password"]],
  ["App/Keys.m", `[defaults setObject:@"{V}" forKey:@"{N}"];`, ["apiToken"]],
  ["config/keys.rb", `s = Rails.application.credentials.dig(:aws, :{N}) || "{V}"`, [
    "db_password",
    "api_token",
  ]],
  ["src/keys.clj", `(def t (or (System/getenv "{N}") "{V}"))`, ["API_TOKEN", "DB_PASSWORD"]],
  ["src/keys.clj", `(System/setProperty "{N}" "{V}")`, ["api.key", "db.password"]],
  ["src/keys.erl", `P = application:get_env(app, {N}, "{V}"),`, ["db_password", "api_token"]],
  ["src/net.c", `curl_easy_setopt(h, CURLOPT_{N}, "{V}");`, ["PASSWORD", "PROXYPASSWORD"]],
  ["src/net.php", `curl_setopt($ch, CURLOPT_{N}, '{V}');`, ["KEYPASSWD"]],
  ["src/db.c", `mysql_real_connect(conn, "localhost", "root", "{V}", "{N}", 0, NULL, 0);`, [
    "app",
  ]],
  ["src/net.rs", `let r = client.get(url).{N}("{V}");`, ["bearer_auth"]],
  ["src/keys.rs", `let {N} = String::from("{V}");`, ["password", "api_key"]],
];

Deno.test("a secret in the tenth sweep's languages' own forms is redacted", async () => {
  const cases = FORMS.flatMap(([path, form, names]) =>
    names.flatMap((name) =>
      [0, 1, 2, 3].map((k): [string, string, string] => {
        const v = value(k);
        return [path, form.replace("{N}", name).replace("{V}", v) + "\n", v];
      })
    )
  );
  const { tried, leaks } = await leaksOf(cases);
  assert.ok(tried >= 240, `${tried} tried`);
  assert.deepEqual(leaks, []);
});

Deno.test("a token split over a Python list's literals, its first piece short, is redacted", async () => {
  // (a list's items are read as tokens: a password's shape in a list is left, as it is unsplit)
  const cases = ["SECRET", "API_KEY", "token"].flatMap((name) =>
    [0, 2, 4, 6].map((k): [string, string, string] => {
      const v = value(k);
      return [
        "app/settings.py",
        `${name} = ["${v.slice(0, 2)}"\n    "${v.slice(2)}"]\n`,
        v.slice(2),
      ];
    })
  );
  const { leaks } = await leaksOf(cases);
  assert.deepEqual(leaks, []);
});

Deno.test("an Erlang cookie of letters and digits is redacted, a name of words kept", async () => {
  const { leaks } = await leaksOf([
    ["config/vm.args", "-name app@127.0.0.1\n-setcookie hunter2correct\n", "hunter2correct"],
    ["rel/vm.args", "-setcookie 8kfjwq2mzp\n", "8kfjwq2mzp"],
  ]);
  assert.deepEqual(leaks, []);
  await kept("-setcookie project_name\n-setcookie my_cookie_1\n", "rel/vm.args");
  await kept("-setcookie ${COOKIE}\n-setcookie vernemq\n", "config/vm.args");
  await kept('{cookie, "vernemq"}.\n', "rel/vars.config");
});

Deno.test("these languages' code and words under a secret's name are kept", async () => {
  for (
    const [path, text] of [
      [
        "auth/keys.go",
        'func (c *Config) Password() string {\n\treturn c.password\n}\nfunc Token() string { return "" }\n',
      ],
      ["auth/keys.go", 'func PasswordField() string { return "password" }\n'],
      ["src/keys.rs", 'fn password() -> &\'static str {\n    "password"\n}\n'],
      ["app/Keys.kt", "fun apiKey(): String = BuildConfig.API_KEY\n"],
      ["lib/keys.rb", 'def password\n  ENV.fetch("PASSWORD")\nend\n'],
      ["src/keys.clj", '(defn api-key [] (System/getenv "API_KEY"))\n'],
      ["src/keys.erl", 'password() -> os:getenv("PASSWORD").\n'],
      ["app/settings.py", 'SECRETS = ["ab",\n    "cd"]\n'],
      ["App/Keys.swift", 'let pattern = #"\\d+ token"#\n'],
      ["src/q.cpp", 'auto q = R"(SELECT password FROM users)";\n'],
      ["lib/keys.rb", "x = 5 %(3)\nwords = %w(token password)\n"],
      ["CMakeLists.txt", 'set(ENV{PATH} "/usr/local/bin")\nset(ENV{API_TOKEN} "$ENV{TOKEN}")\n'],
      ["resources/config.edn", "{:password #env DB_PASSWORD\n :port #or [#env PORT 8080]}\n"],
      [
        "salt/mysql/init.sls",
        "{% set pw = salt['pillar.get']('mysql:server:root_password', '') %}\n" +
        "{% set u = salt['pillar.get']('mysql:user', 'root') %}\n",
      ],
      ["src/main.rs", 'let t = option_env!("API_TOKEN").unwrap_or("");\n'],
      [
        "app/models/user.rb",
        "validates :password_confirmation, presence: true\n",
      ],
      ["config/locales/en.yml", "  password_confirmation: Password confirmation\n"],
      ["app/Keys.kt", 'val m = mapOf("password" to password, "user" to "admin")\n'],
      ["App/Keys.swift", 'UserDefaults.standard.set("dark", forKey: "theme")\n'],
      ["config/keys.rb", 'k = fetch(:api_token) || ""\nn = opts[:password] || "Password"\n'],
      ["src/keys.erl", 'P = application:get_env(app, db_password, ""),\n'],
      ["src/net.c", "curl_easy_setopt(h, CURLOPT_PASSWORD, password);\n"],
      ["src/keys.rs", 'let label = String::from("Password");\n'],
    ]
  ) await kept(text, path);
});
