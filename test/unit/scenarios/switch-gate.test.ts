import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SwitchGate } from '../../../src/scenarios/switch-gate.js';

const GRACE_MS = 1_000;

/** Lets every settled promise run its continuations (fake timers move only when told). */
const settle = () => vi.advanceTimersByTimeAsync(0);

type Scenario = (gate: SwitchGate, log: string[]) => Promise<void>;

/** A request that enters the gate and logs what happens to it. */
async function request(gate: SwitchGate, log: string[], name: string): Promise<() => void> {
  const leave = await gate.enter(() => log.push(`${name} aborted`));
  log.push(`${name} in`);
  return () => {
    log.push(`${name} out`);
    leave();
  };
}

const change =
  (log: string[], name = 'change') =>
  async (): Promise<string> => {
    log.push(`${name} runs`);
    return name;
  };

describe('switch gate: a switch runs with no request in flight, and none enters until it settles', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it.each<[string, Scenario, string[]]>([
    [
      'nothing in flight: the change runs at once',
      async (gate, log) => {
        await gate.exclusive(change(log));
      },
      ['change runs'],
    ],
    [
      'a request in flight: the change waits for it to leave',
      async (gate, log) => {
        const leave = await request(gate, log, 'A');
        const switching = gate.exclusive(change(log));
        await settle();
        log.push('A still working');
        leave();
        await switching;
      },
      ['A in', 'A still working', 'A out', 'change runs'],
    ],
    [
      'a request arriving during a switch waits for the change to finish',
      async (gate, log) => {
        const leaveA = await request(gate, log, 'A');
        const switching = gate.exclusive(change(log));
        const b = request(gate, log, 'B');
        await settle();
        leaveA();
        await switching;
        (await b)();
      },
      ['A in', 'A out', 'change runs', 'B in', 'B out'],
    ],
    [
      'two switches never overlap: the second starts after the first settles',
      async (gate, log) => {
        const first = gate.exclusive(async () => {
          log.push('first starts');
          await vi.advanceTimersByTimeAsync(10);
          log.push('first ends');
        });
        const second = gate.exclusive(change(log, 'second'));
        await Promise.all([first, second]);
      },
      ['first starts', 'first ends', 'second runs'],
    ],
    [
      'a request still in flight after the grace period is aborted, then the change runs',
      async (gate, log) => {
        const leave = await request(gate, log, 'A');
        const switching = gate.exclusive(change(log));
        await vi.advanceTimersByTimeAsync(GRACE_MS - 1);
        log.push('grace not over');
        await vi.advanceTimersByTimeAsync(1);
        leave(); // an aborted connection ends its request
        await switching;
      },
      ['A in', 'grace not over', 'A aborted', 'A out', 'change runs'],
    ],
    [
      'a request that ignores its abort holds the switch only a short while longer',
      async (gate, log) => {
        await request(gate, log, 'A');
        const switching = gate.exclusive(change(log));
        await vi.advanceTimersByTimeAsync(GRACE_MS);
        log.push('after grace');
        await vi.advanceTimersByTimeAsync(250);
        await switching;
      },
      ['A in', 'A aborted', 'after grace', 'change runs'],
    ],
    [
      'a detached request no longer counts, and ends when the switch begins',
      async (gate, log) => {
        const leave = await request(gate, log, 'hang');
        gate.detach(leave, () => log.push('hang ended'));
        await gate.exclusive(change(log));
      },
      ['hang in', 'hang out', 'hang ended', 'change runs'],
    ],
    [
      'a detached request that closes first is not ended again',
      async (gate, log) => {
        const leave = await request(gate, log, 'hang');
        const undo = gate.detach(leave, () => log.push('hang ended'));
        undo();
        await gate.exclusive(change(log));
      },
      ['hang in', 'hang out', 'change runs'],
    ],
    [
      'onSwitch callbacks run once, when the next switch begins',
      async (gate, log) => {
        gate.onSwitch(() => log.push('limits lifted'));
        await gate.exclusive(change(log, 'first'));
        await gate.exclusive(change(log, 'second'));
      },
      ['limits lifted', 'first runs', 'second runs'],
    ],
    [
      'an onSwitch callback removed before the switch does not run',
      async (gate, log) => {
        const remove = gate.onSwitch(() => log.push('limits lifted'));
        remove();
        await gate.exclusive(change(log));
      },
      ['change runs'],
    ],
    [
      'leaving twice counts once: a second request still holds the switch',
      async (gate, log) => {
        const leaveA = await request(gate, log, 'A');
        const leaveB = await request(gate, log, 'B');
        leaveA();
        leaveA();
        const switching = gate.exclusive(change(log));
        await settle();
        log.push('B still working');
        leaveB();
        await switching;
      },
      ['A in', 'B in', 'A out', 'A out', 'B still working', 'B out', 'change runs'],
    ],
    [
      'a change that fails still opens the gate again',
      async (gate, log) => {
        await gate
          .exclusive(async () => {
            throw new Error('bad scenario');
          })
          .catch((err: Error) => log.push(`refused: ${err.message}`));
        (await request(gate, log, 'A'))();
      },
      ['refused: bad scenario', 'A in', 'A out'],
    ],
  ])('%s', async (_what, scenario, expected) => {
    const log: string[] = [];
    await scenario(new SwitchGate(GRACE_MS), log);
    expect(log).toEqual(expected);
  });

  it('the change’s result is what exclusive returns', async () => {
    await expect(new SwitchGate(GRACE_MS).exclusive(async () => 42)).resolves.toBe(42);
  });

  it('endDetached (the mock closing) ends every detached request once', async () => {
    const gate = new SwitchGate(GRACE_MS);
    const ended: string[] = [];
    gate.detach(await gate.enter(() => {}), () => ended.push('a'));
    gate.detach(await gate.enter(() => {}), () => ended.push('b'));
    gate.endDetached();
    gate.endDetached();
    expect(ended).toEqual(['a', 'b']);
  });
});
