/**
 * The rules for home devices' secrets (`secret_rules.ts` is the public face): Tasmota's console
 * commands (`Backlog MqttUser u; MqttPassword …; …`, `Password1 …`, `WebPassword …`), a device's
 * local key (Tuya's `local_key`, 16 printable characters; tinytuya's device lists, whose `"key"`
 * sits beside the device's `"ip"`), a key or token given to a device's client after its address
 * (`OutletDevice(id, "10.0.0.9", "…")`, `RoborockVacuum("10.0.0.11", "…")`), and an API token
 * that stands in a URL's path after `/api/` or in a user's name (Philips Hue's bridge
 * `username`, `http://bridge/api/<username>/lights`). None of them is written after a secret's
 * word the name rules know, and a Tuya key is shorter than a token's shape.
 *
 * @module
 */

import {
  looksGenerated,
  looksRandom,
  nameBefore,
  randomLetters,
  type TextHints,
} from "./_secret_rules_common.ts";
import { namesOf, passwordLike } from "./_secret_rules_names.ts";

type Span = { start: number; end: number };

/**
 * A Tasmota console command that sets a password (group `v`: its value, up to a blank or the `;`
 * of a `Backlog`): at a line's start, after a `Backlog` or after a `;` before another command. The
 * command is a word or two before `Password` (`MqttPassword`, `WebPassword`) or `Password1` to
 * `Password3` (the Wi-Fi networks'), so that prose's `Password reset` is none.
 */
