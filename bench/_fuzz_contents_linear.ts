/**
 * The `linear` check of `bench/fuzz_contents.ts`: each text of the `secrets` class at n and 2n,
 * the characters slop's own secret rules read (`tests/scaling/_read_meter.ts`, counted, the same
 * on a loaded machine) and the CPU of the whole scan (`redactText`, secretlint's rules too, the
 * fastest of three). Linear is a ratio of 2.
 *
 * @module
 */

import { cpuUsage } from "node:process";
import { readsOf } from "../tests/scaling/_read_meter.ts";
import { redactUnlessHinted } from "../pipeline/_scan.ts";
import { redactText } from "../pipeline/secrets.ts";

/** A unit repeated to `chars` characters, as the class's files are. */
export interface LinearUnit {
  path: string;
  unit: string;
}

/** The units of the `secrets` class, each a rule's start that a scanner could read again. */
export const LINEAR_UNITS: LinearUnit[] = [
  { path: "akia.txt", unit: "AKIA" },
  { path: "begin.pem", unit: "-----BEGIN RSA PRIVATE KEY-----\n" },
  { path: "begin.txt", unit: "-----BEGIN " },
  { path: "password.env", unit: "password=" },
  { path: "passwords.py", unit: "password = 'x'\n" },
  { path: "ghp.txt", unit: "ghp_" },
  { path: "jwt.txt", unit: "eyJ" },
  { path: "url.txt", unit: "https://u:" },
  { path: "b64.txt", unit: "QUJDRGVm" },
  { path: "b64_lines.txt", unit: "QUJDRGVmQUJDRGVmQUJDRGVmQUJDRGVmQUJDRGVmQUJDRGVmQUJDRGVmQUJD\n" },
  { path: "a.env", unit: "API_KEY=" },
  { path: "a.json", unit: '"password": "' },
];

async function cpuOf(text: string, path: string): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const before = cpuUsage();
    await redactText(text, path);
    const used = cpuUsage(before);
    times.push((used.user + used.system) / 1000);
  }
  return Math.min(...times);
}

/**
 * Print each unit's reads and CPU at `chars` and twice that; returns the units whose reads grew
 * more than `flagAt` times.
 *
 * @example
 * ```ts
 * import { linearCheck } from "./_fuzz_contents_linear.ts";
 * // const over = await linearCheck(1_000_000, 3);
 * ```
 */
export async function linearCheck(chars: number, flagAt: number): Promise<string[]> {
  const over: string[] = [];
  for (const { path, unit } of LINEAR_UNITS) {
    const texts = [chars, 2 * chars].map((n) => unit.repeat(Math.ceil(n / unit.length)));
    const reads = texts.map((t) =>
      readsOf(() => redactUnlessHinted(t, { secretlint: false, path }))
    );
    const cpu = [await cpuOf(texts[0], path), await cpuOf(texts[1], path)];
    const ratio = reads[1] / Math.max(1, reads[0]);
    console.log(
      `${path} ${JSON.stringify(unit.slice(0, 16))}: reads ${reads.join(" -> ")} (x${
        ratio.toFixed(2)
      }), CPU ${cpu.map((c) => c.toFixed(0)).join(" -> ")} ms (x${(cpu[1] / cpu[0]).toFixed(2)})`,
    );
    if (ratio > flagAt) over.push(`${path}: reads x${ratio.toFixed(2)} for twice the text`);
  }
  return over;
}
