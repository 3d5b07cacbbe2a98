import assert from "node:assert/strict";
import { join } from "node:path";
import { buildContext } from "../../mod.ts";
import { loadSecretlint } from "../../deps.ts";
import {
  checkSecretRules,
  redactText,
  SECRETLINT_HINTS,
  SECRETLINT_RULE_IDS,
} from "../../pipeline/secrets.ts";
import { sha256 } from "../../pipeline/read.ts";
import { makeProject, runCliShared } from "../_helpers.ts";

const SEED = "/work/shared/seeds/xalia_agent_context_system.txt";

/** Every secret-shaped value of the seed's `.env` excerpts, found by shape, not by hand. */
function seedSecrets(text: string): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(/sk-or-v1-[0-9a-f]{64}|sk-proj-[A-Za-z0-9_-]{40,}/g)) {
    found.add(m[0]);
  }
  for (const m of text.matchAll(/(?<![0-9a-f-])[0-9a-f]{64}(?![0-9a-f])/g)) found.add(m[0]);
  return [...found];
}

/** A deterministic alphanumeric string (LCG), so no real-looking key is committed. */
function alnum(n: number, seed = 7): string {
  const chars = "abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
  let x = seed;
  let s = "";
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    s += chars[x % chars.length];
  }
  return s;
}

Deno.test("build() redacts every secret-shaped value of the xalia seed; the file stays", async () => {
  const seed = await Deno.readTextFile(SEED);
  const secrets = seedSecrets(seed);
  assert.equal(secrets.length, 7, "the seed holds 7 key values (2 maps of 3 keys, 1 hex secret)");
  const { lintSource, preset } = await loadSecretlint();
  const alone = await lintSource({
    source: { filePath: "/.env", content: seed, contentType: "text" },
    options: { config: { rules: [{ id: "preset", rule: preset }] }, maskSecrets: true },
  });
  assert.equal(alone.messages.length, 0, "secretlint's preset alone finds none of them");
  const root = await makeProject({ "notes/xalia.txt": seed, "a.ts": "export const a = 1;\n" });
  const result = await buildContext({ cwd: root });
  const manifestText = await Deno.readTextFile(result.output!.manifest);
  for (const value of secrets) {
    assert.ok(!result.document.includes(value), `leaked ${value.slice(0, 12)}…`);
    assert.ok(!manifestText.includes(value));
  }
  const file = result.files.find((f) => f.path === "notes/xalia.txt")!;
  assert.equal(file.status, "rendered");
  const redacted = (await redactText(seed, "notes/xalia.txt")).text;
  assert.equal(file.sha256, sha256(redacted), "keyed by the text views see, never the raw file");
  assert.equal(file.bytes, new TextEncoder().encode(seed).length);
  assert.match(
    result.document,
    /LLM_API_KEY_MAP=\{"openrouter":"\[REDACTED:openrouter-key\]","together":"\[REDACTED:key-map\]","openai":"\[REDACTED:openai-key\]"\}/,
  );
  assert.match(result.document, /SEND_EMAIL_API_SECRET=\[REDACTED:hex-secret\]\n/);
  assert.match(result.document, /XALIA_URL=http:\/\/localhost:3000/, "the rest of the file stays");
  const lines = seed.split("\n");
  const listed = result.manifest.secrets!;
  assert.equal(listed.length, 7, "3 + 3 map values and 1 assignment");
  for (const s of listed) {
    assert.equal(s.path, "notes/xalia.txt");
    assert.ok(secrets.some((v) => lines[s.line - 1].includes(v)), `line ${s.line} holds a secret`);
  }
  assert.deepEqual(
    listed.map((s) => s.rule).sort(),
    [
      "hex-secret",
      "key-map",
      "key-map",
      "openai-key",
      "openai-key",
      "openrouter-key",
      "openrouter-key",
    ],
  );
});

Deno.test("slop build prints file, line and rule of each secret but never the value", async () => {
  const seed = await Deno.readTextFile(SEED);
  const root = await makeProject({ "seed.txt": seed });
  const run = await runCliShared(["build"], root);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /warning: Redacted a secret in "seed.txt" line 168 \(hex-secret\)/);
  for (const value of seedSecrets(seed)) {
    assert.ok(!run.stdout.includes(value) && !run.stderr.includes(value));
  }
});

