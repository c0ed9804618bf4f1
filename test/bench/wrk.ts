import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BenchRequest, LoadResult } from './load.js';
import { BOUNDARY, UPLOAD_BYTES } from './scenarios.js';

export const WRK = '/usr/bin/wrk';

export function wrkAvailable(): boolean {
  return existsSync(WRK);
}

/** wrk's Lua hook for uploads: each request a new multipart body whose file name is prefix + counter. */
const UPLOAD_LUA = `
local prefix = "u"
local counter = 0
local head1 = "--${BOUNDARY}\\r\\nContent-Disposition: form-data; name=\\"file\\"; filename=\\""
local head2 = ".txt\\"\\r\\nContent-Type: text/plain\\r\\n\\r\\n" .. string.rep("x", ${UPLOAD_BYTES}) .. "\\r\\n--${BOUNDARY}--\\r\\n"
function init(args) prefix = args[1]; wrk.method = "POST" end
function request()
  counter = counter + 1
  return wrk.format(nil, nil, nil, head1 .. prefix .. counter .. head2)
end
`;

/** Drives `spec` with wrk (one thread, `connections` keep-alive connections) for `seconds`; any non-2xx aborts. */
export async function runWrk(
  base: string,
  spec: BenchRequest,
  seconds: number,
  connections: number,
  namePrefix: string,
  workDir: string,
): Promise<LoadResult> {
  const args = ['-t1', `-c${connections}`, `-d${Math.max(1, Math.round(seconds))}s`, '--timeout', '10s'];
  for (const [k, v] of Object.entries(spec.headers ?? {})) args.push('-H', `${k}: ${v}`);
  if (spec.uploadName) {
    const script = join(workDir, 'upload.lua');
    await writeFile(script, UPLOAD_LUA);
    args.push('-s', script);
  } else if (spec.method !== 'GET') {
    // wrk sends GET unless a script names the method.
    const script = join(workDir, `method-${spec.method}.lua`);
    await writeFile(script, `wrk.method = "${spec.method}"\n`);
    args.push('-s', script);
  }
  args.push(`${base}${spec.path}`);
  if (spec.uploadName) args.push('--', namePrefix);
  const out = await new Promise<string>((resolve, reject) => {
    execFile(WRK, args, { timeout: (seconds + 30) * 1000 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`wrk failed: ${stderr || err.message}`));
      else resolve(stdout);
    });
  });
  const perSecond = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]);
  const requests = Number(/(\d+) requests in/.exec(out)?.[1]);
  const transfer = /Transfer\/sec:\s+([\d.]+)([KMG]?B)/.exec(out);
  const bad = /Non-2xx or 3xx responses: (\d+)/.exec(out);
  if (bad || !Number.isFinite(perSecond))
    throw new Error(
      `wrk ${spec.method} ${spec.path}: ${bad ? `${bad[1]} non-2xx answers` : 'unreadable output'}\n${out}`,
    );
  const unit = { B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3 }[transfer?.[2] ?? 'B'] ?? 1;
  return { requests, seconds, perSecond, bytesPerSecond: Number(transfer?.[1] ?? 0) * unit, generator: 'wrk' };
}
