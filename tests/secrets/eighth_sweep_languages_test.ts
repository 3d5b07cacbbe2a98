// The eighth outside sweep's languages' own forms (twenty-eighth session): a secret under
// Elixir's module attribute (`@api_key "…"`), R's arrows (`api_key <- "…"`, `"…" -> api_key`),
// Nim's exported or
// pragma'd name (`apiKey* = "…"`, `dbPass {.strdefine.} = "…"`), Zig's typed declaration
// (`password: []const u8 = "…"`), and the environment's fallback in Swift
// (`Environment.get("…") ?? "…"`, `environment["…"] ?? "…"`) and Dart
// (`String.fromEnvironment("…", defaultValue: "…")`); OCaml's quoted strings (`{|…|}`,
// `{id|…|id}`) and `Unix.putenv "…" "…"`, Elixir's sigils (`~s(…)`, `~S"…"`). The values are made here at random: no real
// secret is written in this repository.
import assert from "node:assert/strict";
import { redactText } from "../../pipeline/_scan.ts";
import { prng } from "../_helpers.ts";
import { kept, leaksOf } from "./_redacts.ts";

const random = prng(4108);
const pick = (chars: string, n: number) =>
  Array.from({ length: n }, () => chars[Math.floor(random() * chars.length)]).join("");
const AN = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** A generated token (even `k`) or a password with a mark (odd `k`). */
function value(k: number): string {
  if (k % 2 === 0) {
    return pick("ABCDEFGHJKLMNPQRSTUVWXYZ", 2) + pick("abcdefghjkmnpqrstuvwxyz", 2) +
      pick("23456789", 2) + pick(AN, 26);
  }
  return pick("ABCDEFGHJKLMNPQRSTUVWXYZ", 1) + pick("abcdefghjkmnpqrstuvwxyz", 5) +
    pick("23456789", 3) + pick("!#%&*?", 1) + pick("abcdefghjkmnpqrstuvwxyz", 3);
}

/** Each form, with its file; `{N}` is the name's place, `{V}` the value's. */
const FORMS: Array<[string, string]> = [
  ["lib/app.ex", `  @{N} "{V}"`],
  ["config/dev.exs", `@{N} '{V}'`],
  ["R/zzz.R", `{N} <- "{V}"`],
  ["analysis.Rmd", `  {N} <<- '{V}'`],
  ["R/zzz.R", `"{V}" -> {N}`],
  ["src/app.nim", `const {N}* = "{V}"`],
  ["src/app.nim", `var {N}*: string = r"{V}"`],
  ["config.nims", `const {N} {.strdefine.} = "{V}"`],
  ["src/main.zig", `pub const {N}: []const u8 = "{V}";`],
  ["build.zig", `    const {N}: [:0]const u8 = "{V}";`],
  ["Sources/App/configure.swift", `let key = Environment.get("{N}") ?? "{V}"`],
  ["Sources/App/configure.swift", `let key = ProcessInfo.processInfo.environment["{N}"] ?? "{V}"`],
  ["lib/env.dart", `const key = String.fromEnvironment('{N}', defaultValue: '{V}');`],
  // OCaml's quoted strings and environment, Elixir's sigils
  ["lib/config.ml", `let {N} = {|{V}|}`],
  ["lib/config.ml", `let {N} = {id|{V}|id} in`],
  ["bin/main.ml", `let () = Unix.putenv "{N}" "{V}"`],
  ["config/runtime.exs", `config :app, {N}: ~s({V})`],
  ["lib/app.ex", `  @{N} ~S"{V}"`],
];

