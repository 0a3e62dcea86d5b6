import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { RequestState } from './request-state.js';

describe('RequestState', () => {
  it('makes the request logger on first use, once, bound to the request id and the given bindings', () => {
    const lines: Record<string, unknown>[] = [];
    const root = pino({ base: null }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    let children = 0;
    const child = root.child.bind(root);
    root.child = ((...args: Parameters<typeof root.child>) => {
      children++;
      return child(...args);
    }) as typeof root.child;

    const state = new RequestState('req-7', root, { app: 'review' });
    expect(children).toBe(0);
    state.log.info('one');
    state.log.warn('two');
    expect(children).toBe(1);
    expect(lines).toMatchObject([
      { reqId: 'req-7', app: 'review', msg: 'one' },
      { reqId: 'req-7', app: 'review', msg: 'two' },
    ]);
    expect(state.requestId).toBe('req-7');
  });
});
