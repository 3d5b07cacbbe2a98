// The twelfth leak hunt: the classes the eleventh left (a passphrase of words with `test` among
// them, a key under a map's name, a key file named on its own, a secret piped to a login, JSON
// escaped twice, a concatenation whose first part is short, a short query value) and their
// look-alikes that stay as written.
import assert from "node:assert/strict";
import { redactSync, redactText } from "../../pipeline/_scan.ts";

/** Asserts that each `[text, expected]` redacts to `expected`. */
function redactsTo(cases: Array<[string, string]>): void {
  for (const [text, expected] of cases) assert.equal(redactSync(text).text, expected, text);
}

Deno.test("a passphrase of words with `test` among them is redacted; a test's stand-in stays", () => {
  redactsTo([
    ['{"passphrase": "test-river-stone-maple"}\n', '{"passphrase": "[REDACTED:password]"}\n'],
    ["password: testing-maple-river\n", "password: [REDACTED:password]\n"],
    ["DB_PASSWORD=maple-test-river\n", "DB_PASSWORD=[REDACTED:password]\n"],
    ["api_key = 'mock.orbit.lantern'\n", "api_key = '[REDACTED:password]'\n"],
  ]);
  const kept = [
    "api_key = 'test_api_key_0001'\n",
    'secret: "test-only"\n',
    '{"password": "fake-user-password"}\n',
    "JWT_SECRET=testing_jwt_secret_do_not_use\n",
    'client_secret: "mock-client-secret"\n',
    "SESSION_SECRET=test_session\n",
  ];
  for (const text of kept) assert.equal(redactSync(text).text, text);
});

Deno.test("a random key under a name whose last word is `key` is redacted, nested or not", () => {
  const v = "jRrLkX6U75IshyouTP3T0by1EUUoXqtZjw2YvGWD";
  const b = "q3Zk8/Xw1+Lr5TnB2vYc9HmPd0Aa7EwGtJqLsN4oP6s=";
  redactsTo([
    [
      `{\n  "Jwt": {\n    "Key": "${v}",\n    "Issuer": "acme"\n  }\n}\n`,
      `{\n  "Jwt": {\n    "Key": "[REDACTED:named-secret]",\n    "Issuer": "acme"\n  }\n}\n`,
    ],
    [
      `{"SendGrid": {"Key": "${v}", "From": "a@b.c"}}\n`,
      `{"SendGrid": {"Key": "[REDACTED:named-secret]", "From": "a@b.c"}}\n`,
    ],
    [
      `jwt:\n  key: ${b}\n  expiration: 3600\n`,
      `jwt:\n  key: [REDACTED:named-secret]\n  expiration: 3600\n`,
    ],
    [`SENDGRID_KEY=${v}\n`, `SENDGRID_KEY=[REDACTED:named-secret]\n`],
    [`const jwtKey = "${b}";\n`, `const jwtKey = "[REDACTED:named-secret]";\n`],
  ]);
  const kept = [
    // an S3 object's path, a hash, words, a name of code, a public key, an id, a short value
    `{"Bucket": "acme", "Key": "uploads/2026/11/Report2024Final.pdf"}\n`,
    `{"Key": "Uploads/User123/Profile"}\n`,
    `sort_key: "CreatedAt2024ByUserName"\n`,
    `key = getUserAccountKey2ForTest3(id)\n`,
    `{"PublicKey": "${v}"}\n`,
    `{"Key": "Xk29fPq3Lm"}\n`,
    `  monkey: ${v}\n`,
    // a WebSocket handshake's nonce (mojolicious' routing guide)
    "  Sec-WebSocket-Key: IDM3ODE4NDk2MjA1OTcxOQ==\n",
  ];
  for (const text of kept) assert.equal(redactSync(text).text, text);
});

Deno.test("a key a browser is given (publishable, VAPID, a request's nonce) stays under a `key` name", () => {
  const vapid =
    "BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LRgDhgDqe1fUA8W0kr6XPXcLoxCe2yOcFh3XbkqJ2X1Y0M";
  const kept = [
    // Stripe's and Clerk's publishable keys: made to be sent to the browser
    "STRIPE_PUBLISHABLE_KEY=pk_live_51HqLyjWDarjtT1zdp7dcXcWq0u6x\n",
    'const stripe = Stripe({ publishableKey: "pk_test_TYooMQauvdEDq54NiTphI7jx" });\n',
    'export const stripeKey = "pk_live_51HqLyjWDarjtT1zdp7dcXcWq0u6x";\n',
    // Web Push's public key (Firebase's getToken, PushManager.subscribe)
    `getToken(messaging, { vapidKey: "${vapid}" });\n`,
    `const applicationServerKey = "${vapid}";\n`,
    // a request's nonce, as the WebSocket handshake's
    'headers = {"Idempotency-Key": "Kx9fQ2mZ7pLw4tR8vN3yB6cH"}\n',
  ];
  for (const text of kept) assert.equal(redactSync(text).text, text);
  // a private VAPID key and a secret Stripe key stay redacted
  redactsTo([
    [
      `vapidPrivateKey = "${vapid.slice(0, 43)}"\n`,
      `vapidPrivateKey = "[REDACTED:named-secret]"\n`,
    ],
    [
      "stripeKey = 'rk_live_51HqLyjWDarjtT1zdp7dcXcWq0u6x'\n",
      "stripeKey = '[REDACTED:stripe]'\n",
    ],
  ]);
});

