// A screenshot is listed when its bytes are a whole PNG, JPEG, GIF or WebP of a size the
// providers take, whatever its name says; anything else named like an image is left out with a
// warning that says why. slop reads only its header and last bytes, and never decodes it.
import assert from "node:assert/strict";
import { join } from "node:path";
import { buildContext, type ModelInfo, type PlacedBlock } from "../../mod.ts";
import { payloadParts } from "../../plugins/providers/_payload.ts";
import {
  HEAD_BYTES,
  MAX_IMAGE_BYTES,
  MAX_IMAGES_BYTES,
  readImageInfo,
  sniffImage,
} from "../../plugins/image_files.ts";
import { makeProject } from "../_helpers.ts";
import { gif, jpeg, png, webp } from "../_images.ts";

const whole = png(4, 3);

const SHOTS: Record<string, string | Uint8Array> = {
  "ok.png": whole,
  "photo.png": jpeg(640, 480), // a JPEG named .png: taken, sent as a JPEG
  "anim.gif": gif(300, 20),
  "pic.webp": webp(1000, 7000),
  "padded.png": new Uint8Array([...whole, 0, 0, 32, 32]), // bytes after IEND, as some writers add
  "notes.png": "just some text\n",
  "empty.jpg": "",
  "cut.png": whole.subarray(0, whole.length - 20),
  "huge.png": png(1, 1, [100_000, 100_000]),
  "wide.gif": gif(9000, 10),
  "flat.png": png(1, 1, [0, 5]),
  "cut.webp": webp(10, 10, 5000),
  "cut.jpg": jpeg(10, 10).subarray(0, 30),
  "diagram.svg": "<svg/>", // not a type the providers take: listed unread, as before
};

async function shots(root: string, screenshots: string[]) {
  const result = await buildContext({
    cwd: root,
    inline: { files: ["a.ts"], screenshots },
  }, { write: false });
  return { block: result.blocks.find((b) => b.id === "screenshots"), warnings: result.warnings };
}

Deno.test("a file named like an image that is no whole image is left out with the reason", async () => {
  const tree: Record<string, string | Uint8Array> = { "a.ts": "a\n" };
  for (const [name, bytes] of Object.entries(SHOTS)) tree[`shots/${name}`] = bytes;
  const root = await makeProject(tree);
  const { block, warnings } = await shots(root, ["shots/*"]);
  assert.equal(
    block?.text,
    "## Screenshots\n\n" +
      "![anim.gif](shots/anim.gif)\n![diagram.svg](shots/diagram.svg)\n" +
      "![ok.png](shots/ok.png)\n![padded.png](shots/padded.png)\n" +
      "![photo.png](shots/photo.png)\n![pic.webp](shots/pic.webp)\n\n",
  );
  assert.deepEqual(warnings, [
    'Screenshot "shots/cut.jpg" left out: a truncated JPEG (no frame header)',
    'Screenshot "shots/cut.png" left out: a truncated PNG (no IEND chunk at its end)',
    'Screenshot "shots/cut.webp" left out: a truncated WebP (its header says 5008 bytes, the file has 28)',
    'Screenshot "shots/empty.jpg" left out: an empty file',
    'Screenshot "shots/flat.png" left out: an image of 0x5 pixels',
    'Screenshot "shots/huge.png" left out: 100000x100000 pixels, over the limit of 8000 on a side',
    'Screenshot "shots/notes.png" left out: not a PNG, JPEG, GIF or WebP image',
    'Screenshot "shots/wide.gif" left out: 9000x10 pixels, over the limit of 8000 on a side',
  ]);
});

Deno.test("a provider sends a screenshot as the type its bytes say, not its name", async () => {
  const root = await makeProject({ "ok.png": whole, "photo.png": jpeg(8, 8), "x.gif": gif(2, 2) });
  const text = "## Screenshots\n\n![ok.png](ok.png)\n![photo.png](photo.png)\n![x.gif](x.gif)\n\n";
  const block: PlacedBlock = {
    id: "screenshots",
    section: "screenshots",
    stability: "stable",
    text,
    offset: 0,
    length: text.length,
    sha256: "",
    tokens: 0,
  };
  const parts = await payloadParts([block], {} as ModelInfo, { root, breakpoints: [] });
  assert.deepEqual(parts.images.map((i) => [i.path, i.mediaType]), [
    ["ok.png", "image/png"],
    ["photo.png", "image/jpeg"],
    ["x.gif", "image/gif"],
  ]);
});

