// Credentials in code's comments are read only from comment lines that hold a word of a login, a
// password or an account's name: a line whose only such word is an account before its `:` or `/`
// (the login's word on another line), a comment after a tab, each still redacted; a comment of
// none of those words is not read.
import { kept, redactsValue } from "./_redacts.ts";

const PW = "Qx7vLm2Rk9!Tz";

Deno.test("a comment whose line has an account's name alone is read with the others", async () => {
  await redactsValue(`# see the login page\nx = 1\n# tester:${PW}\n`, PW, "app/a.py");
  await redactsValue(`// login for staging\nint x;\n// oracle / ${PW}\n`, PW, "src/a.c");
  await redactsValue(`x = 1\t# admin:${PW}\n`, PW, "app/a.py");
  await redactsValue(`-- the Grafana login\nlocal x = 1\n-- grafana:${PW}\n`, PW, "init.lua");
});

Deno.test("a comment without a login's, a password's or an account's word stays", async () => {
  await kept(`# see the login page\nx = 1\n# build:${PW}\n`, "app/a.py");
  await kept(`x = "a#admin:${PW}"  # the user's default\n`, "app/a.py");
});
