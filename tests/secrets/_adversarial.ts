/**
 * A seeded adversarial corpus for the secret scan: every credential kind of
 * `_samples.ts` plus passwords of any shape, encrypted, PKCS#8, OpenSSH and
 * PGP private keys and base64-wrapped keys, each written in every placement
 * an outside project uses (line endings, BOM, tabs, quotes, JSON escapes,
 * notebooks, Dockerfiles, compose, Kubernetes, Terraform, XML, minified JS,
 * the very start or end of a file, a 1 MB line). Values are made at test time
 * from the seed: no live-looking key is a literal here.
 *
 * @module
 */

import { KINDS, Rand } from "./_samples.ts";

/** One credential as a program would use it (a PEM block with real newlines). */
export interface Secret {
  kind: string;
  /** The whole value written (a database URL, a connection string). */
  value: string;
  /** The part that must not survive (the URL's password; else the value). */
  hidden: string;
  /** Whether it spans lines (a private key). */
  block: boolean;
}

/** A placed secret: the file's text and path, and where the value sits. */
export interface Placed {
  kind: string;
  placement: string;
  path: string;
  text: string;
  /** The part that must not survive, raw. */
  hidden: string;
  /** The same as the file writes it when that differs (JSON-escaped, base64). */
  encoded?: string;
}

const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const SYMBOLS = "!@#%^*-_+=.~?";

/** `n` random bytes in base64, in lines of 64 as PEM writes them. */
function base64Lines(r: Rand, n: number): string[] {
  const bytes = new Uint8Array(n);
  for (let i = 0; i < n; i++) bytes[i] = r.int(0, 255);
  return btoa(String.fromCharCode(...bytes)).match(/.{1,64}/g)!;
}

/** Private key blocks as tools write them: PKCS#8, encrypted, PKCS#1 with headers, OpenSSH, PGP. */
function privateKey(r: Rand): string {
  const body = base64Lines(r, r.int(200, 700));
  switch (r.int(0, 4)) {
    case 0:
      return ["-----BEGIN PRIVATE KEY-----", ...body, "-----END PRIVATE KEY-----"].join("\n");
    case 1:
      return [
        "-----BEGIN ENCRYPTED PRIVATE KEY-----",
        ...body,
        "-----END ENCRYPTED PRIVATE KEY-----",
      ]
        .join("\n");
    case 2:
      return [
        "-----BEGIN RSA PRIVATE KEY-----",
        "Proc-Type: 4,ENCRYPTED",
        `DEK-Info: AES-128-CBC,${r.chars("0123456789ABCDEF", 32)}`,
        "",
        ...body,
        "-----END RSA PRIVATE KEY-----",
      ].join("\n");
    case 3:
      return ["-----BEGIN OPENSSH PRIVATE KEY-----", ...body, "-----END OPENSSH PRIVATE KEY-----"]
        .join("\n");
    default:
      return [
        "-----BEGIN PGP PRIVATE KEY BLOCK-----",
        "Version: GnuPG v2",
        "",
        ...body,
        `=${r.chars(ALNUM, 4)}`,
        "-----END PGP PRIVATE KEY BLOCK-----",
      ].join("\n");
  }
}

/** A password as people choose them: symbols, a passphrase, letters and digits. */
function password(r: Rand): string {
  switch (r.int(0, 2)) {
    case 0:
      return r.mixed(ALNUM, 6) + r.chars(SYMBOLS, 2) + r.mixed(ALNUM, 8);
    case 1:
      return Array.from({ length: 4 }, () => r.chars("abcdefghijklmnopqrstuvwxyz", r.int(4, 7)))
        .join("-") + r.int(10, 99);
    default:
      return r.chars("abcdefghijklmnopqrstuvwxyz", 8) + r.int(1000, 9999);
  }
}

/** The secrets of one seed: one of every kind of `_samples.ts`, a password and a private key. */
export function secretsOf(seed: number): Secret[] {
  const r = new Rand(seed);
  const out: Secret[] = [];
  for (const k of KINDS) {
    const made = k.make(r, []);
    // Keys are made below, in more shapes; a bearer token is a header's value, not a setting.
    if (made.pem || k.kind === "bearer") continue;
    const value = (made.pre ?? "") + made.value + (made.post ?? "");
    out.push({ kind: k.kind, value, hidden: made.value, block: false });
  }
  for (let i = 0; i < 3; i++) {
    const value = password(r);
    out.push({ kind: "password", value, hidden: value, block: false });
  }
  // Longer than a pattern reads at once: an AWS session token, a long password.
  const session = "IQoJb3JpZ2luX2Vj" + r.mixed(ALNUM + "+/", r.int(1100, 1600)) + "==";
  out.push({ kind: "aws-session-token", value: session, hidden: session, block: false });
  const long = r.mixed(ALNUM, 150) + r.chars(SYMBOLS, 2) + r.mixed(ALNUM, 150);
  out.push({ kind: "password", value: long, hidden: long, block: false });
  for (let i = 0; i < 2; i++) {
    const value = privateKey(r);
    out.push({ kind: "private-key", value, hidden: value, block: true });
  }
  return out;
}

