/**
 * A seeded generator of credentials: fresh random values of every kind the
 * secret rules know, written in every common syntax (`.env`, shell
 * `export`, YAML, JSON, TOML, INI, and string literals in Python, JS/TS, Go,
 * Ruby and Java). Each file is kept as segments, so a test knows exactly
 * where each value is and what must survive around it. Used by
 * `generated_secrets_test.ts` and `bench/secrets.ts`.
 *
 * @module
 */

import { prng } from "../_helpers.ts";

/** One credential in a file. */
export interface Planted {
  /** The kind (`aws-secret-access-key`, `github-fine-grained`, …). */
  kind: string;
  /** The syntax of its file. */
  syntax: string;
  /** The value as written in the file (a PEM block with its escapes or indent). */
  value: string;
}

/** A generated file: its text as segments, literal text or a planted value. */
export interface SampleFile {
  path: string;
  syntax: string;
  segments: Array<string | Planted>;
}

const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const B64 = ALNUM + "+/";
const B64URL = ALNUM + "_-";
const HEX = "0123456789abcdef";
const UPPER32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
const LOWER = "abcdefghijklmnopqrstuvwxyz";
const CRYPT = "./" + ALNUM;
const DJANGO = "abcdefghijklmnopqrstuvwxyz0123456789!@#^*-_=+";
const WORDPRESS = ALNUM + "!@#$%^&*()-_ []{}<>~+=,.;:/?|";

/** A credential kind: its name (words) and how to make a value (what is written around it). */
interface Kind {
  kind: string;
  name: string[];
  make(r: Rand, keys: string[]): { pre?: string; value: string; post?: string; pem?: boolean };
}

/** A seeded source of random values (the same seed, the same values). */
export class Rand {
  next: () => number;
  constructor(seed: number) {
    this.next = prng(seed);
  }
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }
  chars(alphabet: string, n: number): string {
    let s = "";
    for (let i = 0; i < n; i++) s += alphabet[Math.floor(this.next() * alphabet.length)];
    return s;
  }
  /** Random characters with at least one digit, upper and lower case letter. */
  mixed(alphabet: string, n: number): string {
    for (;;) {
      const s = this.chars(alphabet, n);
      if (/[0-9]/.test(s) && /[A-Z]/.test(s) && /[a-z]/.test(s)) return s;
    }
  }
}

function b64url(text: string): string {
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/**
 * A PEM block: the DER of a real key (from {@linkcode realKeys}, picked by the seed) or, without
 * keys, random bytes; base64 in lines of 64 as real keys are written. (secretlint's rule checks
 * that the body decodes as a key: random bytes would be unfair to it.)
 */
function pem(r: Rand, label: string, keys: string[]): string {
  let body = keys.length ? r.pick(keys) : "";
  if (!body) {
    const bytes = new Uint8Array(r.int(300, 1200));
    for (let i = 0; i < bytes.length; i++) bytes[i] = r.int(0, 255);
    body = btoa(String.fromCharCode(...bytes));
  }
  const lines = body.match(/.{1,64}/g)!;
  return [`-----BEGIN ${label}-----`, ...lines, `-----END ${label}-----`].join("\n");
}

/**
 * `n` fresh private keys (ECDSA P-256, PKCS#8 DER in base64) made with Web Crypto, for
 * {@linkcode generateSamples}.
 */
export async function realKeys(n: number): Promise<string[]> {
  const keys: string[] = [];
  for (let i = 0; i < n; i++) {
    const pair = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, [
      "sign",
    ]);
    const der = new Uint8Array(await crypto.subtle.exportKey("pkcs8", pair.privateKey));
    keys.push(btoa(String.fromCharCode(...der)));
  }
  return keys;
}

