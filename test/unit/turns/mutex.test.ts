import { describe, expect, it } from 'vitest';
import { KeyedMutex, Mutex } from '../../../src/turns/mutex.js';

/** A task that waits until released, recording when it starts and ends. */
function gated(log: string[], name: string): { task: () => Promise<string>; open: () => void } {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  return {
    task: async () => {
      log.push(`start ${name}`);
      await gate;
      log.push(`end ${name}`);
      return name;
    },
    open,
  };
}

const turns = async (n = 5): Promise<void> => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};

describe('Mutex', () => {
  it('runs tasks one at a time in the order queued, each caller getting its own result', async () => {
    const mutex = new Mutex();
    const log: string[] = [];
    const a = gated(log, 'a');
    const b = gated(log, 'b');
    const ra = mutex.run(a.task);
    const rb = mutex.run(b.task);
    await turns();
    expect(log).toEqual(['start a']);
    expect(mutex.idle).toBe(false);
    b.open();
    await turns();
    expect(log, 'b waits for a even when ready first').toEqual(['start a']);
    a.open();
    expect(await Promise.all([ra, rb])).toEqual(['a', 'b']);
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b']);
    await turns(1);
    expect(mutex.idle).toBe(true);
  });

  it('a failing task rejects only its caller; the next one still runs', async () => {
    const mutex = new Mutex();
    const failed = mutex.run(() => Promise.reject(new Error('boom')));
    const next = mutex.run(() => 'ran');
    await expect(failed).rejects.toThrow('boom');
    expect(await next).toBe('ran');
  });
});

describe('KeyedMutex', () => {
  it('serialises tasks of one key, lets other keys run meanwhile, and forgets a key once idle', async () => {
    const mutex = new KeyedMutex<string>();
    const log: string[] = [];
    const a1 = gated(log, 'a1');
    const a2 = gated(log, 'a2');
    const b1 = gated(log, 'b1');
    const runs = [mutex.run('a', a1.task), mutex.run('a', a2.task), mutex.run('b', b1.task)];
    await turns();
    expect(log).toEqual(['start a1', 'start b1']);
    expect(mutex.size).toBe(2);
    b1.open();
    a1.open();
    a2.open();
    expect(await Promise.all(runs)).toEqual(['a1', 'a2', 'b1']);
    await turns(1);
    expect(mutex.size, 'no key kept after its last task').toBe(0);
  });
});