/** The name a kind is stored under (a password under a password name). */
export function nameFor(kind: string): string {
  if (kind === "password") return "DB_PASSWORD";
  if (kind === "private-key") return "TLS_PRIVATE_KEY";
  if (kind === "aws-session-token") return "AWS_SESSION_TOKEN";
  const k = KINDS.find((k) => k.kind === kind)!;
  return k.name.join("_").toUpperCase();
}

const json = (s: string) => JSON.stringify(s).slice(1, -1);
const lower = (name: string) => name.toLowerCase();

/** A placement: how a file around a value reads, for single-line values and for blocks. */
export interface Placement {
  name: string;
  path: string;
  /** Whether it can hold a multi-line value. */
  block: boolean;
  single: boolean;
  write(name: string, value: string): { text: string; encode?: (s: string) => string };
}

function plain(
  name: string,
  path: string,
  around: (n: string, v: string) => string,
  options: { block?: boolean; single?: boolean } = {},
): Placement {
  return {
    name,
    path,
    block: options.block ?? false,
    single: options.single ?? true,
    write: (n, v) => ({ text: around(n, v) }),
  };
}

/** Every placement. */
export const PLACEMENTS: Placement[] = [
  plain("env", ".env.local", (n, v) => `APP=1\n${n}=${v}\nLOG=info\n`),
  plain("env-crlf", "crlf.env", (n, v) => `APP=1\r\n${n}=${v}\r\nLOG=info\r\n`),
  plain("env-cr", "cr.env", (n, v) => `APP=1\r${n}=${v}\rLOG=info\r`),
  plain("bom", "bom.env", (n, v) => `\uFEFF${n}=${v}\nLOG=info\n`),
  plain("tabs", "tabs.ini", (n, v) => `[db]\n${lower(n)}\t=\t${v}\n`),
  plain("single-quoted", "a.py", (n, v) => `${n} = '${v}'\n`),
  plain("double-quoted", "b.py", (n, v) => `${n} = "${v}"\n`),
  plain("backtick", "c.ts", (n, v) => `export const ${n} = \`${v}\`;\n`),
  plain("start-of-file", "start.env", (n, v) => `${n}=${v}`),
  plain("end-of-file", "end.env", (n, v) => `APP=1\n${n}="${v}"`),
  plain("export", "deploy.sh", (n, v) => `#!/bin/sh\nexport ${n}="${v}"\nexec app\n`),
  plain("dockerfile-env", "Dockerfile", (n, v) => `FROM alpine\nENV ${n}=${v}\nRUN true\n`),
  plain("dockerfile-env-space", "api.Dockerfile", (n, v) => `FROM alpine\nENV ${n} ${v}\n`),
  plain("dockerfile-arg", "arg.Dockerfile", (n, v) => `FROM alpine\nARG ${n}=${v}\n`),
  plain(
    "compose",
    "docker-compose.yml",
    (n, v) => `services:\n  api:\n    environment:\n      - "${n}=${v}"\n      - MODE=prod\n`,
  ),
  plain(
    "k8s-env",
    "deploy.yaml",
    (n, v) => `env:\n  - name: ${n}\n    value: "${v}"\n  - name: MODE\n    value: prod\n`,
  ),
  plain(
    "ecs-json",
    "task.json",
    (n, v) => `{"environment": [{"name": "${n}", "value": "${v}"}]}\n`,
  ),
  plain("cli-option", "login.sh", (_, v) => `docker login -u ci --password '${v}' registry\n`),
  plain("php-define", "wp-config.php", (n, v) => `<?php\ndefine( '${n}', '${v}' );\n`),
  plain("getenv-default", "settings.py", (n, v) => `KEY = os.getenv("${n}", "${v}")\n`),
  plain("terraform", "main.tf", (n, v) => `resource "x" "y" {\n  ${lower(n)} = "${v}"\n}\n`),
  plain("toml-triple", "c.toml", (n, v) => `${lower(n)} = '''${v}'''\n`),
  plain("properties", "app.properties", (n, v) => `${lower(n).replace(/_/g, ".")}=${v}\n`),
  plain("yaml", "c.yml", (n, v) => `db:\n  ${lower(n)}: ${v}\n`),
  plain("yaml-folded", "f.yml", (n, v) => `${lower(n)}: >-\n  ${v}\n`),
  plain("xml-element", "web.xml", (n, v) => `<config>\n  <${n}>${v}</${n}>\n</config>\n`),
  plain("xml-setting", "App.config", (n, v) => `<add key="${n}" value="${v}" />\n`),
  plain("minified-js", "app.min.js", (n, v) => `!function(){var e={${n}:"${v}",t:1};e.t++}();`),
  plain("json-tabs-crlf", "pretty.json", (n, v) => `{\r\n\t"${n}"\t:\t"${v}"\r\n}`),
  {
    name: "json-escaped",
    path: "escaped.json",
    block: true,
    single: true,
    write: (n, v) => ({ text: `{"script": "${json(`${n} = "${v}"\n`)}"}\n`, encode: json }),
  },
  {
    name: "notebook",
    path: "analysis.ipynb",
    block: true,
    single: true,
    write: (n, v) => {
      const source = [`import os\n`, `${n} = "${v}"\n`, `print(1)`];
      const cell = { cell_type: "code", metadata: {}, source };
      return { text: JSON.stringify({ cells: [cell], nbformat: 4 }, null, 1) + "\n", encode: json };
    },
  },
  {
    name: "yaml-block",
    path: "tls.yaml",
    block: true,
    single: false,
    write: (n, v) => {
      const written = v.split("\n").join("\n    ");
      return { text: `tls:\n  ${lower(n)}: |\n    ${written}\n  port: 443\n` };
    },
  },
  {
    name: "pem-crlf",
    path: "key.txt",
    block: true,
    single: false,
    write: (_, v) => {
      return { text: `key:\r\n${v.split("\n").join("\r\n")}\r\n` };
    },
  },
  {
    name: "pem-file-no-newline",
    path: "server.crt.txt",
    block: true,
    single: false,
    write: (_, v) => ({ text: v }),
  },
  {
    name: "k8s-secret",
    path: "secret.yaml",
    block: true,
    single: true,
    // A key that names nothing: the manifest's kind is what says the values are secrets.
    write: (_, v) => ({
      text: `apiVersion: v1\nkind: Secret\ntype: Opaque\ndata:\n  app.setting: ${btoa(v)}\n` +
        `  other: ${btoa("x")}\n---\nkind: ConfigMap\ndata:\n  mode: prod\n`,
      encode: btoa,
    }),
  },
  {
    name: "k8s-secret-json",
    path: "secret.json",
    block: true,
    single: true,
    write: (_, v) => ({
      text: JSON.stringify(
        { apiVersion: "v1", kind: "Secret", data: { setting: btoa(v) } },
        null,
        2,
      ),
      encode: btoa,
    }),
  },
  {
    name: "k8s-string-data",
    path: "string-secret.yaml",
    block: true,
    single: true,
    write: (_, v) => ({
      text: `kind: Secret\nstringData:\n  app.conf: |\n    ${v.split("\n").join("\n    ")}\n`,
    }),
  },
  {
    name: "one-megabyte-line",
    path: "bundle.js",
    block: false,
    single: true,
    write: (n, v) => ({
      text: "var a=1;".repeat(65_536) + `var c={${n}:"${v}"};` + "b=2;".repeat(131_072),
    }),
  },
];

