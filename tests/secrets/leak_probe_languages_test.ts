// Leak probes over placements of one password in the languages of the outside trees audited in
// bench/README.md ("False positives in five more outside trees"), and in settings, deploy files
// and literal forms: each test holds what one probe found leaking.
import assert from "node:assert/strict";
import { redactText } from "../../pipeline/secrets.ts";
import { kept, redactsValue } from "./_redacts.ts";

const PASSWORD = "Qm7vX2pL9wKd4T";

Deno.test("redactText() hides the password given to PHP's PDO after a DSN in a variable", async () => {
  await redactsValue(`$pdo = new PDO($dsn, 'root', '${PASSWORD}');\n`, PASSWORD, "db.php");
  await redactsValue(
    `    $this->pdo = new \\PDO($config['dsn'], $user, "${PASSWORD}", $options);\n`,
    PASSWORD,
    "Db.php",
  );
});

Deno.test("redactText() hides the password of Rust's Credentials::new, owned copies too", async () => {
  // lettre's SMTP credentials, as its docs write them.
  await redactsValue(
    `    let creds = Credentials::new("smtp_user".to_owned(), "${PASSWORD}".to_owned());\n`,
    PASSWORD,
    "main.rs",
  );
  await redactsValue(
    `    let creds = Credentials::new("admin", "${PASSWORD}");\n`,
    PASSWORD,
    "main.rs",
  );
});

Deno.test("redactText() hides the literal an Elixir function named for a secret returns", async () => {
  await redactsValue(`  def api_key, do: "${PASSWORD}${PASSWORD}"\n`, PASSWORD + PASSWORD, "a.ex");
  await redactsValue(
    `  defp password do\n    "${PASSWORD}"\n  end\n`,
    PASSWORD,
    "config.exs",
  );
});

Deno.test("redactText() hides a secret given as a default by a logical assignment", async () => {
  // A second probe, of 57 placements in settings files, commands and code: the one it leaked.
  await redactsValue(
    `process.env.API_KEY ||= "${PASSWORD}${PASSWORD}";\n`,
    PASSWORD + PASSWORD,
    "a.js",
  );
  await redactsValue(`options.password ??= "${PASSWORD}";\n`, PASSWORD, "a.ts");
  await redactsValue(`  @api_key ||= "${PASSWORD}${PASSWORD}"\n`, PASSWORD + PASSWORD, "client.rb");
  // A default that is no secret (a stand-in, a name that is none) stays.
  await kept(`options.password ||= "password";\nconfig.timeout ||= "30s";\n`, "a.js");
});

Deno.test("redactText() hides the default of an option or a parameter named for a secret", async () => {
  // A third probe, of 50 placements in deploy files, settings and code: eight of its nine leaks.
  const cases: Array<[string, string]> = [
    ["cli.py", `parser.add_argument("--password", default="${PASSWORD}")\n`],
    ["cli.py", `@click.option("-k", "--api-key", default="${PASSWORD}", help="key")\n`],
    ["main.go", `\tflag.StringVar(&pw, "password", "${PASSWORD}", "db password")\n`],
    ["cli.js", `program.option("--api-key <key>", "API key", "${PASSWORD}")\n`],
    ["config.fish", `set -gx DB_PASSWORD ${PASSWORD}\n`],
    ["template.yaml", `Parameters:\n  DbPassword:\n    Type: String\n    Default: ${PASSWORD}\n`],
    ["env.ts", `const env = z.object({ apiKey: z.string().min(8).default("${PASSWORD}") });\n`],
    ["main.rs", `    #[arg(long, default_value = "${PASSWORD}")]\n    password: String,\n`],
    ["Options.cs", `    [DefaultValue("${PASSWORD}")] public string Password { get; set; }\n`],
  ];
  for (const [path, text] of cases) await redactsValue(text, PASSWORD, path);
  // Defaults that are no secret, or of options that name none, stay.
  await kept(
    [
      'parser.add_argument("--password", default=os.environ.get("DB_PASSWORD"))',
      'parser.add_argument("--host", default="db.example.com")',
      'flag.StringVar(&pw, "password", "", "db password")',
      "set -x PATH /usr/local/bin",
      '    #[arg(long, default_value = "localhost")]\n    host: String,',
      "",
    ].join("\n"),
    "mixed.txt",
  );
});

Deno.test("redactText() hides a password in a docstring's sentence, a Go env tag's default and a here-string", async () => {
  // A fifth probe, of 50 placements in more languages and literal forms: three of its five leaks.
  await redactsValue(
    `def connect():\n    """Connect with password ${PASSWORD}."""\n`,
    PASSWORD,
    "db.py",
  );
  await redactsValue(
    'type Config struct {\n\tPassword string `env:"DB_PASSWORD" envDefault:"' + PASSWORD +
      '"`\n}\n',
    PASSWORD,
    "config.go",
  );
  await redactsValue(`read -r PASSWORD <<< "${PASSWORD}"\n`, PASSWORD, "setup.sh");
  // The sentence's full stop is not part of the password.
  const out = (await redactText(`# log in with password ${PASSWORD}.\n`, "notes.sh")).text;
  assert.ok(out.endsWith("].\n"), out);
  await kept(
    'Host string `env:"HOST" envDefault:"localhost"`\nread -r NAME <<< "hello world"\n',
    "a.go",
  );
});
