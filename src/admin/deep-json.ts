/** One open object or array while writing: its remaining members and how it closes. */
interface Frame {
  members: Array<[string | undefined, unknown]>;
  next: number;
  close: string;
}

/**
 * JSON text of plain data (objects, arrays, strings, numbers, booleans, null) without recursion:
 * JSON.stringify overflows the stack on a tree some thousands of levels deep (a 12,000-deep chain of
 * containers), which a store can hold. Same output as JSON.stringify for such data.
 */
export function deepJson(value: unknown): string {
  const out: string[] = [];
  const stack: Frame[] = [];
  const write = (v: unknown): void => {
    if (Array.isArray(v)) {
      out.push('[');
      stack.push({ members: v.map((item) => [undefined, item]), next: 0, close: ']' });
    } else if (v !== null && typeof v === 'object') {
      out.push('{');
      const members = Object.entries(v).filter(([, item]) => item !== undefined && typeof item !== 'function');
      stack.push({ members, next: 0, close: '}' });
    } else {
      out.push(JSON.stringify(v) ?? 'null');
    }
  };
  write(value);
  for (let frame = stack.at(-1); frame; frame = stack.at(-1)) {
    if (frame.next === frame.members.length) {
      out.push(frame.close);
      stack.pop();
      continue;
    }
    const [key, item] = frame.members[frame.next++]!;
    if (frame.next > 1) out.push(',');
    if (key !== undefined) out.push(JSON.stringify(key), ':');
    write(item);
  }
  return out.join('');
}
