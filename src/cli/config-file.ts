import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { jsonErrorMessage } from '../scenarios/json-error.js';

export const CONFIG_FILE = 'csp-mock.config.json';

/** Options whose values are paths: relative ones in a config file resolve against the file's folder. */
const PATH_KEYS = [
  'data',
  'out',
  'recording',
  'admin-token-file',
  'adminTokenFile',
  'cert',
  'key',
  'ca-dir',
  'caDir',
  'upstream-ca',
  'upstreamCa',
];

/**
 * yargs' `.config()` parser for csp-mock.config.json (or --config FILE): a JSON object of option names (as on
 * the command line, e.g. "port", "public-url" or "publicUrl") to values, with relative paths made relative
 * to the file. yargs itself gives a flag and CSP_MOCK_* precedence over the file. The default file may be
 * absent; a file that was named must be there.
 */
export function parseConfigFile(named: boolean): (file: string) => Record<string, unknown> {
  return (file) => {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (!named && code === 'ENOENT') return {};
      throw new Error(`cannot read config file ${file}: ${code ?? (err as Error).message}`);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      throw new Error(`config file ${file} is not valid JSON: ${jsonErrorMessage(text, err as Error)}`);
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      throw new Error(`config file ${file} must hold a JSON object of options`);
    const config = { ...(parsed as Record<string, unknown>) };
    for (const key of PATH_KEYS) {
      const value = config[key];
      if (typeof value === 'string') config[key] = resolve(dirname(file), value);
    }
    const scenario = config['scenario'];
    if (typeof scenario === 'string' && /[\\/]|\.json$/.test(scenario))
      config['scenario'] = resolve(dirname(file), scenario);
    return config;
  };
}
