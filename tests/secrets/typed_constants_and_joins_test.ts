// The sixth outside sweep's languages' own forms (twenty-sixth session): a password under a name
// with a type and `:=` between (VHDL's `constant DB_PASSWORD : string := "…"`, Ada's
// `Db_Password : constant String := "…"`), and a token split over literals by Fortran's `//` (and
// its `&` continuation), VB's `& _` continuation or an Erlang binary (`<<"…", "…">>`,
// `iolist_to_binary([…])`). The tokens are made here from each rule's own pattern: no real token
// is written in this repository.
import assert from "node:assert/strict";
import { splitTokenLeaks, type TokenJoin } from "./_token_sample.ts";
import { prng } from "../_helpers.ts";
import { kept, redactsValue } from "./_redacts.ts";

const random = prng(32);

/** Each join, with its file. */
const JOINS: TokenJoin[] = [
  ["a.f90", "Fortran's //", (a, b) => `  character(*), parameter :: note = '${a}' // '${b}'\n`],
  ["a.f90", "Fortran's // &", (a, b) => `  note = "${a}" // &\n         "${b}"\n`],
  ["a.vb", "VB's & _", (a, b) => `Dim note = "${a}" & _\n    "${b}"\n`],
  ["a.erl", "an Erlang binary", (a, b) => `note() -> <<"${a}", "${b}">>.\n`],
  ["a.erl", "iolist_to_binary", (a, b) => `N = iolist_to_binary(["${a}",\n  "${b}"]),\n`],
];

Deno.test("a token split by Fortran's //, VB's & _ or an Erlang binary is redacted", async () => {
  const { leaks, splits } = await splitTokenLeaks(JOINS, random, [3, 10]);
  assert.ok(splits >= 300, `${splits} splits`);
  assert.deepEqual(leaks, []);
});

Deno.test("a password under a name, a type and := is redacted", async () => {
  const password = "Qz7!ehwz8apX2#w";
  for (
    const [path, line] of [
      ["a.vhd", `  constant DB_PASSWORD : string := "${password}";\n`],
      ["a.vhdl", `  CONSTANT ADMIN_PASSWORD : STRING := "${password}";\n`],
      ["a.adb", `   Db_Password : constant String := "${password}";\n`],
      ["a.ads", `   Api_Secret : aliased String := "${password}";\n`],
      ["a.adb", `   Password : String := "${password}";\n`],
      ["a.pas", `  Password: string := '${password}';\n`],
    ]
  ) await redactsValue(line, password, path);
});

Deno.test("typed constants and joins that hold no secret are kept", async () => {
  for (
    const [path, text] of [
      ["a.vhd", `  constant IMAGE_NAME : string := "neorv32_bootloader_image";\n`],
      ["a.vhd", `  signal password_ok : boolean := false;\n`],
      ["a.f90", `  print *, 'Hello, ' // 'world' // trim(name)\n`],
      ["a.f90", `  msg = "Epoch 12 of " // &\n        "training run 42"\n`],
      ["a.erl", `hdr() -> <<"Content-Type", ": ", "application/json">>.\n`],
      ["a.cpp", `const char *s = "v1.2.3"; // "release 2024-01-02"\n`],
    ]
  ) await kept(text, path);
});

Deno.test("a record's key field and a name set to itself negated are code, kept", async () => {
  // rebar3's `binomial_heap.erl` and AutoHotkey's `math.cpp`, in a few of their variants
  const records = ["key", "secret_key", "api_key", "token", "auth_token"].flatMap((field) => [
    ["a.erl", `    {#node{${field}=Key,value=Value,children=TS1},TS2} = getMin(TS),\n`],
    ["a.erl", `    S#state{${field}=NewKey,count=N+1}.\n`],
    ["a.lua", `  local t = {${field}=KeyOfThePlayerName,pos=vector.new(1,2,3)}\n`],
  ]);
  const negated = ["aResultToken.value_int64", "apiToken", "this.secretKey"].flatMap((name) =>
    ["-", "!", "~"].map((op) => ["a.cpp", `\t\t\t${name} = ${op}${name};\n`])
  );
  for (const [path, text] of [...records, ...negated]) await kept(text, path);
});

Deno.test("a terminal's colours for a secret's file name are kept, a password of digits is not", async () => {
  // fd's `DEFAULT_LS_COLORS` (`*passwd=0;38;5;149:*.swift=…`), in a few of its variants
  for (const name of ["*passwd", "*shadow", "*.secret", "*.pem", "*token"]) {
    for (const codes of ["0;38;5;149", "01;31", "4;38;5;203;48;5;236"]) {
      await kept(`const C: &str = "\nno=0:${name}=${codes}:*.swift=0;38;5;48\n";\n`, "main.rs");
      await kept(`export LS_COLORS="di=01;34:${name}=${codes}"\n`, ".bashrc");
    }
  }
  await redactsValue("password=123;456;789\n", "123;456;789", ".env");
});
