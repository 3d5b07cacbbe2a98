/**
 * A squarified treemap layout (Bruls, Huizing and van Wijk, 2000): nested
 * rectangles whose areas are proportional to their weights, kept close to
 * square. Pure arithmetic, deterministic for the same input.
 *
 * @module
 */

/** A rectangle. */
export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** A weighted tree node; leaves have no children. */
export interface TreeNode {
  /** Label (a folder or file name). */
  name: string;
  /** Full path. */
  path: string;
  /** Weight (a leaf's own, a folder's sum). */
  value: number;
  /** Children, for folders. */
  children?: TreeNode[];
  /** Anything the renderer needs (view mode, ...). */
  data?: Record<string, string>;
}

/** A node placed by {@linkcode layoutTreemap}. */
export interface PlacedNode extends Rect {
  /** The node. */
  node: TreeNode;
  /** Depth: 0 for the top-level entries. */
  depth: number;
}

/**
 * Build the folder tree of `/`-separated paths with weights. Folders sum
 * their children; children are sorted by weight (largest first), then path.
 *
 * @example
 * ```ts
 * import { pathTree } from "./_treemap.ts";
 * pathTree([{ path: "src/a.ts", value: 3 }]).children?.[0].value; // 3
 * ```
 */
export function pathTree(
  items: Array<{ path: string; value: number; data?: Record<string, string> }>,
): TreeNode {
  const root: TreeNode = { name: "", path: "", value: 0, children: [] };
  for (const item of items) {
    if (!(item.value > 0)) continue;
    const parts = item.path.split("/");
    let node = root;
    node.value += item.value;
    for (let i = 0; i < parts.length - 1; i++) {
      const path = parts.slice(0, i + 1).join("/");
      let next = node.children!.find((c) => c.children && c.path === path);
      if (!next) node.children!.push(next = { name: parts[i], path, value: 0, children: [] });
      next.value += item.value;
      node = next;
    }
    node.children!.push({
      name: parts[parts.length - 1],
      path: item.path,
      value: item.value,
      data: item.data,
    });
  }
  sortTree(root);
  return root;
}

function sortTree(node: TreeNode): void {
  node.children?.sort((a, b) =>
    b.value - a.value || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)
  );
  node.children?.forEach(sortTree);
}

/** Options of {@linkcode layoutTreemap}. */
export interface TreemapOptions {
  /** Inset of a folder's children (room for its label). @default {{ top: 14, side: 2 }} */
  padding?: { top: number; side: number };
  /** Folders smaller than this (width or height) are not subdivided. @default {24} */
  minSize?: number;
}

/**
 * Lay out a tree in a rectangle: every node (folders and files) gets a
 * rectangle; a folder's children fill it minus its padding.
 *
 * @example
 * ```ts
 * import { layoutTreemap, pathTree } from "./_treemap.ts";
 * const tree = pathTree([{ path: "a", value: 1 }, { path: "b", value: 3 }]);
 * layoutTreemap(tree, { x: 0, y: 0, w: 40, h: 10 }).length; // 2
 * ```
 */
export function layoutTreemap(
  tree: TreeNode,
  rect: Rect,
  options: TreemapOptions = {},
): PlacedNode[] {
  const pad = options.padding ?? { top: 14, side: 2 };
  const minSize = options.minSize ?? 24;
  const out: PlacedNode[] = [];
  const place = (children: TreeNode[], area: Rect, depth: number) => {
    const rects = squarify(children.map((c) => c.value), area);
    children.forEach((child, i) => {
      const r = rects[i];
      out.push({ ...r, node: child, depth });
      if (child.children?.length && r.w >= minSize && r.h >= minSize + pad.top) {
        place(child.children, {
          x: r.x + pad.side,
          y: r.y + pad.top,
          w: r.w - 2 * pad.side,
          h: r.h - pad.top - pad.side,
        }, depth + 1);
      }
    });
  };
  if (tree.children?.length) place(tree.children, rect, 0);
  return out;
}

/**
 * Squarify weights (sorted largest first for best results) into a rectangle.
 *
 * @example
 * ```ts
 * import { squarify } from "./_treemap.ts";
 * squarify([1, 1], { x: 0, y: 0, w: 2, h: 1 }); // two 1x1 squares
 * ```
 */
export function squarify(values: number[], rect: Rect): Rect[] {
  const total = values.reduce((a, b) => a + b, 0);
  const out: Rect[] = new Array(values.length);
  if (!total || rect.w <= 0 || rect.h <= 0) {
    values.forEach((_, i) => out[i] = { x: rect.x, y: rect.y, w: 0, h: 0 });
    return out;
  }
  const scale = (rect.w * rect.h) / total;
  const areas = values.map((v) => v * scale);
  let free = { ...rect };
  let i = 0;
  while (i < areas.length) {
    const side = Math.min(free.w, free.h);
    let row = [i];
    let j = i + 1;
    while (j < areas.length && worst([...row, j], areas, side) <= worst(row, areas, side)) {
      row = [...row, j];
      j++;
    }
    const sum = row.reduce((a, k) => a + areas[k], 0);
    if (free.w >= free.h) {
      // Lay the row as a column on the left.
      const w = side ? sum / free.h : 0;
      let y = free.y;
      for (const k of row) {
        const h = w ? areas[k] / w : 0;
        out[k] = { x: free.x, y, w, h };
        y += h;
      }
      free = { x: free.x + w, y: free.y, w: free.w - w, h: free.h };
    } else {
      const h = side ? sum / free.w : 0;
      let x = free.x;
      for (const k of row) {
        const w = h ? areas[k] / h : 0;
        out[k] = { x, y: free.y, w, h };
        x += w;
      }
      free = { x: free.x, y: free.y + h, w: free.w, h: free.h - h };
    }
    i = j;
  }
  return out;
}

function worst(row: number[], areas: number[], side: number): number {
  const sum = row.reduce((a, k) => a + areas[k], 0);
  let max = 0;
  let min = Infinity;
  for (const k of row) {
    max = Math.max(max, areas[k]);
    min = Math.min(min, areas[k]);
  }
  if (!sum || !min) return Infinity;
  const s2 = side * side;
  return Math.max((s2 * max) / (sum * sum), (sum * sum) / (s2 * min));
}
