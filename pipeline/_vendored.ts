/**
 * Vendored code: a folder named `vendor` (at any depth) that holds a package manager's marker, or
 * sits beside its lockfile, is third-party code the manager installed (Go's `go mod vendor`, dep,
 * Glide, Composer, Bundler, `cargo vendor`), left out by default as one row, like a lockfile,
 * unless the config or a build path names the folder or a file in it. Only a marker decides: a
 * `vendor` folder without one, or a `third_party` folder, may be the project's own code. A
 * microcontroller vendor's library is vendored too, by the name its vendor gives its folder (Arm's
 * `CMSIS`, ST's `STM32F4xx_HAL_Driver`, `STM32F4xx_StdPeriph_Driver`, `STM32_USB_OTG_Driver`)
 * when C code is in it: copied into a firmware project whole, at any depth (`Drivers/`,
 * `src/lib/`, `Libraries/`). So is a library a firmware project copies whole (FreeRTOS's kernel,
 * lwIP, FatFs, SEGGER's RTT, TinyUSB, Mbed TLS, ST's sensor APIs, Nordic's and Espressif's SDKs),
 * by its own files at any depth whatever its folder is named, less the files its user edits
 * (`ffconf.h`, `FreeRTOSConfig.h`).
 *
 * @module
 */

import { isGlob } from "./helpers.ts";
import { vendoredReason } from "./_default_skips.ts";

/** Where a `vendor` folder's marker sits in it, for a package manager that writes one. */
const MARKERS: Array<{ kind: string; marks: (rest: string) => boolean }> = [
  // `go mod vendor` writes `vendor/modules.txt` (the go command checks it against go.mod).
  { kind: "Go modules", marks: (rest) => rest === "modules.txt" },
  // `bundle install --path vendor/bundle`: `bundle/<engine>/<version>/gems/...`.
  { kind: "Bundler", marks: (rest) => BUNDLER.test(rest) },
  // `cargo vendor`: a `.cargo-checksum.json` at the top of each crate's folder.
  { kind: "Cargo", marks: (rest) => CARGO.test(rest) },
];

/**
 * The lockfiles of Go's tools before modules, each beside the `vendor` folder it fills (dep's
 * `Gopkg.lock`, Glide's `glide.lock`): the folders that hold one, with the tool's name.
 */
function lockFolders(paths: string[]): Map<string, string> {
  const found = new Map<string, string>();
  for (const path of paths) {
    const slash = path.lastIndexOf("/");
    const kind = GO_LOCKS.get(path.slice(slash + 1));
    if (kind) found.set(path.slice(0, Math.max(slash, 0)), kind);
  }
  return found;
}

const GO_LOCKS = new Map([["Gopkg.lock", "Go dep"], ["glide.lock", "Glide"]]);

const BUNDLER = /^bundle\/[^/]+\/[^/]+\/(?:gems|specifications)\//;
const CARGO = /^[^/]+\/\.cargo-checksum\.json$/;

/**
 * The `vendor` folders among the listed paths that hold a package manager's marker, each with
 * the manager's name: Go's `modules.txt`, Composer's `autoload.php` beside a `composer/`
 * folder, Bundler's `bundle/<engine>/<version>/gems/`, a crate's `.cargo-checksum.json`; or
 * that sits beside the lockfile of dep (`Gopkg.lock`) or Glide (`glide.lock`), which fill it.
 *
 * `project` is the name of the project's folder: a library's folder at the top of a project
 * named for the library is the library's own repository (SEGGER's `RTT/` in a clone of RTT).
 *
 * @example
 * ```ts
 * import { vendoredFolders } from "./_vendored.ts";
 * vendoredFolders(["main.go", "vendor/modules.txt", "lib/vendor/shim.js"]);
 * // Map { "vendor" => "Go modules" }
 * ```
 */
