import { createPrivateKey, X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';
import { FileAccessError, readContainedFile } from '../files/contained-file.js';
import { defaultCaFolder } from './ca-folder.js';
import { openLocalCa, serverCertificate } from './local-ca.js';
import { isPermittedName, permittedNamesText } from './permitted-names.js';

/** How a mock serves HTTPS (startMock's `https`; the CLI's --https, --https-port, --cert, --key, --ca-dir). */
export interface HttpsOptions {
  /**
   * Your own certificate (PEM, the chain after it if any) and its private key (PEM, unencrypted). Default: a
   * certificate the mock makes for localhost, 127.0.0.1, ::1, the bound host and the public URL's host,
   * signed by its local CA.
   */
  cert?: string | Buffer;
  key?: string | Buffer;
  /** The same, read from files (the CLI's --cert and --key). */
  certFile?: string;
  keyFile?: string;
  /** Also listen for HTTPS on this port (0: a free one), beside plain HTTP on `port`. Default: HTTPS on `port`, no HTTP. */
  port?: number;
  /** The local CA's folder. Default: CSP_MOCK_CA_DIR, else the user's configuration folder (csp-mock/ in it). */
  caDir?: string;
  /**
   * Sign with the compat CA: the local CA without name constraints, for TLS stacks that refuse them (Mono). It
   * gives up the constraints' protection: were its key to leak, it could vouch for any name. Default false.
   */
  compatCa?: boolean;
}

/** Where a mock serves HTTPS, and what to trust. */
export interface HttpsEndpoint {
  /** e.g. https://127.0.0.1:53212 (the same as `url` unless HTTP listens too). */
  url: string;
  port: number;
  /** The local CA certificate (PEM) to trust, e.g. https.request({ ca }); undefined with your own certificate. */
  ca: string | undefined;
  /** Its file (ca.pem in the local CA's folder). */
  caFile: string | undefined;
  /** The names the generated certificate holds. */
  names: string[] | undefined;
  /** True when this start made a new local CA. */
  caCreated: boolean;
  /** True when the compat CA (no name constraints; `https: { compatCa: true }`) signed the certificate. */
  caCompat: boolean;
}

/** What the server needs, and what the ready lines and RunningMock tell about it. */
export interface ServerIdentity {
  key: string | Buffer;
  cert: string | Buffer;
  /** The host names and addresses the generated certificate names (undefined for your own certificate). */
  names: string[] | undefined;
  /** The local CA certificate (PEM) and its file, when the mock made the certificate. */
  caCert: string | undefined;
  caFile: string | undefined;
  /** True when this start made a new local CA (clients must be told to trust it). */
  caCreated: boolean;
  /** True when the compat CA (no name constraints) signed it. */
  caCompat: boolean;
}

/** Where the server listens and what clients call it: these go into the generated certificate. */
export interface IdentityContext {
  host: string;
  publicUrl: string | undefined;
}

/**
 * The key and certificate to serve. Your own pair is checked first (readable PEM, the certificate matches the
 * key) and nothing is written; else the local CA is opened (made once) and signs a certificate for the names.
 */
export async function serverIdentity(options: HttpsOptions, context: IdentityContext): Promise<ServerIdentity> {
  if ([options.cert, options.key, options.certFile, options.keyFile].some((v) => v !== undefined))
    return givenIdentity(await readGiven(options));
  const names = certificateNames(context);
  const outside = names.filter((n) => !isPermittedName(n));
  if (outside.length > 0)
    throw new Error(
      `the local CA signs only for ${permittedNamesText()}, not ${outside.join(', ')}: give your own certificate (--cert FILE --key FILE)`,
    );
  const ca = await openLocalCa(
    options.caDir ?? defaultCaFolder(),
    undefined,
    options.compatCa ? 'compat' : 'constrained',
  );
  const pair = await serverCertificate(ca, names);
  return {
    key: pair.keyPem,
    cert: pair.certPem,
    names,
    caCert: ca.certPem,
    caFile: ca.certFile,
    caCreated: ca.created,
    caCompat: ca.kind === 'compat',
  };
}

interface GivenPair {
  cert: string | Buffer | undefined;
  key: string | Buffer | undefined;
  certName: string;
  keyName: string;
}

/** Certificate files are small: anything larger is not one. */
const MAX_PEM_BYTES = 1024 * 1024;

async function readGiven(options: HttpsOptions): Promise<GivenPair> {
  const read = async (file: string | undefined, what: string): Promise<Buffer | undefined> => {
    if (file === undefined) return undefined;
    try {
      return await readContainedFile(file, { maxBytes: MAX_PEM_BYTES });
    } catch (err) {
      throw new Error(
        `cannot read the ${what} ${err instanceof FileAccessError ? err.message : `${file}: ${(err as Error).message}`}`,
      );
    }
  };
  return {
    cert: options.cert ?? (await read(options.certFile, 'certificate')),
    key: options.key ?? (await read(options.keyFile, 'key')),
    certName: options.certFile ? `the certificate ${options.certFile}` : 'the certificate',
    keyName: options.keyFile ? `the key ${options.keyFile}` : 'the key',
  };
}

function givenIdentity(given: GivenPair): ServerIdentity {
  const { certName, keyName } = given;
  if (given.cert === undefined || given.key === undefined)
    throw new Error(
      `give both a certificate and its key (--cert FILE --key FILE): ${given.cert === undefined ? 'no certificate' : 'no key'} was given`,
    );
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(given.cert);
  } catch {
    throw new Error(`${certName} is not a PEM certificate`);
  }
  let key: ReturnType<typeof createPrivateKey>;
  try {
    key = createPrivateKey(given.key);
  } catch (err) {
    const encrypted = /passphrase/i.test((err as Error).message);
    throw new Error(`${keyName} is not ${encrypted ? 'an unencrypted' : 'a PEM'} private key`);
  }
  if (!cert.checkPrivateKey(key)) throw new Error(`${certName} does not match ${keyName}`);
  return {
    key: given.key,
    cert: given.cert,
    names: undefined,
    caCert: undefined,
    caFile: undefined,
    caCreated: false,
    caCompat: false,
  };
}

/** localhost, 127.0.0.1, ::1, the bound host (unless a wildcard) and the public URL's host, sorted. */
export function certificateNames(context: IdentityContext): string[] {
  const names = new Set(['localhost', '127.0.0.1', '::1']);
  const host = context.host.replace(/^\[(.*)\]$/, '$1');
  if (host !== '0.0.0.0' && host !== '::' && host !== '') names.add(host.toLowerCase());
  if (context.publicUrl !== undefined) {
    try {
      names.add(new URL(context.publicUrl).hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase());
    } catch {
      // not a URL: the options check says so when the app is made
    }
  }
  return [...names].sort((a, b) => Number(isIP(a) !== 0) - Number(isIP(b) !== 0) || a.localeCompare(b));
}
