// The ninth outside sweep's languages' own forms (twenty-ninth session), each a value the scan
// kept on main: Julia's raw string (`password = raw"…"`) and a call that sets a secret
// (`Genie.Secrets.secret_token!("…")`), Scala's interpolated string (`val token = s"…"`), Perl's
// quote-like operators (`token => q{…}`, `qq(…)`) and hash elements (`$ENV{API_TOKEN} = '…'`,
// `$ENV{DB_PASS} // '…'`), Lua's long strings (`local secret = [[…]]`), Haskell's
// `setEnv "API_TOKEN" "…"`, .NET's configuration read with a fallback
// (`Configuration["Jwt:Key"] ?? "…"`) and a code host's PAT in lower or camel case
// (`vault_github_pat: …`, `githubPat`). The values are made here at random: no real secret is
// written in this repository.
import assert from "node:assert/strict";
import { prng } from "../_helpers.ts";
import { kept, leaksOf } from "./_redacts.ts";

const random = prng(4212);
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

/** Each form, with its file and names; `{N}` is the name's place, `{V}` the value's. */
const FORMS: Array<[string, string, string[]]> = [
  ["src/Keys.jl", `{N} = raw"{V}"`, ["password", "api_key", "secret"]],
  ["config/secrets.jl", `Genie.Secrets.{N}!("{V}")`, ["secret_token", "api_key"]],
  ["app/Secrets.scala", `  val {N} = s"{V}"`, ["apiKey", "dbPassword", "secretToken"]],
  ["lib/App.pm", `my %cfg = ( {N} => q{{V}} );`, ["password", "api_key", "token"]],
  ["lib/App.pm", "my $" + "{N} = qq({V});", ["password", "api_key"]],
  ["lib/App.pm", `$ENV{{N}} = '{V}';`, ["API_TOKEN", "DB_PASSWORD"]],
  ["script.pl", `my $p = $ENV{{N}} // '{V}';`, ["DB_PASS", "API_TOKEN"]],
  ["script.pl", `$config{{N}} ||= "{V}";`, ["password", "api_key"]],
  ["lua/secrets.lua", `local {N} = [[{V}]]`, ["secret", "password", "api_key"]],
  ["lua/secrets.lua", `M.{N} = [==[{V}]==]`, ["token", "password"]],
  ["src/Main.hs", `main = setEnv "{N}" "{V}"`, ["API_TOKEN", "DB_PASSWORD"]],
  ["Program.cs", `var k = builder.Configuration["{N}"] ?? "{V}";`, [
    "Jwt:Secret",
    "Smtp:Password",
    "OpenAI:ApiKey",
  ]],
  ["Keys.cs", `string Jwt(IConfiguration c) => c["{N}"] ?? "{V}";`, ["Jwt:Secret", "Db:Password"]],
  ["vars/vault.yml", `{N}: {V}`, ["vault_github_pat", "gitlab_pat", "githubPat", "ado-pat"]],
];

Deno.test("a secret in the ninth sweep's languages' own forms is redacted", async () => {
  const cases = FORMS.flatMap(([path, form, names]) =>
    names.flatMap((name) =>
      [0, 1, 2, 3].map((k): [string, string, string] => {
        const v = value(k);
        return [path, form.replace("{N}", name).replace("{V}", v) + "\n", v];
      })
    )
  );
  const { tried, leaks } = await leaksOf(cases);
  assert.ok(tried >= 120, `${tried} tried`);
  assert.deepEqual(leaks, []);
});

Deno.test("these languages' code and words under a secret's word are kept", async () => {
  for (
    const [path, text] of [
      ["src/Keys.jl", `replace!("abc")\npush!(tokens, "token")\nmsg = raw"the token"\n`],
      ["app/Secrets.scala", `  val token = s"Bearer $t"\n`],
      [
        "lib/App.pm",
        `my @w = qw(token password);\nmy $s = q{token};\nmy $t = $ENV{TOKEN} // '';\n`,
      ],
      ["lua/secrets.lua", `local doc = [[the token is read]]\nlocal t = x[[y]]\n`],
      ["src/Main.hs", `main = setEnv "PATH" "/usr/bin"\n`],
      [
        "Program.cs",
        `var s = config["Cache:Key"] ?? "users";\nvar c = c["Cache:Key"] ?? "users";\nvar t = Configuration["Api:Token"] ?? string.Empty;\n`,
      ],
      ["vars/main.yml", `file_pat: '*.py'\npat: x7abc12345\nsearch_pat: abc123def\n`],
    ]
  ) await kept(text, path);
});
