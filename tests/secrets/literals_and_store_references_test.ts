import assert from "node:assert/strict";
import { redactText } from "../../pipeline/secrets.ts";
import { redactsValue } from "./_redacts.ts";

Deno.test("redactText() keeps a composite literal of code under a key's name", async () => {
  // grafana/k6's internal/cmd/report.go: `key := [2]string{e.Path, e.Type.String()}` was taken
  // for a random printable key (its brackets, braces, commas and parentheses read as marks).
  const code: Array<[string, string]> = [
    ["report.go", "\t\tkey := [2]string{e.Path, e.Type.String()}\n"],
    ["a.go", "\tcacheKey := []string{req.Method, req.URL.Path, hdr.Get(name)}\n"],
    ["b.go", "\tkey := map[string]int{entry.Name: len(entry.Values), other.Name: 0}\n"],
    ["c.go", "\tsortKey := &indexKey{Table: t.Name(), Column: col.Name, Order: 2}\n"],
    ["d.go", "\tkey := [][2]int{{row.Start, row.End}, {col.Start, col.End}}\n"],
    ["e.rs", "    let key = CacheKey{path: file.path.clone(), kind: entry.kind()};\n"],
  ];
  for (const [path, text] of code) {
    const result = await redactText(text, path);
    assert.deepEqual(result.findings, [], `${path}: ${result.text}`);
  }
});

Deno.test("redactText() still redacts a random key that holds braces and brackets", async () => {
  // Random printable keys (WordPress's salts, a hand-written signing key) hold the same marks: a
  // value that does not parse as code, or whose names are random, is still a key.
  await redactsValue(
    "AUTH_KEY=q{7Lm]Xz!2Pw[9Rt}Kd,4Vb(Nf)8Hs{Jy}3Ga\n",
    "q{7Lm]Xz!2Pw[9Rt}Kd,4Vb(Nf)8Hs{Jy}3Ga",
    ".env",
  );
  await redactsValue(
    "SIGNING_KEY=Xk9qZ2{mP7vB4, wR8tY3}[Lq5nH6jD1]\n",
    "Xk9qZ2{mP7vB4, wR8tY3}[Lq5nH6jD1]",
    ".env",
  );
});

Deno.test("redactText() keeps a secret store's reference to a secret by its variable's name", async () => {
  // grafana/k6's .github/workflows/build.yml hands a shared workflow `NAME=store:NAME` lines (the
  // secret's store, then its name there): references, not passwords.
  const text = "      - uses: grafana/shared-workflows/actions/get-vault-secrets@v1\n" +
    "        with:\n          repo_secrets: |\n" +
    "            IAM_ROLE_ARN=deploy:packager-iam-role\n" +
    "            PGP_SIGN_KEY_PASSPHRASE=pgp:PGP_SIGN_KEY_PASSPHRASE\n" +
    "            PGP_SIGN_KEY=pgp:PGP_SIGN_KEY\n";
  assert.deepEqual((await redactText(text, ".github/workflows/build.yml")).findings, []);
  const env = "DB_PASSWORD=vault:DB_PASSWORD\nSMTP_PASSWORD=secret-manager:MAIL_SMTP_PASSWORD\n";
  assert.deepEqual((await redactText(env, ".env")).findings, []);
  // A password that merely holds a colon is still one.
  await redactsValue("DB_PASSWORD=vault:Xk9mP2qL7vB4\n", "vault:Xk9mP2qL7vB4", ".env");
  await redactsValue("DB_PASSWORD=admin:Hunter2_2024\n", "admin:Hunter2_2024", ".env");
});
