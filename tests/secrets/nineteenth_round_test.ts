// The nineteenth leak hunt: a password of letters alone as a literal's member or a call's named
// argument on one line, a secret's default after Rust's `unwrap_or`, letters alone as an
// environment read's default, secrets that a file's format holds (`.netrc`, Subversion's
// `svn.simple`, `.rediscli_history`, Ansible's `password_hash` of a literal, a page's code spans),
// a Dockerfile's `ENV` with several pairs, hex keys by position (`wandb login`, `algoliasearch`);
// and the look-alikes that stay.
import { kept, redactsValue } from "./_redacts.ts";

const PW = "Qx7vLm2Rk9!Tz";
const WORDS = "TigerRiverStone";
const HEX40 = "d8cd5c5d5ec2a93eabc1ee503065c79ba2948026";
const HEX32 = "dacfe86fa5a428f26a26c67cc2947b1b";

Deno.test("letters alone as a literal's member on one line", async () => {
  await redactsValue(
    `rdb := redis.NewClient(&redis.Options{Addr: "localhost:6379", Password: "${WORDS}"})\n`,
    WORDS,
    "main.go",
  );
  await redactsValue(
    `cfg := mysql.Config{User: "root", Passwd: "${WORDS}", Net: "tcp"}\n`,
    WORDS,
    "db.go",
  );
  await redactsValue(
    `const c = createClient({ url: "x", password: "${WORDS}" });\n`,
    WORDS,
    "a.ts",
  );
  await redactsValue(`let o = Options { addr: "x", password: "${WORDS}" };\n`, WORDS, "a.rs");
  await redactsValue(`var o = new Options { Host = "x", Password = "${WORDS}" };\n`, WORDS, "a.cs");
  await redactsValue(`cfg = Config{Opts: f(x), Password: "${WORDS}"}\n`, WORDS, "a.go");
  await redactsValue(`c = new Redis({ host: "x", password: '${WORDS}' })\n`, WORDS, "a.js");
});

Deno.test("a literal's members that are no password stay", async () => {
  await kept(`f := Form{Label: "x", Password: "Password"}\n`, "a.go");
  await kept(`rules := {name: "x", password: "required"}\n`, "a.ts");
  await kept(`c = Redis(host="x", password=password)\n`, "a.py");
  // a call's named argument is a parameter's name (\`connect(password="swordfish")\` stays)
  await kept(`c = Redis(host="x", password="${WORDS}")\n`, "a.py");
  await kept(`c = Options({a: 1}, password = "${WORDS}")\n`, "a.kt");
  await kept(`x = Opts{Password: "hidden", Kind: "text"}\n`, "a.go");
  await kept(`check(password: "mypassword", other: 1)\n`, "a.rb");
  await kept(`render(password="", user="x")\n`, "a.py");
});

Deno.test("a secret's default after an environment read, letters alone too", async () => {
  await redactsValue(
    `let pass = std::env::var("DB_PASS").unwrap_or_else(|_| "${PW}".to_string());\n`,
    PW,
    "main.rs",
  );
  await redactsValue(
    `let pass = env::var("DB_PASSWORD").unwrap_or("${WORDS}".into());\n`,
    WORDS,
    "main.rs",
  );
  await redactsValue(
    `let k = env::var("API_SECRET")\n    .unwrap_or_else(|_| String::from("${PW}"));\n`,
    PW,
    "main.rs",
  );
  await redactsValue(`pw = os.getenv("DB_PASSWORD", "${WORDS}")\n`, WORDS, "a.py");
  await redactsValue(`pw = os.environ.get("DB_PASS", "${WORDS}")\n`, WORDS, "a.py");
  await redactsValue(`const pw = process.env.DB_PASSWORD ?? "${WORDS}";\n`, WORDS, "a.ts");
  await redactsValue(`PW=\${DB_PASSWORD:-${WORDS}}\n`, WORDS, "run.sh");
  await redactsValue(`pw := getEnv("DB_PASSWORD", "${WORDS}")\n`, WORDS, "a.go");
  await redactsValue(`$pw = getenv('DB_PASSWORD') ?: '${WORDS}';\n`, WORDS, "a.php");
  await redactsValue(
    `String pw = System.getenv().getOrDefault("DB_PASSWORD", "${WORDS}");\n`,
    WORDS,
    "A.java",
  );
});

Deno.test("defaults that are no secret stay", async () => {
  await kept(`let pass = env::var("DB_PASS").unwrap_or_default();\n`, "main.rs");
  await kept(
    `let pass = env::var("DB_PASS").unwrap_or_else(|_| "changeme".to_string());\n`,
    "a.rs",
  );
  await kept(`pw = os.getenv("DB_PASSWORD", "required")\n`, "a.py");
  await kept(`token = os.getenv("API_TOKEN", "development")\n`, "a.py");
  await kept(`let p = env::var("DB_PASS").unwrap_or(String::new());\n`, "a.rs");
});

