/**
 * Files of odd shapes for the scaling bench (`bench/scaling.ts`) and its small version in the
 * suite (`tests/scaling/`): each shape makes a text of about the size asked for, the same bytes
 * on every machine (a seeded generator, no clock).
 *
 * @module
 */

import { prng } from "../tests/_helpers.ts";

/** One shape of file. */
export interface Shape {
  /** Short name (also the file's stem). */
  name: string;
  /** File name the shape is written under (its extension picks the views that apply). */
  file: string;
  /** What the shape stands for. */
  about: string;
  /** A text of about `bytes` bytes (never more than 1% over). */
  make(bytes: number): string;
}

/** Lines from `line(i)` until the text reaches `bytes` (ASCII: characters are bytes). */
function lines(bytes: number, line: (i: number) => string): string {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const l = line(i) + "\n";
    if (size + l.length > bytes && parts.length) break;
    parts.push(l);
    size += l.length;
  }
  return parts.join("");
}

function pick(rand: () => number, alphabet: string, n: number): string {
  let out = "";
  for (let i = 0; i < n; i++) out += alphabet[Math.floor(rand() * alphabet.length)];
  return out;
}

const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** The shapes, in the order the bench prints them. */
export const SHAPES: Shape[] = [
  {
    name: "letter_lines",
    file: "letters.txt",
    about: "equal-width lines (1,000 columns) of one letter",
    make: (bytes) => lines(bytes, () => "x".repeat(1000)),
  },
  {
    name: "minified_js",
    file: "bundle.min.js",
    about: "one line of minified JavaScript",
    make(bytes) {
      const parts: string[] = [];
      let size = 0;
      for (let i = 0; size < bytes - 80; i++) {
        const p = i % 3 === 0
          ? `function f${i}(a,b){return a*${i}+b.k${i % 7}}`
          : i % 3 === 1
          ? `var v${i}={k:${i},s:"s${i}",g:function(x){return f${i - 1}(x,${i})}};`
          : `if(v${i - 1}.k>${i}){v${i - 1}.s+="${i}"}else{c${i}=[${i},${i + 1},${i + 2}]}`;
        parts.push(p);
        size += p.length;
      }
      return parts.join("") + "\n";
    },
  },
  {
    name: "huge_word",
    file: "word.txt",
    about: "one word of random lowercase letters, no space or newline",
    make: (bytes) => pick(prng(3), "abcdefghijklmnopqrstuvwxyz", bytes - 1) + "\n",
  },
  {
    name: "deep_nesting",
    file: "nested.js",
    about: "one expression nested as deep as the file allows: [[[[…]]]]",
    make(bytes) {
      const depth = Math.floor((bytes - 20) / 2);
      return "const x = " + "[".repeat(depth) + "]".repeat(depth) + ";\n";
    },
  },
  {
    name: "tiny_lines",
    file: "tiny.py",
    about: "millions of two-byte lines (`x` and a newline) in a Python file",
    make: (bytes) => "x\n".repeat(Math.floor(bytes / 2)),
  },
  {
    name: "tiny_js_lines",
    file: "tiny.js",
    about: "millions of two-byte lines (`x` and a newline) in a JavaScript file",
    make: (bytes) => "x\n".repeat(Math.floor(bytes / 2)),
  },
  {
    name: "fasta",
    file: "genome.fa",
    about: "FASTA sequence data: 70-column lines of ACGT under a header every 1,000 lines",
    make(bytes) {
      const rand = prng(5);
      return lines(
        bytes,
        (i) => i % 1001 === 0 ? `>chr${i / 1001 + 1} sample sequence` : pick(rand, "ACGT", 70),
      );
    },
  },
  {
    name: "sql_dump",
    file: "dump.sql",
    about: "a SQL dump: long INSERT lines of rows with hex blobs",
    make(bytes) {
      const rand = prng(7);
      return lines(bytes, (i) => {
        const rows: string[] = [];
        for (let r = 0; r < 20; r++) {
          const id = i * 20 + r;
          rows.push(`(${id},'user${id}@example.com',0x${pick(rand, "0123456789ABCDEF", 64)})`);
        }
        return `INSERT INTO \`blobs\` VALUES ${rows.join(",")};`;
      });
    },
  },
  {
    name: "csv_table",
    file: "table.csv",
    about: "a generated table: CSV rows of ids, names, numbers and dates",
    make(bytes) {
      const rand = prng(11);
      return lines(
        bytes,
        (i) =>
          i === 0
            ? "id,name,amount,ratio,created"
            : `${i},item_${pick(rand, "abcdefghij", 6)},${Math.floor(rand() * 100000)},${
              rand().toFixed(6)
            },2026-${String(1 + (i % 12)).padStart(2, "0")}-${
              String(1 + (i % 28)).padStart(2, "0")
            }`,
      );
    },
  },
  {
    name: "log",
    file: "server.log",
    about: "a server log: timestamped lines with levels, ids and durations",
    make(bytes) {
      const rand = prng(13);
      const levels = ["INFO", "INFO", "INFO", "DEBUG", "WARN", "ERROR"];
      return lines(bytes, (i) => {
        const s = i % 60, m = Math.floor(i / 60) % 60, h = Math.floor(i / 3600) % 24;
        const t = [h, m, s].map((n) => String(n).padStart(2, "0")).join(":");
        return `2026-11-28T${t}.${String(i % 1000).padStart(3, "0")}Z ${
          levels[i % levels.length]
        } [worker-${i % 8}] GET /api/items/${Math.floor(rand() * 1e6)} id=${
          pick(rand, "0123456789abcdef", 16)
        } status=200 took=${Math.floor(rand() * 900)}ms`;
      });
    },
  },
  {
    name: "pem_bundle",
    file: "certs.pem",
    about: "a bundle of PEM certificates: 64-column base64 lines between BEGIN/END lines",
    make(bytes) {
      const rand = prng(17);
      return lines(bytes, (i) => {
        const k = i % 30;
        if (k === 0) return "-----BEGIN CERTIFICATE-----";
        if (k === 29) return "-----END CERTIFICATE-----";
        return k === 28 ? pick(rand, BASE64, 20) + "==" : pick(rand, BASE64, 64);
      });
    },
  },
];
