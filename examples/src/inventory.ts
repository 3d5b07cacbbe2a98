/** A stock-keeping unit and its quantity on hand. */
export interface Item {
  sku: string;
  name: string;
  quantity: number;
}

/** An in-memory inventory. */
export class Inventory {
  #items = new Map<string, Item>();

  /** Add stock; creates the item when it is new. */
  add(sku: string, name: string, quantity = 1): Item {
    const item = this.#items.get(sku) ?? { sku, name, quantity: 0 };
    item.quantity += quantity;
    this.#items.set(sku, item);
    return item;
  }

  /** Remove stock; throws when there is not enough. */
  remove(sku: string, quantity = 1): Item {
    const item = this.#items.get(sku);
    if (!item || item.quantity < quantity) {
      throw new RangeError(`Not enough stock for "${sku}"`);
    }
    item.quantity -= quantity;
    return item;
  }

  /** Items sorted by SKU. */
  list(): Item[] {
    return [...this.#items.values()].sort((a, b) => a.sku.localeCompare(b.sku));
  }
}