export function vendoredFolders(
  paths: string[],
  options: { project?: string } = {},
): Map<string, string> {
  const found = new Map<string, string>();
  const autoload = new Set<string>();
  const composer = new Set<string>();
  const locks = lockFolders(paths);
  for (const path of paths) {
    for (let at = vendorAt(path, 0); at >= 0; at = vendorAt(path, at + 1)) {
      const folder = path.slice(0, at + VENDOR.length);
      const rest = path.slice(at + VENDOR.length + 1);
      if (rest === "autoload.php") autoload.add(folder);
      else if (rest.startsWith("composer/")) composer.add(folder);
      const kind = MARKERS.find(({ marks }) => marks(rest))?.kind ??
        locks.get(path.slice(0, Math.max(at - 1, 0)));
      if (kind && !found.has(folder)) found.set(folder, kind);
    }
  }
  for (const folder of autoload) {
    if (composer.has(folder) && !found.has(folder)) found.set(folder, "Composer");
  }
  sdkFolders(paths, found);
  libraryFolders(paths, found, options.project ?? "");
  return found;
}

const VENDOR = "vendor";

/**
 * Libraries a microcontroller's vendor ships for projects to copy, by the name of their folder:
 * Arm's CMSIS (core and device headers) and ST's HAL and LL drivers, standard peripheral drivers
 * and USB libraries. Such a folder holds C code (`.h`, `.c`, `.s`) to be one, in a project that is
 * not such a library itself (no CMSIS pack description at its root).
 */
const SDK_FOLDERS: Array<{ kind: string; name: RegExp }> = [
  { kind: "Arm CMSIS", name: /^cmsis$/i },
  { kind: "STM32 HAL and LL drivers", name: /^stm32\w*_hal_driver$/i },
  { kind: "STM32 standard peripheral drivers", name: /^stm32\w*_stdperiph_driver$/i },
  { kind: "STM32 USB library", name: /^stm32\w*_usb_\w+$/i },
];

/** A CMSIS pack's description at the project's root (`ARM.CMSIS.pdsc`). */
const PACK_DESCRIPTION = /^[^/]+\.pdsc$/i;

/** C code, as an SDK folder holds it. */
const C_CODE = /\.(?:h|c|s)$/i;

/**
 * The microcontroller vendors' library folders of the listed paths ({@linkcode SDK_FOLDERS}),
 * each with its kind: the outermost folder of such a name that holds C code.
 */
function sdkFolders(paths: string[], found: Map<string, string>): void {
  // A CMSIS pack's description at the root: the project is the vendor's library (Arm's CMSIS_5,
  // a device family pack), its own code.
  if (paths.some((path) => PACK_DESCRIPTION.test(path))) return;
  for (const path of paths) {
    if (!C_CODE.test(path)) continue;
    const parts = path.split("/");
    for (let i = 0; i < parts.length - 1; i++) {
      const kind = SDK_FOLDERS.find(({ name }) => name.test(parts[i]))?.kind;
      if (!kind) continue;
      const folder = parts.slice(0, i + 1).join("/");
      if (!found.has(folder)) found.set(folder, kind);
      break;
    }
  }
}

/**
 * Libraries a firmware project copies whole, told by their own files (`marks`, paths in the
 * library's folder) wherever the folder is: an RTOS's kernel, a network stack, a file system, a
 * debug channel, a USB stack, TLS, a sensor's driver API, a chip maker's SDK. The folder, or the
 * one above its `src/` or `source/`, is named for the library (`name`: crazyflie's `FatFS`,
 * `Segger_RTT/RTT`, STM32CubeMX's `Third_Party/FreeRTOS/Source`): a project that drops `ff.c` into
 * its own `firmware/` folder keeps it all, and a library's marks at the root or in its `src/` are
 * the project itself. The files of a library that its user writes or edits (`own`: its
 * configuration, the glue it asks for) stay in the build, as the project's own code does (an
 * STM32CubeMX project's `main.c`, outside any such folder, whatever licence header it carries).
 */