Deno.test("--fail-on-secret and secrets.failOnSecret exit 1, list the findings and write nothing", async () => {
  const token = `ghp_${alnum(36)}`;
  const root = await makeProject({ "src/ci.ts": `const token = "${token}";\n` });
  const run = await runCliShared(["build", "--fail-on-secret"], root);
  assert.equal(run.code, 1);
  assert.match(run.stderr, /Found 1 secret \(failOnSecret\):\n\s+src\/ci.ts:1 \(github\)/);
  assert.ok(!run.stderr.includes(token) && !run.stdout.includes(token));
  await assert.rejects(Deno.stat(join(root, ".slop", "out", "context_001.md")));
  await Deno.writeTextFile(
    join(root, "slop.config.ts"),
    `export default { files: ["src/**"], secrets: { failOnSecret: true } };\n`,
  );
  assert.equal((await runCliShared(["build"], root)).code, 1);
  await Deno.writeTextFile(join(root, "src/ci.ts"), "const token = process.env.TOKEN;\n");
  assert.equal((await runCliShared(["build"], root)).code, 0, "clean files pass");
});

Deno.test(".env, *.pem, id_rsa* and *.key stay out unless listed; listed, they are still redacted", async () => {
  const key = `sk-or-v1-${"0123456789abcdef".repeat(4)}`;
  const tree = {
    ".env": `OPENROUTER_KEY=${key}\n`,
    ".env.production": `OPENROUTER_KEY=${key}\n`,
    "deploy/server.pem": "pem\n",
    "deploy/id_rsa": "rsa\n",
    "deploy/tls.key": "key\n",
    "a.ts": "export const a = 1;\n",
  };
  const root = await makeProject(tree);
  const all = await buildContext({ cwd: root }, { write: false });
  assert.deepEqual(all.files.filter((f) => f.status !== "skipped").map((f) => f.path), ["a.ts"]);
  // The others are listed as skipped, with the reason, and never read.
  assert.deepEqual(
    all.files.filter((f) => f.status === "skipped").map((f) => [f.path, f.reason]),
    [".env", ".env.production", "deploy/id_rsa", "deploy/server.pem", "deploy/tls.key"].map((p) => [
      p,
      'may hold secrets, skipped by default: name it by its path in "files" to include it',
    ]),
  );
  assert.ok(!/^(pem|rsa|key)$/m.test(all.document) && !all.document.includes("OPENROUTER"));
  await Deno.writeTextFile(
    join(root, "slop.config.ts"),
    `export default { files: ["a.ts", ".env"] };\n`,
  );
  const listed = await buildContext({ cwd: root }, { write: false });
  assert.deepEqual(listed.files.map((f) => f.path), [".env", "a.ts"]);
  assert.match(listed.document, /OPENROUTER_KEY=\[REDACTED:openrouter-key\]/);
  assert.ok(!listed.document.includes(key));
});

Deno.test("secretlint's recommended preset catches provider tokens and connection strings", async () => {
  const samples: Record<string, string> = {
    github: `token = "ghp_${alnum(36)}"`,
    slack: `SLACK=xoxb-123456789012-1234567890123-${alnum(24)}`,
    stripe: `key: sk_live_${alnum(24)}`,
    gitlab: `glpat-${alnum(20)}`,
    basicauth: `url = "https://deploy:${alnum(14)}@example.com/repo"`,
    "database-connection-string": `DATABASE_URL=postgres://app:${alnum(16)}@db.internal:5432/prod`,
    sendgrid: `SG.${alnum(22)}.${alnum(43)}`,
  };
  for (const [rule, line] of Object.entries(samples)) {
    const { text, findings } = await redactText(`// config\n${line}\n`, "config.ts");
    assert.deepEqual(findings, [{ line: 2, rule }], rule);
    assert.match(text, new RegExp(`\\[REDACTED:${rule}\\]`));
  }
});