Deno.test("a FIFO named like an image is never opened, and a big file is read at its two ends", async () => {
  const root = await makeProject({ "a.ts": "a\n" });
  const fifo = join(root, "pipe.png");
  await new Deno.Command("mkfifo", { args: [fifo] }).output();
  assert.equal(await readImageInfo(fifo), "not a regular file");
  await Deno.symlink("gone.png", join(root, "dangling.png"));
  const { warnings } = await shots(root, ["pipe.png", "*.png"]);
  assert.deepEqual(warnings, [
    'Screenshot "dangling.png" left out: cannot read it (No such file or directory (os error 2))',
    'Screenshot "pipe.png" left out: not a regular file',
  ]);
  // A JPEG whose frame header comes after HEAD_BYTES of comments: slop stops reading there.
  const comment = [0xff, 0xfe, 0xff, 0xff, ...new Uint8Array(0xfffd)];
  const segments = Math.ceil(HEAD_BYTES / comment.length) + 1;
  const tail = jpeg(5, 5).subarray(2);
  const big = new Uint8Array(2 + comment.length * segments + tail.length);
  big.set([0xff, 0xd8]);
  for (let i = 0; i < segments; i++) big.set(comment, 2 + i * comment.length);
  big.set(tail, 2 + comment.length * segments);
  assert.deepEqual(sniffImage(big, big.subarray(-16), big.length), {
    mediaType: "image/jpeg",
    width: 5,
    height: 5,
  });
  await Deno.writeFile(join(root, "big.jpg"), big);
  assert.equal(
    await readImageInfo(join(root, "big.jpg")),
    `a JPEG with no frame header in its first ${HEAD_BYTES} bytes`,
  );
});

/** A whole PNG of 4x3 pixels that holds `bytes` more in a chunk before its end. */
function heavyPng(bytes: number): Uint8Array {
  const end = whole.length - 12; // IEND: length, type, CRC
  const out = new Uint8Array(whole.length + 12 + bytes);
  out.set(whole.subarray(0, end));
  out.set([bytes >>> 24, (bytes >>> 16) & 255, (bytes >>> 8) & 255, bytes & 255], end);
  out.set(new TextEncoder().encode("zTXt"), end + 4);
  out.set(whole.subarray(end), out.length - 12);
  return out;
}

Deno.test("a screenshot over 3.75 MB, or past 16 MB of screenshots, is left out by name, and never reaches a request", async () => {
  const root = await makeProject({
    "a.ts": "a\n",
    "big.png": heavyPng(MAX_IMAGE_BYTES),
    "s1.png": heavyPng(3_900_000),
    "s2.png": heavyPng(3_900_000),
    "s3.png": heavyPng(3_900_000),
    "s4.png": heavyPng(3_900_000),
    "s5.png": heavyPng(3_900_000),
    "s6.png": whole,
  });
  const { block, warnings } = await shots(root, ["*.png"]);
  assert.equal(
    block?.text,
    "## Screenshots\n\n![s1.png](s1.png)\n![s2.png](s2.png)\n![s3.png](s3.png)\n![s4.png](s4.png)\n" +
      "![s6.png](s6.png)\n\n",
  );
  const size = whole.length + 12 + MAX_IMAGE_BYTES;
  const heavy = whole.length + 12 + 3_900_000;
  assert.deepEqual(warnings, [
    `Screenshot "big.png" left out: ${size} bytes, over the limit of ${MAX_IMAGE_BYTES} bytes ` +
    "an image (the providers' 5 MB of base64)",
    `Screenshot "s5.png" left out: the screenshots before it hold ${4 * heavy} bytes, and its ` +
    `${heavy} would take them over the limit of ${MAX_IMAGES_BYTES} bytes a request`,
  ]);
  // A request reads what the section listed, and leaves out one that grew past the limit since.
  await Deno.writeFile(join(root, "s1.png"), heavyPng(MAX_IMAGE_BYTES));
  const parts = await payloadParts(
    [{
      id: "screenshots",
      section: "screenshots",
      stability: "stable",
      text: block!.text + "![big.png](big.png)\n",
      offset: 0,
      length: block!.text.length,
      sha256: "",
      tokens: 0,
    }],
    {} as ModelInfo,
    { root, breakpoints: [] },
  );
  assert.deepEqual(parts.images.map((i) => i.path), ["s2.png", "s3.png", "s4.png", "s6.png"]);
});
