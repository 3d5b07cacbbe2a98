import { parserFor } from "../../grammars/tree_sitter.ts";

/** The part of web-tree-sitter's node and cursor the count reads. */
interface Node {
  id: number;
  tree: { walk(): Cursor };
  childCount: number;
  _children?: unknown[];
  _namedChildren?: unknown[];
}

interface Cursor {
  nodeId: number;
  gotoFirstChild(): boolean;
  gotoNextSibling(): boolean;
  gotoParent(): boolean;
  delete(): void;
}

/**
 * Each node of a tree by id: its index among its parent's children, and what finding its parent
 * costs (the children passed on the way down from the root), from one cursor walk of the tree.
 */
function places(tree: { walk(): Cursor }): Map<number, [number, number]> {
  const map = new Map<number, [number, number]>();
  const cursor = tree.walk();
  map.set(cursor.nodeId, [0, 0]);
  const costs = [0];
  const indices = [0];
  let more = cursor.gotoFirstChild();
  while (more) {
    const index = indices[indices.length - 1];
    const cost = costs[costs.length - 1] + index + 1;
    map.set(cursor.nodeId, [index, cost]);
    if (cursor.gotoFirstChild()) {
      costs.push(cost);
      indices.push(0);
      continue;
    }
    while (!cursor.gotoNextSibling()) {
      costs.pop();
      indices.pop();
      if (!indices.length || !cursor.gotoParent()) {
        more = false;
        break;
      }
    }
    if (more) indices[indices.length - 1]++;
  }
  cursor.delete();
  return map;
}

/**
 * What web-tree-sitter's node steps cost while `work` runs. Tree-sitter keeps no parent or sibling
 * links: it finds a node's `parent` by searching down from the root (at each level, through the
 * children before the one that holds the node), a sibling by that search and then through the
 * parent's children up to the node, `child(i)` through the `i` children before it, and a child by
 * field through the children up to it (all of them when none is). A list of children (`children`,
 * `namedChildren`, made anew for each node object) costs its length, and a node's `text` its
 * characters (a rule that reads each sibling's text for each child). Counted by the node's place
 * in the tree, so that a step taken for each of a wide node's children shows as growth with the
 * square of its width. `onCost`, when given, hears each step and its cost.
 */
export async function countNodeSteps(
  work: () => Promise<unknown>,
  onCost?: (step: string, cost: number) => void,
): Promise<number> {
  const parser = await parserFor("go");
  const sample = parser.parse("package x\n")!;
  const proto = Object.getPrototypeOf(sample.rootNode);
  sample.delete();
  const trees = new WeakMap<object, Map<number, [number, number]>>();
  const placeOf = (node: Node): [number, number] => {
    let map = trees.get(node.tree);
    if (!map) trees.set(node.tree, map = places(node.tree));
    return map.get(node.id) ?? [0, 0];
  };
  let total = 0;
  const add = (step: string, cost: number) => {
    total += cost;
    onCost?.(step, cost);
  };
  const saved = new Map<string, PropertyDescriptor>();
  const wrap = (name: string, cost: (node: Node, args: unknown[], result: unknown) => number) => {
    const own = Object.getOwnPropertyDescriptor(proto, name)!;
    saved.set(name, own);
    if (own.get) {
      Object.defineProperty(proto, name, {
        ...own,
        get(this: Node) {
          const before = name === "children" ? this._children : this._namedChildren;
          const result = own.get!.call(this);
          add(name, cost(this, [before], result));
          return result;
        },
      });
    } else {
      Object.defineProperty(proto, name, {
        ...own,
        value(this: Node, ...args: unknown[]) {
          const result = own.value.apply(this, args);
          add(name, cost(this, args, result));
          return result;
        },
      });
    }
  };
  const sibling = (node: Node) => {
    const [index, parent] = placeOf(node);
    return parent + index + 1;
  };
  wrap("parent", (node) => Math.max(1, placeOf(node)[1]));
  for (
    const name of ["previousSibling", "nextSibling", "previousNamedSibling", "nextNamedSibling"]
  ) {
    wrap(name, sibling);
  }
  wrap("child", (_, [index]) => (index as number) + 1);
  wrap("namedChild", (_, [index]) => (index as number) + 1);
  wrap(
    "childForFieldId",
    (node, _, result) => result ? placeOf(result as Node)[0] + 1 : Math.max(1, node.childCount),
  );
  wrap("childrenForFieldId", (node) => Math.max(1, node.childCount));
  wrap("children", (node, [before]) => before ? 1 : Math.max(1, node.childCount));
  wrap("namedChildren", (node, [before]) => before ? 1 : Math.max(1, node.childCount));
  wrap("text", (_, __, result) => Math.max(1, (result as string).length));
  try {
    await work();
  } finally {
    for (const [name, own] of saved) Object.defineProperty(proto, name, own);
  }
  return total;
}
