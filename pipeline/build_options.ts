/**
 * The options and results of a build (`build.ts`).
 *
 * @module
 */

import type { Counted, StageLayer } from "./stages.ts";
import type { CachePlan } from "./cache_plan.ts";
import type { StageClock } from "./timings.ts";
import type {
  BudgetReport,
  Manifest,
  ManifestTask,
  OrderContext,
  PlacedBlock,
  Plugin,
  RenderedFile,
  SecretFinding,
  SourceFile,
} from "./types.ts";

/** Options of `build()` (`build.ts`). */
export interface BuildOptions {
  /** The built-in plugins (see `plugins/defaults.ts`). */
  builtins: Plugin[];
  /** Write the document and manifest to `output.dir`. @default {true} */
  write?: boolean;
  /**
   * Record this build's cache hits as the last build's (`slop cache stats`); `false` for a
   * resident process's rehearsal, which builds only to run the code once. @default {true}
   */
  record?: boolean;
  /** Where ordering rules take the previous order from. @default {"state"} */
  orderSource?: "state" | "lock";
  /**
   * Record the order memory (the file order and the budget's steps) in the state dir, whether the
   * document is written or not: every build that makes a document for a model does, so the next
   * build keeps its prefix (`--stdout`, `--json`, the library, an MCP server). `false` for
   * inspection (`slop stats`, `report`) and for a resident process's rehearsal. A build with
   * `orderSource: "lock"` (`slop check`) or restricted to PATHS never records. @default {true}
   */
  remember?: boolean;
  /** Called for each warning as it happens. */
  onWarning?: (message: string) => void;
  /** Hook timeout in ms. @default {60000} */
  hookTimeoutMs?: number;
  /** Called as work finishes (files transformed, blocks counted), for progress bars. */
  onProgress?: (progress: BuildProgress) => void;
  /** Threads that scan and count tokens; 1: only this thread. @default {navigator.hardwareConcurrency} */
  workers?: number;
  /** Marked as each stage ends (`slop build --timings`). */
  timings?: StageClock;
  /**
   * A speed layer: stages that make the same bytes sooner (`speedLayer()` of `accel/`, which
   * `slop` and `buildContext` use). @default {undefined} the plain stages
   */
  layer?: StageLayer;
}

/** A progress report of `build()` (`build.ts`). */
export interface BuildProgress {
  /**
   * `scan`: files read and scanned for secrets (told as it starts, `done` 0, as each file's scan
   * ends, with the files not scanned again at once, and as it ends);
   * `transform`: files rendered; `tokens`: blocks counted; `budget`: tokens shed by stepping files
   * down (estimated) of the tokens the document was over its budget (only when it was).
   */
  stage: "scan" | "transform" | "tokens" | "budget";
  /** Items done in this stage. */
  done: number;
  /** Items in this stage. */
  total: number;
  /** Files whose transform came from the cache so far. */
  cacheHits: number;
  /**
   * Source bytes of the items done (`scan`, `transform`: of the files), when known: the time left
   * is estimated by bytes, as files differ in size by orders of magnitude.
   */
  bytesDone?: number;
  /** Source bytes of all items in this stage, when known (see `bytesDone`). */
  bytesTotal?: number;
}

/** What a build returns. */
export interface BuildResult {
  /** The document. */
  document: string;
  /** Ordered blocks with offsets, hashes and tokens. */
  blocks: PlacedBlock[];
  /** Files in path order with their status. */
  files: RenderedFile[];
  /** The manifest (as written beside the document). */
  manifest: Manifest;
  /** Where it was written (absent when `write: false`). */
  output?: { number: number; document: string; manifest: string };
  /** Warnings, in the order they were raised. */
  warnings: string[];
  /**
   * The warning that the document is over the configured model's context window, as it is in
   * `warnings` (absent when it fits, the window is unknown, or the build compares with the lock).
   */
  overWindow?: string;
  /** The configured provider's cache plan: tokens, breakpoints, cold and warm cost. */
  cache?: CachePlan;
  /** The token budget and what was stepped down (only when a budget is set). */
  budget?: BudgetReport;
}

/** A build done up to writing its outputs (see `prepareBuild()` of `build.ts`). */
export interface PreparedBuild {
  /** The files as rendered, with their views and cache use. */
  files: RenderedFile[];
  /**
   * Write the document and manifest (unless `write` is false), commit the ordering rules' state
   * and give the result. Once only: a second call, or one after `discard()`, is an error.
   */
  finish(options?: FinishOptions): Promise<BuildResult>;
  /**
   * Drop a build that will not be finished: the document it wrote ahead (a hidden temp file in
   * the output folder) is removed. Nothing after `finish()`.
   */
  discard(): void;
}

/** Options of {@linkcode PreparedBuild.finish}; absent ones are the build's. */
export interface FinishOptions {
  /** Write the document and manifest to `output.dir`. */
  write?: boolean;
  /** Record this build's cache hits as the last build's (`slop cache stats`). */
  record?: boolean;
  /** Record the order memory (see {@linkcode BuildOptions.remember}). */
  remember?: boolean;
  /** Marked as writing ends (`emit`). */
  timings?: StageClock;
}

/** What a build's first half gives (`renderFiles` in `build.ts`): sources, rendered files, secrets found. */
export interface Rendered {
  /** The sources read (their texts let go once rendered, unless a task may render them again). */
  sources: SourceFile[];
  /** Each file rendered by its view. */
  files: RenderedFile[];
  /** The secrets found, for the manifest and `--fail-on-secret`. */
  findings: SecretFinding[];
  /** Files whose render came from the cache (for progress reports). */
  cacheHits: number;
}

/** What a build's second half gives (`assemble` in `build.ts`): the document's blocks, placed and counted. */
export interface Assembled extends Rendered {
  /** The document's blocks, in order, with their offsets and tokens. */
  placed: PlacedBlock[];
  /** The count stage's result (its token counts by block hash). */
  counted: Counted;
  /** What the ordering rules were given. */
  orderContext: OrderContext;
  /** The budget's report, when the build had a budget. */
  budget?: BudgetReport;
  /** Whether the budget's steps are remembered for the next build. */
  stepMemory: boolean;
  /** The task the document was built for (`pipeline/task.ts`). */
  task?: ManifestTask;
}
