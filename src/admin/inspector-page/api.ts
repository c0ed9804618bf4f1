/**
 * The page's calls to the admin API. Every call carries the admin token when one is kept (this tab's
 * sessionStorage, or #token=... in the address, which is then taken out of the address bar); bodies
 * are JSON and say so, as the admin API requires.
 */

const TOKEN_KEY = 'csp-mock-admin-token';

export class TokenRequired extends Error {
  constructor() {
    super('the admin API asks for a token');
  }
}

export class ApiError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

export function adminToken(): string | null {
  return sessionStorage.getItem(TOKEN_KEY);
}

export function setAdminToken(token: string | null): void {
  if (token) sessionStorage.setItem(TOKEN_KEY, token);
  else sessionStorage.removeItem(TOKEN_KEY);
}

/** Takes a token from #token=... (never sent to the server) and removes it from the address bar. */
export function takeTokenFromFragment(): void {
  const match = /(?:^#|&)token=([^&]*)/.exec(location.hash);
  if (!match) return;
  setAdminToken(decodeURIComponent(match[1] ?? ''));
  history.replaceState(null, '', location.pathname + location.search);
}

function headers(extra: Record<string, string> = {}): Record<string, string> {
  const token = adminToken();
  return { ...extra, ...(token ? { Authorization: `Bearer ${token}` } : {}) };
}

async function checked(res: Response): Promise<Response> {
  if (res.status === 401) throw new TokenRequired();
  if (!res.ok) throw new ApiError(res.status, (await res.text()).trim() || `HTTP ${res.status}`);
  return res;
}

export async function getJson<T>(path: string): Promise<T> {
  const res = await checked(await fetch(path, { headers: headers({ Accept: 'application/json' }), cache: 'no-store' }));
  return (await res.json()) as T;
}

/** A state-changing call: always a JSON body with its content type. */
export async function sendJson(method: 'PUT' | 'POST' | 'DELETE', path: string, body: unknown = {}): Promise<void> {
  await checked(
    await fetch(path, {
      method,
      headers: headers({ 'Content-Type': 'application/json', Accept: 'application/json' }),
      body: JSON.stringify(body),
    }),
  );
}

/** Bytes of a stored file; `range` asks for the first bytes only (previews). */
export async function getBlob(path: string, rangeBytes?: number): Promise<Blob> {
  const extra: Record<string, string> = rangeBytes ? { Range: `bytes=0-${rangeBytes - 1}` } : {};
  const res = await checked(await fetch(path, { headers: headers(extra), cache: 'no-store' }));
  return res.blob();
}

/**
 * Reads a server-sent event stream with fetch (EventSource cannot send the token) until it ends or
 * `signal` aborts; each event is handed over as its name and parsed JSON data.
 */
export async function readEvents(
  path: string,
  signal: AbortSignal,
  onEvent: (type: string, data: unknown) => void,
): Promise<void> {
  const res = await checked(
    await fetch(path, { headers: headers({ Accept: 'text/event-stream' }), cache: 'no-store', signal }),
  );
  if (!res.body) throw new ApiError(res.status, 'the event stream has no body');
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let type = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event: ')) type = line.slice(7);
        else if (line.startsWith('data: ')) data.push(line.slice(6));
      }
      if (data.length) onEvent(type, JSON.parse(data.join('\n')) as unknown);
    }
  }
}
