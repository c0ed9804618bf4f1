import { GenerateSpecError, type GenerateSpec } from './generate-spec.js';

/**
 * `serve --generate` text: JSON (`{"files": 1000, ...}`) or `key=value` pairs joined by commas, where
 * a number stays a number and `size` may be `4KiB`, `1KB-1MB` (uniform) or `200KB~20MB` (median~p99):
 * `files=100000,folders=2000,depth=4,size=200KB~20MB,seed=7`. Mime types are joined by `+`
 * (`mimeTypes=image/jpeg+text/plain`). The result is checked by resolveGenerateSpec like any spec.
 */
export function parseGenerateShorthand(text: string): GenerateSpec {
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) {
    try {
      return JSON.parse(trimmed) as GenerateSpec;
    } catch (err) {
      throw new GenerateSpecError('', `is not valid JSON: ${(err as Error).message}`);
    }
  }
  const spec: Record<string, unknown> = {};
  for (const pair of trimmed.split(',')) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new GenerateSpecError('', `expects key=value pairs joined by commas, got "${pair}"`);
    const key = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1).trim();
    if (key === 'size') spec[key] = sizeShorthand(value);
    else if (key === 'mimeTypes') spec[key] = value.split('+');
    else if (key === 'folderNames' || key === 'fileNames')
      spec['names'] = { ...(spec['names'] as object), [key === 'folderNames' ? 'folder' : 'file']: value };
    else spec[key] = /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
  }
  return spec as GenerateSpec;
}

function sizeShorthand(value: string): GenerateSpec['size'] {
  const median = value.split('~');
  if (median.length === 2) return { median: median[0]!, p99: median[1]! };
  const uniform = value.split('-');
  if (uniform.length === 2 && uniform[0] !== '') return { min: uniform[0]!, max: uniform[1]! };
  return /^-?\d+$/.test(value) ? Number(value) : value;
}
