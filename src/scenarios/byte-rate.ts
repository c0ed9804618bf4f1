import type { ByteRate } from './types.js';
import { BYTE_UNITS } from './byte-units.js';

/** A rate's units: the byte units, and bits as network rates are often given. */
const UNIT_BYTES: Record<string, number> = {
  ...BYTE_UNITS,
  bit: 1 / 8,
  kbit: 1000 / 8,
  Kbit: 1000 / 8,
  Mbit: 1e6 / 8,
  Gbit: 1e9 / 8,
};

// The schema's byteRate pattern says the same (scenario-schema-agreement.test.ts runs one table through both).
const RATE = /^\s*([0-9]{1,15}(?:\.[0-9]{1,15})?)\s*([A-Za-z]+)\/s\s*$/;

/** Bytes per second of a rate ("256 KiB/s", "1 Mbit/s" or a whole number); undefined if it is not one. */
export function bytesPerSecond(rate: ByteRate): number | undefined {
  if (typeof rate === 'number') return Number.isSafeInteger(rate) && rate >= 1 ? rate : undefined;
  const match = RATE.exec(rate);
  const unit = match ? UNIT_BYTES[match[2]!] : undefined;
  if (!match || unit === undefined) return undefined;
  const value = Number(match[1]) * unit;
  return value > 0 ? value : undefined;
}
