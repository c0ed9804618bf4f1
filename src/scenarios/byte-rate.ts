import type { ByteRate } from './types.js';

const UNIT_BYTES: Record<string, number> = {
  B: 1,
  kB: 1000,
  KB: 1000,
  KiB: 1024,
  MB: 1e6,
  MiB: 1024 ** 2,
  GB: 1e9,
  GiB: 1024 ** 3,
  bit: 1 / 8,
  kbit: 1000 / 8,
  Kbit: 1000 / 8,
  Mbit: 1e6 / 8,
  Gbit: 1e9 / 8,
};

const RATE = /^\s*([0-9]+(?:\.[0-9]+)?)\s*([A-Za-z]+)\/s\s*$/;

/** Bytes per second of a rate ("256 KiB/s", "1 Mbit/s" or a plain integer); undefined if it is not one. */
export function bytesPerSecond(rate: ByteRate): number | undefined {
  if (typeof rate === 'number') return Number.isFinite(rate) && rate >= 1 ? rate : undefined;
  const match = RATE.exec(rate);
  const unit = match ? UNIT_BYTES[match[2]!] : undefined;
  if (!match || unit === undefined) return undefined;
  const value = Number(match[1]) * unit;
  return value >= 1 ? value : undefined;
}
