import assert from "node:assert/strict";
import { SECRET_SHAPES, textHints } from "../../pipeline/secret_rules.ts";
import { redactSync } from "../../pipeline/_scan.ts";
import { prng } from "../_helpers.ts";

const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const HEX = "0123456789abcdef";
const B64 = "ABCabcxyzXYZ0123456789_-+/=.~";

/**
 * Texts of every gated rule's prefixes followed by runs of token characters, the options the
 * option rules read (in each spelling, after a blank or not), and the characters the hints share
 * (`-`, `_`, `k`, `u`, blanks), in random order.
 */
function generated(random: () => number): string {
  const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)];
  const run = (chars: string, n: number) =>
    Array.from({ length: n }, () => pick([...chars])).join("");
  const prefixes = SECRET_SHAPES.filter((s) => s.gate).flatMap((s) => s.hints);
  const pieces = [
    () => pick(prefixes) + run(pick([UPPER, HEX, B64]), pick([16, 32, 35, 40, 60])),
    () =>
      pick(["-u", "--user", "--password", "--passwd", "--token", "--api-key", "--secret", "-"]) +
      pick([" ", "\t", "=", "", "x"]),
    () => pick(["user:", "a:"]) + run(B64, 4 + Math.floor(random() * 12)),
    () =>
      pick([
        " ",
        " ",
        " ",
        "\n",
        "\t",
        "-",
        "--",
        "_",
        "k",
        "sk",
        "u",
        "'",
        '"',
        "pypi",
        "Q",
        "ey",
      ]),
    () => run(B64, Math.floor(random() * 20)),
  ];
  return Array.from({ length: 16 }, () => pick(pieces)()).join("");
}

/**
 * Rules gated by a context their pattern does not hold: NuGet's keys are read after the options
 * they are given to (`nuget push -k`, `--api-key`, `-ApiKey`: families `t` and `o`), a bare key by
 * the named rules. The property below is not theirs (a draw that put a key after `-u` found it
 * false): their own test is the one after it.
 */
const CONTEXT_GATED = new Set(["nuget-key"]);

Deno.test("textHints() finds the gate of every gated rule that matches a text", () => {
  const random = prng(23);
  const matched = new Set<string>();
  for (let i = 0; i < 8000; i++) {
    const text = generated(random);
    const { families } = textHints(text);
    for (const shape of SECRET_SHAPES) {
      if (!shape.gate || !shape.pattern || CONTEXT_GATED.has(shape.id)) continue;
      shape.pattern.lastIndex = 0;
      if (!shape.pattern.test(text)) continue;
      matched.add(shape.id);
      const found = [...shape.gate].some((c) => families.includes(c));
      assert.ok(found, `${shape.id} (gate ${shape.gate}) in ${JSON.stringify(text)}: ${families}`);
    }
  }
  // Most gated rules matched somewhere, the option rules among them.
  assert.ok(matched.has("user-option") && matched.has("password-option"), [...matched].join());
  assert.ok(matched.size >= 12, [...matched].join());
});

Deno.test("NuGet's key opens its gate after each option it is given to, and is redacted there", () => {
  const key = "oy2" + "k3m9q2x8w7v6b5n4a1s0d9f8g7h6j5k4l3z2x1c0v9b";
  const nuget = SECRET_SHAPES.find((s) => s.id === "nuget-key")!;
  for (
    const command of [
      `nuget push app.nupkg -k ${key}`,
      `dotnet nuget push app.nupkg --api-key ${key} --source https://api.nuget.org/v3/index.json`,
      `dotnet nuget push app.nupkg --api-key=${key}`,
      `nuget.exe push app.nupkg -ApiKey ${key}`,
    ]
  ) {
    const { families } = textHints(command);
    assert.ok([...nuget.gate!].some((f) => families.includes(f)), `${command}: ${families}`);
    assert.ok(!redactSync(`${command}\n`).text.includes(key), command);
  }
  // The context is the gate, not the key: after `-u` (no option of NuGet's), a bare key opens
  // only the user option's family, and the rule is not run.
  assert.equal(textHints(`-u ${key}`).families, "u");
});

/** A token of the shape the rare rules read (generated letters and digits). */
const GENERATED = "WsH1pGjhhTSDzFjvrnMaMDpKmMiWhVNaegHAEci4";
const HEX64 = "50f71c1e122a9cd5efdf441ad78d51c0".repeat(2);

Deno.test("the rare rules' hints open where their matches can start, and not on near misses", () => {
  const cases: Array<{ id: string; family: string; found: string[]; missed: string[] }> = [
    {
      id: "device-call-key",
      family: "d",
      found: [
        `d = tinytuya.OutletDevice('bf41', '10.0.0.9', 'e6t!NIwB;h05pV<3')`,
        `vac = RoborockVacuum("192.168.1.11" , "${HEX64.slice(0, 32)}")`,
      ],
      missed: [`host = "10.0.0.9"`, `v = (10.0.0.9, "x")`, `"10.0.0", "x"`, `"1.2.3.4.5", "x"`],
    },
    {
      id: "curl-short-user",
      family: "j",
      found: [`curl -fsu admin:Qx7vLm2Rk9 https://h`, `\tcurl -sSku admin:Qx7vLm2Rk9 https://h`],
      missed: [`a-ku admin`, `curl -u admin:x`, `curl -sS https://h`, `x --fsu a`],
    },
    {
      id: "api-path-token",
      family: "a",
      found: [`curl http://10.0.0.2/api/${GENERATED}/lights`],
      missed: [`GET /api/v1/users`, `curl http://h//api/${GENERATED}`, `/apis/${GENERATED}`],
    },
    {
      id: "token-username",
      family: "n",
      found: [
        `bridge = Bridge("10.0.0.2", username="${GENERATED}")`,
        `{"10.0.0.2": {"username": "${GENERATED}"}} Username`,
        `USER_NAME => '${GENERATED}' # username`,
      ],
      missed: [`username = "admin"`, `hostname = "${GENERATED}"`, `username\n= "${GENERATED}"`],
    },
    {
      id: "dotenv-vault-key",
      family: "D",
      found: [`DOTENV_ME=me_${HEX64}`, `DOTENV_KEY="dotenv://:key_${HEX64}@dotenv.org/vault"`],
      missed: [`DOTENV_ME=some_${HEX64}`, `me_${HEX64.slice(1)}`, `key_${HEX64.toUpperCase()}`],
    },
  ];
  for (const { id, family, found, missed } of cases) {
    const shape = SECRET_SHAPES.find((s) => s.id === id)!;
    assert.equal(shape.gate, family, id);
    for (const text of found) {
      assert.ok(textHints(text).families.includes(family), `${id}: ${text}`);
      // (each is a match of the rule: the hint is where the rule reads)
      assert.ok(redactSync(`${text}\n`).findings.length > 0, `${id} finds ${text}`);
    }
    for (const text of missed) {
      assert.ok(!textHints(text).families.includes(family), `${id}: ${text}`);
    }
  }
});
