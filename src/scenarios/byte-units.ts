/** Bytes in each unit a size or a rate may be written in: 1000s (kB, MB...) and 1024s (KiB, MiB...). */
export const BYTE_UNITS: Readonly<Record<string, number>> = {
  B: 1,
  kB: 1000,
  KB: 1000,
  KiB: 1024,
  MB: 1e6,
  MiB: 1024 ** 2,
  GB: 1e9,
  GiB: 1024 ** 3,
  TB: 1e12,
  TiB: 1024 ** 4,
};

// The schema's byteSize and byteRate patterns say the same (scenario-schema-agreement.test.ts runs tables through both).
const AMOUNT = /^\s*([0-9]{1,15}(?:\.[0-9]{1,15})?)\s*([A-Za-z]*)\s*$/;

/**
 * The one reader of amounts of bytes as people write them: a number and a unit of `units` ("200KB", "1.5 MiB",
 * "1 Mbit" with a rate's units), or a bare number of bytes unless `unitRequired`. Undefined when it is none.
 */
export function parseBytes(
  text: string,
  units: Readonly<Record<string, number>> = BYTE_UNITS,
  unitRequired = false,
): number | undefined {
  const match = AMOUNT.exec(text);
  if (!match) return undefined;
  const unit = match[2] === '' ? (unitRequired ? undefined : 1) : units[match[2]!];
  return unit === undefined ? undefined : Number(match[1]) * unit;
}

/** The largest byte size a size option takes (a generated file, a memory budget). */
export const MAX_BYTE_SIZE = 1024 ** 4;

/** Bytes of 4096, "4096", "200KB" (1000s), "1.5 MiB" (1024s); undefined when it is none, or negative, or past 1 TiB. */
export function parseByteSize(value: unknown): number | undefined {
  const bytes = typeof value === 'number' ? value : typeof value === 'string' ? roundOf(parseBytes(value)) : undefined;
  if (bytes === undefined || !Number.isInteger(bytes) || bytes < 0 || bytes > MAX_BYTE_SIZE) return undefined;
  return bytes;
}

const roundOf = (n: number | undefined): number | undefined => (n === undefined ? undefined : Math.round(n));