export const CONSOLE_PASSWORD: RegExp =
  /Password[1-3]?(?<=(?:^|[;\n]|\bBacklog0?[ \t])[ \t]{0,16}(?:[A-Z][a-z]{1,16}){0,2}Password[1-3]?)[ \t]{1,16}(?<v>[^\s;"'`]{1,128})(?=[ \t]{0,16}(?:;|\r?$))/gm;

/**
 * Whether a console command's value stands: a password, with a word before it or a number, and
 * not a type of code (a struct's `NewPassword *string` field reads as a command).
 */
function consolePassword(value: string, text: string, start: number): boolean {
  const line = text.slice(text.lastIndexOf("\n", start) + 1, start);
  const named = /(?:[A-Z][a-z]{1,16})Password[1-3]?[ \t]{1,16}$|Password[1-3][ \t]{1,16}$/.test(
    line,
  );
  return named && !TYPE_OF_CODE.test(value) && passwordLike(value, true);
}

/** {@linkcode CONSOLE_PASSWORD} tried at one place (sticky). */
const CONSOLE_PASSWORD_AT = new RegExp(CONSOLE_PASSWORD.source, "my");

/**
 * The console commands' passwords ({@linkcode CONSOLE_PASSWORD} that {@linkcode consolePassword}
 * accepts), tried at each `Password` whose `passw` the name search found ({@linkcode namesOf}):
 * what a search of the whole text finds (each tried from where the last match ended), without a
 * search of every text for `Password`, which cost more than the texts it finds.
 *
 * @example
 * ```ts
 * import { findConsolePasswords } from "./_secret_rules_devices.ts";
 * findConsolePasswords("Backlog MqttUser iot; MqttPassword Hx7!kq2Lm; Restart 1\n");
 * // [{ start: 34, end: 43 }]
 * ```
 */
export function findConsolePasswords(text: string, hints?: TextHints): Span[] {
  const out: Span[] = [];
  let from = 0;
  for (const at of namesOf(text, hints).passwords) {
    // (the spot is the end of `passw`: a command's `Password` starts five characters before)
    const start = at - 5;
    if (start < from || !text.startsWith("Passw", start) || !text.startsWith("ord", at)) continue;
    CONSOLE_PASSWORD_AT.lastIndex = start;
    const m = CONSOLE_PASSWORD_AT.exec(text);
    if (!m) continue;
    from = CONSOLE_PASSWORD_AT.lastIndex;
    const value = m.groups!.v;
    if (consolePassword(value, text, from - value.length)) {
      out.push({ start: from - value.length, end: from });
    }
  }
  return out;
}

/** A type of code after a field's name (Go's `OldPassword *string`, `[]byte`, `*models.Secret`). */
const TYPE_OF_CODE = /^[*&]{0,2}(?:\[[0-9]{0,8}\])?[*&]{0,2}[A-Za-z_][\w.]{0,64}$/;

/** A device's local key's name, at the end of the text before its operator (`local_key`, `"localKey"`). */
const LOCAL_KEY_NAME =
  /(?<![A-Za-z])(?:local[_-]?key|LOCAL_?KEY|localKey|LocalKey)["']?[ \t]{0,16}$/;
/** A JSON member's name `"key"` before its operator (tinytuya's device lists). */
const JSON_KEY_NAME = /(?<![A-Za-z0-9_])"key"[ \t]{0,16}$/;
/**
 * After the operator (`:`, `=`, `=>`'s `>`): 16 printable characters, quoted (groups `dq`, `sq`)
 * or alone to the line's end or a comment (group `v`).
 */
const KEY_16 =
  />?[ \t]{0,16}(?:"(?<dq>[^"\\\r\n]{16})"|'(?<sq>[^'\\\r\n]{16})'|(?<v>[^\s"'][^\s]{15})(?=[ \t]{0,16}(?:#|\r?\n|\r|$)))/y;
/** A device's address beside it in its object: `"ip": "10.0.0.9"`. */
const DEVICE_IP = /"ip"[ \t]{0,16}:[ \t]{0,16}"[0-9]{1,3}(?:\.[0-9]{1,3}){3}"/;

/**
 * Tuya's local keys, from each operator after a secret's name that the name search found
 * ({@linkcode namesOf}): under a local key's name (`local_key: …`, `"localKey": "…"`,
 * `LOCAL_KEY=…`), or a JSON `"key"` in an object that also holds the device's `"ip"` (tinytuya's
 * `devices.json` and `snapshot.json`, read within 400 characters around, up to the braces of its
 * object): 16 printable characters that read as a key ({@linkcode deviceKeyLike}).
 *
 * @example
 * ```ts
 * import { findLocalKeys } from "./_secret_rules_devices.ts";
 * findLocalKeys("local_key: Q;r(O./h,5<XY*n>\n"); // [{ start: 11, end: 27 }]
 * findLocalKeys('{"id": "bf41", "key": "e6t!NIwBh05pVU3m", "ip": "10.0.0.5"}');
 * // [{ start: 22, end: 38 }]
 * ```
 */
export function findLocalKeys(text: string, hints?: TextHints): Span[] {
  const out: Span[] = [];
  for (const at of namesOf(text, hints).operators) {
    // a key's name ends in `y`/`Y` before its quote and blanks: a test of a few characters first
    let i = at;
    while (i > 0 && at - i < 20 && /[ \t"']/.test(text[i - 1])) i--;
    const c = text.charCodeAt(i - 1);
    if (c !== 121 && c !== 89) continue;
    const name = nameBefore(text, at);
    const local = LOCAL_KEY_NAME.test(name);
    if (!local && !JSON_KEY_NAME.test(name)) continue;
    KEY_16.lastIndex = at + 1;
    const m = KEY_16.exec(text);
    if (!m) continue;
    const { dq, sq, v } = m.groups!;
    const value = dq ?? sq ?? v!;
    if (!deviceKeyLike(value)) continue;
    const start = KEY_16.lastIndex - value.length - (v === undefined ? 1 : 0);
    if (!local && !besideAddress(text, at, start)) continue;
    out.push({ start, end: start + value.length });
  }
  return out;
}

/** Whether the object around a `"key"` member (its operator at `at`) holds a device's `"ip"`. */
function besideAddress(text: string, at: number, start: number): boolean {
  const before = text.slice(Math.max(0, at - 400), at);
  const after = text.slice(start, start + 400);
  const close = after.indexOf("}");
  const object = before.slice(Math.max(before.lastIndexOf("{"), 0)) +
    (close < 0 ? after : after.slice(0, close));
  return DEVICE_IP.test(object);
}

/**
 * Whether 16 characters read as a device's generated key: letters and a digit or a mark among
 * them, 10 or more different characters, not a placeholder.
 */
function deviceKeyLike(value: string): boolean {
  // (a Tuya key's marks are any printable ASCII: `isPlaceholder` reads one `%` or `<` as a
  // template; here only a whole value's template is one)
  if (STAND_IN.test(value) || new Set(value).size < 10 || inRuns(value)) return false;
  return /[A-Za-z]/.test(value) && /[^A-Za-z]/.test(value) &&
    !/^[a-z]{1,16}(?:[_-][a-z]{1,16}){1,8}$/.test(value);
}

/**
 * Whether characters go in runs, as a documented example's key does (`0123456789abcdef`,
 * `ab12cd34ef56gh78`): four or more steps to the next character (a random key of 16 holds
 * about one in four).
 */
function inRuns(value: string): boolean {
  let steps = 0;
  for (let i = 1; i < value.length; i++) {
    if (value.charCodeAt(i) === value.charCodeAt(i - 1) + 1) steps++;
  }
  return steps >= 4;
}

/** A value that is a template or a stand-in as a whole (`{{key}}`, `<local-key>`, `%KEY%`). */
const STAND_IN =
  /^(?:\$\{[^{}]{0,64}\}|\{\{[^{}]{0,64}\}\}|<[^<>]{0,64}>|%[A-Za-z_]{0,64}%|\$\([^()]{0,64}\))$|your|example|placeholder|changeme|xxxx|0000/i;

/**
 * A key given to a device's client by position, after the device's IPv4 address (tinytuya's
 * `OutletDevice(id, "10.0.0.9", "…")`, python-miio's `RoborockVacuum("10.0.0.11", "…")`): the
 * address's literal, `,`, and a literal of 16 to 64 characters (group `v`). A call's `(` before
 * the address on its line is checked by {@linkcode deviceCallKey}.
 */
export const DEVICE_CALL: RegExp =
  /(?<q>["'])[0-9]{1,3}(?:\.[0-9]{1,3}){3}\k<q>[ \t]{0,16},[ \t]{0,16}(?<r>["'])(?<v>[^"'\s\\]{16,64})(?=\k<r>)/g;

/**
 * Whether a literal after a device's address is its key: inside a call's parentheses, and random
 * (a generated token, 32 hex digits, or 16 characters with marks, as Tuya's local keys are); a
 * path, a host or a name is none.
 */
export function deviceCallKey(value: string, text: string, start: number): boolean {
  const line = text.slice(text.lastIndexOf("\n", start) + 1, start);
  if (!/\([^()]{0,200}$/.test(line) || /^[A-Za-z0-9.-]{1,64}\.[a-z]{2,16}$/.test(value)) {
    return false;
  }
  if (value.length > 16 && /\//.test(value)) return false;
  if (/^[0-9a-fA-F]{32}$/.test(value)) return /[0-9]/.test(value) && /[a-fA-F]/.test(value);
  return looksGenerated(value) || looksRandom(value) ||
    (value.length === 16 && deviceKeyLike(value) && /[^A-Za-z0-9]/.test(value));
}

/**
 * A token in a URL's path after `/api/` (Philips Hue's `http://bridge/api/<username>/lights`):
 * 30 to 64 letters, digits and `-` (group `v`), then the path's next `/`, a query, a quote, a
 * blank or the line's end.
 */
export const API_PATH_TOKEN: RegExp =
  /\/api\/(?<=[A-Za-z0-9.\]:-]\/api\/)(?<v>[A-Za-z0-9-]{30,64})(?=[\/?#"'`\s)]|$)/gm;

/**
 * Whether a path's or a user's name's value is a generated token: upper and lower case letters and
 * a digit, mixed as a generator mixes them or its letters random (a UUID, a hex digest, a name of
 * words and numbers such as `MyCompanyServiceAccount2024` is none).
 */
export function tokenInName(value: string): boolean {
  if (!/[A-Z]/.test(value) || !/[a-z]/.test(value) || !/[0-9]/.test(value)) return false;
  return looksGenerated(value) || randomLetters(value.replace(/[^A-Za-z]/g, ""));
}

/**
 * A user's name that is a generated token (Hue's bridge `username`, which is its API key, in
 * `phue`'s `.python_hue`, `Bridge(ip, username="…")`, a `username:` setting): 30 to 64 letters,
 * digits, `-` and `_` (group `v`), quoted or alone.
 */
export const TOKEN_USERNAME: RegExp =
  /(?:user|USER|User)_?(?:name|NAME|Name)(?<![A-Za-z](?:user|USER|User)_?(?:name|NAME|Name))["']?[ \t]{0,16}(?:=>|[:=])[ \t]{0,16}(?<q>["']?)(?<v>[A-Za-z0-9_-]{30,64})(?=\k<q>)(?![A-Za-z0-9_.@-])/g;