Deno.test("a file that holds a key alone is redacted (Rails' master.key), whatever its name", async () => {
  const key = "1c1dafbaef8b9a658b7638578d4aede6";
  redactsTo([
    [`${key}\n`, "[REDACTED:key-file]\n"],
    [key, "[REDACTED:key-file]"],
    [`\uFEFF${key}${key}\r\n`, "\uFEFF[REDACTED:key-file]\r\n"],
  ]);
  // As a build reads a named `config/credentials/production.key`.
  const { text } = await redactText(`${key}\n`, "config/credentials/production.key");
  assert.equal(text, "[REDACTED:key-file]\n");
  // A number, a commit id (40 digits), a hash with its file's name, a key among other text.
  const kept = [
    "12345678901234567890123456789012\n",
    "3f2a9c1b7d4e5f60718293a4b5c6d7e8f9a0b1c2\n",
    `${key}  dist/app.tar.gz\n`,
    `# checksum\n${key}\n`,
  ];
  for (const t of kept) assert.equal(redactSync(t).text, t);
});

Deno.test("a secret written into a pipe to a login that reads it is redacted", () => {
  const pat = "lhe4rw475zeunfmitg4avlx423xze2fztfe4qho6b3c5xawloapw";
  const gh = "github_pat_" + "Ab3".repeat(27) + "x";
  redactsTo([
    [
      `echo ${pat} | az devops login --organization https://dev.azure.com/org\n`,
      "echo [REDACTED:password] | az devops login --organization https://dev.azure.com/org\n",
    ],
    [
      `"${pat}" | az devops login --org https://dev.azure.com/acme\n`,
      '"[REDACTED:password]" | az devops login --org https://dev.azure.com/acme\n',
    ],
    [
      `Write-Output 'Tr0ub4dor&3x' | docker login -u bob --password-stdin\n`,
      "Write-Output '[REDACTED:password]' | docker login -u bob --password-stdin\n",
    ],
    [
      `echo Tr0ub4dor3xQ | gh auth login --with-token\n`,
      "echo [REDACTED:password] | gh auth login --with-token\n",
    ],
    [
      `echo ${gh} | gh auth login --with-token\n`,
      "echo [REDACTED:github] | gh auth login --with-token\n",
    ],
  ]);
  const kept = [
    'echo "$AZURE_DEVOPS_PAT" | az devops login\n',
    "cat pat.txt | az devops login --org https://dev.azure.com/acme\n",
    "echo $GH_TOKEN | gh auth login --with-token\n",
    "echo 'y' | az devops login\n",
    '"$env:PAT" | az devops login\n',
  ];
  for (const text of kept) assert.equal(redactSync(text).text, text);
});

Deno.test("a secret in JSON escaped twice (JSON in a JSON string in a JSON string) is redacted", () => {
  redactsTo([
    [
      String.raw`{"body": "{\"config\": \"{\\\"password\\\":\\\"QNemoKB6kJ!Zh6\\\"}\"}"}` + "\n",
      String.raw`{"body": "{\"config\": \"{\\\"password\\\":\\\"[REDACTED:password]\\\"}\"}"}` +
      "\n",
    ],
    [
      String.raw`"{\\\"api_key\\\": \\\"Uk1t8jWZZt953gTD3OObXLZNeBytfipF\\\"}"` + "\n",
      String.raw`"{\\\"api_key\\\": \\\"[REDACTED:named-secret]\\\"}"` + "\n",
    ],
    [
      String.raw`"{\\\"token\\\":\\\"a8Kx29fPq1\\\"}"` + "\n",
      String.raw`"{\\\"token\\\":\\\"[REDACTED:named-secret]\\\"}"` + "\n",
    ],
  ]);
  // References and words stay, escaped twice as once.
  const kept = [
    String.raw`"{\\\"password\\\": \\\"${"$"}{DB_PASSWORD}\\\"}"` + "\n",
    String.raw`"{\\\"password\\\": \\\"Password\\\"}"` + "\n",
  ];
  for (const text of kept) assert.equal(redactSync(text).text, text);
});

