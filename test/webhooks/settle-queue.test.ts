import { describe, expect, it } from 'vitest';
import { SettleQueue } from '../../src/workers/settle-queue.js';

/** A write that records each batch it was given and can be held open or made to fail. */
function recorder(fails: (items: readonly string[]) => boolean = () => false) {
  const batches: string[][] = [];
  let release: (() => void) | null = null;
  let hold = false;
  const write = async (items: readonly string[]) => {
    batches.push([...items]);
    if (hold) await new Promise<void>((resolve) => (release = resolve));
    if (fails(items)) throw new Error(`cannot write ${items.join(',')}`);
    return items.map((item) => item !== 'lost-lease');
  };
  return {
    batches,
    write,
    holdNext: () => (hold = true),
    releaseHeld: () => {
      hold = false;
      release?.();
    },
  };
}

describe('settle queue (group commit of attempt records)', () => {
  it('writes records added in the same turn in one batch, and each caller learns its own result', async () => {
    const r = recorder();
    const queue = new SettleQueue(r.write, 10);
    const results = await Promise.all(['a', 'lost-lease', 'c'].map((item) => queue.add(item)));
    expect(r.batches).toEqual([['a', 'lost-lease', 'c']]);
    expect(results).toEqual([true, false, true]);
  });

  it('gathers records that arrive while a write is under way into the next one', async () => {
    const r = recorder();
    const queue = new SettleQueue(r.write, 10);
    r.holdNext();
    const first = queue.add('a');
    await new Promise((resolve) => setImmediate(resolve));
    const later = ['b', 'c', 'd'].map((item) => queue.add(item));
    r.releaseHeld();
    await Promise.all([first, ...later]);
    expect(r.batches).toEqual([['a'], ['b', 'c', 'd']]);
  });

  it('never writes more than maxBatch records at once', async () => {
    const r = recorder();
    const queue = new SettleQueue(r.write, 2);
    await Promise.all(['a', 'b', 'c', 'd', 'e'].map((item) => queue.add(item)));
    expect(r.batches).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
  });

  it('when a batch fails, writes its records one by one: only the record that cannot be written fails', async () => {
    const r = recorder((items) => items.includes('bad'));
    const queue = new SettleQueue(r.write, 10);
    const outcomes = await Promise.allSettled(['a', 'bad', 'c'].map((item) => queue.add(item)));
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(r.batches).toEqual([['a', 'bad', 'c'], ['a'], ['bad'], ['c']]);
  });

  it('keeps working after a failure', async () => {
    const r = recorder((items) => items.includes('bad'));
    const queue = new SettleQueue(r.write, 10);
    await expect(queue.add('bad')).rejects.toThrow(/cannot write bad/);
    await expect(queue.add('fine')).resolves.toBe(true);
  });

  describe('records that may wait (addLater)', () => {
    const turn = () => new Promise((resolve) => setImmediate(resolve));

    it('waits for the delay, then writes everything that gathered in one batch', async () => {
      const r = recorder();
      const queue = new SettleQueue(r.write, { maxBatch: 10, delayMs: 30 });
      const first = queue.addLater('a');
      await turn();
      await turn();
      expect(r.batches).toEqual([]);
      expect(queue.size).toBe(1);
      const second = queue.addLater('b');
      expect(await Promise.all([first, second])).toEqual([true, true]);
      expect(r.batches).toEqual([['a', 'b']]);
      expect(queue.size).toBe(0);
    });

    it('writes at once when a batch is full, without waiting out the delay', async () => {
      const r = recorder();
      const queue = new SettleQueue(r.write, { maxBatch: 3, delayMs: 60_000 });
      await Promise.all(['a', 'b', 'c'].map((item) => queue.addLater(item)));
      expect(r.batches).toEqual([['a', 'b', 'c']]);
    });

    it('a record added with add() takes the waiting ones with it in the next turn', async () => {
      const r = recorder();
      const queue = new SettleQueue(r.write, { maxBatch: 10, delayMs: 60_000 });
      const later = queue.addLater('a');
      const now = queue.add('b');
      await Promise.all([later, now]);
      expect(r.batches).toEqual([['a', 'b']]);
    });

    it('flush() writes the waiting records without waiting out the delay', async () => {
      const r = recorder();
      const queue = new SettleQueue(r.write, { maxBatch: 10, delayMs: 60_000 });
      const waiting = ['a', 'b'].map((item) => queue.addLater(item));
      queue.flush();
      await Promise.all(waiting);
      expect(r.batches).toEqual([['a', 'b']]);
    });

    it('records that arrive during a write wait for their own delay afterwards, and are written', async () => {
      const r = recorder();
      const queue = new SettleQueue(r.write, { maxBatch: 10, delayMs: 20 });
      r.holdNext();
      const first = queue.add('a');
      await turn();
      const later = queue.addLater('b');
      r.releaseHeld();
      await first;
      expect(r.batches).toEqual([['a']]);
      await expect(later).resolves.toBe(true);
      expect(r.batches).toEqual([['a'], ['b']]);
    });

    it('a failed deferred batch is written record by record too', async () => {
      const r = recorder((items) => items.includes('bad'));
      const queue = new SettleQueue(r.write, { maxBatch: 10, delayMs: 5 });
      const outcomes = await Promise.allSettled(['a', 'bad'].map((item) => queue.addLater(item)));
      expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected']);
      expect(r.batches).toEqual([['a', 'bad'], ['a'], ['bad']]);
    });
  });

  describe('work riding along (alongside)', () => {
    /** A write that runs its riders against a context of its own, as a transaction would, and records what ran in it. */
    function withContext(fails: (items: readonly string[], ran: readonly string[]) => boolean = () => false) {
      const writes: { items: string[]; ran: string[] }[] = [];
      const write = async (items: readonly string[], riders: readonly ((context: string[]) => Promise<void>)[]) => {
        const ran: string[] = [];
        for (const rider of riders) await rider(ran);
        writes.push({ items: [...items], ran });
        if (fails(items, ran)) throw new Error('transaction failed');
        return items.map(() => true);
      };
      return { writes, write };
    }

    it('runs in the next write, with every record waiting, and resolves once that write is done', async () => {
      const w = withContext();
      const queue = new SettleQueue<string, string[]>(w.write, { maxBatch: 10, delayMs: 60_000 });
      const deferred = ['a', 'b'].map((item) => queue.addLater(item));
      const rider = queue.alongside(async (ran) => {
        ran.push('lease');
        return 7;
      });
      expect(await rider).toBe(7);
      await Promise.all(deferred);
      // The deferred records did not wait out their delay: they shared the rider's write.
      expect(w.writes).toEqual([{ items: ['a', 'b'], ran: ['lease'] }]);
    });

    it('runs on its own when no record is waiting', async () => {
      const w = withContext();
      const queue = new SettleQueue<string, string[]>(w.write, { maxBatch: 10, delayMs: 60_000 });
      await expect(queue.alongside(async (ran) => ran.push('store'))).resolves.toBe(1);
      expect(w.writes).toEqual([{ items: [], ran: ['store'] }]);
    });

    it('fails with its write, whose records are then written one by one without it', async () => {
      const w = withContext((_items, ran) => ran.includes('bad'));
      const queue = new SettleQueue<string, string[]>(w.write, { maxBatch: 10, delayMs: 60_000 });
      const records = ['a', 'b'].map((item) => queue.addLater(item));
      const fine = queue.alongside(async (ran) => ran.push('fine'));
      const bad = queue.alongside(async (ran) => ran.push('bad'));
      await expect(bad).rejects.toThrow(/transaction failed/);
      // The other rider ran, but in a transaction that did not commit: it fails too.
      await expect(fine).rejects.toThrow(/transaction failed/);
      expect(await Promise.all(records)).toEqual([true, true]);
      expect(w.writes).toEqual([
        { items: ['a', 'b'], ran: ['fine', 'bad'] },
        { items: ['a'], ran: [] },
        { items: ['b'], ran: [] },
      ]);
    });
  });
});
