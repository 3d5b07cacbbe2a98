/**
 * Large data files shown by their shape: a JSON, YAML, CSV, TSV, XML, JSON Lines or test snapshot
 * file over {@linkcode DATA_LIMIT} that the config does not name gets the `summary` view (its
 * keys, counts and first records) where it would be shown `full`, with the reason on its first
 * line and in the manifest's notes. Configuration a build or CI reads (`package.json`, a
 * `tsconfig`, a workflow under `.github/`, a compose file) is shown whole at any size.
 *
 * @module
 */

import type { SourceFile } from "./types.ts";

/**
 * The size (bytes) over which a data file the config does not name is summarized: a fixture,
 * a recording, a dataset or a snapshot file that large is records an agent reads by their shape
 * (see bench/README.md, "Data files summarized by default").
 */
export const DATA_LIMIT = 32 * 1024;

/** Endings of data files, lowercase. */
const DATA_ENDINGS = [
  ".json",
  ".jsonl",
  ".ndjson",
  ".geojson",
  ".yaml",
  ".yml",
  ".csv",
  ".tsv",
  ".xml",
  ".snap",
];

/** Configuration files by name (lowercase): shown whole at any size. */
const CONFIG_NAMES = new Set([
  "package.json",
  "composer.json",
  "deno.json",
  "deno.jsonc",
  "jsconfig.json",
  "pom.xml",
  "pubspec.yaml",
  "chart.yaml",
  ".gitlab-ci.yml",
  ".travis.yml",
  "bitbucket-pipelines.yml",
  "action.yml",
  "action.yaml",
]);

/**
 * Whether a path is a data file the size rule applies to: a data ending, and not configuration a
 * build or CI reads (a name of {@linkcode CONFIG_NAMES}, a `tsconfig*.json`, a compose file, a
 * file under `.github/`, `.gitlab/`, `.circleci/` or `.buildkite/`, an `azure-pipelines` file).
 *
 * @example
 * ```ts
 * import { isDataFile } from "./data_files.ts";
 * isDataFile("fixtures/site.json"); // true
 * isDataFile("package.json"); // false
 * isDataFile(".github/workflows/ci.yml"); // false
 * ```
 */
export function isDataFile(path: string): boolean {
  const lower = path.toLowerCase();
  if (!DATA_ENDINGS.some((ending) => lower.endsWith(ending))) return false;
  const name = lower.slice(lower.lastIndexOf("/") + 1);
  if (CONFIG_NAMES.has(name) || /^tsconfig.*\.json$/.test(name)) return false;
  if (/^(?:docker-)?compose(?:[.-].*)?\.ya?ml$/.test(name) || name.startsWith("azure-pipelines")) {
    return false;
  }
  return !/(?:^|\/)\.(?:github|gitlab|circleci|buildkite)\//.test(lower);
}

/**
 * Whether a data file is summarized by default: over its limit, with no view of its own.
 *
 * @example
 * ```ts
 * import { summarizedByDefault } from "./data_files.ts";
 * // summarizedByDefault(file); // true for a 500 KB fixture the config does not name
 * ```
 */
export function summarizedByDefault(
  file: Pick<SourceFile, "dataLimit" | "size" | "entry">,
): boolean {
  return file.dataLimit !== undefined && file.size > file.dataLimit && !file.entry.view;
}

/** How a data file's reason starts (the build summary counts the files by it). */
const REASON_START = "a data file of ";

/**
 * Why a data file over {@linkcode DATA_LIMIT} is summarized: the first line of its summary and a
 * note in the manifest.
 *
 * @example
 * ```ts
 * import { dataReason } from "./data_files.ts";
 * dataReason(572_431).startsWith("a data file of 559 KB, over 32 KB"); // true
 * ```
 */
export function dataReason(size: number): string {
  return `${REASON_START}${Math.round(size / 1024)} KB, over ${DATA_LIMIT / 1024} KB: ` +
    'summarized by default: name it in "files" to show it whole';
}

/**
 * Whether a rendered file's notes say it was summarized as a large data file.
 *
 * @example
 * ```ts
 * import { dataReason, isDataSummarized } from "./data_files.ts";
 * isDataSummarized({ notes: [dataReason(100_000)] }); // true
 * ```
 */
export function isDataSummarized(file: { notes?: string[] }): boolean {
  return file.notes?.some((n) => n.startsWith(REASON_START)) ?? false;
}
