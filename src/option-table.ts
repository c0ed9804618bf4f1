/**
 * Every option of a mock in one table: its flag (the CLI), its CSP_MOCK_<FLAG> variable and config file key
 * (the same name), its type, its default (the library's own: resolveOptions and startMock read it here) and its
 * help line. The CLI builds its flags from it; startMock's options are the camelCase fields. Nothing heavy is
 * imported here: the CLI reads the table before it knows which command runs.
 */

export const DEFAULT_USERS: Readonly<Record<string, string>> = { demo: 'demo' };

/** One option: what yargs needs to read it, and whether its value names a file. */
export interface OptionSpec {
  type: 'string' | 'number' | 'boolean' | 'strings';
  describe: string;
  default?: string | number | boolean;
  alias?: string;
  choices?: readonly string[];
  /** A path: in a config file, a relative one resolves against the file's folder. */
  path?: true;
  /** One value, even one that starts with a dash (-5m). */
  nargs?: 1;
  conflicts?: string;
  defaultDescription?: string;
}

export const OPTIONS = {
  // Where it listens (serve, record, replay).
  port: {
    type: 'number',
    alias: 'p',
    default: 8080,
    describe: 'port to listen on, 0 picks a free one (env CSP_MOCK_PORT or PORT)',
  },
  host: { type: 'string', alias: 'H', default: '127.0.0.1', describe: 'address to bind' },
  'allow-host': {
    type: 'strings',
    describe: 'another Host name to answer (repeatable; ".example.org" for a domain and its subdomains)',
  },
  'cors-origin': {
    type: 'strings',
    describe:
      'a web page origin that may call /v2, /dav and /cdmi from a browser besides localhost ones (repeatable; "*": any, with a warning)',
  },
  cors: {
    type: 'boolean',
    default: true,
    describe: 'answer browsers from allowed origins (CORS); --no-cors turns it off',
  },
  'headers-timeout': { type: 'number', default: 30_000, describe: "ms to receive a request's headers" },
  'request-timeout': {
    type: 'number',
    default: 0,
    describe: 'ms to receive a whole request (0: no limit; slow uploads that keep moving pass)',
  },
  'idle-timeout': {
    type: 'number',
    default: 120_000,
    describe: 'ms without traffic after which a connection is closed',
  },
  'keep-alive-timeout': { type: 'number', default: 5_000, describe: 'ms an idle keep-alive connection stays open' },
  quiet: {
    type: 'boolean',
    alias: 'q',
    default: false,
    describe: 'no line per request (the ready lines and errors still print)',
  },
  verbose: {
    type: 'boolean',
    default: false,
    describe: 'log request and response headers and the first 2 KiB of bodies, secrets removed',
  },
  'log-format': {
    type: 'string',
    choices: ['text', 'json'],
    default: 'text',
    describe: 'request lines as text or as one JSON object a line',
  },
  https: {
    type: 'boolean',
    default: false,
    describe: 'serve HTTPS on --port, with a certificate from the local CA ("csp-mock ca" shows how to trust it)',
  },
  'https-port': { type: 'number', describe: 'also serve HTTPS on this port (0: a free one), beside HTTP on --port' },
  cert: { type: 'string', path: true, describe: 'serve HTTPS with your own certificate (PEM file; needs --key)' },
  key: { type: 'string', path: true, describe: 'the private key of --cert (PEM file, unencrypted)' },
  'ca-dir': {
    type: 'string',
    path: true,
    describe: "the local CA's folder (env CSP_MOCK_CA_DIR; default: csp-mock/ in your configuration folder)",
  },
  'ca-compat': {
    type: 'boolean',
    describe:
      'HTTPS signed by the compat CA: no name constraints, for runtimes that refuse them (Mono); implies --https',
  },
  'public-url': { type: 'string', describe: 'base of the absolute links in XML (default: the request Host)' },
  'admin-token': {
    type: 'string',
    describe: 'require this token on /__admin (Authorization: Bearer TOKEN); env CSP_MOCK_ADMIN_TOKEN',
  },
  'admin-token-file': {
    type: 'string',
    path: true,
    describe: 'read the admin token from the first line of this file (not visible in ps)',
  },
  user: { type: 'strings', describe: 'NAME:PASSWORD, repeatable (default demo:demo)' },

  // What the emulator serves (serve).
  data: {
    type: 'string',
    path: true,
    describe: 'JSON state file, relative to the current folder (file bytes go to <data>.blobs/); default: in memory',
  },
  'compact-after': {
    type: 'number',
    describe: 'with --data: compact the change log past this many bytes (default: max(4 MiB, state size))',
  },
  'queue-limit': {
    type: 'number',
    default: 10_000,
    describe: 'values a CDMI notification queue keeps unread before dropping its oldest',
  },
  strict: { type: 'boolean', default: false, describe: 'refuse requests without X-Client-Specification: 2' },
  empty: { type: 'boolean', default: false, describe: 'start with empty trees instead of the demo data' },
  generate: {
    type: 'string',
    describe:
      'a generated account per user, files of synthetic content (no bytes stored): files=N,folders=N,depth=N,size=200KB~20MB,seed=N or JSON',
  },
  'max-memory': {
    type: 'string',
    describe: 'with --generate: refuse an account estimated to need more memory than this (e.g. 2GiB)',
  },
  scenario: {
    type: 'string',
    describe:
      'scenario NAME (see "csp-mock scenarios"; a file name or its "name") or PATH to a scenario file (default: default)',
  },
  watch: {
    type: 'boolean',
    default: false,
    describe: 'reload the scenario file when it changes: faults and latency at once, the state untouched',
  },
  'journal-size': { type: 'number', default: 1000, describe: 'requests the journal (/__admin/requests) keeps' },
  'journal-bodies': {
    type: 'number',
    default: 0,
    describe: 'keep up to this many bytes of each request and response body in the journal (secrets removed)',
  },
  'content-cache-mib': {
    type: 'number',
    default: 64,
    describe: 'MiB of file content kept in memory to answer reads; 0: none',
  },
  'max-tenants': {
    type: 'number',
    default: 64,
    describe: 'tenants (isolated mocks under /t/<name>, made by POST /__admin/tenants) kept at once; 0: none',
  },
  'tenant-idle': {
    type: 'string',
    default: '30m',
    describe: 'close a tenant nothing has reached for this long (e.g. 30m, 2h; 0: never)',
  },
  'clock-offset': {
    type: 'string',
    nargs: 1,
    describe: "run the mock's clock this far from real time: -5m, 2d, 90s",
  },
  'clock-frozen': {
    type: 'string',
    nargs: 1,
    conflicts: 'clock-offset',
    describe: "stop the mock's clock at this ISO time (e.g. 2025-01-01T00:00:00Z)",
  },

  // Recording (record) and replaying (replay).
  upstream: { type: 'string', describe: 'base URL of the service, e.g. https://cloud.example.com' },
  'upstream-ca': {
    type: 'string',
    path: true,
    describe:
      "a CA certificate (PEM file) the upstream's certificate is checked with, besides the system's (an internal CA)",
  },
  out: {
    type: 'string',
    path: true,
    default: 'recordings/session.jsonl',
    describe: 'recording file (large bodies go to <name>.bodies/)',
  },
  redact: {
    type: 'strings',
    describe:
      'more header or query names never to write or journal (Authorization, cookies, X-Cloud-Key, X-Auth-Token, X-Api-Key and names containing token, secret, password or api-key always are)',
  },
  append: { type: 'boolean', default: false, describe: 'keep the exchanges already in --out' },
  'sidecar-threshold': {
    type: 'number',
    default: 64 * 1024,
    describe: 'bodies larger than this many bytes go to sidecar files',
  },
  recording: {
    type: 'string',
    path: true,
    describe:
      'recording file made by "record" (a path, or a NAME in ./recordings or shipped with csp-mock, e.g. example-session)',
  },
  'match-header': {
    type: 'strings',
    describe: 'request headers that take part in matching (replaces the default list)',
  },
  'max-age': {
    type: 'string',
    describe:
      'refuse a recording older than this (e.g. 30d, 1.5d, 12h; units ms s m h d w) or one of unknown age, with one line and exit 1 (for CI)',
  },

  // The mock a control command talks to.
  url: {
    type: 'string',
    describe: 'the running mock (env CSP_MOCK_URL)',
    defaultDescription: 'the mock started from this folder, else http://127.0.0.1:8080',
  },
} as const satisfies Record<string, OptionSpec>;

