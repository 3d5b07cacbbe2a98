import assert from "node:assert/strict";
import { renderCode } from "../../plugins/view_modes/_code.ts";
import { summarize } from "../../plugins/view_modes/summary.ts";

// A Scala 2 package object holds a package's own members (os-lib's `os/src/package.scala`: `root`,
// `home`, `pwd`); the code views kept none of it, not even its name, and its summary named a
// package `object`. Written for these tests.
const TEXT = [
  "import java.nio.file.Paths",
  "",
  "package object os extends ResourceApi {",
  "  type Generator[+T] = geny.Generator[T]",
  "  /** The root of the filesystem. */",
  '  val root: Path = Path(Paths.get(".").getRoot)',
  "  def home: Path = {",
  "    _home.value",
  "  }",
  "  private object _home {",
  '    lazy val value = Path(System.getProperty("user.home"))',
  "  }",
  "}",
].join("\n") + "\n";

Deno.test("a Scala package object and its members are kept", async () => {
  const view = (await renderCode("os/src/package.scala", TEXT))!;
  assert.deepEqual(view.symbols.map((s) => `${s.kind} ${s.qualifiedName}`), [
    "object os",
    "type os.Generator",
    "val os.root",
    "method os.home",
    "object os._home",
    "val os._home.value",
  ]);
  assert.match(view.text, /^package object os extends ResourceApi \{$/m);
  assert.match(view.text, /def home: Path = \{ \.\.\. \}/);
});

Deno.test("a Scala package object is summarized as a type, not a package named object", () => {
  assert.equal(
    summarize("os/src/package.scala", TEXT),
    "**Scala**, 13 lines\n- types: `os`, `_home`\n- functions: `home`\n- imports: `java.nio.file.Paths`",
  );
});