Deno.test("secrets that a file's format holds", async () => {
  await redactsValue(`default login bob password ${WORDS}\n`, WORDS, ".netrc");
  await redactsValue(`machine h login bob password ${WORDS}\n`, WORDS, "home/_netrc");
  await redactsValue(
    `K 8\npassword\nV 15\nAmberMaplePluto\nK 15\nsvn:realmstring\nV 3\nx y\nEND\n`,
    "AmberMaplePluto",
    ".subversion/auth/svn.simple/4a1b2c3d4e5f60718293a4b5c6d7e8f9",
  );
  await redactsValue(`AUTH ${WORDS}\nKEYS *\n`, WORDS, ".rediscli_history");
  await redactsValue(`auth default ${PW}\nget x\n`, PW, "home/.rediscli_history");
  await redactsValue(
    `    password: "{{ '${PW}' | password_hash('sha512') }}"\n`,
    PW,
    "roles/users/tasks/main.yml",
  );
  await redactsValue(
    `    password: "{{ '${WORDS}' | password_hash('sha512') }}"\n`,
    WORDS,
    "site.yml",
  );
  await redactsValue(`- **Username:** admin\n- **Password:** \`${PW}\`\n`, PW, "README.md");
  await redactsValue(`*Password*: \`${WORDS}\`\n`, WORDS, "docs/setup.md");
  await redactsValue(`Default credentials: \`admin\` / \`${PW}\`\n`, PW, "README.md");
  await redactsValue(`Log in as \`root\` / \`${WORDS}\`.\n`, WORDS, "docs/install.rst");
});

Deno.test("look-alikes in those formats stay", async () => {
  await kept(`default login anonymous password\n`, ".netrc");
  await kept(`K 8\nusername\nV 3\nbob\nEND\n`, ".subversion/auth/svn.simple/4a1b2c3d4e5f");
  await kept(`AUTH $REDIS_PASSWORD\n`, ".rediscli_history");
  await kept(`    password: "{{ user_password | password_hash('sha512') }}"\n`, "site.yml");
  await kept(`- **Password:** \`<your password>\`\n`, "README.md");
  await kept(`- **Password:** \`$DB_PASSWORD\`\n`, "README.md");
  await kept(`Log in with \`admin\` / \`admin\`.\n`, "README.md");
  await kept(`Use \`src/\` / \`lib/\` folders for \`users\` / \`accounts\`.\n`, "README.md");
  await kept(`Run \`make\` / \`make install\`, then log in.\n`, "README.md");
  await kept("- `Dropout`/`AlphaDropout` now supports user-specified RNGs\n", "NEWS.md");
  await kept("User-supplied `.refine` / `.transform` callbacks run once\n", "wiki/compile.md");
  // the same words in code are not prose
  await kept(`AUTH ${WORDS}\n`, "notes.py");
});

Deno.test("a Dockerfile's ENV with several pairs on a line, and its old form", async () => {
  await redactsValue(
    `ENV MYSQL_ROOT_PASSWORD=AmberMapleMaple MYSQL_DATABASE=app\n`,
    "AmberMapleMaple",
    "Dockerfile",
  );
  await redactsValue(
    `ENV MYSQL_DATABASE=app MYSQL_ROOT_PASSWORD=AmberMapleMaple\n`,
    "AmberMapleMaple",
    "docker/Dockerfile.dev",
  );
  await redactsValue(
    `ENV A=1 \\\n    DB_PASSWORD="AmberMapleMaple" \\\n    B=2\n`,
    "AmberMapleMaple",
    "Containerfile",
  );
  await redactsValue(`ENV MYSQL_ROOT_PASSWORD AmberMapleMaple\n`, "AmberMapleMaple", "Dockerfile");
  await kept(`ENV MYSQL_ROOT_PASSWORD_FILE=/run/secrets/db MYSQL_DATABASE=app\n`, "Dockerfile");
  await kept(`ENV PASSWORD_POLICY=required MODE=strict\n`, "Dockerfile");
});

Deno.test("hex keys by their place after a command or a call", async () => {
  await redactsValue(`wandb login ${HEX40}\n`, HEX40, "setup.sh");
  await redactsValue(`!wandb login --relogin ${HEX40}\n`, HEX40, "train.ipynb");
  await redactsValue(`const client = algoliasearch("7OIYRNQ6UM", "${HEX32}");\n`, HEX32, "a.js");
  await redactsValue(`client = algoliasearch.Client('7OIYRNQ6UM', '${HEX32}')\n`, HEX32, "a.py");
  await kept(`wandb login\n`, "setup.sh");
  await kept(`wandb login --relogin $WANDB_API_KEY\n`, "setup.sh");
  await kept(`git checkout ${HEX40}\n`, "setup.sh");
  await kept(`const client = algoliasearch(APP_ID, API_KEY);\n`, "a.js");
});
