// A line wider than one device pixel is drawn as the line plus hairline copies shifted across it
// (hairlineCopies.ts, used by ownLines.ts): the copies must make up the width asked for, centred on the
// line, across each segment whatever its slope, and run on without a moveTo while they can.

import { describe, expect, it } from 'vitest';
import { drawSideCopies, sideOffsets, type PathSink } from '../../../../webview/timeline/hairlineCopies';

type Call = ['M' | 'L', number, number];

function recorded(points: Array<[number, number, 0 | 1]>, devicePx: number): Call[] {
  const calls: Call[] = [];
  const sink: PathSink = { moveTo: (x, y) => calls.push(['M', x, y]), lineTo: (x, y) => calls.push(['L', x, y]) };
  drawSideCopies(
    sink,
    points.map((p) => p[0]),
    points.map((p) => p[1]),
    points.map((p) => p[2]),
    points.length,
    devicePx,
  );
  return calls;
}

describe('side offsets', () => {
  it('are none at one device pixel or less', () => {
    expect(sideOffsets(1)).toEqual([]);
    expect(sideOffsets(0.4)).toEqual([]);
  });

  it('make up the rounded width with the line, centred on it, without repeats', () => {
    for (const width of [1.5, 2, 3, 4, 5]) {
      const t = Math.round(width);
      const all = [0, ...sideOffsets(width)].sort((a, b) => a - b);
      expect(all).toHaveLength(t);
      expect(new Set(all).size).toBe(t);
      expect(all.at(-1)! - all[0]!).toBe(t - 1);
      expect(Math.abs(all[0]! + all.at(-1)!)).toBeLessThanOrEqual(1);
    }
  });
});

describe('side copies', () => {
  it('shift a flat segment up and down, and a steep one sideways', () => {
    expect(recorded([[0, 0, 1], [10, 2, 0]], 3)).toEqual([['M', 0, -1], ['L', 10, 1], ['M', 0, 1], ['L', 10, 3]]);
    expect(recorded([[0, 0, 1], [2, 10, 0]], 2)).toEqual([['M', 1, 0], ['L', 3, 10]]);
    expect(recorded([[0, 0, 1], [2, 10, 0]], 1)).toEqual([]);
  });

  it('run on while the orientation holds, and start again at a turn from flat to steep and at a new piece', () => {
    const zig: Array<[number, number, 0 | 1]> = [
      [0, 0, 1],
      [5, 1, 0], // flat
      [10, 0, 0], // flat: runs on
      [11, 8, 0], // steep: a new start
      [12, 0, 0], // steep: runs on
      [20, 5, 1], // a new piece: nothing drawn for the jump
      [30, 5, 0],
    ];
    expect(recorded(zig, 2)).toEqual([
      ['M', 0, 1],
      ['L', 5, 2],
      ['L', 10, 1],
      ['M', 11, 0],
      ['L', 12, 8],
      ['L', 13, 0],
      ['M', 20, 6],
      ['L', 30, 6],
    ]);
  });
});
