/**
 * Request log lines for stdout, written together once per turn of the event loop: one write for
 * all the requests that ended in it, instead of one synchronous write each (stdout may be a slow pipe).
 * What is pending when the process exits is written then.
 */
let pending: string[] = [];
let hooked = false;

function flush(): void {
  if (pending.length === 0) return;
  const text = `${pending.join('\n')}\n`;
  pending = [];
  process.stdout.write(text);
}

export function stdoutLine(line: string): void {
  if (!hooked) {
    hooked = true;
    process.on('exit', flush);
  }
  if (pending.push(line) === 1) setImmediate(flush);
}
