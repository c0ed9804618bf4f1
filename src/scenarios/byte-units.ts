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
