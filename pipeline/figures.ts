/**
 * How slop writes a count or an amount for people to read: counts grouped by thousands
 * (`1,234`), dollars to the digits that matter. The same in every locale and time zone, so
 * summaries, errors and CI reports read alike and stay byte-identical between machines.
 *
 * @module
 */

/**
 * A count grouped by thousands with commas, whatever the machine's locale.
 *
 * @example
 * ```ts
 * import { formatCount } from "./figures.ts";
 * formatCount(14258); // "14,258"
 * ```
 */
export function formatCount(n: number): string {
  // A whole number is grouped here: `toLocaleString` makes a number format at each call (a
  // summary of a thousand data files calls it thousands of times).
  if (!Number.isSafeInteger(n) || Object.is(n, -0)) return n.toLocaleString("en-US");
  const digits = String(Math.abs(n));
  let out = digits.slice(0, digits.length % 3 || 3);
  for (let at = out.length; at < digits.length; at += 3) out += `,${digits.slice(at, at + 3)}`;
  return n < 0 ? `-${out}` : out;
}

/**
 * An amount in US dollars as every cost is printed: four decimals from a cent up, six below
 * (a small drift's cost is a few millionths: `$0.0000` would say it was free), `<$0.000001`
 * for less than a millionth that is not nothing, and `$0` for nothing.
 *
 * @example
 * ```ts
 * import { formatDollars } from "./figures.ts";
 * formatDollars(0.005576); // "$0.005576"
 * formatDollars(1.23456); // "$1.2346"
 * formatDollars(0.00000025); // "<$0.000001"
 * ```
 */
export function formatDollars(n: number): string {
  if (n < 0) return `-${formatDollars(-n)}`;
  if (n === 0) return "$0";
  if (n < 0.0000005) return "<$0.000001";
  return `$${n < 0.01 ? n.toFixed(6) : n.toFixed(4)}`;
}