Deno.test("a value split over literals whose first part is short is redacted whole", () => {
  redactsTo([
    [
      "const apiKey = '0Uah' + 'RMPorzQB2CCkyp31nkkoPV5xkZtJ';\n",
      "const apiKey = '[REDACTED:named-secret]';\n",
    ],
    ['DB_PASSWORD = "ab" + "cd3f9Xk2"\n', 'DB_PASSWORD = "[REDACTED:password]"\n'],
    // (a marker on each line: the document keeps its lines)
    [
      "$password = 'x7' .\n  'Qp2Zr9Lw';\n",
      "$password = '[REDACTED:password]' .\n  '[REDACTED:password]';\n",
    ],
  ]);
  // Words joined stay: a prefix and a reference, a label, a path.
  const kept = [
    'password = "pre" + suffix\n',
    'token = "Bearer " + accessToken\n',
    'api_key = "sk-" + "your-key-here"\n',
    'secret_path = "/etc/" + "app/secret.txt"\n',
  ];
  for (const text of kept) assert.equal(redactSync(text).text, text);
});

Deno.test("a short `?code=` or `?key=` that mixes its characters as a generator does is redacted", () => {
  redactsTo([
    [
      'curl "https://fn.azurewebsites.net/api/Hook?code=S47Qk7uWomoLZM"\n',
      'curl "https://fn.azurewebsites.net/api/Hook?code=[REDACTED:named-secret]"\n',
    ],
    [
      "https://api.example.com/v1/q?key=a8Kx29fPq1&q=x\n",
      "https://api.example.com/v1/q?key=[REDACTED:named-secret]&q=x\n",
    ],
    [
      "https://maps.example.com/x?key=Zq4Lm7Xw2Pc9Rt5Vb\n",
      "https://maps.example.com/x?key=[REDACTED:named-secret]\n",
    ],
  ]);
  const kept = [
    "https://example.com/?code=abc123\n",
    "https://example.com/cb?code=AUTHCODE\n",
    "&key=build-cache-key-linux\n",
    "https://shop.example.com/p?code=SUMMER2024\n",
    "https://example.com/r?code=ERR_404_NOT_FOUND\n",
  ];
  for (const text of kept) assert.equal(redactSync(text).text, text);
});

Deno.test("a password given to a DSL's call with no parentheses, on a line of its own, is redacted", () => {
  redactsTo([
    [
      '    storePassword "Tj1jue0BPy!Cz6"\n    keyAlias "release"\n',
      '    storePassword "[REDACTED:password]"\n    keyAlias "release"\n',
    ],
    ["  keyPassword 'k3yP4ss!x'\n", "  keyPassword '[REDACTED:password]'\n"],
    [
      "credentials {\n  username 'bob'\n  password 'S3cr3t-9x'\n}\n",
      "credentials {\n  username 'bob'\n  password '[REDACTED:password]'\n}\n",
    ],
  ]);
  const kept = [
    '    storePassword System.getenv("STORE_PASSWORD")\n',
    '    keyPassword "${keyPass}"\n',
    '  password "Password"\n',
    'print password "is hunter2x"\n',
    'the password "hunter2x" is what we used\n',
  ];
  for (const text of kept) assert.equal(redactSync(text).text, text);
});

// fuzz18 bounded a joined window to 2 KB before its first joint and after its last: a value
// whose part before a `\` continuation or a `+` is longer (a base64 key, a token kept on one long
// line) was read from its middle, its name cut off, and was left whole or in part.
Deno.test("a value split over a continuation or literals, its part before the joint past 2 KB, is redacted whole", () => {
  const part = (n: number, seed: number) =>
    Array.from({ length: n }, (_, i) => "Kq7Zx2Lm9Pw4Rt8V"[(i * 7 + seed + (i >> 4)) % 16]).join(
      "",
    );
  for (const n of [2000, 2100, 5000]) {
    const [a, b] = [part(n, 1), part(30, 5)];
    const cases: Array<[string, string[]]> = [
      [`SECRET_KEY="${a}\\\n${b}"\n`, ["SECRET_KEY=", "\n"]],
      [`PRIVATE_KEY="${a}/+\\\n  ${b}"\n`, ["PRIVATE_KEY=", "\n"]],
      [`secret_key = "${a}" + "${b}"\n`, ["secret_key = ", "\n"]],
      [`token = "eyJhbGciOiJIUzI1NiJ9.eyJ${a}" +\n "${b}.${part(43, 3)}"\n`, ["token = "]],
    ];
    for (const [text, kept] of cases) {
      const out = redactSync(text).text;
      for (const piece of [a.slice(-24), b]) {
        assert.ok(!out.includes(piece), `${n}: ${out.slice(-160)}`);
      }
      for (const piece of kept) assert.ok(out.includes(piece), `${n}: ${out.slice(0, 80)}`);
    }
  }
});
