// A folder named `vendor` that holds a package manager's marker (Go's modules.txt, Composer's
// autoload.php and composer/, Bundler's installed gems, cargo vendor's checksums) is installed
// third-party code: one skipped row, unless "files" or a build path names the folder or a file in
// it. A `vendor` folder without a marker, or a marker elsewhere, is the project's own. A warm build
// (stat index, resident) gives the bytes a cold one does, as a marker comes and goes.
import assert from "node:assert/strict";
import {
  build,
  defaultPlugins,
  loadConfig,
  type ResolvedConfig,
  type SlopConfig,
  speedLayer,
} from "../../mod.ts";
import { resident } from "../../accel/resident.ts";
import { RACY_MS } from "../../accel/stat_index.ts";
import { summaryText } from "../../cli/build.ts";
import { gitInit, makeProject, tempDir } from "../_helpers.ts";

const reason = (kind: string) =>
  `vendored code (${kind}), skipped by default: name it in "files" to include it`;

const TREE: Record<string, string> = {
  "main.go": "package main\n",
  "vendor/modules.txt": "# github.com/a/b v1.0.0\n## explicit\ngithub.com/a/b\n",
  "vendor/github.com/a/b/b.go": "package b // VENDORED_GO\n",
  "vendor/github.com/a/c/c.go": "package c // VENDORED_GO\n",
  "web/vendor/autoload.php": "<?php // VENDORED_PHP\n",
  "web/vendor/composer/installed.json": "{}\n",
  "web/vendor/psr/log/Logger.php": "<?php // VENDORED_PHP\n",
  "rails/vendor/bundle/ruby/3.3.0/gems/rack-3.0.0/lib/rack.rb": "# VENDORED_RB\n",
  "rails/vendor/bundle/ruby/3.3.0/specifications/rack-3.0.0.gemspec": "# VENDORED_RB\n",
  "rs/vendor/libc/.cargo-checksum.json": '{"files":{}}\n',
  "rs/vendor/libc/src/lib.rs": "// VENDORED_RS\n",
  "old/Gopkg.lock": "# dep\n",
  "old/vendor/github.com/pkg/errors/errors.go": "package errors // VENDORED_DEP\n",
  // Look-alikes: no marker, a marker outside a `vendor` folder, half of Composer's, a JS bundle.
  "lib/vendor/shim.js": "// own shim\n",
  "third_party/modules.txt": "# own list\n",
  "php/vendor/autoload.php": "<?php // own autoload\n",
  "js/vendor/bundle/app.js": "// own bundle\n",
  "tools/sub/glide.lock": "# a lock below the folder, not beside it\n",
  "tools/vendor/x.js": "// own x\n",
  // A file named like an object's own key beside a vendor folder.
  "proto/constructor": "not a lockfile\n",
  "proto/vendor/y.js": "// own y\n",
};

/** A build written to the project's state folder: its rows and the bytes it wrote. */
async function built(root: string, inline: SlopConfig | undefined, options: {
  paths?: string[];
  plain?: boolean;
  kept?: ReturnType<typeof resident>;
  configs?: Map<SlopConfig | undefined, ResolvedConfig>;
} = {}) {
  // A resident keeps its resolution for the same config object (a server's, while its file is
  // unchanged) until it is told of a change.
  const config = options.configs?.get(inline) ??
    await loadConfig({ cwd: root, inline, paths: options.paths });
  options.configs?.set(inline, config);
  const layer = options.plain ? undefined : speedLayer({ resident: options.kept });
  const result = await build(config, { builtins: defaultPlugins(), layer });
  const rows = result.manifest.files.map((f) => [f.path, f.status, f.reason]);
  const { document, manifest } = result.output!;
  const bytes = [await Deno.readTextFile(document), await Deno.readTextFile(manifest)];
  return { result, rows, bytes };
}

const LOCKFILE = 'lockfile, skipped by default: name it in "files" to include it';

