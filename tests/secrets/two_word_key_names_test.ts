// A key named by two words with a blank between (`secret key: …`, `Storage account key: …`) in
// prose, a note or a comment (twenty-eighth session): `secret_key:` and `API key:` were found,
// `secret key:` and `signing key:` were not; nor a label in Markdown's bold or italics
// (`**API key:** …`). The values are made here at random: no real secret is
// written in this repository.
import assert from "node:assert/strict";
import { prng } from "../_helpers.ts";
import { kept, leaksOf } from "./_redacts.ts";

const random = prng(4102);
const pick = (chars: string, n: number) =>
  Array.from({ length: n }, () => chars[Math.floor(random() * chars.length)]).join("");
const AN = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** A generated key: letters of both cases and digits, each there. */
function key(n: number): string {
  return pick("ABCDEFGHJKLMNPQRSTUVWXYZ", 2) + pick("abcdefghjkmnpqrstuvwxyz", 2) +
    pick("23456789", 2) + pick(AN, n - 6);
}

const NAMES = [
  "password",
  "API key",
  "client secret",
  "secret key",
  "Secret Key",
  "SECRET KEY",
  "secret access key",
  "access key",
  "signing key",
  "encryption key",
  "master key",
  "storage account key",
  "private key",
  "client key",
];

/** Where such a name is written; `{N}` the name's place, `{V}` the value's. */
const PLACES: Array<[string, string]> = [
  ["NOTES.md", "{N}: {V}"],
  ["notes.txt", "The {N}: {V}"],
  ["README.rst", "* {N}: {V}"],
  ["deploy.py", "# {N}: {V}"],
  ["main.go", "\t// {N}: {V}"],
  ["values.yaml", "# {N}: {V}"],
  ["run.log", "2026-12-03 10:00:01 INFO {N}: {V}"],
  // a label in bold or italics in Markdown, its marks after the colon
  ["NOTES.md", "- **{N}:** {V}"],
  ["guide.mdx", "__{N}:__ {V}"],
  ["README.markdown", "*{N}:* {V}"],
];

Deno.test("a key after a name of two words and a colon is redacted", async () => {
  const cases = NAMES.flatMap((name) =>
    PLACES.flatMap(([path, place]) =>
      [24, 40, 64].map((n): [string, string, string] => {
        const value = key(n);
        return [path, place.replace("{N}", name).replace("{V}", value) + "\n", value];
      })
    )
  );
  const { tried, leaks } = await leaksOf(cases);
  assert.ok(tried >= 200, `${tried} tried`);
  assert.deepEqual(leaks, []);
});

Deno.test("prose about a key of two words is kept", async () => {
  for (
    const [path, text] of [
      ["NOTES.md", "The secret key: keep it in the vault, never in the repository.\n"],
      ["NOTES.md", "secret key: `SECRET_KEY` in the settings\n"],
      ["NOTES.md", "Access key: see the team's password manager\n"],
      ["deploy.py", "# signing key: loaded from KMS at start\n"],
      ["main.go", "\t// private key: ~/.ssh/id_ed25519\n"],
      ["notes.txt", "Master key: <your-master-key>\n"],
      ["notes.txt", "encryption key: AES256\n"],
      ["NOTES.md", "**Secret key:** set it in the environment\n"],
      ["NOTES.md", "- **Note:** Tr0ub4dor is a word\n"],
    ]
  ) await kept(text, path);
});
