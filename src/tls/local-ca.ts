import { createHash, createPrivateKey, X509Certificate } from 'node:crypto';
import { readFile, unlink } from 'node:fs/promises';
import { hostname, userInfo } from 'node:os';
import { join } from 'node:path';
import { writeWholeFile } from '../files/whole-file.js';
import { CA_CERT_FILE, CA_KEY_FILE, checkPrivateFile, prepareCaFolder } from './ca-folder.js';
import { makeCaCertificate, makeServerCertificate, type KeyPair } from './certificate-maker.js';

/**
 * The local CA's folder holds:
 * - ca.pem: the CA certificate (public: this is what clients trust);
 * - ca-key.pem (0600): the CA's private key followed by its certificate, so the pair is created by one
 *   atomic step (two mocks starting at once end up with the same CA);
 * - server-<hash>.pem (0600): a cached server key and certificate per list of names.
 * The CA key is read here only to sign; it never leaves this folder and is never logged.
 */
export interface LocalCa extends KeyPair {
  dir: string;
  /** ca.pem, the certificate clients trust. */
  certFile: string;
  /** True when this call made a new CA (the first time, or the old one was about to expire). */
  created: boolean;
  notAfter: Date;
  /** SHA-256 fingerprint, colon-separated hex. */
  fingerprint: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** A CA this close to its end is replaced, so a certificate it signs never outlives it by surprise. */
const RENEW_CA_DAYS = 30;
/** A cached server certificate this close to its end is made anew. */
const RENEW_SERVER_DAYS = 30;

/** The local CA in `dir`, made when missing or near its end. */
export async function openLocalCa(dir: string, now = new Date()): Promise<LocalCa> {
  await prepareCaFolder(dir);
  const keyFile = join(dir, CA_KEY_FILE);
  let pair = await readPair(keyFile, 'the local CA');
  let created = false;
  if (pair && daysLeft(pair, now) < RENEW_CA_DAYS) {
    await unlink(keyFile).catch(() => undefined);
    pair = undefined;
  }
  if (!pair) {
    const made = await makeCaCertificate(caCommonName(), now);
    // link() fails when another process made the file first: then its CA is the one.
    created = await publishPrivate(keyFile, made.keyPem + made.certPem, 'exclusive');
    pair = await readPair(keyFile, 'the local CA');
    if (!pair) throw new Error(`${keyFile} vanished while it was being made`);
  }
  const certFile = join(dir, CA_CERT_FILE);
  const published = await readFile(certFile, 'utf8').catch(() => undefined);
  if (published !== pair.certPem) await publish(certFile, pair.certPem, 0o644);
  const x509 = new X509Certificate(pair.certPem);
  return {
    ...pair,
    dir,
    certFile,
    created,
    notAfter: new Date(x509.validTo),
    fingerprint: x509.fingerprint256,
  };
}

/** The server certificate for `names` signed by `ca`: the cached one while it is valid for long enough. */
export async function serverCertificate(ca: LocalCa, names: readonly string[], now = new Date()): Promise<KeyPair> {
  const id = createHash('sha256').update(names.join('\n')).digest('hex').slice(0, 16);
  const file = join(ca.dir, `server-${id}.pem`);
  const cached = await readPair(file, 'a cached server certificate').catch(() => undefined);
  if (cached && issuedBy(cached, ca) && daysLeft(cached, now) >= RENEW_SERVER_DAYS) return cached;
  const made = await makeServerCertificate(ca, names, now);
  await publishPrivate(file, made.keyPem + made.certPem, 'replace');
  return made;
}

function issuedBy(pair: KeyPair, ca: KeyPair): boolean {
  const cert = new X509Certificate(pair.certPem);
  const issuer = new X509Certificate(ca.certPem);
  return cert.checkIssued(issuer) && cert.verify(issuer.publicKey);
}

const daysLeft = (pair: KeyPair, now: Date): number =>
  (new Date(new X509Certificate(pair.certPem).validTo).getTime() - now.getTime()) / DAY_MS;

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----\r?\n[\s\S]*?-----END \1-----\r?\n?/g;

/** A private file holding a key then its certificate; undefined when absent; an error naming the file when broken. */
async function readPair(file: string, what: string): Promise<KeyPair | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`cannot read ${what} (${file}): ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  await checkPrivateFile(file);
  const blocks = [...text.matchAll(PEM_BLOCK)];
  const key = blocks.find((b) => /PRIVATE KEY$/.test(b[1]!))?.[0];
  const cert = blocks.find((b) => b[1] === 'CERTIFICATE')?.[0];
  try {
    if (!key || !cert) throw new Error('it must hold a private key and a certificate (PEM)');
    if (!new X509Certificate(cert).checkPrivateKey(createPrivateKey(key)))
      throw new Error('its certificate does not match its key');
  } catch (err) {
    throw new Error(`${what} (${file}) is unusable: ${(err as Error).message}; move it away and a new one is made`);
  }
  return { keyPem: key, certPem: cert };
}

/**
 * Writes a private file (0600) whole (writeWholeFile: temp file, every byte, fsync, then moved into place);
 * 'exclusive' keeps a file someone else placed first (returns false), 'replace' overwrites atomically.
 */
async function publishPrivate(file: string, text: string, how: 'exclusive' | 'replace'): Promise<boolean> {
  const { published } = await writeWholeFile(file, (put) => put(text), {
    publish: how === 'exclusive' ? 'keep' : 'replace',
  });
  return published;
}

/** Writes a public file whole, with `mode` whatever the umask. */
async function publish(file: string, text: string, mode: number): Promise<void> {
  await writeWholeFile(file, (put) => put(text), { mode });
}

/** Names whose CA this is in a trust store's list ("csp-mock local CA alice@laptop"). */
function caCommonName(): string {
  let user = '';
  try {
    user = userInfo().username;
  } catch {
    // no passwd entry (some containers)
  }
  return `csp-mock local CA ${user ? `${user}@` : ''}${hostname()}`.slice(0, 64);
}