/** Every secret of the seed in every placement (of `placements`) that can hold it. */
export function placeAll(seed: number, placements: Placement[] = PLACEMENTS): Placed[] {
  const out: Placed[] = [];
  for (const secret of secretsOf(seed)) {
    for (const p of placements) {
      if (secret.block ? !p.block : !p.single) continue;
      const { text, encode } = p.write(nameFor(secret.kind), secret.value);
      const { kind, hidden } = secret;
      // base64 of the whole value: the whole is what was encoded
      const encoded = encode?.(encode === btoa ? secret.value : hidden);
      out.push({ kind, placement: p.name, path: p.path, text, hidden, encoded });
    }
  }
  return out;
}

/**
 * Every 12-character piece of a value and of its written form that a leak
 * would show: for a block, the pieces of each of its lines (the lines of a
 * key are what must go; its BEGIN and END lines are no secret).
 */
export function pieces(value: string, size = 12): string[] {
  const lines = value.split(/\r?\n|\r|\\n/).filter((l) => !/^-----(BEGIN|END) /.test(l));
  const out = new Set<string>();
  for (const line of lines) {
    const l = line.trim();
    if (l.length < size) {
      if (l.length >= 8 && lines.length === 1) out.add(l);
      continue;
    }
    for (let i = 0; i + size <= l.length; i++) out.add(l.slice(i, i + size));
  }
  return [...out];
}

/** The first piece of a placed secret found in `text` (raw or as written); undefined if none. */
export function leakedPiece(
  text: string,
  placed: Pick<Placed, "hidden" | "encoded">,
): string | undefined {
  const all = [...pieces(placed.hidden), ...(placed.encoded ? pieces(placed.encoded) : [])];
  return all.find((p) => text.includes(p));
}
