// gRPC status codes and the header encodings of grpc-timeout and grpc-message.

export const GRPC_CODE_NAMES = [
  'OK',
  'CANCELLED',
  'UNKNOWN',
  'INVALID_ARGUMENT',
  'DEADLINE_EXCEEDED',
  'NOT_FOUND',
  'ALREADY_EXISTS',
  'PERMISSION_DENIED',
  'RESOURCE_EXHAUSTED',
  'FAILED_PRECONDITION',
  'ABORTED',
  'OUT_OF_RANGE',
  'UNIMPLEMENTED',
  'INTERNAL',
  'UNAVAILABLE',
  'DATA_LOSS',
  'UNAUTHENTICATED',
] as const;

export type GrpcCodeName = (typeof GRPC_CODE_NAMES)[number];

export const GrpcCode = {
  OK: 0,
  CANCELLED: 1,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  PERMISSION_DENIED: 7,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
} as const;

export function grpcCodeName(code: number): string {
  return GRPC_CODE_NAMES[code] ?? `CODE_${code}`;
}

/**
 * grpc-message is percent-encoded UTF-8 (every byte outside 0x20–0x7E except '%' is %XX). Decoding must
 * be lenient: a malformed escape is kept literally rather than losing the server's explanation.
 */
export function decodeGrpcMessage(raw: string): string {
  if (!raw.includes('%')) return raw;
  const bytes: number[] = [];
  let i = 0;
  while (i < raw.length) {
    const hex = raw.slice(i + 1, i + 3);
    if (raw[i] === '%' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 3;
      continue;
    }
    const codePoint = raw.codePointAt(i) ?? 0;
    const char = String.fromCodePoint(codePoint);
    bytes.push(...Buffer.from(char, 'utf8'));
    i += char.length;
  }
  return Buffer.from(bytes).toString('utf8');
}

/** The inverse of decodeGrpcMessage, as a server would send it (used by tests and the fake servers). */
export function encodeGrpcMessage(message: string): string {
  let out = '';
  for (const byte of Buffer.from(message, 'utf8')) {
    out += byte >= 0x20 && byte <= 0x7e && byte !== 0x25 ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** grpc-timeout: at most 8 digits plus a unit. Milliseconds fit up to ~27 hours; beyond that use seconds. */
export function formatGrpcTimeout(ms: number): string {
  const whole = Math.max(0, Math.ceil(ms));
  if (whole <= 99_999_999) return `${whole}m`;
  return `${Math.min(99_999_999, Math.ceil(whole / 1000))}S`;
}
