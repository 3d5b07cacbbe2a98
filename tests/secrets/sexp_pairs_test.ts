// S-expressions' own key and value forms (the eighth sweep's leftover: dune's
// `(env-vars (API_TOKEN …))` was kept): dune's lists (`dune`, `dune-project`, `dune-workspace`) and
// `.sexp` files, a value quoted or an atom; a Lisp's dotted pair (`(password . "…")`, an Emacs
// alist) and quoted symbol before a string (Racket's `(hash 'api-key "…")`, `(plist-put p
// 'password "…")`). The forms earlier rounds handled (Clojure's `{:api-key "…"}`, `(setq …)`,
// `(define …)`, `#:password`) are tried again beside them. The values are made here at random: no
// real secret is written in this repository.
import assert from "node:assert/strict";
import { prng } from "../_helpers.ts";
import { kept, leaksOf } from "./_redacts.ts";

const random = prng(4210);
const pick = (chars: string, n: number) =>
  Array.from({ length: n }, () => chars[Math.floor(random() * chars.length)]).join("");
const AN = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** A generated token (even `k`) or a password with a mark (odd `k`). */
function value(k: number): string {
  if (k % 2 === 0) {
    return pick("ABCDEFGHJKLMNPQRSTUVWXYZ", 2) + pick("abcdefghjkmnpqrstuvwxyz", 2) +
      pick("23456789", 2) + pick(AN, 26);
  }
  return pick("ABCDEFGHJKLMNPQRSTUVWXYZ", 1) + pick("abcdefghjkmnpqrstuvwxyz", 5) +
    pick("23456789", 3) + pick("!#%&*?", 1) + pick("abcdefghjkmnpqrstuvwxyz", 3);
}

/** Each form, with its file and names; `{N}` is the name's place, `{V}` the value's. */
const FORMS: Array<[string, string, string[]]> = [
  ["dune", "(env (_ (env-vars ({N} {V}))))", ["API_TOKEN", "DB_PASSWORD", "SECRET_KEY"]],
  ["src/dune", `(env (dev (env-vars ({N} "{V}") (MODE dev))))`, ["API_TOKEN", "DB_PASSWORD"]],
  ["dune-workspace", "(env (_ (env-vars ({N} {V}))))", ["API_TOKEN", "CLIENT_SECRET"]],
  ["dune-project", `(rule (action (setenv {N} "{V}" (run ./t.exe))))`, ["API_TOKEN", "PASSWORD"]],
  ["config.sexp", `(({N} {V}) (port 8080))`, ["api_key", "password", "client_secret"]],
  ["init.el", `'(({N} . "{V}"))`, ["password", "api-key", "token"]],
  ["init.el", `(plist-put auth '{N} "{V}")`, ["password", "api-key"]],
  ["app.scm", `(define creds '(({N} . "{V}")))`, ["password", "token"]],
  ["app.rkt", `(hash '{N} "{V}")`, ["api-key", "password", "secret"]],
  ["app.rkt", `(cons '{N} "{V}")`, ["api-key", "password"]],
  // (handled before this round)
  ["src/config.clj", `(def config {:{N} "{V}"})`, ["api-key", "password"]],
  ["init.el", `(setq {N} "{V}")`, ["openai-api-key", "password"]],
  ["app.rkt", `(connect #:{N} "{V}")`, ["password"]],
];

Deno.test("a secret in an s-expression's key and value forms is redacted", async () => {
  const cases = FORMS.flatMap(([path, form, names]) =>
    names.flatMap((name) =>
      [0, 1, 2, 3].map((k): [string, string, string] => {
        const v = value(k);
        return [path, form.replace("{N}", name).replace("{V}", v) + "\n", v];
      })
    )
  );
  const { tried, leaks } = await leaksOf(cases);
  assert.ok(tried >= 100, `${tried} tried`);
  assert.deepEqual(leaks, []);
});

Deno.test("s-expressions' code under a secret's word is kept", async () => {
  for (
    const [path, text] of [
      ["dune", "(library (name token_lib) (libraries lwt secret_box))\n"],
      ["dune", "(rule (deps %{token}) (action (run ./x %{deps})))\n"],
      ["dune", "(env (_ (env-vars (API_TOKEN %{env:API_TOKEN=}))))\n"],
      ["config.sexp", '((token_file /etc/slop/token) (password_prompt "Password: "))\n'],
      ["init.el", '(message "key: %s" \'token)\n\'((password . ""))\n'],
      ["app.scm", "(define (f) (assq 'password alist))\n"],
      ["app.rkt", '(hash-ref h \'password "default")\n(cons \'secret "a b")\n'],
    ]
  ) await kept(text, path);
});