/** The names each form is tried with, in its language's casing. */
function namesFor(form: string): string[] {
  if (/Environment|environment\[|putenv/.test(form)) {
    return ["API_KEY", "DB_PASSWORD", "CLIENT_SECRET"];
  }
  if (form.includes("<-") || form.includes("@")) return ["api_key", "password", "secret_token"];
  if (/u8|let |~/.test(form)) return ["api_key", "password", "client_secret"];
  return ["apiKey", "dbPassword", "clientSecret"];
}

Deno.test("a secret in the eighth sweep's languages' own forms is redacted", async () => {
  const cases = FORMS.flatMap(([path, form]) =>
    namesFor(form).flatMap((name) =>
      [0, 1, 2, 3].map((k): [string, string, string] => {
        const v = value(k);
        return [path, form.replace("{N}", name).replace("{V}", v) + "\n", v];
      })
    )
  );
  const { tried, leaks } = await leaksOf(cases);
  assert.ok(tried >= 140, `${tried} tried`);
  assert.deepEqual(leaks, []);
});

Deno.test("these languages' code and words under a secret's name are kept", async () => {
  for (
    const [path, text] of [
      ["lib/app.ex", `  @doc "Returns the API key for a user"\n`],
      ["lib/app.ex", `  @password_hash_opts "bcrypt"\n`],
      ["lib/app.ex", `  @token_salt "user auth"\n`],
      ["R/zzz.R", `password <- Sys.getenv("DB_PASSWORD")\n`],
      ["R/zzz.R", `api_key <- ""\n`],
      ["R/zzz.R", `token <- "Bearer"\n`],
      ["src/app.nim", `const tokenKinds* = "ident"\n`],
      ["src/main.zig", `pub const password_field: []const u8 = "password";\n`],
      ["Sources/App/configure.swift", `let key = Environment.get("API_KEY") ?? ""\n`],
      ["lib/env.dart", `const key = String.fromEnvironment('API_KEY', defaultValue: '');\n`],
      ["lib/config.ml", `let password_prompt = {|Password: |}\n`],
      ["lib/config.ml", `let re = {|[a-z]+|} and api_key = key_of env\n`],
      ["lib/app.ex", `  @token_doc ~s(The token, as "Bearer …")\n`],
      ["lib/app.ex", `  def secret, do: ~w(a b c)\n`],
    ]
  ) await kept(text, path);
});

Deno.test("a literal on the next line is its own where the language joins no literals so", async () => {
  // (`"a"` then `"b"` on the next line is one string in C and Python only: elsewhere the redaction
  // of the first took the second and the line end between, two lines of the document made one)
  for (
    const [path, first, second] of [
      ["R/zzz.R", `token <- "{V}"`, `"Hello world, {W}" -> greeting`],
      ["app.js", `const password = "{V}"`, `"{W}".split("")`],
      ["app.rb", `password = "{V}"`, `"{W}".freeze`],
      ["main.swift", `let password = "{V}"`, `"{W}".count`],
    ]
  ) {
    const v = value(1), w = pick("abcdefghjkmnpqrstuvwxyz", 12);
    const text = `${first.replace("{V}", v)}\n${second.replace("{W}", w)}\n`;
    const out = (await redactText(text, path)).text;
    assert.equal(out.split("\n")[1], second.replace("{W}", w), `${path}: ${out}`);
    assert.ok(!out.includes(v), out);
  }
});

Deno.test("a switch's case label under a password's word is code, its next line no value", async () => {
  // (shelf's `case ResultVerdict.Pass:` then `passed++;` was redacted as a password)
  for (
    const [path, text] of [
      ["lib/summary.dart", "  switch (verdict) {\n    case ResultVerdict.Pass:\n      passed++;\n"],
      ["src/tally.c", "switch (r) {\ncase PASS:\n    passes_total++;\n    break;\n"],
      ["Tally.java", "    case Result.PASS:\n        passCount += 1;\n"],
    ]
  ) await kept(text, path);
  // (a value after the label's `:` on its line is still one)
  const v = value(1);
  const out = (await redactText(`  case "prod": return { password: "${v}" };\n`, "a.js")).text;
  assert.ok(!out.includes(v), out);
});

Deno.test("an environment read's generated fallback under a key's or token's name is redacted", async () => {
  // (vapor's `Environment.get("JWT_KEY") ?? "…"`: a default was judged under a password's name only)
  const forms: Array<[string, string]> = [
    ["server.js", `const key = process.env.JWT_KEY || "{V}";`],
    ["Sources/App/configure.swift", `let key = Environment.get("SIGNING_KEY") ?? "{V}"`],
    ["app/settings.py", `KEY = os.environ.get("ENCRYPTION_KEY") or "{V}"`],
    ["src/env.ts", `export const token = process.env.SLACK_TOKEN ?? '{V}';`],
  ];
  for (const [path, form] of forms) {
    for (let k = 0; k < 6; k += 2) {
      const v = value(k);
      const out = (await redactText(form.replace("{V}", v) + "\n", path)).text;
      assert.ok(!out.includes(v) && out.includes("[REDACTED:"), `${path}: ${out}`);
    }
  }
  // (words and passwords under a key's name are a cache's key, a sort's: no default secret)
  for (
    const text of [
      `const key = process.env.CACHE_KEY || "users";\n`,
      `const order = process.env.SORT_KEY || "created_at";\n`,
      `const k = process.env.CACHE_KEY || "Tr0ub4dor&3x";\n`,
    ]
  ) await kept(text, "server.js");
});
