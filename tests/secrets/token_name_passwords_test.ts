// A password as people make them (a small letter, a capital, a digit and a mark) under a name
// whose last word is `token` (twenty-eighth session): `api_token` and `access_token` were
// password names and `token`, `githubToken`, `BOT_TOKEN` were not, and the token rule reads
// token characters only, so `token = "Tr0ub4dor&3xY!q"` was kept. The values are made here at
// random: no real secret is written in this repository.
import assert from "node:assert/strict";
import { prng } from "../_helpers.ts";
import { kept, leaksOf } from "./_redacts.ts";

const random = prng(4103);
const pick = (chars: string, n: number) =>
  Array.from({ length: n }, () => chars[Math.floor(random() * chars.length)]).join("");

/** A password with a mark: letters of both cases, digits and one of `!#%&*?~^@`. */
function password(): string {
  return pick("ABCDEFGHJKLMNPQRSTUVWXYZ", 1) + pick("abcdefghjkmnpqrstuvwxyz", 5) +
    pick("23456789", 2) + pick("!#%&*?~^@", 1) + pick("abcdefghjkmnpqrstuvwxyzXYZ", 4);
}

/** Token names in each language's forms; `{V}` is the value's place. */
const FORMS: Array<[string, string]> = [
  ["a.py", `token = "{V}"`],
  ["a.py", `    TOKEN = '{V}'`],
  ["a.js", `const githubToken = "{V}";`],
  ["a.ts", `  token: "{V}",`],
  ["a.kt", `val botToken = "{V}"`],
  ["a.swift", `let token = "{V}"`],
  ["a.dart", `const String token = '{V}';`],
  ["config.exs", `config :app, token: "{V}"`],
  ["a.rb", `BOT_TOKEN = "{V}"`],
  ["settings.yml", `slack_token: "{V}"`],
  ["a.json", `{"token": "{V}"}`],
  ["main.tf", `  token = "{V}"`],
  ["a.toml", `token = "{V}"`],
];

Deno.test("a password under a token's name is redacted", async () => {
  const cases = FORMS.flatMap(([path, form]) =>
    Array.from({ length: 8 }, (): [string, string, string] => {
      const value = password();
      return [path, form.replace("{V}", value) + "\n", value];
    })
  );
  const { tried, leaks } = await leaksOf(cases);
  assert.ok(tried >= 100, `${tried} tried`);
  assert.deepEqual(leaks, []);
});

Deno.test("a token name's code and words are kept", async () => {
  for (
    const [path, text] of [
      ["lexer.py", `token = "&&"\n`],
      ["lexer.py", `token = "<=>"\n`],
      ["lexer.js", `const token = "!==";\n`],
      ["a.py", `token = "user@Example1.com"\n`],
      ["a.py", `token = "$GITHUB_TOKEN2!"\n`],
      ["a.py", `token = "Bearer X1!"\n`],
      ["a.ts", `  token: "<YOUR_TOKEN>",\n`],
      ["a.yml", `token: "\${{ secrets.GH_TOKEN }}"\n`],
      ["a.py", `token = "Error: #1 bad"\n`],
      ["a.py", `token = "%(name)s"\n`],
    ]
  ) await kept(text, path);
});
