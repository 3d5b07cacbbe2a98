import { keeps, redactsValue } from "./_redacts.ts";

Deno.test("redactText() keeps a constant whose value repeats the end of its own name", async () => {
  // chromedp's cdproto (vendored by grafana/k6): Go's string enums name each constant after its
  // type and value, `XReasonConfigNotInWellKnown XReason = "ConfigNotInWellKnown"`.
  await keeps(
    "types.go",
    "const (\n\tFederatedAuthRequestIssueReasonConfigNotInWellKnown FederatedAuthRequestIssueReason = " +
      '"ConfigNotInWellKnown"\n\tTokenKindRefreshTokenRotatedByServer TokenKind = "RefreshTokenRotatedByServer"\n)\n',
  );
  // A value that is not its name's end is still read.
  await redactsValue(
    '\tGithubToken Credential = "kXqPzRtWvBnMlYhGfDsAqWe"\n',
    "kXqPzRtWvBnMlYhGfDsAqWe",
    "creds.go",
  );
});

Deno.test("redactText() keeps a name of code given unquoted in a source file", async () => {
  // esbuild's js_lexer.go (vendored by grafana/k6): `lexer.Token = TLessThanLessThan` is a
  // constant of the lexer, not a token of letters.
  await keeps("js_lexer.go", "\t\t\tdefault:\n\t\t\t\tlexer.Token = TLessThanLessThan\n\t\t\t}\n");
  await keeps("a.ts", "    state.token = TokenKindOpenBracket;\n");
  await keeps("A.java", "        this.authToken = DefaultAuthorizationHeader;\n");
  // The same letters in a data file, or random letters in a source file, are still a token.
  await redactsValue("token: TLessThanLessThanQq\n", "TLessThanLessThanQq", "config.yaml");
  await redactsValue(
    "\tlexer.Token = kXqPzRtWvBnMlYhGfD\n",
    "kXqPzRtWvBnMlYhGfD",
    "a.go",
  );
});

Deno.test("redactText() keeps a parameter's pointer type and a test runner's PASS line", async () => {
  // golang.org/x/sys/windows (vendored by grafana/k6): `//sys` comments declare the functions,
  // `password *uint16` a parameter; goja's extract_passed_tests.sh greps `PASS: TestTC39/…`.
  await keeps(
    "syscall_windows.go",
    "//sys\tPFXImportCertStore(pfx *CryptDataBlob, password *uint16, flags uint32) (store Handle, err error) = crypt32.PFXImportCertStore\n",
  );
  await keeps(
    "extract_passed_tests.sh",
    "sed -En 's/^.*PASS: TestTC39\\/tc39\\/(test\\/.*.js).*$/\\1/p' | sort -u\n",
  );
  await keeps("ci.log", "--- PASS: TestLoginWithToken2 (0.00s)\n");
  // A password after its word in a comment is still one.
  await redactsValue("// log in with password S3cr3t!x9 for now\n", "S3cr3t!x9", "a.go");
});

Deno.test("redactText() keeps a repository's issue reference under a known account's name", async () => {
  // grafana/k6's release notes: `grafana/xk6-browser#1268` is a pull request of the
  // grafana organisation, not the `grafana` account's password.
  await keeps(
    "release notes/v0.51.0.md",
    "### Browser `Tap` is now an async method grafana/xk6-browser#1268\n",
  );
  await keeps("CHANGELOG.md", "- Fixed the login page (admin/panel-ui#42, see root/setup#7)\n");
  // An account's password joined by `/` is still one.
  await redactsValue("Log in as grafana/Gr4f#na2024 first.\n", "Gr4f#na2024", "README.md");
});

Deno.test("redactText() keeps a dotted name under a key's name: an event namespace, a class, a dotfile", async () => {
  // Bootstrap's plugins (vendored by netbox-community/netbox, and by countless sites):
  // `const DATA_API_KEY = '.data-api'` names the events' namespace, also inside a source map.
  await keeps("collapse.js", "const DATA_KEY = 'bs.collapse'\nconst DATA_API_KEY = '.data-api'\n");
  await keeps(
    "netbox.js.map",
    '{"sourcesContent":["const EVENT_KEY = `.${DATA_KEY}`\\nconst DATA_API_KEY = \'.data-api\'\\n"]}',
  );
  await keeps(
    "a.py",
    'PASSWORD_FILE_NAME = None\nhtpasswd = ".htpasswd"\nSECRET_KEY_FILE = ".env-local"\n',
  );
  // A value with a digit, a capital or a mark is still a password.
  await redactsValue("const DATA_API_KEY = '.k3Xq-p9Zr'\n", ".k3Xq-p9Zr", "a.js");
  await redactsValue("password = '.hunter2-now'\n", ".hunter2-now", "a.py");
});

