import assert from "node:assert/strict";
import { redactText } from "../../pipeline/secrets.ts";

/** Code and prose around password names that holds no password: each must stay as written. */
const LEFT_ALONE: Array<[string, string]> = [
  ["a.py", "self.username, self.password = credentials\n"],
  ["b.ts", "url.password = this.#internals.password;\nconst value = url ? url.password : x;\n"],
  ["c.ts", "await got({password: 'new-password'});\nclientKeyPassword: 'randomPassword',\n"],
  ["d.json", '{"password": "Password", "confirmPassword": "Confirm password"}\n'],
  ["e.css", ".input-password:focus-visible { outline: none; }\n"],
  ["f.py", 'raise TypeError("pwd: expected bytes, got %s" % type(pwd).__name__)\n'],
  ["g.ts", "interface A {\n  secret: boolean;\n  password: string;\n}\n"],
  ["h.py", "def f(password: Optional[str] = None, secret: SecretStr = None): ...\n"],
  ["i.py", 'password_hash = "$2b$12$abcdefghijklmnopqrstuv"\nsecret_name = "tls-cert-prod"\n'],
  ["j.yaml", "env:\n  - name: DB_PASSWORD\n    valueFrom:\n      secretKeyRef:\n        key: pw\n"],
  ["Dockerfile", "ENV PASSWORD_FILE /run/secrets/db\nENV API_TOKEN ${API_TOKEN}\n"],
  ["k.md", "The password combination.\nSet `password = os.environ['PW']` first.\n"],
  ["l.yaml", "spec:\n  secretName: tls-cert\n  password: {{ .Values.password }}\n"],
  ["m.env", "DB_PASSWORD=${DB_PASSWORD}\nAPI_KEY=$API_KEY\nSECRET_KEY=%(secret)s\n"],
  // Code inside a JSON string (escaped newlines), and a pattern's source.
  ["n.json", '["const apiKey = config.secrets.apiKey2024;\\nconst key = 1;\\n"]\n'],
  ["o.ts", 'const HINTS = [{ rule: "npm", source: "_authToken=|npm_|x-oauth-basic" }];\n'],
];

Deno.test("a password name over code, types, references and stand-ins finds nothing", async () => {
  for (const [path, text] of LEFT_ALONE) {
    const result = await redactText(text, path);
    assert.deepEqual(result.findings, [], `${path}: ${result.text}`);
  }
});

Deno.test("a value under a password name is redacted whatever its shape, only the value", async () => {
  const cases: Array<[string, string, string]> = [
    [".env", "DB_PASSWORD=hunter2hunter2\n", "DB_PASSWORD=[REDACTED:password]\n"],
    ["a.yaml", "db:\n  password: S3cr3t!pw\n", "db:\n  password: [REDACTED:password]\n"],
    ["a.py", 'connect(password="correct-horse-9")\n', 'connect(password="[REDACTED:password]")\n'],
    ["a.ts", "const apiKey = `my-key-2024`;\n", "const apiKey = `[REDACTED:password]`;\n"],
    ["a.xml", "<password>pa55word!</password>\n", "<password>[REDACTED:password]</password>\n"],
    ["a.ini", "[db]\nsecret_key = Xy9_abcdef\n", "[db]\nsecret_key = [REDACTED:password]\n"],
    [
      "a.sh",
      'export PGPASSWORD="S3cr3t Passw0rd two"\n',
      'export PGPASSWORD="[REDACTED:password]"\n',
    ],
    [
      ".netrc",
      "machine h login me password pa55-word\n",
      "machine h login me password [REDACTED:password]\n",
    ],
  ];
  for (const [path, text, expected] of cases) {
    assert.equal((await redactText(text, path)).text, expected, path);
  }
});
