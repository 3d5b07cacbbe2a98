import type { Item } from "./inventory.ts";

/** Items whose quantity is below `threshold`. */
export function lowStock(items: Item[], threshold = 5): Item[] {
  return items.filter((item) => item.quantity < threshold);
}

/** A plain-text table of items. */
export function formatReport(items: Item[]): string {
  return items.map((i) => `${i.sku.padEnd(8)} ${String(i.quantity).padStart(5)}  ${i.name}`)
    .join("\n");
}
