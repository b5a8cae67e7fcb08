/**
 * Positive 32-bit ids mapped to the index of the element that first had them, in two typed arrays
 * (open addressing, at most half full): 8 to 16 bytes an id, several times less than a Map's.
 */
const fits = (id: number) => Number.isInteger(id) && id > 0 && id <= 0x7fffffff;

export class IdIndex {
  private keys = new Int32Array(1024);
  private values = new Int32Array(1024);
  private count = 0;
  /** Ids a 32-bit slot cannot hold (invalid ones, reported elsewhere) are still declared. */
  private readonly outside = new Map<number, number>();

  private slot(id: number): number {
    const mask = this.keys.length - 1;
    // Multiplicative hashing spreads consecutive ids, the usual case, over the table.
    let slot = Math.imul(id, 0x9e3779b1) & mask;
    while (this.keys[slot] !== 0 && this.keys[slot] !== id) slot = (slot + 1) & mask;
    return slot;
  }

  get(id: number): number | undefined {
    if (!fits(id)) return this.outside.get(id);
    const slot = this.slot(id);
    return this.keys[slot] === id ? this.values[slot] : undefined;
  }

  has(id: number): boolean {
    return this.get(id) !== undefined;
  }

  set(id: number, index: number): void {
    if (!fits(id)) {
      this.outside.set(id, index);
      return;
    }
    let slot = this.slot(id);
    if (this.keys[slot] !== id) {
      if (2 * (this.count + 1) > this.keys.length) {
        this.grow();
        slot = this.slot(id);
      }
      this.keys[slot] = id;
      this.count++;
    }
    this.values[slot] = index;
  }

  private grow(): void {
    const { keys, values } = this;
    this.keys = new Int32Array(keys.length * 2);
    this.values = new Int32Array(keys.length * 2);
    for (let i = 0; i < keys.length; i++) {
      if (keys[i] === 0) continue;
      const slot = this.slot(keys[i]!);
      this.keys[slot] = keys[i]!;
      this.values[slot] = values[i]!;
    }
  }
}

/** A growing list of 32-bit integers (ids fit: the import caps them at 2^31 - 1), 4 bytes each. */
export class IntList {
  private data = new Int32Array(1024);
  length = 0;

  push(value: number): void {
    if (this.length === this.data.length) {
      const grown = new Int32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = value;
  }

  at(index: number): number {
    return this.data[index]!;
  }
}
