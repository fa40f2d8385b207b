// How a line wider than one device pixel is drawn as hairlines (see ownLines.ts for why): copies of the
// one-pixel line side by side, in a plus shape, so that horizontal, vertical and sloped stretches all come
// out the width asked for. Pure (no DOM).

/** Offsets (device px) of the hairline copies that make a line `devicePx` wide, [0, 0] first. */
export function copyOffsets(devicePx: number): Array<[number, number]> {
  const t = Math.max(1, Math.round(devicePx));
  const lo = -Math.floor((t - 1) / 2);
  const out: Array<[number, number]> = [[0, 0]];
  for (let d = lo; d < lo + t; d++) {
    if (d === 0) continue;
    out.push([d, 0], [0, d]);
  }
  return out;
}