const LIBRARIES: Array<{
  kind: string;
  name: RegExp;
  marks: string[];
  own?: RegExp;
  /**
   * The library's sources in a `src/` or `source/` are the copy, not the folder above them, when
   * that folder holds code beside them: its user's glue (ESP-IDF's `components/fatfs`: FatFs in
   * `src/`, Espressif's `vfs/`, `diskio/` and Python tools beside it). Else the folder above is the
   * library's (FatFs's own `documents/` beside its `source/`).
   */
  sourcesOnly?: boolean;
}> = [
  {
    kind: "FreeRTOS kernel",
    name: /freertos/i,
    marks: ["tasks.c", "queue.c", "list.c", "include/FreeRTOS.h"],
    own: /^FreeRTOSConfig\.h$/,
  },
  {
    kind: "lwIP",
    name: /lwip/i,
    marks: ["core/init.c", "core/tcp.c", "include/lwip/opt.h"],
    own: /^lwipopts\.h$/,
  },
  {
    kind: "FatFs",
    name: /fat_?fs/i,
    marks: ["ff.c", "ff.h", "diskio.h"],
    own: /^(?:ffconf\.h|diskio\.c)$/,
    sourcesOnly: true,
  },
  {
    kind: "SEGGER RTT",
    name: /rtt/i,
    marks: ["SEGGER_RTT.c", "SEGGER_RTT.h"],
    own: /^SEGGER_RTT_Conf\.h$/,
  },
  {
    kind: "TinyUSB",
    name: /tinyusb/i,
    marks: ["src/tusb.c", "src/tusb.h"],
    own: /^tusb_config\.h$/,
  },
  { kind: "Mbed TLS", name: /mbed_?tls/i, marks: ["library/ssl_tls.c", "include/mbedtls/ssl.h"] },
  {
    kind: "ST VL53L1 sensor API",
    name: /vl53l1/i,
    marks: ["core/src/vl53l1_api.c", "core/inc/vl53l1_api.h"],
    own: /^vl53l1_platform/,
  },
  {
    kind: "ST VL53L0X sensor API",
    name: /vl53l0/i,
    marks: ["core/src/vl53l0x_api.c", "core/inc/vl53l0x_api.h"],
    own: /^vl53l0x_platform/,
  },
  {
    kind: "Nordic nRF5 SDK",
    name: /nrf5|sdk/i,
    marks: ["components/softdevice/common/nrf_sdh.c", "modules/nrfx/nrfx.h"],
    // (not any `*_config.h`: the SDK has two dozen of its own, `bsp_config.h`, `nrfx_config.h`)
    own: /^(?:sdk|app)_config\.h$/,
  },
  {
    kind: "ESP-IDF",
    name: /esp_?idf/i,
    marks: ["tools/idf.py", "components/esp_common/include/esp_err.h"],
  },
];

/** Each library's {@linkcode LIBRARIES} entry by its kind: the files of its own it keeps. */
const LIBRARY_OWN = new Map(LIBRARIES.map(({ kind, own }) => [kind, own]));

/**
 * Folders in which a library ships copies of the file its user edits, one for each example, demo,
 * test or chip (TinyUSB's `examples/*\/src/tusb_config.h`, a full FreeRTOS's `Demo/*\/`, nrfx's
 * `templates/`): the library's own, skipped with it.
 */
const SHIPPED_COPIES = /(?:^|\/)(?:examples?|demos?|tests?|templates?|samples?)\//i;

/**
 * The files of the vendored `folders` that their user writes or edits (a library's
 * configuration, `ffconf.h`, `FreeRTOSConfig.h`), kept in the build: a library's one file of
 * such a name, outside the folders it ships copies in ({@linkcode SHIPPED_COPIES}). A name the
 * library holds more than once (the nRF5 SDK's `sdk_config.h` of each chip) is its templates'.
 */
function libraryOwnFiles(paths: string[], folders: Map<string, string>): Set<string> {
  const byName = new Map<string, string[]>();
  for (const path of paths) {
    const folder = vendoredFolderOf(path, folders);
    const own = folder === undefined ? undefined : LIBRARY_OWN.get(folders.get(folder)!);
    const name = path.slice(path.lastIndexOf("/") + 1);
    if (!own?.test(name) || SHIPPED_COPIES.test(path.slice(folder!.length + 1))) continue;
    const key = `${folder}\0${name}`;
    const same = byName.get(key);
    if (same) same.push(path);
    else byName.set(key, [path]);
  }
  return new Set([...byName.values()].filter((same) => same.length === 1).flat());
}

/**
 * The folders of the listed paths that hold a copied library ({@linkcode LIBRARIES}): each
 * folder where all of a library's marks are, with the library's kind.
 */