/** Every kind of credential, with the name it is usually stored under. */
export const KINDS: Kind[] = [
  {
    kind: "aws-access-key-id",
    name: ["aws", "access", "key", "id"],
    make: (r) => ({ value: r.pick(["AKIA", "ASIA"]) + r.chars(UPPER32, 16) }),
  },
  {
    kind: "aws-secret-access-key",
    name: ["aws", "secret", "access", "key"],
    make: (r) => ({ value: r.mixed(B64, 40) }),
  },
  {
    kind: "gcp-api-key",
    name: ["google", "api", "key"],
    make: (r) => ({ value: "AIza" + r.chars(B64URL, 35) }),
  },
  {
    kind: "gcp-service-account-key",
    name: ["private", "key"],
    make: (r, keys) => ({ value: pem(r, "PRIVATE KEY", keys), pem: true }),
  },
  {
    kind: "azure-storage-key",
    name: ["azure", "storage", "connection", "string"],
    make: (r) => ({
      pre: `DefaultEndpointsProtocol=https;AccountName=acct${r.int(1, 99)};AccountKey=`,
      value: r.chars(B64, 86) + "==",
      post: ";EndpointSuffix=core.windows.net",
    }),
  },
  {
    kind: "azure-sas-token",
    name: ["azure", "sas", "url"],
    make: (r) => ({
      pre: `https://acct${r.int(1, 99)}.blob.core.windows.net/c/f.txt?sv=2022-11-02&sp=r&sig=`,
      value: r.chars(ALNUM, 43) + "%3D",
    }),
  },
  {
    kind: "azure-client-secret",
    name: ["azure", "client", "secret"],
    make: (r) => ({
      value: r.chars(ALNUM, 3) + r.int(0, 9) + "Q~" + r.chars(ALNUM + "_~.-", 33) +
        r.pick([..."ab"]),
    }),
  },
  {
    kind: "github-classic",
    name: ["github", "token"],
    make: (r) => ({ value: `gh${r.pick([..."pousr"])}_` + r.chars(ALNUM, 36) }),
  },
  {
    kind: "github-fine-grained",
    name: ["gh", "pat"],
    make: (r) => ({ value: "github_pat_" + r.chars(ALNUM, 22) + "_" + r.chars(ALNUM, 59) }),
  },
  {
    kind: "gitlab",
    name: ["gitlab", "token"],
    make: (r) => ({ value: "glpat-" + r.chars(B64URL, 20) }),
  },
  {
    kind: "slack-token",
    name: ["slack", "bot", "token"],
    make: (r) => ({
      value: `xox${r.pick([..."bpa"])}-${r.chars("0123456789", 12)}-${r.chars("0123456789", 13)}-${
        r.chars(ALNUM, 24)
      }`,
    }),
  },
  {
    kind: "slack-webhook",
    name: ["slack", "webhook", "url"],
    make: (r) => ({
      value: `https://hooks.slack.com/services/T${r.chars(UPPER32, 8)}/B${r.chars(UPPER32, 8)}/${
        r.chars(ALNUM, 24)
      }`,
    }),
  },
  {
    kind: "stripe",
    name: ["stripe", "secret", "key"],
    make: (r) => ({
      value: `${r.pick(["sk", "rk"])}_${r.pick(["live", "test"])}_` +
        r.chars(ALNUM, r.int(24, 99)),
    }),
  },
  {
    kind: "sendgrid",
    name: ["sendgrid", "api", "key"],
    make: (r) => ({ value: `SG.${r.chars(B64URL, 22)}.${r.chars(B64URL, 43)}` }),
  },
  {
    kind: "twilio-sid",
    name: ["twilio", "account", "sid"],
    make: (r) => ({ value: r.pick(["AC", "SK"]) + r.chars(HEX, 32) }),
  },
  {
    kind: "twilio-auth-token",
    name: ["twilio", "auth", "token"],
    make: (r) => ({ value: r.chars(HEX, 32) }),
  },
  {
    kind: "openai",
    name: ["openai", "api", "key"],
    make: (r) => ({
      // Project keys hold "T3BlbkFJ" ("OpenAI" in base64) in the middle, as real ones do.
      value: r.next() < 0.7
        ? "sk-proj-" + r.chars(B64URL, 74) + "T3BlbkFJ" + r.chars(B64URL, 74)
        : "sk-" + r.chars(ALNUM, 20) + "T3BlbkFJ" + r.chars(ALNUM, 20),
    }),
  },
  {
    kind: "anthropic",
    name: ["anthropic", "api", "key"],
    make: (r) => ({ value: "sk-ant-api03-" + r.chars(B64URL, 93) + "AA" }),
  },
  {
    kind: "openrouter",
    name: ["openrouter", "api", "key"],
    make: (r) => ({ value: "sk-or-v1-" + r.chars(HEX, 64) }),
  },
  {
    kind: "npm",
    name: ["npm", "token"],
    make: (r) => ({ value: "npm_" + r.chars(ALNUM, 36) }),
  },
  {
    kind: "pypi",
    name: ["pypi", "token"],
    make: (r) => ({ value: "pypi-AgEIcHlwaS5vcmc" + r.chars(B64URL, r.int(60, 150)) }),
  },
  {
    kind: "private-key",
    name: ["tls", "private", "key"],
    make: (r, keys) => ({
      value: pem(r, r.pick(["RSA PRIVATE KEY", "EC PRIVATE KEY", "OPENSSH PRIVATE KEY"]), keys),
      pem: true,
    }),
  },
  {
    kind: "connection-password",
    name: ["database", "url"],
    make: (r) => {
      const scheme = r.pick(["postgres", "postgresql", "mysql", "mongodb+srv", "redis", "amqp"]);
      return {
        pre: `${scheme}://${r.pick(["app", "admin_user", "svc-reader"])}:`,
        value: r.mixed(ALNUM + "-_.~!*", r.int(14, 28)).replace(/^[-_.~!*]+/, "Q"),
        post: `@db${r.int(1, 9)}.example.internal:${r.int(1000, 9999)}/prod`,
      };
    },
  },
  {
    kind: "basic-auth-url",
    name: ["git", "remote"],
    make: (r) => ({
      pre: "https://deploy:",
      value: r.mixed(ALNUM, r.int(16, 32)),
      post: "@git.example.com/team/repo.git",
    }),
  },
  {
    kind: "jwt",
    name: ["access", "token"],
    make: (r) => ({
      value: `${b64url('{"alg":"HS256","typ":"JWT"}')}.${
        b64url(JSON.stringify({ sub: r.chars(ALNUM, 12), iat: r.int(1e9, 2e9) }))
      }.${r.chars(B64URL, 43)}`,
    }),
  },
  {
    kind: "bearer",
    name: ["authorization"],
    make: (r) => ({ pre: "Bearer ", value: r.mixed(ALNUM, r.int(32, 48)) }),
  },
  {
    kind: "password-hash",
    name: ["admin", "hash"],
    make: (r) => ({
      value: r.pick([
        () => `$2${r.pick([..."aby"])}$${r.int(10, 14)}$` + r.chars(CRYPT, 53),
        () => `$6$${r.chars(CRYPT, 16)}$` + r.chars(CRYPT, 86),
        () => `$apr1$${r.chars(CRYPT, 8)}$` + r.chars(CRYPT, 22),
      ])(),
    }),
  },
  {
    kind: "putty-private-key",
    name: ["deploy", "ppk"],
    make: (r) => ({ value: putty(r), pem: true }),
  },
  {
    kind: "git-credentials-url",
    name: ["git", "credentials"],
    make: (r) => ({
      // git's credential store: an email address as the user, an `@` left in the password
      pre: `https://${r.chars(LOWER, r.int(3, 8))}@example.com:`,
      value: r.mixed(ALNUM, r.int(6, 12)) + r.pick(["@", "!#@", "@@"]) + r.chars("0123456789", 3),
      post: "@github.com",
    }),
  },
  {
    kind: "pass-name",
    name: ["db", "pass"],
    make: (r) => ({ value: r.mixed(ALNUM, r.int(8, 14)) }),
  },
  {
    kind: "npm-auth",
    name: ["npm", "auth"],
    // `.npmrc`'s `_auth`: base64 of `user:password`, 12 to 16 characters
    make: (r) => ({ value: btoa(`${r.chars(LOWER, r.int(3, 5))}:${r.mixed(ALNUM, r.int(5, 6))}`) }),
  },
  {
    kind: "laravel-app-key",
    name: ["app", "key"],
    make: (r) => ({ pre: "base64:", value: r.mixed(B64, 43) + "=" }),
  },
  {
    kind: "wordpress-key",
    name: ["logged", "in", "key"],
    make: (r) => ({ value: wordpressKey(r) }),
  },
  {
    kind: "django-secret-key",
    name: ["django", "secret", "key"],
    // Django's alphabet but `%$()&` (a format, a reference, code; see docs/secrets.md), an `=` early
    make: (r) => ({
      value: r.chars(LOWER, 1) + r.chars(DJANGO, r.int(1, 4)) + "=" + r.chars(DJANGO, 44),
    }),
  },
  {
    kind: "tool-env-password",
    // a tool's environment name that no password word ends: `SSHPASS`, `sshpass`, `Sshpass`
    name: ["sshpass"],
    make: (r) => ({ value: r.mixed(ALNUM, r.int(8, 14)) }),
  },
  {
    kind: "element-with-attributes",
    name: ["filezilla", "server"],
    // FileZilla's `<Pass encoding="base64">`: base64 of a password, padded (so not letters alone)
    make: (r) => ({
      pre: "<Pass encoding='base64'>",
      value: btoa(r.mixed(ALNUM, r.pick([7, 8, 10, 11, 13]))),
      post: "</Pass>",
    }),
  },
  {
    kind: "bare-basic",
    // no secret word around it: found by what the base64 decodes to
    name: ["proxy", "header"],
    make: (r) => ({
      pre: "Basic ",
      value: btoa(`${r.chars(LOWER, r.int(3, 8))}:${r.mixed(ALNUM, r.int(6, 12))}`),
    }),
  },
  {
    kind: "short-password-name",
    // `pw` as a name's last word: `LDAP_BIND_PW`, `ldap_bind_pw`, `ldapBindPw`
    name: ["ldap", "bind", "pw"],
    make: (r) => ({ value: r.mixed(ALNUM, r.int(8, 14)) }),
  },
  {
    kind: "vault-token",
    // HashiCorp Vault's tokens: a prefix that ends in `.`, so the whole reads as a member of code
    name: ["vault", "token"],
    make: (r) => ({ value: r.pick(["hvs.", "hvb.", "s."]) + r.mixed(ALNUM, 24) }),
  },
  {
    kind: "jwk-private-key",
    // an EC private key as a JSON Web Key: `d` is the secret (its public `x` and `y` are left
    // out: inside the JSON syntax's `credentials` map, the key-map rule takes them as keys)
    name: ["signing", "jwk"],
    make: (r) => ({
      pre: `{"kty":"EC","crv":"P-256","use":"sig","d":"`,
      value: r.chars(B64URL, 43),
      post: '"}',
    }),
  },
  {
    kind: "random-letters-key",
    // a key of letters alone, in mixed case (no digit, so no token shape)
    name: ["heroku", "api", "key"],
    make: (r) => ({ value: randomLetters(r, r.int(20, 40)) }),
  },
  {
    kind: "oracle-connect",
    // Oracle's `user/password@database` in a JDBC URL: no `://`, so no URL password
    name: ["jdbc", "url"],
    make: (r) => ({
      pre: `jdbc:oracle:thin:${r.pick(["scott", "app_owner", "HR"])}/`,
      value: r.mixed(ALNUM, r.int(10, 20)),
      post: `@db${r.int(1, 9)}.example.internal:1521/ORCL`,
    }),
  },
  {
    kind: "jenkins-secret",
    // Jenkins' stored secret: version 1, a 16-byte IV, the data, in base64 between braces
    name: ["jenkins", "secret"],
    make: (r) => {
      const size = r.pick([16, 32, 48]);
      const bytes = [1, 0, 0, 0, 16, 0, 0, 0, size];
      for (let i = 0; i < 16 + size; i++) bytes.push(r.int(0, 255));
      return { pre: "{", value: btoa(String.fromCharCode(...bytes)), post: "}" };
    },
  },
  {
    kind: "credential-call",
    // a password passed by position to a call that takes credentials: no name before it
    name: ["http", "client"],
    make: (r) => ({
      pre: `${
        r.pick(["HTTPBasicAuth", "NetworkCredential", "UsernamePasswordCredentials", "smtp.login"])
      }("${r.pick(["deploy", "ci@example.com", "svc_reader"])}", "`,
      value: r.mixed(ALNUM, r.int(10, 18)),
      post: '")',
    }),
  },
  {
    kind: "powershell-password",
    // PowerShell's `-Password` parameter, or a SecureString made from plain text
    name: ["vi", "connect"],
    make: (r) => {
      const value = r.mixed(ALNUM + "!@", r.int(10, 16)).replace(/^[!@]/, "Q");
      return r.next() < 0.5
        ? { pre: `Connect-VIServer -Server vc${r.int(1, 9)} -User admin -Password `, value }
        : { pre: "ConvertTo-SecureString '", value, post: "' -AsPlainText -Force" };
    },
  },
  {
    kind: "django-insecure-key",
    // `startproject`'s key: its whole alphabet, `%`, `$` and parentheses too (they read as a
    // format or a reference under a name alone)
    name: ["django", "secret", "key"],
    make: (r) => ({ value: "django-insecure-" + r.chars(DJANGO + "%$()&", 50) }),
  },
  {
    kind: "newrelic-license",
    // New Relic's license key: hex and `NRAL` (most `FFFFNRAL`, an EU region's `eu01xx` first),
    // under a name with no secret word (`newrelic.yml`'s `license:`)
    name: ["new", "relic", "license"],
    make: (r) => ({
      value: (r.next() < 0.5 ? r.chars(HEX, 32) : "eu01xx" + r.chars(HEX, 26)) +
        (r.next() < 0.5 ? "FFFF" : r.chars(HEX, 4)) + "NRAL",
    }),
  },
  {
    kind: "sonar-login",
    // a SonarQube token of 40 hex digits under `sonar.login`, its older name
    name: ["sonar", "login"],
    make: (r) => ({ value: r.chars(HEX, 40) }),
  },
  {
    kind: "psexec-password",
    // PsExec's `-p` in a command kept as a setting
    name: ["deploy", "command"],
    make: (r) => ({
      pre: `${r.pick(["psexec", "PsExec.exe", "psexec64", "paexec"])} -accepteula -u ${
        r.pick(["admin", "svc_deploy", "CORP-ops"])
      } -p `,
      value: r.mixed(ALNUM + "!#", r.int(8, 16)).replace(/^[!#]/, "Q"),
      post: " -h cmd /c deploy.bat",
    }),
  },
  {
    kind: "short-token",
    // a token of 8 to 15 characters under a token's name: letters and digits mixed
    name: ["slack", "token"],
    make: (r) => ({ value: shortToken(r, r.int(8, 15)) }),
  },
  {
    kind: "tool-option-password",
    // a password given to a tool's one-dash option, kept as a setting: no secret word around it
    name: ["deploy", "command"],
    make: (r) => ({
      pre: r.pick([
        "docker login -u ci -p ",
        "podman login registry.example.org -u ci -p ",
        "sqlcmd -S db.internal -U sa -P ",
        "ldapsearch -x -D cn=admin,dc=example,dc=org -w ",
        "mongosh --host db -u admin -p ",
        "openssl pkcs12 -export -in c.pem -passout pass:",
      ]),
      value: r.mixed(ALNUM + "!#", r.int(8, 16)).replace(/^[!#]/, "Q"),
      post: r.pick([" --verbose", " -b dc=example", ""]),
    }),
  },
  {
    kind: "long-option-password",
    // a long option whose name has words before the secret's (`--db-password`, `--client-secret`)
    name: ["deploy", "command"],
    make: (r) => ({
      pre: r.pick([
        "./app migrate --db-password ",
        "az login --service-principal -u app --client-secret ",
        "./cli --auth-token ",
        "curl --oauth2-bearer ",
      ]),
      value: r.mixed(ALNUM + "_-", r.int(12, 40)).replace(/^[-_]/, "Q"),
      post: r.pick([" --tenant t1", " https://api.example.org", ""]),
    }),
  },
  {
    kind: "stdin-password",
    // `echo` piped to `--password-stdin`
    name: ["login", "command"],
    make: (r) => ({
      pre: "echo ",
      value: r.mixed(ALNUM + "!#", r.int(10, 20)).replace(/^[!#]/, "Q"),
      post: r.pick([
        " | docker login -u ci --password-stdin",
        " | helm registry login --password-stdin",
      ]),
    }),
  },
  {
    kind: "go-dsn",
    // Go's MySQL DSN: no `://`, so no URL password
    name: ["database", "dsn"],
    make: (r) => ({
      pre: r.pick(["app:", "root:", "svc_api:"]),
      value: r.mixed(ALNUM + "!#", r.int(8, 20)).replace(/^[!#]/, "Q"),
      post: r.pick(["@tcp(db:3306)/app?parseTime=true", "@unix(/run/mysqld.sock)/app"]),
    }),
  },
  {
    kind: "signed-url",
    // a signed URL's signature under a name that gives nothing away
    name: ["download", "link"],
    make: (r) =>
      r.next() < 0.5
        ? {
          pre:
            "https://bucket.s3.amazonaws.com/report.pdf?X-Amz-Date=20240101T000000Z&X-Amz-Expires=3600&X-Amz-Signature=",
          value: r.chars(HEX, 64),
        }
        : {
          pre: "https://d111.cloudfront.net/a.mp4?Expires=1700000000&Signature=",
          value: r.mixed(ALNUM + "~-", r.int(60, 120)).replace(/^[~-]/, "Q"),
          post: "&Key-Pair-Id=K2JCJMDEHXQW5F",
        },
  },
  {
    kind: "bare-provider-token",
    // providers' tokens of a shape of their own, under a name that gives nothing away
    name: ["client", "config"],
    make: (r) => ({ value: bareProviderToken(r) }),
  },
  {
    kind: "curl-cookie",
    // a session cookie in a curl command, as a browser's "copy as cURL" writes it
    name: ["smoke", "command"],
    make: (r) => ({
      pre: r.pick(["curl -s -b sessionid=", "curl --cookie sid="]),
      value: r.mixed(ALNUM, r.int(24, 40)),
      post: " https://app.example.org/api/me",
    }),
  },
  {
    kind: "positional-password",
    // a password a command takes by position, kept as a setting: no option or name before it
    name: ["deploy", "command"],
    make: (r) => {
      const [pre, post] = r.pick([
        ["htpasswd -b /etc/nginx/.htpasswd admin ", ""],
        ["htpasswd -Bbn deploy ", " > auth/htpasswd"],
        ["net use \\\\fs01\\share /user:CORP\\svc ", " /persistent:no"],
        ["NET USE Z: \\\\fs01\\data ", " /USER:ops"],
        ["rabbitmqctl add_user app ", ""],
        ["rabbitmqctl change_password admin ", ""],
        ["composer config --global http-basic.repo.example.org ci ", ""],
      ]);
      return { pre, value: r.mixed(ALNUM + "!#", r.int(8, 16)).replace(/^[!#]/, "Q"), post };
    },
  },
  {
    kind: "user-token",
    // a token given to curl as a user with no password, as API docs write it
    name: ["smoke", "command"],
    make: (r) => ({
      pre: r.pick(["curl -u ", "curl -s --user "]),
      value: r.next() < 0.5 ? r.chars(HEX, 40) : r.mixed(ALNUM, r.int(24, 40)),
      post: ": https://api.example.org/v1/charges",
    }),
  },
  {
    kind: "azure-devops-pat",
    name: ["azure", "devops", "ext", "pat"],
    make: (r) =>
      r.next() < 0.7
        ? { value: devopsPat(r) }
        : { pre: "https://", value: devopsPat(r), post: "@dev.azure.com/org/project/_git/repo" },
  },
  {
    kind: "query-key",
    // a key in a URL's query (an Azure Function's `?code=`, an API's `?key=`), under a name that
    // gives nothing away
    name: ["webhook", "url"],
    make: (r) => ({
      pre: r.pick([
        "https://fn-app.azurewebsites.net/api/HttpTrigger1?code=",
        "https://api.example.org/v2/geo?lat=52.1&key=",
        "https://ci.example.org/run?name=nightly&code=",
      ]),
      value: r.mixed(ALNUM + "_-", r.int(30, 54)).replace(/^[-_]/, "Q") + r.pick(["", "=="]),
      post: r.pick(["", "&clientId=default"]),
    }),
  },
  {
    kind: "facebook-token",
    name: ["client", "config"],
    make: (r) => ({
      value: "EAA" + r.pick(["B", "G", "J", "M"]) + r.mixed(ALNUM, r.int(150, 200)),
    }),
  },
  {
    kind: "composer-token",
    // a token in Composer's auth.json (or `composer config`), kept as a setting
    name: ["ci", "setup"],
    make: (r) => {
      const value = r.next() < 0.5 ? r.chars(HEX, 40) : r.mixed(ALNUM, 32);
      return r.pick([
        { pre: "composer config --global github-oauth.github.com ", value },
        { pre: '{"github-oauth": {"github.com": "', value, post: '"}}' },
        { pre: '{"gitlab-token": {"gitlab.example.org": "', value, post: '"}}' },
        { pre: '{"bearer": {"repo.example.org": "', value, post: '"}}' },
      ]);
    },
  },
  {
    kind: "continued-token",
    // a token split by a `\` line continuation inside it
    name: ["api", "token"],
    make: (r) => {
      const value = r.mixed(ALNUM, r.int(36, 48));
      const cut = r.int(16, 24);
      return { value: value.slice(0, cut) + "\\\n" + value.slice(cut) };
    },
  },
];

/** An Azure DevOps PAT: 52 of `[a-z0-9]`, or the 84-character format with `AZDO` at 76. */
function devopsPat(r: Rand): string {
  if (r.next() < 0.3) return r.mixed(ALNUM, 76) + "AZDO" + r.chars(ALNUM, 4);
  for (;;) {
    const value = r.chars(LOWER + "0123456789", 52);
    if (/[0-9].*[0-9]/.test(value)) return value;
  }
}

/** One of the provider tokens with a shape of their own added in the ninth leak hunt. */
function bareProviderToken(r: Rand): string {
  const b64url = ALNUM + "_-";
  switch (r.int(0, 7)) {
    case 0:
      return "sk-None-" + r.mixed(ALNUM, 20) + "T3BlbkFJ" + r.mixed(ALNUM, 20);
    case 1:
      return `${r.pick(["hvb.", "hvr."])}` + r.mixed(b64url, r.int(24, 140));
    case 2:
      return "AAAA" + r.mixed(b64url, 7) + ":APA91b" + r.mixed(b64url, 134);
    case 3:
      return "1//0" + r.mixed(b64url, 60);
    case 4:
      return r.chars(HEX, 32) + "-us" + r.int(1, 21);
    case 5:
      return "sb_secret_" + r.mixed(b64url, 31);
    case 6:
      return r.next() < 0.5 ? "LTAI" + r.mixed(ALNUM, 20) : "AKID" + r.mixed(ALNUM, 32);
    default:
      return "hvs." + r.mixed(b64url, 90);
  }
}

/**
 * A short token: letters and digits, two digits or more, the kind changing four times or more
 * (as a generator's output does, not as words and numbers joined do).
 */
function shortToken(r: Rand, n: number): string {
  for (;;) {
    const value = r.chars(ALNUM, n);
    const digits = value.replace(/[^0-9]/g, "").length;
    const changes = value.replace(/[A-Za-z]+/g, "a").replace(/[0-9]+/g, "9").length - 1;
    if (digits >= 2 && n - digits >= 2 && changes >= 4) return value;
  }
}

/**
 * Random letters in mixed case that no reader takes for words: at most one in four a vowel, a run
 * of four with none, a quarter to three quarters in upper case, the case changing at least twice
 * in five letters, no four letters in the alphabet's order (`mnop`).
 * Three in four random values of 20 letters are such.
 */
function randomLetters(r: Rand, n: number): string {
  const letters = ALNUM.slice(0, 52);
  for (;;) {
    const value = r.chars(letters, n);
    const vowels = value.replace(/[^aeiouAEIOU]/g, "").length;
    let changes = 0;
    for (let i = 1; i < n; i++) if ((value[i] < "a") !== (value[i - 1] < "a")) changes++;
    let ordered = false;
    const lower = value.toLowerCase();
    for (let i = 0; i + 3 < n; i++) {
      const c = lower.charCodeAt(i);
      if ([1, 2, 3].every((k) => lower.charCodeAt(i + k) === c + k)) ordered = true;
    }
    const consonants = /[^aeiouyAEIOUY]{4}/.test(value);
    const upper = value.replace(/[^A-Z]/g, "").length;
    const cased = upper * 4 >= n && upper * 4 <= n * 3;
    if (vowels * 4 <= n && changes * 5 >= n * 2 && !ordered && consonants && cased) return value;
  }
}

/**
 * A WordPress key or salt as its generator writes one: 64 printable characters, a few blanks among
 * them (not its quotes, backtick or backslash, which no syntax here could hold as written).
 */
function wordpressKey(r: Rand): string {
  for (;;) {
    const body = r.chars(WORDPRESS, 62);
    const value = r.chars(LOWER, 1) + body + r.chars(ALNUM, 1);
    // WordPress's 64 characters hold a dozen marks besides a token's (`+/=_.:~-`) on average
    const marks = new Set(value.replace(/[A-Za-z0-9 +/=_.:~-]/g, "")).size;
    const blanks = value.split(" ").length - 1;
    if (
      marks >= 4 && blanks <= 3 && !value.includes("  ") && /[A-Z]/.test(value) &&
      /[0-9]/.test(value)
    ) {
      return value;
    }
  }
}

/**
 * A PuTTY private key file (version 3, Ed25519): random key bytes, a random MAC; as PuTTYgen
 * writes one, which {@linkcode generateSamples} places as it places PEM blocks.
 */
function putty(r: Rand): string {
  return [
    "PuTTY-User-Key-File-3: ssh-ed25519",
    "Encryption: none",
    `Comment: eddsa-key-${r.int(20200101, 20251231)}`,
    "Public-Lines: 2",
    "AAAAC3NzaC1lZDI1NTE5AAAAI" + r.chars(B64, 39),
    r.chars(B64, 4),
    "Private-Lines: 1",
    "AAAAI" + r.chars(B64, 43),
    `Private-MAC: ${r.chars(HEX, 64)}`,
  ].join("\n");
}

type Case = "upper" | "snake" | "camel" | "pascal";

function nameOf(words: string[], style: Case): string {
  if (style === "upper") return words.join("_").toUpperCase();
  if (style === "snake") return words.join("_");
  const camel = words.map((w, i) => i ? w[0].toUpperCase() + w.slice(1) : w).join("");
  return style === "camel" ? camel : camel[0].toUpperCase() + camel.slice(1);
}

/** How one syntax writes an entry: the text before and after the value. */
interface Syntax {
  syntax: string;
  ext: string;
  head: string;
  tail: string;
  /** One entry of a single-line value (pre + value + post). */
  line(r: Rand, name: string[], content: [string, string, string], last: boolean): string[];
  /** One entry of a PEM block: the segments before, the value as written, after. */
  block(r: Rand, name: string[], pem: string, last: boolean): [string, string, string];
}

const jsonEscape = (s: string) => s.replace(/\n/g, "\\n");

/** `[before, value, after]` around a content split in three. */
function wrap(before: string, [pre, value, post]: [string, string, string], after: string) {
  return [before + pre, value, post + after];
}

/** Every syntax. */
export const SYNTAXES: Syntax[] = [
  {
    syntax: "env",
    ext: ".env",
    head: "# local settings\nAPP_ENV=production\n",
    tail: "LOG_LEVEL=info\n",
    line: (r, name, c) => {
      const q = r.pick(["", '"', "'"]);
      return wrap(`${nameOf(name, "upper")}=${q}`, c, `${q}\n`);
    },
    block: (_, name, pem) => [`${nameOf(name, "upper")}="`, jsonEscape(pem), '"\n'],
  },
  {
    syntax: "shell",
    ext: ".sh",
    head: "#!/bin/sh\nset -eu\n",
    tail: 'exec "$@"\n',
    line: (r, name, c) => {
      const q = r.pick(["", '"', "'"]);
      return wrap(`export ${nameOf(name, "upper")}=${q}`, c, `${q}\n`);
    },
    block: (_, name, pem) => [`export ${nameOf(name, "upper")}='`, pem, "'\n"],
  },
  {
    syntax: "yaml",
    ext: ".yaml",
    head: "services:\n  app:\n    image: example/app:1.2\n    environment:\n",
    tail: "    restart: always\n",
    line: (r, name, c) => {
      const indent = " ".repeat(r.pick([0, 2, 6, 8]));
      const key = nameOf(name, r.pick(["snake", "upper", "camel"]));
      const style = r.int(0, 3);
      if (style === 3) return wrap(`${indent}${key}: |\n${indent}  `, c, "\n");
      const q = ["", '"', "'"][style];
      return wrap(`${indent}${key}: ${q}`, c, `${q}\n`);
    },
    block: (r, name, pem) => {
      const indent = " ".repeat(r.pick([2, 6]));
      const body = pem.split("\n").join(`\n${indent}  `);
      return [`${indent}${nameOf(name, "snake")}: |\n${indent}  `, body, "\n"];
    },
  },
  {
    syntax: "json",
    ext: ".json",
    head: '{\n  "name": "service",\n  "credentials": {\n',
    tail: '  },\n  "port": 8080\n}\n',
    line: (r, name, c, last) =>
      wrap(`    "${nameOf(name, r.pick(["snake", "camel"]))}": "`, c, `"${last ? "" : ","}\n`),
    block: (_, name, pem, last) => [
      `    "${nameOf(name, "snake")}": "`,
      jsonEscape(pem),
      `\\n"${last ? "" : ","}\n`,
    ],
  },
  {
    syntax: "toml",
    ext: ".toml",
    head: '[server]\nhost = "0.0.0.0"\n\n[secrets]\n',
    tail: "\n[log]\nlevel = 3\n",
    line: (r, name, c) => {
      const q = r.pick(['"', "'"]);
      return wrap(`${nameOf(name, "snake")} = ${q}`, c, `${q}\n`);
    },
    block: (_, name, pem) => [`${nameOf(name, "snake")} = """\n`, pem, '\n"""\n'],
  },
  {
    syntax: "ini",
    ext: ".ini",
    head: "[default]\nregion = eu-west-1\n\n[credentials]\n",
    tail: "\n[output]\nformat = json\n",
    line: (r, name, c) => wrap(`${nameOf(name, "snake")}${r.pick([" = ", "=", ": "])}`, c, "\n"),
    block: (_, name, pem) => [
      `${nameOf(name, "snake")} = `,
      pem.split("\n").join("\n    "),
      "\n",
    ],
  },
  {
    syntax: "python",
    ext: ".py",
    head: 'import os\n\nDEBUG = os.environ.get("DEBUG") == "1"\n',
    tail: '\n\ndef main():\n    return Client(token=os.environ["TOKEN"])\n',
    line: (r, name, c) => {
      const q = r.pick(['"', "'"]);
      const style = r.int(0, 2);
      if (style === 0) return wrap(`${nameOf(name, "upper")} = ${q}`, c, `${q}\n`);
      if (style === 1) return wrap(`SETTINGS["${nameOf(name, "snake")}"] = ${q}`, c, `${q}\n`);
      return wrap(`client = Client(${nameOf(name, "snake")}=${q}`, c, `${q})\n`);
    },
    block: (_, name, pem) => [`${nameOf(name, "upper")} = """`, pem, '"""\n'],
  },
  {
    syntax: "js",
    ext: ".ts",
    head: 'import { Client } from "./client.ts";\n\nexport const config = {\n',
    tail: "};\n\nexport const token: string = process.env.TOKEN ?? '';\n",
    line: (r, name, c) => {
      const q = r.pick(['"', "'", "`"]);
      return wrap(`  ${nameOf(name, "camel")}: ${q}`, c, `${q},\n`);
    },
    block: (_, name, pem) => [`  ${nameOf(name, "camel")}: \``, pem, "`,\n"],
  },
  {
    syntax: "go",
    ext: ".go",
    head: "package main\n\nfunc settings() Config {\n",
    tail: "\treturn Config{}\n}\n",
    line: (r, name, c) => {
      const style = r.int(0, 1);
      if (style === 0) return wrap(`\t${nameOf(name, "camel")} := "`, c, '"\n');
      return wrap(`\t_ = Config{${nameOf(name, "pascal")}: "`, c, '"}\n');
    },
    block: (_, name, pem) => [`\t${nameOf(name, "camel")} := \``, pem, "`\n"],
  },
  {
    syntax: "ruby",
    ext: ".rb",
    head: "module Settings\n",
    tail: "end\n",
    line: (r, name, c) => {
      const q = r.pick(['"', "'"]);
      const style = r.int(0, 2);
      if (style === 0) return wrap(`  ${nameOf(name, "upper")} = ${q}`, c, `${q}\n`);
      if (style === 1) return wrap(`  CONFIG[:${nameOf(name, "snake")}] = ${q}`, c, `${q}\n`);
      return wrap(`  OPTIONS = { :${nameOf(name, "snake")} => ${q}`, c, `${q} }\n`);
    },
    block: (_, name, pem) => [`  ${nameOf(name, "upper")} = "`, jsonEscape(pem), '"\n'],
  },
  {
    syntax: "java",
    ext: ".java",
    head: "package example;\n\npublic final class Settings {\n",
    tail: "}\n",
    line: (r, name, c) => {
      const style = r.int(0, 1);
      if (style === 0) return wrap(`  static final String ${nameOf(name, "upper")} = "`, c, '";\n');
      return wrap(`  private String ${nameOf(name, "camel")} = "`, c, '";\n');
    },
    block: (_, name, pem) => [
      `  static final String ${nameOf(name, "upper")} = "`,
      pem.split("\n").join('\\n" +\n      "'),
      '";\n',
    ],
  },
];

/**
 * One file per syntax, each holding a fresh value of every kind (the same
 * seed and keys give the same files). Private keys are picked from `keys`
 * ({@linkcode realKeys}), or made of random bytes without them.
 *
 * @example
 * ```ts
 * const files = generateSamples(1, await realKeys(2));
 * files.length; // one per syntax
 * ```
 */
export function generateSamples(seed: number, keys: string[] = []): SampleFile[] {
  const r = new Rand(seed);
  return SYNTAXES.map((s) => {
    const segments: Array<string | Planted> = [s.head];
    KINDS.forEach((k, i) => {
      const last = i === KINDS.length - 1;
      const made = k.make(r, keys);
      const planted = (value: string): Planted => ({ kind: k.kind, syntax: s.syntax, value });
      if (made.pem) {
        const [before, value, after] = s.block(r, k.name, made.value, last);
        segments.push(before, planted(value), after);
      } else {
        const [before, value, after] = s.line(
          r,
          k.name,
          [made.pre ?? "", made.value, made.post ?? ""],
          last,
        );
        segments.push(before, planted(value), after);
      }
    });
    segments.push(s.tail);
    return { path: `config/settings_${s.syntax}${s.ext}`, syntax: s.syntax, segments };
  });
}

/** A file's text. */
export function textOf(file: SampleFile): string {
  return file.segments.map((s) => typeof s === "string" ? s : s.value).join("");
}

/** Every planted value of the files. */
export function plantedOf(files: SampleFile[]): Planted[] {
  return files.flatMap((f) => f.segments.filter((s): s is Planted => typeof s !== "string"));
}

/**
 * A pattern for the file's redacted text: its literal text exactly, each
 * value replaced by `[REDACTED:<rule>]`; a value over several lines by a
 * marker on each of its lines, with the line ends and what stands around
 * each line's piece (indent, quotes, a joining operator, a `\`) kept.
 */
export function redactedPattern(file: SampleFile): RegExp {
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const marker = "\\[REDACTED:[a-z0-9-]+\\]";
  const glue = "[ \\t\"'`+.&\\\\,-]{0,16}";
  const lines = `${marker}(?:${glue}(?:\\r\\n|[\\n\\r])${glue}(?:${marker})?)*`;
  const source = file.segments
    .map((s) => typeof s === "string" ? escape(s) : lines)
    .join("");
  return new RegExp(`^${source}$`);
}

/** Every 12-character piece of `value` (the value itself when shorter). */
export function piecesOf(value: string, size = 12): string[] {
  if (value.length <= size) return [value];
  const out: string[] = [];
  for (let i = 0; i + size <= value.length; i++) out.push(value.slice(i, i + size));
  return out;
}