Deno.test("SECRETLINT_HINTS covers every rule of the pinned preset and every sample it reports", async () => {
  const { preset } = await loadSecretlint();
  const ids = (preset as unknown as { rules: Array<{ meta: { id: string } }> }).rules
    .map((r) => r.meta.id.replace("@secretlint/secretlint-rule-", ""));
  assert.deepEqual(ids.sort(), [...SECRETLINT_RULE_IDS].sort(), "a preset upgrade needs new hints");
  const texts = [
    `ghp_${alnum(36)}`,
    `xoxb-123456789012-1234567890123-${alnum(24)}`,
    `sk_live_${alnum(24)}`,
    `https://deploy:${alnum(14)}@example.com/x`,
    `MONGODB_URI=mongodb+srv://app:${alnum(16)}@cluster0.example.net/db`,
    `SG.${alnum(22)}.${alnum(43)}`,
    `aws_secret_access_key = "${alnum(40)}"`,
    `AWS_ACCOUNT_ID = "1234-5678-9012"`,
  ];
  for (const text of texts) {
    const full = await redactText(text, "x.env", { secretlint: true });
    if (full.findings.length) assert.ok(SECRETLINT_HINTS.test(text), text.slice(0, 10));
  }
  assert.ok(!SECRETLINT_HINTS.test("def add(a, b):\n    return a + b\n"));
});

Deno.test("redactText() leaves ordinary hashes and code alone", async () => {
  const text = [
    `EXPECTED_SHA256 = "${"ab".repeat(32)}"`,
    "commit = 0123456789abcdef0123456789abcdef01234567",
    "const key = cacheKey(file);",
    "token = next(tokens)",
  ].join("\n");
  const { findings } = await redactText(text, "a.py");
  assert.deepEqual(findings, []);
});

Deno.test("secrets.rules adds user rules (group 1 only when present); a bad pattern names its key", async () => {
  const root = await makeProject({
    "a.txt": "ticket ACME-12345678 and pin=4711\n",
    "slop.config.ts": `export default {
  files: ["a.txt"],
  secrets: { rules: { "acme-id": "ACME-[0-9]{8}", pin: "pin=([0-9]{4})" } },
};\n`,
  });
  const result = await buildContext({ cwd: root }, { write: false });
  assert.match(result.document, /ticket \[REDACTED:acme-id\] and pin=\[REDACTED:pin\]\n/);
  assert.deepEqual(checkSecretRules({ bad: "(" }).length, 1);
  await Deno.writeTextFile(
    join(root, "slop.config.ts"),
    `export default { secrets: { rules: { broken: "([a-z" } } };\n`,
  );
  const run = await runCliShared(["build"], root);
  assert.equal(run.code, 2);
  assert.match(run.stderr, /Invalid regular expression at "secrets.rules.broken"/);
});

Deno.test("secrets are redacted before any view mode sees the text, and in the history", async () => {
  const key = `sk-proj-${alnum(60)}`;
  const seen: string[] = [];
  const root = await makeProject({ "a.ts": `const k = "${key}";\n` });
  const result = await buildContext({
    cwd: root,
    inline: {
      files: [{ path: "a.ts", view: "spy" }],
      history: [{ role: "User", content: `my key is ${key}, keep it safe` }],
      plugins: [{
        kind: "view-mode",
        name: "spy",
        version: "1",
        render(file) {
          seen.push(file.text);
          return file.text;
        },
      }],
    },
  }, { write: false });
  assert.equal(seen.length, 1);
  assert.ok(!seen[0].includes(key), "the view mode got the redacted text");
  assert.ok(!result.document.includes(key));
  assert.match(result.document, /my key is \[REDACTED:openai-key\], keep it safe/);
  assert.deepEqual(result.manifest.secrets, [
    { path: "a.ts", line: 1, rule: "openai-key" },
    // The history's live tail block (its line 3: the message after the heading block).
    { path: "history:recent", line: 3, rule: "openai-key" },
  ]);
});

Deno.test("a broken history or config that quotes a secret in its error never leaks it", async () => {
  const key = `sk-or-v1-${"ab".repeat(32)}`;
  const root = await makeProject({
    "a.ts": "export {};\n",
    "chat.toml": `[[entries]]\nrole = "User"\ncontent = "my key ${key}\n`,
    "slop.config.ts": `export default { files: ["a.ts"], history: "chat.toml" };\n`,
  });
  const run = await runCliShared(["build"], root);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /warning: Cannot parse history "chat.toml"/);
  assert.match(run.stdout, /\[REDACTED:openrouter-key\]/, "the parser's excerpt is redacted");
  const manifest = await Deno.readTextFile(join(root, ".slop", "out", "context_001.json"));
  for (const text of [run.stdout, run.stderr, manifest]) assert.ok(!text.includes(key));
  await Deno.writeTextFile(
    join(root, "slop.config.ts"),
    `const key = "${key}" +;\nexport default {};\n`,
  );
  const broken = await runCliShared(["build"], root);
  assert.notEqual(broken.code, 0);
  assert.ok(!broken.stderr.includes(key) && !broken.stdout.includes(key), broken.stderr);
});

