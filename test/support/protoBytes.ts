// A minimal protobuf writer for tests that build wire bytes by hand from the public field numbers,
// independently of protobufjs: tag = field << 3 | wire type.

/** Base-128 varint; negative numbers as their 64-bit two's complement, as protobuf writes int64. */
export const varint = (value: bigint | number): number[] => {
  let v = BigInt.asUintN(64, BigInt(value));
  const out: number[] = [];
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) byte |= 0x80;
    out.push(byte);
  } while (v > 0n);
  return out;
};
export const fVarint = (field: number, value: bigint | number): number[] => [...varint((field << 3) | 0), ...varint(value)];
export const fBytes = (field: number, bytes: number[]): number[] => [...varint((field << 3) | 2), ...varint(bytes.length), ...bytes];
export const fString = (field: number, s: string): number[] => fBytes(field, [...Buffer.from(s, 'utf8')]);