Deno.test("redactText() keeps the alphabet written out as a test's key", async () => {
  // netbox's configuration_testing.py: `SECRET_KEY = 'abcdef…XYZ0123456789'`, typed, not generated.
  await keeps(
    "configuration_testing.py",
    "SECRET_KEY = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'\n",
  );
  await keeps("a.env", "API_TOKEN=0123456789abcdefABCDEF\n");
  // A key with a run of the alphabet inside random characters is still a key.
  await redactsValue(
    "SECRET_KEY = 'abcdefq8Zp3LmW0xRt7YvKd2Nj'\n",
    "abcdefq8Zp3LmW0xRt7YvKd2Nj",
    "settings.py",
  );
});

Deno.test("redactText() keeps what names a secret's place in Kubernetes and Traefik configs", async () => {
  // traefik/traefik's docs and fixtures: a URN of a Kubernetes secret's key, an ingress
  // annotation's `namespace/name`, a key-value store's path of names.
  await keeps(
    "oidc.md",
    '  secret: "urn:k8s:secret:my-secret:clientSecret"\n    password: urn:k8s:secret:oidc:redisPass\n',
  );
  await keeps("ingress.yml", '    nginx.ingress.kubernetes.io/auth-secret: "default/basic-auth"\n');
  await keeps(
    "kv.md",
    '<a title="#opt-x">`traefik/tls/options/Options0/clientAuth/caFiles/0`</a>\n',
  );
  await keeps("kv.yml", "clientAuth: traefik/tls/options/Options0/clientAuth/caFiles/0\n");
  // A password with a digit or a mark, and a base64 secret with its `/`s, are still secrets.
  await redactsValue('    password: "hunter2/basic-auth"\n', "hunter2/basic-auth", "a.yml");
  await redactsValue(
    "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYzzAMPLEKEY\n",
    "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzzAMPLEKEY",
    ".env",
  );
});

Deno.test("redactText() keeps a key's fingerprint, a certificate in base64 and a cookie's URL", async () => {
  // traefik/traefik's web UI mocks and ingress fixtures: a fingerprint is a digest of a public
  // key; `LS0tLS1CRUdJTi…` is base64 of `-----BEGIN CERTIFICATE-----`; curl's sticky cookie names
  // its server by URL.
  const hex = "b2c3d4e5f60708090a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f6071";
  await keeps(
    "certs.json",
    `{\n  "publicKeyFingerprint": "${hex}",\n  "cert_thumbprint": "${hex}"\n}\n`,
  );
  await keeps("secrets.yml", "data:\n  tls.key: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0t\n");
  await keeps(
    "service.md",
    'curl -b "lvl1=whoami1; lvl2=http://127.0.0.1:8081" http://localhost:8000\n',
  );
  // The same hex under a key's own name, a private key's base64 and a session cookie are secrets.
  await redactsValue(`{\n  "apiKey": "${hex}"\n}\n`, hex, "a.json");
  const privatePem = btoa("-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAx");
  await redactsValue(`data:\n  tls.key: ${privatePem}\n`, privatePem, "secrets.yml");
  await redactsValue('curl -b "sid=Zx81kQp0aL5tR2mW9nB4" x\n', "Zx81kQp0aL5tR2mW9nB4", "a.md");
});

Deno.test("redactText() keeps a template literal made at run time and a default list of names", async () => {
  // getredash/redash: a notification's key built from Math.random(), and the JWT algorithms an
  // environment read falls back to under a name with `AUTH` in it.
  await keeps(
    "AddToDashboardDialog.jsx",
    "        const key = `notification-${Math.random().toString(36).substr(2, 10)}`;\n",
  );
  await keeps(
    "organization.py",
    'JWT_AUTH_ALGORITHMS = os.environ.get("REDASH_JWT_AUTH_ALGORITHMS", "HS256,RS256,ES256").split(",")\n',
  );
  // A generated default and a random key in backticks without code in them are still secrets.
  await redactsValue(
    'T = os.environ.get("SLACK_TOKEN", "xq9Zk2LmP7wRt4VbN8cYd3")\n',
    "xq9Zk2LmP7wRt4VbN8cYd3",
    "a.py",
  );
  const key = "MW1pxMctoyA(>M%0Vl 2(#o0|2$cB+K|.G$hB~4Juw@]:(5;oVUl<<W3^e_R-fg";
  await redactsValue(`AUTH_KEY = \`${key}\`;\n`, key, "a.js");
});
