/** "Unexpected token } in JSON at position 42" -> "line 3, column 7: Unexpected token }" (Node 20 reports positions only). */
export function jsonErrorMessage(text: string, err: Error): string {
  const position = /at position (\d+)/.exec(err.message)?.[1];
  const lineCol = /line (\d+) column (\d+)/.exec(err.message);
  const reason = err.message.replace(/\s*in JSON at position \d+.*$/, '').replace(/\s*\(line \d+ column \d+\)$/, '');
  if (lineCol) return `line ${lineCol[1]}, column ${lineCol[2]}: ${reason}`;
  if (position === undefined) {
    if (/end of JSON input/i.test(err.message)) {
      const lines = text.split('\n');
      return `line ${lines.length}, column ${lines.at(-1)!.length + 1}: ${reason}`;
    }
    return reason;
  }
  const before = text.slice(0, Number(position));
  const line = before.split('\n').length;
  const column = Number(position) - before.lastIndexOf('\n');
  return `line ${line}, column ${column}: ${reason}`;
}
