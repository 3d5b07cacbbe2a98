// A name whose last word is a credential's abbreviation in capitals (the eighth sweep's leftover:
// `GITHUB_PAT=…` in `.Renviron` and `Sys.setenv(GITHUB_PAT = …)` was kept when the value was no
// `ghp_` token): `PAT` (a personal access token), `PSK` (a pre-shared key), `TKN`, `CRED`,
// `CREDS`. In lower case they are words of code too (`pat = re.compile(…)`, `filePat`): only the
// capitals, as a word of their own. The values are made here at random: no real secret is
// written in this repository.
import assert from "node:assert/strict";
import { prng } from "../_helpers.ts";
import { kept, leaksOf } from "./_redacts.ts";

const random = prng(4209);
const pick = (chars: string, n: number) =>
  Array.from({ length: n }, () => chars[Math.floor(random() * chars.length)]).join("");
const AN = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** A generated token (even `k`), 40 hex digits (`k % 3 === 1`) or a password with a mark. */
function value(k: number): string {
  if (k % 3 === 1) return pick("0123456789abcdef", 40);
  if (k % 2 === 0) {
    return pick("ABCDEFGHJKLMNPQRSTUVWXYZ", 2) + pick("abcdefghjkmnpqrstuvwxyz", 2) +
      pick("23456789", 2) + pick(AN, 26);
  }
  return pick("ABCDEFGHJKLMNPQRSTUVWXYZ", 1) + pick("abcdefghjkmnpqrstuvwxyz", 5) +
    pick("23456789", 3) + pick("!#%&*?", 1) + pick("abcdefghjkmnpqrstuvwxyz", 3);
}

const NAMES = [
  "GITHUB_PAT",
  "AZURE_DEVOPS_PAT",
  "GITLAB_PAT",
  "PAT",
  "WIFI_PSK",
  "API_TKN",
  "DB_CREDS",
  "SMTP_CRED",
];

/** Each form, with its file; `{N}` is the name's place, `{V}` the value's. */
const FORMS: Array<[string, string]> = [
  [".Renviron", "{N}={V}"],
  [".env", `{N}="{V}"`],
  ["deploy.sh", "export {N}='{V}'"],
  ["R/setup.R", `Sys.setenv({N} = "{V}")`],
  [".github/workflows/ci.yml", "env:\n  {N}: {V}"],
  ["config.json", `{"{N}": "{V}"}`],
  ["settings.py", `{N} = "{V}"`],
  ["Dockerfile", "ENV {N}={V}"],
];

Deno.test("a value under a name that ends in a credential's abbreviation is redacted", async () => {
  const cases = FORMS.flatMap(([path, form]) =>
    NAMES.flatMap((name) =>
      [0, 1, 2, 3].map((k): [string, string, string] => {
        const v = value(k);
        return [path, form.replace("{N}", name).replace("{V}", v) + "\n", v];
      })
    )
  );
  const { tried, leaks } = await leaksOf(cases);
  assert.ok(tried >= 250, `${tried} tried`);
  assert.deepEqual(leaks, []);
});

Deno.test("references, placeholders and the abbreviations as words of code are kept", async () => {
  for (
    const [path, text] of [
      [".env", "GITHUB_PAT=${{ secrets.GITHUB_PAT }}\n"],
      [".env", "GITHUB_PAT=<your token>\nGITHUB_PAT=\nGITHUB_PAT=$GITHUB_PAT\n"],
      [".env", "GITHUB_PAT=your_github_pat_here\nGITHUB_PAT=changeme\n"],
      [".env", "PATH=/usr/bin:/bin\nPAT_FILE=~/.pat\nGOOGLE_CREDS=/etc/creds/key.json\n"],
      ["ci.yml", "env:\n  GITHUB_PAT: ${{ secrets.GITHUB_PAT }}\n  PAT: ${{ secrets.PAT }}\n"],
      ["a.py", "pat = re.compile(r'[a-z]+[0-9]')\nPSK = os.environ['PSK']\n"],
      ["a.py", "GITHUB_PAT = os.getenv('GITHUB_PAT')\n"],
      ["a.js", "const filePat = '**/*.test.js';\nconst SPAT = 'x-1234567';\n"],
    ]
  ) await kept(text, path);
});