Deno.test("redactText() finds nothing in slop's own placeholders: a redacted Kubernetes Secret (YAML, JSON) or key block scanned again", async () => {
  // A redacted output pasted into a project (docs, a committed manifest) failed
  // --fail-on-secret: the rules that take every value of a block took the placeholders too.
  const texts = [
    "apiVersion: v1\nkind: Secret\ntype: kubernetes.io/tls\ndata:\n  tls.crt: [REDACTED:kubernetes-secret]\n  tls.key: |\n    [REDACTED:kubernetes-secret]\n",
    '{"kind": "Secret", "data": {"token": "[REDACTED:kubernetes-secret]"}}\n',
    "-----BEGIN RSA PRIVATE KEY-----\n[REDACTED:private-key]\n-----END RSA PRIVATE KEY-----\n",
  ];
  for (const text of texts) {
    assert.deepEqual(await redactText(text, "secret.yaml"), { text, findings: [] }, text);
  }
  // A real value beside a placeholder is still found.
  const mixed = "kind: Secret\ndata:\n  a: [REDACTED:kubernetes-secret]\n  b: c2VjcmV0LXZhbHVl\n";
  assert.deepEqual((await redactText(mixed, "s.yaml")).findings, [
    { line: 4, rule: "kubernetes-secret" },
  ]);
});

Deno.test("redactText() of its own output finds nothing: a rule that read a value on past a placeholder (a URL's query after it) or from inside one took it again", async () => {
  // shadcn-ui/ui's builder.test.ts: `api-key=abc123&content-type=application%2Fjson` is redacted
  // to `api-key=[REDACTED:password]&content-type=...`, whose scan again took the placeholder and
  // `&content-type=application%2Fjson` as one value (named-secret). Each text, redacted once, is
  // kept whole by a second scan.
  const texts = [
    '  "https://api.com/table?user-id=123&api-key=abc123&content-type=application%2Fjson"\n',
    "api-key=abc123&content-type=application%2Fjson\n",
    'fetch("https://api.example.com/v1/items?api_key=abc123&format=json&page=2")\n',
    "DATABASE_URL=postgres://admin:S3cr3tPassw0rd@db.internal:5432/app?sslmode=require\n",
    "mysql -u root -pS3cretPass99 mydb < dump.sql\n",
    // trufflehog's jdbc_test.go: a URL's `user:[REDACTED:…]@host` read again as `REDACTED` for
    // the user and the placeholder's rest for the password.
    '\t"jdbc:mysql://testuser:testpassword@tcp(localhost:1521)/testdb",\n',
  ];
  for (const text of texts) {
    const once = await redactText(text, "a.ts");
    assert.ok(once.findings.length, text);
    assert.deepEqual(await redactText(once.text, "a.ts"), { text: once.text, findings: [] }, text);
  }
});

Deno.test("redactText() keeps a Kubernetes Secret's values that are template references (Helm's {{ … }}, ${VAR}), and takes the rest", async () => {
  // A Helm chart's Secret template: its values are expressions, and redacting them lost the chart's
  // logic (21 values of prometheus-community/helm-charts).
  const yaml = [
    "apiVersion: v1",
    "kind: Secret",
    "data:",
    "  tls.crt: {{ b64enc .Values.tls.certificate }}",
    "  relabel.yaml: {{ tpl (toYaml .Values.relabel) . | b64enc | quote }}",
    '  quoted: "{{ .Values.password | b64enc }}"',
    "  env: ${DB_PASSWORD}",
    "  real: c2VjcmV0LXZhbHVl",
    "  mixed: {{ .Values.a }}c2VjcmV0",
    "",
  ].join("\n");
  assert.deepEqual((await redactText(yaml, "secret.yaml")).findings, [
    { line: 8, rule: "kubernetes-secret" },
    { line: 9, rule: "kubernetes-secret" },
  ]);
  const json =
    '{"kind": "Secret", "data": {"a": "{{ .Values.a | b64enc }}", "b": "c2VjcmV0LXZhbHVl"}}\n';
  assert.deepEqual((await redactText(json, "secret.json")).findings, [
    { line: 1, rule: "kubernetes-secret" },
  ]);
  assert.match(
    (await redactText(json, "secret.json")).text,
    /"a": "\{\{ \.Values\.a \| b64enc \}\}"/,
  );
});