const DEFAULT_ROWS = [
  ["js/vendor/bundle/app.js", "rendered", undefined],
  ["lib/vendor/shim.js", "rendered", undefined],
  ["main.go", "rendered", undefined],
  ["old/Gopkg.lock", "skipped", LOCKFILE],
  ["old/vendor", "skipped", reason("Go dep")],
  ["php/vendor/autoload.php", "rendered", undefined],
  ["proto/constructor", "rendered", undefined],
  ["proto/vendor/y.js", "rendered", undefined],
  ["rails/vendor", "skipped", reason("Bundler")],
  ["rs/vendor", "skipped", reason("Cargo")],
  ["third_party/modules.txt", "rendered", undefined],
  ["tools/sub/glide.lock", "skipped", LOCKFILE],
  ["tools/vendor/x.js", "rendered", undefined],
  ["vendor", "skipped", reason("Go modules")],
  ["web/vendor", "skipped", reason("Composer")],
];

for (const inGit of [true, false]) {
  Deno.test(`a vendor folder with a package manager's marker is one skipped row (${inGit ? "git" : "walk"})`, async () => {
    const root = await makeProject(TREE);
    if (inGit) await gitInit(root);
    const { result, rows } = await built(root, undefined, { plain: true });
    assert.deepEqual(rows, DEFAULT_ROWS);
    assert.doesNotMatch(result.document, /VENDORED/);
    assert.match(
      summaryText(result),
      /skipped: vendor \(vendored code \(Go modules\), skipped by default: name it in "files"/,
    );
  });
}

Deno.test("a vendor folder or a file in it named in files or given as a build path is built", async () => {
  const root = await makeProject(TREE);
  await gitInit(root);
  const status = (rows: unknown[][]) => new Map(rows.map(([path, s]) => [path, s]));
  // A file by its path: that file, the rest of its folder one row still.
  const file = status((await built(root, { files: ["**", "vendor/github.com/a/b/b.go"] })).rows);
  assert.equal(file.get("vendor/github.com/a/b/b.go"), "rendered");
  assert.equal(file.get("vendor/github.com/a/c/c.go"), undefined);
  assert.equal(file.get("vendor"), "skipped");
  assert.equal(file.get("web/vendor"), "skipped");
  // The folder, a glob inside it, a glob that spells "vendor": all its files.
  for (const files of [["**", "vendor/"], ["**", "vendor/**/*.go"], ["**/vendor/**"]]) {
    const got = status((await built(root, { files })).rows);
    assert.equal(got.get("vendor/github.com/a/c/c.go"), "rendered", files.join());
    // `vendor/**/*.go` names the Go files: the rest of the folder (modules.txt) is its row.
    const goOnly = files[1] === "vendor/**/*.go";
    assert.equal(got.get("vendor/modules.txt"), goOnly ? undefined : "rendered");
    assert.equal(got.get("vendor"), goOnly ? "skipped" : undefined);
  }
  // A file that may hold secrets in a named folder is its own row, the folder no row.
  const secret = await makeProject({ ...TREE, "vendor/github.com/a/b/.env": "TOKEN=1\n" });
  for (const named of [{ files: ["**", "vendor/"] }, { files: ["**", "/ROOT/vendor"] }]) {
    const files = named.files.map((f) => f.replace("/ROOT", secret));
    const got = status((await built(secret, { files })).rows);
    assert.equal(got.get("vendor/github.com/a/b/.env"), "skipped", files[1]);
    assert.equal(got.get("vendor/github.com/a/c/c.go"), "rendered", files[1]);
    assert.equal(got.get("vendor"), undefined, files[1]);
  }
  const secretGiven = status((await built(secret, undefined, { paths: ["vendor"] })).rows);
  assert.equal(secretGiven.get("vendor/github.com/a/b/.env"), "skipped");
  assert.equal(secretGiven.get("vendor"), undefined);
  // `**` or a folder that holds it does not name it.
  const outer = status((await built(root, { files: ["rs/"] })).rows);
  assert.deepEqual([...outer], [["rs/vendor", "skipped"]]);
  const given = await built(root, undefined, { paths: ["web/vendor/psr", "main.go"] });
  assert.deepEqual(given.rows.map(([p, s]) => [p, s]), [
    ["main.go", "rendered"],
    ["web/vendor/psr/log/Logger.php", "rendered"],
  ]);
});

Deno.test("a warm build decides on a vendor folder as a cold one does, as its marker comes and goes", async () => {
  const named: SlopConfig = { files: ["**", "vendor/github.com/a/b/b.go"] };
  const [plain, fast] = await Promise.all([TREE, TREE].map((tree) => makeProject(tree)));
  await Promise.all([plain, fast].map((root) => gitInit(root)));
  // Files changed less than RACY_MS before a build's read are read again by the next one.
  await new Promise((resolve) => setTimeout(resolve, RACY_MS + 1100));
  const kept = resident();
  const marker = "vendor/modules.txt";
  const steps: Array<[SlopConfig | undefined, "add" | "remove" | undefined]> = [
    [undefined, undefined],
    [undefined, undefined],
    [named, undefined],
    [undefined, "remove"],
    // From here on with a resident, each config's object kept.
    [undefined, undefined],
    [undefined, "add"],
    [undefined, undefined],
    [named, "remove"],
    [named, undefined],
    [named, "add"],
    [undefined, undefined],
  ];
  const configs = new Map<SlopConfig | undefined, ResolvedConfig>();
  for (const [n, [inline, change]] of steps.entries()) {
    for (const root of [plain, fast]) {
      if (change === "remove") await Deno.remove(`${root}/${marker}`);
      if (change === "add") await Deno.writeTextFile(`${root}/${marker}`, TREE[marker]);
    }
    // What a server's watcher tells its resident.
    if (change) kept.changed([marker], true);
    const expected = await built(plain, inline, { plain: true });
    const warm = n >= 4 ? { kept, configs } : {};
    const got = await built(fast, inline, warm);
    assert.deepEqual(got.bytes, expected.bytes, `build ${n + 1}`);
    const rendered = got.rows.filter(([, s]) => s === "rendered").map(([p]) => p);
    const markerThere = ![3, 4, 7, 8].includes(n);
    assert.equal(rendered.includes("vendor/github.com/a/c/c.go"), !markerThere, `build ${n + 1}`);
    assert.equal(rendered.includes("vendor/github.com/a/b/b.go"), !markerThere || !!inline);
  }
  await kept.close();
});

Deno.test("a microcontroller vendor's library folder (Arm's CMSIS, ST's HAL, LL, standard peripheral and USB drivers) is one skipped row; named, it is built", async () => {
  const root = await makeProject({
    "Core/Src/main.c": "int main(void) { return 0; }\n",
    // STM32CubeMX's layout, and an older one under src/lib (crazyflie-firmware's).
    "Drivers/CMSIS/Include/core_cm4.h": "/* VENDORED_ARM */\n",
    "Drivers/CMSIS/Device/ST/STM32F4xx/Include/stm32f4xx.h": "/* VENDORED_ST */\n",
    "Drivers/STM32F4xx_HAL_Driver/Inc/stm32f4xx_hal.h": "/* VENDORED_ST */\n",
    "Drivers/STM32F4xx_HAL_Driver/Src/stm32f4xx_ll_gpio.c": "/* VENDORED_ST */\n",
    "src/lib/STM32F4xx_StdPeriph_Driver/src/stm32f4xx_rcc.c": "/* VENDORED_ST */\n",
    "src/lib/STM32_USB_OTG_Driver/inc/usb_core.h": "/* VENDORED_ST */\n",
    "src/lib/CMSIS/STM32F4xx/Include/system_stm32f4xx.h": "/* VENDORED_ST */\n",
    // Look-alikes: no C code under a CMSIS folder (notes about it), a folder of the project's own.
    "docs/CMSIS/notes.md": "# How we use CMSIS\n",
    "src/hal/stm32_hal_glue.c": "/* own glue */\n",
  });
  const { result, rows } = await built(root, undefined, { plain: true });
  const status = new Map(rows.map(([path, s, why]) => [path, [s, why]]));
  for (
    const [folder, kind] of [
      ["Drivers/CMSIS", "Arm CMSIS"],
      ["Drivers/STM32F4xx_HAL_Driver", "STM32 HAL and LL drivers"],
      ["src/lib/CMSIS", "Arm CMSIS"],
      ["src/lib/STM32F4xx_StdPeriph_Driver", "STM32 standard peripheral drivers"],
      ["src/lib/STM32_USB_OTG_Driver", "STM32 USB library"],
    ]
  ) assert.deepEqual(status.get(folder), ["skipped", reason(kind)], folder);
  assert.doesNotMatch(result.document, /VENDORED/);
  for (const path of ["Core/Src/main.c", "docs/CMSIS/notes.md", "src/hal/stm32_hal_glue.c"]) {
    assert.equal(status.get(path)?.[0], "rendered", path);
  }
  const named = await built(root, { files: ["**", "Drivers/CMSIS/"] }, { plain: true });
  const got = new Map(named.rows.map(([path, s]) => [path, s]));
  assert.equal(got.get("Drivers/CMSIS/Include/core_cm4.h"), "rendered");
  assert.equal(got.get("Drivers/STM32F4xx_HAL_Driver"), "skipped");
  const glob = await built(root, { files: ["**", "**/CMSIS/**"] }, { plain: true });
  assert.equal(
    new Map(glob.rows.map(([path, s]) => [path, s])).get(
      "src/lib/CMSIS/STM32F4xx/Include/system_stm32f4xx.h",
    ),
    "rendered",
  );
});

Deno.test("a microcontroller vendor's own repository (a CMSIS pack's description at its root) is its code, not vendored", async () => {
  // Arm's CMSIS_5 and CMSIS_6: the library is the project, in a CMSIS folder at the root.
  const root = await makeProject({
    "ARM.CMSIS.pdsc": "<package><name>CMSIS</name></package>\n",
    "CMSIS/Core/Include/core_cm4.h": "/* OWN_CORE */\n",
    "CMSIS/RTOS2/Source/os_systick.c": "/* OWN_RTOS */\n",
  });
  const { result, rows } = await built(root, undefined, { plain: true });
  const status = new Map(rows.map(([path, s]) => [path, s]));
  assert.equal(status.get("CMSIS/Core/Include/core_cm4.h"), "rendered");
  assert.match(result.document, /OWN_RTOS/);
});

Deno.test("a library a firmware project copies (FreeRTOS, lwIP, FatFs, SEGGER RTT, ST's sensor API) is one skipped row by its own files, whatever its folder's name; its user's config stays", async () => {
  const root = await makeProject({
    "Core/Src/main.c": "/* Copyright (c) STMicroelectronics */\nint main(void) { return 0; }\n",
    "Core/Inc/FreeRTOSConfig.h": "#define configUSE_PREEMPTION 1\n",
    // STM32CubeMX's middleware layout.
    "Middlewares/Third_Party/FreeRTOS/Source/tasks.c": "/* VENDORED_RTOS */\n",
    "Middlewares/Third_Party/FreeRTOS/Source/queue.c": "/* VENDORED_RTOS */\n",
    "Middlewares/Third_Party/FreeRTOS/Source/list.c": "/* VENDORED_RTOS */\n",
    "Middlewares/Third_Party/FreeRTOS/Source/include/FreeRTOS.h": "/* VENDORED_RTOS */\n",
    "Middlewares/Third_Party/LwIP/src/core/init.c": "/* VENDORED_LWIP */\n",
    "Middlewares/Third_Party/LwIP/src/core/tcp.c": "/* VENDORED_LWIP */\n",
    "Middlewares/Third_Party/LwIP/src/include/lwip/opt.h": "/* VENDORED_LWIP */\n",
    "LWIP/Target/lwipopts.h": "#define LWIP_DHCP 1\n",
    // crazyflie-firmware's src/lib, under names no rule of folder names knows.
    "src/lib/FatFS/ff.c": "/* VENDORED_FATFS */\n",
    "src/lib/FatFS/ff.h": "/* VENDORED_FATFS */\n",
    "src/lib/FatFS/diskio.h": "/* VENDORED_FATFS */\n",
    "src/lib/FatFS/ffconf.h": "#define FF_USE_LFN 1\n",
    "src/lib/Segger_RTT/RTT/SEGGER_RTT.c": "/* VENDORED_RTT */\n",
    "src/lib/Segger_RTT/RTT/SEGGER_RTT.h": "/* VENDORED_RTT */\n",
    "src/lib/Segger_RTT/RTT/SEGGER_RTT_Conf.h": "#define BUFFER_SIZE_UP 1024\n",
    "src/lib/vl53l1/core/src/vl53l1_api.c": "/* VENDORED_ST_API */\n",
    "src/lib/vl53l1/core/inc/vl53l1_api.h": "/* VENDORED_ST_API */\n",
    "src/lib/vl53l1/vl53l1_platform.h": "/* the platform glue the user writes */\n",
    // Look-alikes: a project's own tasks.c with no kernel beside it; FatFs's files dropped into
    // the project's own folder, beside its code.
    "app/tasks.c": "void tasks(void) {}\n",
    "app/list.c": "void list(void) {}\n",
    "app/queue.c": "void queue(void) {}\n",
    "firmware/main.c": "int main(void) { return 0; }\n",
    "firmware/ff.c": "/* FatFs in the project's own folder */\n",
    "firmware/ff.h": "/* FatFs */\n",
    "firmware/diskio.h": "/* FatFs */\n",
  });
  const { result, rows } = await built(root, undefined, { plain: true });
  const status = new Map(rows.map(([path, s, why]) => [path, [s, why]]));
  for (
    const [folder, kind] of [
      ["Middlewares/Third_Party/FreeRTOS", "FreeRTOS kernel"],
      ["Middlewares/Third_Party/LwIP", "lwIP"],
      ["src/lib/FatFS", "FatFs"],
      ["src/lib/Segger_RTT/RTT", "SEGGER RTT"],
      ["src/lib/vl53l1", "ST VL53L1 sensor API"],
    ]
  ) assert.deepEqual(status.get(folder), ["skipped", reason(kind)], folder);
  assert.doesNotMatch(result.document, /VENDORED/);
  for (
    const path of [
      "Core/Src/main.c",
      "Core/Inc/FreeRTOSConfig.h",
      "LWIP/Target/lwipopts.h",
      "src/lib/FatFS/ffconf.h",
      "src/lib/Segger_RTT/RTT/SEGGER_RTT_Conf.h",
      "src/lib/vl53l1/vl53l1_platform.h",
      "app/tasks.c",
      "firmware/main.c",
      "firmware/ff.c",
    ]
  ) assert.equal(status.get(path)?.[0], "rendered", path);
  const named = await built(root, { files: ["**", "src/lib/FatFS/"] }, { plain: true });
  assert.equal(
    new Map(named.rows.map(([path, s]) => [path, s])).get("src/lib/FatFS/ff.c"),
    "rendered",
  );
});

// A library copied whole brings its examples', demos' and chips' copies of the file its user edits
// (TinyUSB's `examples/*/src/tusb_config.h`, the nRF5 SDK's `sdk_config.h` of each example, a full
// FreeRTOS's `Demo/*/FreeRTOSConfig.h`): those are the library's, skipped with it; only a copy that
// is the library's one file of that name, outside such folders, is its user's.
Deno.test("a copied library's examples' and demos' copies of its user's config files are skipped with it", async () => {
  const root = await makeProject({
    "src/main.c": "int main(void) { return 0; }\n",
    "src/tusb_config.h": "#define CFG_TUSB_MCU 1\n",
    "lib/tinyusb/src/tusb.c": "/* VENDORED_USB */\n",
    "lib/tinyusb/src/tusb.h": "/* VENDORED_USB */\n",
    "lib/tinyusb/examples/device/cdc_msc/src/tusb_config.h": "/* VENDORED_USB_EXAMPLE */\n",
    "lib/tinyusb/examples/device/hid/src/tusb_config.h": "/* VENDORED_USB_EXAMPLE */\n",
    "lib/FreeRTOS/Source/tasks.c": "/* VENDORED_RTOS */\n",
    "lib/FreeRTOS/Source/queue.c": "/* VENDORED_RTOS */\n",
    "lib/FreeRTOS/Source/list.c": "/* VENDORED_RTOS */\n",
    "lib/FreeRTOS/Source/include/FreeRTOS.h": "/* VENDORED_RTOS */\n",
    "lib/FreeRTOS/Demo/CORTEX_M4F_STM32F407ZG-SK/FreeRTOSConfig.h": "/* VENDORED_RTOS_DEMO */\n",
    "sdk/nRF5_SDK/components/softdevice/common/nrf_sdh.c": "/* VENDORED_NRF */\n",
    "sdk/nRF5_SDK/modules/nrfx/nrfx.h": "/* VENDORED_NRF */\n",
    "sdk/nRF5_SDK/config/nrf52832/config/sdk_config.h": "/* VENDORED_NRF_TEMPLATE */\n",
    "sdk/nRF5_SDK/config/nrf52840/config/sdk_config.h": "/* VENDORED_NRF_TEMPLATE */\n",
    "sdk/nRF5_SDK/modules/nrfx/templates/nRF52840/nrfx_config.h": "/* VENDORED_NRF_TEMPLATE */\n",
    "lib/FatFs/source/ff.c": "/* VENDORED_FATFS */\n",
    "lib/FatFs/source/ff.h": "/* VENDORED_FATFS */\n",
    "lib/FatFs/source/diskio.h": "/* VENDORED_FATFS */\n",
    "lib/FatFs/source/ffconf.h": "#define FF_USE_LFN 1\n",
  });
  const { result, rows } = await built(root, undefined, { plain: true });
  const status = new Map(rows.map(([path, s, why]) => [path, [s, why]]));
  for (
    const [folder, kind] of [
      ["lib/tinyusb", "TinyUSB"],
      ["lib/FreeRTOS", "FreeRTOS kernel"],
      ["sdk/nRF5_SDK", "Nordic nRF5 SDK"],
      ["lib/FatFs", "FatFs"],
    ]
  ) assert.deepEqual(status.get(folder), ["skipped", reason(kind)], folder);
  assert.doesNotMatch(result.document, /VENDORED/);
  for (const path of ["src/main.c", "src/tusb_config.h", "lib/FatFs/source/ffconf.h"]) {
    assert.equal(status.get(path)?.[0], "rendered", path);
  }
});

// The nRF5 SDK holds two dozen headers of its own whose names end in `_config.h`, once each
// (`bsp_config.h`, `integration/nrfx/nrfx_config.h`, `startup_config.h`, mbedtls's
// `check_config.h`, `nrf_tls_config.h`, ANT's `ant_*_config.h`): any such name was taken for the
// file its user edits and kept, 23 of a copied SDK 17's files. Its user's are `sdk_config.h` and
// `app_config.h`.
Deno.test("a copied nRF5 SDK's own headers named like a config are skipped with it; its user's sdk_config.h stays", async () => {
  const root = await makeProject({
    "src/main.c": "int main(void) { return 0; }\n",
    "src/app_config.h": "#define NRF_LOG_ENABLED 1\n",
    "sdk/nRF5_SDK/components/softdevice/common/nrf_sdh.c": "/* VENDORED_NRF */\n",
    "sdk/nRF5_SDK/modules/nrfx/nrfx.h": "/* VENDORED_NRF */\n",
    "sdk/nRF5_SDK/components/libraries/bsp/bsp_config.h": "/* VENDORED_NRF */\n",
    "sdk/nRF5_SDK/integration/nrfx/nrfx_config.h": "/* VENDORED_NRF */\n",
    "sdk/nRF5_SDK/integration/nrfx/legacy/apply_old_config.h": "/* VENDORED_NRF */\n",
    "sdk/nRF5_SDK/modules/nrfx/mdk/startup_config.h": "/* VENDORED_NRF */\n",
    "sdk/nRF5_SDK/external/mbedtls/include/mbedtls/check_config.h": "/* VENDORED_NRF */\n",
    "sdk/nRF5_SDK/components/ant/ant_search_config/ant_search_config.h": "/* VENDORED_NRF */\n",
    "sdk/nRF5_SDK/project/pca10056/sdk_config.h": "#define NRF_SDH_ENABLED 1\n",
  });
  const { result, rows } = await built(root, undefined, { plain: true });
  const status = new Map(rows.map(([path, s, why]) => [path, [s, why]]));
  assert.deepEqual(status.get("sdk/nRF5_SDK"), ["skipped", reason("Nordic nRF5 SDK")]);
  assert.doesNotMatch(result.document, /VENDORED/);
  for (
    const path of ["src/main.c", "src/app_config.h", "sdk/nRF5_SDK/project/pca10056/sdk_config.h"]
  ) {
    assert.equal(status.get(path)?.[0], "rendered", path);
  }
});

Deno.test("FatFs's sources are the row, not ESP-IDF's component around them; a library's own repository keeps its folder", async () => {
  const parent = await tempDir({ prefix: "slop_test_" });
  const fatfs = {
    "components/fatfs/src/ff.c": "/* VENDORED_FATFS */\n",
    "components/fatfs/src/ff.h": "/* VENDORED_FATFS */\n",
    "components/fatfs/src/diskio.h": "/* VENDORED_FATFS */\n",
    "components/fatfs/vfs/vfs_fat.c": "int esp_vfs_fat_register(void) { return 0; }\n",
    "components/fatfs/diskio/diskio_sdmmc.c": "int ff_sdmmc(void) { return 0; }\n",
    "components/fatfs/fatfsgen.py": "def generate():\n    pass\n",
  };
  const rtt = {
    "RTT/SEGGER_RTT.c": "/* SEGGER's own */\n",
    "RTT/SEGGER_RTT.h": "/* SEGGER's own */\n",
    "Syscalls/SEGGER_RTT_Syscalls_GCC.c": "int _write(void) { return 0; }\n",
  };
  // SEGGER's repository (a clone is named for it) and a user's project with RTT at its top.
  const own = await makeProject({ ...fatfs, ...rtt }, `${parent}/RTT`);
  const user = await makeProject(
    { ...rtt, "main.c": "int main(void) { return 0; }\n" },
    `${parent}/wire_cut`,
  );
  const status = async (root: string) =>
    new Map(
      (await built(root, undefined, { plain: true })).rows.map(([p, s, why]) => [p, [s, why]]),
    );
  const ownRows = await status(own);
  assert.deepEqual(ownRows.get("components/fatfs/src"), ["skipped", reason("FatFs")]);
  for (
    const path of [
      "components/fatfs/vfs/vfs_fat.c",
      "components/fatfs/diskio/diskio_sdmmc.c",
      "components/fatfs/fatfsgen.py",
      "RTT/SEGGER_RTT.c",
      "Syscalls/SEGGER_RTT_Syscalls_GCC.c",
    ]
  ) assert.equal(ownRows.get(path)?.[0], "rendered", path);
  const userRows = await status(user);
  assert.deepEqual(userRows.get("RTT"), ["skipped", reason("SEGGER RTT")]);
  assert.equal(userRows.get("main.c")?.[0], "rendered");
});
