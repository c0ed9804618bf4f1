import type { ByteRate } from '../types.js';
import { BYTE_UNITS, parseBytes } from '../byte-units.js';

/** A rate's units: the byte units, and bits as network rates are often given. */
const UNIT_BYTES: Record<string, number> = {
  ...BYTE_UNITS,
  bit: 1 / 8,
  kbit: 1000 / 8,
  Kbit: 1000 / 8,
  Mbit: 1e6 / 8,
  Gbit: 1e9 / 8,
};

/** Bytes per second of a rate ("256 KiB/s", "1 Mbit/s" or a whole number); undefined if it is not one. */
export function bytesPerSecond(rate: ByteRate): number | undefined {
  if (typeof rate === 'number') return Number.isSafeInteger(rate) && rate >= 1 ? rate : undefined;
  const perSecond = /^(.*)\/s\s*$/s.exec(rate);
  const value = perSecond ? parseBytes(perSecond[1]!, UNIT_BYTES, true) : undefined;
  return value !== undefined && value > 0 ? value : undefined;
}
