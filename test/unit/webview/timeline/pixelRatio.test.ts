// The timeline follows a change of the device pixel ratio (a zoom in VS Code, another screen) through a
// media query that holds at the current ratio only: each change is reported once, the query is then set
// up again for the new ratio, and stopping removes the listener. Headless Chromium's emulated ratio
// changes fire no media query events, so this runs against a stand-in window.

import { describe, expect, it } from 'vitest';
import { onPixelRatioChange, type RatioWindow } from '../../../../webview/timeline/pixelRatio';

interface FakeQuery {
  media: string;
  /** [the function added, what runs it (removed after one call when added with once)]. */
  listeners: Array<[() => void, () => void]>;
}

function fakeWindow(ratio: number): RatioWindow & { queries: FakeQuery[]; zoom(to: number): void } {
  const queries: FakeQuery[] = [];
  const win = {
    devicePixelRatio: ratio,
    queries,
    matchMedia(media: string) {
      const q: FakeQuery = { media, listeners: [] };
      queries.push(q);
      return {
        addEventListener: (_type: 'change', fn: () => void, opts: { once: boolean }) => {
          const entry: [() => void, () => void] = [
            fn,
            () => {
              if (opts.once) q.listeners.splice(q.listeners.indexOf(entry), 1);
              fn();
            },
          ];
          q.listeners.push(entry);
        },
        removeEventListener: (_type: 'change', fn: () => void) => {
          const at = q.listeners.findIndex(([added]) => added === fn);
          if (at >= 0) q.listeners.splice(at, 1);
        },
      };
    },
    zoom(to: number) {
      const was = win.devicePixelRatio;
      win.devicePixelRatio = to;
      // The query that held at the old ratio stops matching: its listeners hear "change".
      for (const q of queries.filter((x) => x.media === `(resolution: ${was}dppx)`)) for (const [, run] of [...q.listeners]) run();
    },
  };
  return win;
}

describe('onPixelRatioChange', () => {
  it('reports each change once and then watches the new ratio', () => {
    const win = fakeWindow(1);
    const seen: number[] = [];
    onPixelRatioChange(() => seen.push(win.devicePixelRatio), win);
    expect(win.queries.map((q) => q.media)).toEqual(['(resolution: 1dppx)']);
    win.zoom(1.25);
    win.zoom(2);
    expect(seen).toEqual([1.25, 2]);
    expect(win.queries.map((q) => q.media)).toEqual(['(resolution: 1dppx)', '(resolution: 1.25dppx)', '(resolution: 2dppx)']);
    // The old queries hold no listener any more.
    expect(win.queries.slice(0, 2).map((q) => q.listeners.length)).toEqual([0, 0]);
  });

  it('reports nothing after it is stopped', () => {
    const win = fakeWindow(2);
    const seen: number[] = [];
    const stop = onPixelRatioChange(() => seen.push(win.devicePixelRatio), win);
    stop();
    win.zoom(1);
    expect(seen).toEqual([]);
  });
});