function libraryFolders(paths: string[], found: Map<string, string>, project: string): void {
  const listed = new Set(paths);
  for (const path of paths) {
    for (const { kind, name, marks, sourcesOnly } of LIBRARIES) {
      const first = marks[0];
      if (!path.endsWith("/" + first)) continue;
      const marked = path.slice(0, path.length - first.length - 1);
      if (!marks.every((mark) => listed.has(`${marked}/${mark}`))) continue;
      // Sources under the library's own `src/` or `source/`: the folder above is the library's.
      const folder = marked.replace(/(?:^|\/)(?:src|source)$/i, "");
      // At the root, the project is the library; at its top in a project named for it too.
      if (folder === "" || found.has(folder) || found.has(marked)) continue;
      if (!folder.includes("/") && name.test(project)) continue;
      if (!name.test(folder.slice(folder.lastIndexOf("/") + 1))) continue;
      const glue = sourcesOnly && marked !== folder &&
        paths.some((p) =>
          p.startsWith(folder + "/") && !p.startsWith(marked + "/") && CODE_FILE.test(p)
        );
      found.set(glue ? marked : folder, kind);
    }
  }
}

/** A file of code (C, C++, assembly, Python), as a library's user writes beside a copy of it. */
const CODE_FILE = /\.(?:c|h|cc|cpp|hpp|s|py)$/i;

/** Where a `vendor/` segment starts in a path at or after `from`, or -1. */
function vendorAt(path: string, from: number): number {
  for (
    let at = path.indexOf(VENDOR + "/", from);
    at >= 0;
    at = path.indexOf(VENDOR + "/", at + 1)
  ) {
    if (at === 0 || path[at - 1] === "/") return at;
  }
  return -1;
}

/**
 * The outermost vendored folder of `folders` that holds `path`, if any.
 *
 * @example
 * ```ts
 * import { vendoredFolderOf } from "./_vendored.ts";
 * vendoredFolderOf("web/vendor/psr/log/Logger.php", new Map([["web/vendor", "Composer"]]));
 * // "web/vendor"
 * ```
 */
export function vendoredFolderOf(
  path: string,
  folders: Map<string, string>,
): string | undefined {
  for (let at = path.indexOf("/"); at >= 0; at = path.indexOf("/", at + 1)) {
    const folder = path.slice(0, at);
    if (folders.has(folder)) return folder;
  }
  return undefined;
}

/**
 * Whether a root-relative path or glob of `files` (or a build path) names a vendored folder: it
 * is the folder, a path or glob inside it, or a glob with a part of the folder's name
 * (`**\/vendor/**`, `**\/CMSIS/**`).
 * `**`, or a folder that holds it, does not.
 *
 * @example
 * ```ts
 * import { namesVendored } from "./_vendored.ts";
 * namesVendored("vendor/github.com/a/b.go", "vendor"); // true
 * namesVendored("**", "vendor"); // false
 * ```
 */
export function namesVendored(rel: string, folder: string): boolean {
  const path = rel.replace(/\/+$/, "");
  const name = folder.slice(folder.lastIndexOf("/") + 1);
  return path === folder || path.startsWith(folder + "/") ||
    (isGlob(path) && path.split("/").includes(name));
}

/**
 * The paths, but for those in a vendored folder that `keeps` does not keep: each such folder
 * once in their place (where its first file was), with its reason in `rows`.
 *
 * @example
 * ```ts
 * import { foldVendored } from "./_vendored.ts";
 * const folders = new Map([["vendor", "Go modules"]]);
 * const paths = ["main.go", "vendor/a/a.go", "vendor/modules.txt"];
 * foldVendored(paths, { folders, keeps: () => false });
 * // { paths: ["main.go", "vendor"], rows: Map { "vendor" => 'vendored code (Go modules), ...' } }
 * ```
 */
export function foldVendored(
  paths: string[],
  { folders, keeps }: {
    folders: Map<string, string>;
    keeps: (path: string, folder: string) => boolean;
  },
): { paths: string[]; rows: Map<string, string> } {
  const rows = new Map<string, string>();
  if (!folders.size) return { paths, rows };
  const out: string[] = [];
  const own = libraryOwnFiles(paths, folders);
  for (const path of paths) {
    const folder = vendoredFolderOf(path, folders);
    if (folder === undefined || keeps(path, folder) || own.has(path)) out.push(path);
    else if (!rows.has(folder)) {
      rows.set(folder, vendoredReason(folders.get(folder)!));
      out.push(folder);
    }
  }
  return { paths: out, rows };
}