export type OptionName = keyof typeof OPTIONS;

/** The default of an option that has one. */
type Defaulted = { [K in OptionName]: (typeof OPTIONS)[K] extends { default: unknown } ? K : never }[OptionName];
export function defaultOf<K extends Defaulted>(name: K): (typeof OPTIONS)[K]['default'] {
  return OPTIONS[name].default;
}

/** The names of the options whose values are paths (a config file's relative ones resolve against its folder). */
export const PATH_OPTIONS: readonly string[] = Object.entries(OPTIONS)
  .filter(([, s]) => 'path' in s)
  .map(([name]) => name);

export const DEFAULT_HOST = defaultOf('host');
export const DEFAULT_PORT = defaultOf('port');
export const DEFAULT_MOCK_URL = `http://${DEFAULT_HOST}:${DEFAULT_PORT}`;

/**
 * Time limits, in milliseconds (0: none). No request may hold the server: a client that stops
 * sending or reading loses its own connection after `idleMs` without a byte either way, while a slow
 * upload that keeps moving is never cut (hence no limit on the whole request by default).
 */
export interface ServerTimeouts {
  /** To receive a request's headers (Node's headersTimeout). Default 30 s. */
  headersMs?: number;
  /** To receive a whole request, body included (Node's requestTimeout). Default 0: uploads may take as long as they keep moving. */
  requestMs?: number;
  /** A socket with no traffic either way for this long is closed (a stalled upload or an unread download). Default 120 s. */
  idleMs?: number;
  /** An idle keep-alive connection is closed after this long (Node's keepAliveTimeout). Default 5 s. */
  keepAliveMs?: number;
}

export const DEFAULT_TIMEOUTS: Required<ServerTimeouts> = {
  headersMs: defaultOf('headers-timeout'),
  requestMs: defaultOf('request-timeout'),
  idleMs: defaultOf('idle-timeout'),
  keepAliveMs: defaultOf('keep-alive-timeout'),
};

/** "--user NAME:PASSWORD" into a users map; the password may contain colons. */
export function parseUserSpec(specs: string[]): Record<string, string> {
  // No prototype: "__proto__" and "constructor" are logins like any other.
  const users = Object.create(null) as Record<string, string>;
  for (const entry of specs) {
    const colon = entry.indexOf(':');
    if (colon <= 0) throw new Error(`--user must be NAME:PASSWORD, got "${entry}"`);
    users[entry.slice(0, colon)] = entry.slice(colon + 1);
  }
  return users;
}
