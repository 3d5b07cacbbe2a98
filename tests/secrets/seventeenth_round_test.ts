// The seventeenth leak hunt: a password of letters alone declared as a constant of code (PHP's
// typed class constants, C#, Java, TypeScript, Kotlin, Rust), and the look-alikes that stay.
import assert from "node:assert/strict";
import { redactText } from "../../pipeline/_scan.ts";

/** Asserts that `text` (of the file `path`) comes back with `value`, and only it, redacted. */
async function redactsValue(text: string, value: string, path = "notes.txt"): Promise<void> {
  const out = (await redactText(text, path)).text;
  const at = text.indexOf(value);
  assert.ok(at >= 0, value);
  const head = text.slice(0, at) + "[REDACTED:";
  const tail = text.slice(text.lastIndexOf(value) + value.length);
  assert.ok(
    out.startsWith(head) && out.endsWith(tail) && !out.includes(value),
    `${text}\n-> ${out}`,
  );
}

/** Asserts that `text` (of the file `path`) comes back as it is. */
async function kept(text: string, path = "notes.txt"): Promise<void> {
  assert.equal((await redactText(text, path)).text, text);
}

const W = "KoelIsCool";

Deno.test("a password of letters alone declared as a constant", async () => {
  const php = "app/Models/User.php";
  await redactsValue(
    `class User {\n    public const string FIRST_ADMIN_PASSWORD = '${W}';\n}\n`,
    W,
    php,
  );
  await redactsValue(`class User {\n    public const FIRST_ADMIN_PASSWORD = '${W}';\n}\n`, W, php);
  await redactsValue(
    `class U {\n    final public const string ADMIN_PASSWORD = '${W}';\n}\n`,
    W,
    php,
  );
  await redactsValue(`class U {\n    private const ADMIN_PASSWORD = '${W}'; // seed\n}\n`, W, php);
  await redactsValue(`<?php\n$adminPassword = '${W}';\n`, W, "seed.php");
  await redactsValue(
    `class A {\n  static readonly ADMIN_PASSWORD: string = '${W}';\n}\n`,
    W,
    "a.ts",
  );
  await redactsValue(`export const ADMIN_PASSWORD = "${W}";\n`, W, "a.ts");
  await redactsValue(`class A {\n  private const string AdminPassword = "${W}";\n}\n`, W, "A.cs");
  await redactsValue(`class A {\n  static final String PASSWORD = "${W}";\n}\n`, W, "A.java");
  await redactsValue(`const val ADMIN_PASSWORD: String = "${W}"\n`, W, "A.kt");
  await redactsValue(`pub const ADMIN_PASSWORD: &str = "${W}";\n`, W, "a.rs");
});

Deno.test("declarations under a password name that hold no password stay", async () => {
  await kept(`class U {\n    public const PASSWORD_FIELD = 'password';\n}\n`, "U.php");
  await kept(`const password = "required";\n`, "a.ts");
  await kept(`  readonly password: string = "hidden";\n`, "a.ts");
  await kept(`const PASSWORD = "Password";\n`, "a.ts");
  await kept(`  static final String PASSWORD = "changeme";\n`, "A.java");
  await kept(`const password = getPassword();\n`, "a.ts");
  await kept(`const password = "swordfish" + suffix;\n`, "a.ts");
  await kept(`if (password === "swordfish") {}\n`, "a.ts");
});
