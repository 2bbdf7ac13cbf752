import { describe, expect, it } from 'vitest';
import { createClock, parseAgentTime, REFERENCE_EPOCH_MS } from '../../src/ground/clock.js';

/** A real-time source the test moves by hand. */
function fakeReal() {
  let t = 1_000;
  let reads = 0;
  return {
    now: () => {
      reads++;
      return t;
    },
    advance: (ms: number) => (t += ms),
    reads: () => reads,
  };
}

describe('agent time', () => {
  it('simulated: only sleeps move the clock, and real time is never read', async () => {
    const real = fakeReal();
    const clock = createClock(REFERENCE_EPOCH_MS, { mode: 'simulated' }, real.now);
    clock.holding(true);
    real.advance(5_000);
    await clock.sleep(1_500);
    clock.modelCalls(3);
    expect(clock.elapsed()).toBe(1_500);
    expect(real.reads()).toBe(0);
  });

  it('real: the agent-held time counts, whole ms, except while a tool call is inside the engine or the user holds the turn', async () => {
    const real = fakeReal();
    const clock = createClock(REFERENCE_EPOCH_MS, { mode: 'real' }, real.now);
    real.advance(10_000); // before the first user message: not the agent's
    clock.holding(true);
    real.advance(2_000.6); // the agent waits before its first call
    clock.callStarted();
    real.advance(700); // the engine's part of a call: not counted (a fault's wait is simulated)
    await clock.sleep(30_000);
    clock.callEnded();
    real.advance(0.5); // with the 0.6 carried, one more whole ms
    clock.holding(false);
    real.advance(9_999); // the user's turn
    expect(clock.elapsed()).toBe(2_001 + 30_000);
    clock.holding(true);
    real.advance(250);
    expect(clock.now()).toBe(REFERENCE_EPOCH_MS + 32_251);
  });

  it('real: parallel calls pause counting until the last one leaves', () => {
    const real = fakeReal();
    const clock = createClock(REFERENCE_EPOCH_MS, { mode: 'real' }, real.now);
    clock.holding(true);
    clock.callStarted();
    clock.callStarted();
    real.advance(100);
    clock.callEnded();
    real.advance(100);
    clock.callEnded();
    real.advance(40);
    expect(clock.elapsed()).toBe(40);
  });

  it('model: each reported model call costs its ms, and real time is never read', () => {
    const real = fakeReal();
    const clock = createClock(REFERENCE_EPOCH_MS, { mode: 'model', msPerCall: 1_500 }, real.now);
    clock.holding(true);
    real.advance(60_000);
    clock.modelCalls(2);
    clock.modelCalls(0);
    expect(clock.elapsed()).toBe(3_000);
    expect(real.reads()).toBe(0);
  });

  it('parses the settings and says what to write otherwise', () => {
    expect(parseAgentTime('real')).toEqual({ mode: 'real' });
    expect(parseAgentTime(' model:1500 ')).toEqual({ mode: 'model', msPerCall: 1_500 });
    expect(() => parseAgentTime('model:')).toThrow(/write `auto`, `simulated`, `real` or `model:MS`/);
    expect(() => parseAgentTime('model:700000')).toThrow(/at most 600000/);
    expect(() => parseAgentTime('wall')).toThrow(/not `wall`/);
  });
});
