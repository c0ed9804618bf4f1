import { generateKeyPair, randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { isIP } from 'node:net';
import { promisify } from 'node:util';
import type Forge from 'node-forge';
import { PERMITTED_DNS_NAMES, PERMITTED_IP_RANGES } from './permitted-names.js';

/**
 * Certificates made with node-forge (Node's crypto reads and verifies X.509 but cannot issue it). Keys
 * come from Node's crypto (native, off the event loop); forge builds and signs the certificates.
 */

/** A certificate and its private key, both PEM. */
export interface KeyPair {
  certPem: string;
  keyPem: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** The CA is short-lived: re-trusting every two years bounds how long a copied CA stays useful. */
export const CA_VALID_DAYS = 730;
/** Under the 825 days Apple accepts for certificates from a user-installed CA, and renewed well before. */
export const SERVER_VALID_DAYS = 90;
/** Clocks of phones and containers drift: certificates start an hour in the past. */
const BACKDATE_MS = 60 * 60 * 1000;

const makeKeys = promisify(generateKeyPair);

async function rsaKeys(): Promise<{ publicPem: string; privatePem: string }> {
  const { publicKey, privateKey } = await makeKeys('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
  });
  return { publicPem: publicKey, privatePem: privateKey };
}

/** A positive 16-byte serial (the top bit clear, so the DER INTEGER is not negative). */
function serialNumber(): string {
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0]! & 0x7f) | 0x40;
  return bytes.toString('hex');
}

let loaded: typeof Forge | undefined;
/**
 * node-forge, required on first use: the CommonJS build holds this module in its one file, and a
 * require at its top would cost every require('csp-mock') the loading of forge.
 */
function forgeLib(): typeof Forge {
  loaded ??= createRequire(import.meta.url)('node-forge') as typeof Forge;
  return loaded;
}

/** UTF8String for names: forge's default, PrintableString, may not hold "@" or "_" (Go refuses such certificates). */
const utf8 = (): Forge.asn1.Class =>
  // @types/node-forge types this field as a tag class; it is the string type.
  forgeLib().asn1.Type.UTF8 as number as Forge.asn1.Class;

/** NameConstraints with permittedSubtrees only: DNS names (a name and its subdomains) and address ranges. */
function nameConstraintsValue(): Forge.asn1.Asn1 {
  const { asn1 } = forgeLib();
  const subtree = (name: Forge.asn1.Asn1): Forge.asn1.Asn1 =>
    asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [name]);
  const dns = PERMITTED_DNS_NAMES.map((n) => subtree(asn1.create(asn1.Class.CONTEXT_SPECIFIC, 2, false, n)));
  const ips = PERMITTED_IP_RANGES.map(([address, prefix]) =>
    subtree(asn1.create(asn1.Class.CONTEXT_SPECIFIC, 7, false, addressAndMask(address, prefix))),
  );
  return asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
    asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, [...dns, ...ips]),
  ]);
}

/** An iPAddress constraint: the address bytes then the mask bytes, as a binary string (forge's byte form). */
function addressAndMask(address: string, prefix: number): string {
  const bytes = addressBytes(address);
  const mask = Buffer.alloc(bytes.length);
  for (let i = 0; i < bytes.length; i += 1) mask[i] = (0xff << (8 - Math.max(0, Math.min(8, prefix - i * 8)))) & 0xff;
  return Buffer.concat([bytes, mask]).toString('binary');
}

/** The 4 or 16 bytes of an address literal ("::" expanded). */
function addressBytes(address: string): Buffer {
  if (isIP(address) === 4) return Buffer.from(address.split('.').map(Number));
  const [head = '', tail = ''] = address.split('::');
  const groups = (part: string): number[] => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const before = groups(head);
  const after = address.includes('::') ? groups(tail) : [];
  const all = [...before, ...new Array<number>(8 - before.length - after.length).fill(0), ...after];
  const bytes = Buffer.alloc(16);
  all.forEach((g, i) => bytes.writeUInt16BE(g, i * 2));
  return bytes;
}

/**
 * A new local CA: RSA 2048, SHA-256, CA:true with path length 0, valid CA_VALID_DAYS; name-constrained unless
 * `constrained` is false (the compat CA, for TLS stacks that refuse critical name constraints, such as Mono's).
 */
export async function makeCaCertificate(commonName: string, now = new Date(), constrained = true): Promise<KeyPair> {
  const forge = forgeLib();
  const keys = await rsaKeys();
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(keys.publicPem);
  cert.serialNumber = serialNumber();
  cert.validity.notBefore = new Date(now.getTime() - BACKDATE_MS);
  cert.validity.notAfter = new Date(now.getTime() + CA_VALID_DAYS * DAY_MS);
  const subject = [
    { name: 'commonName', value: commonName, valueTagClass: utf8() },
    { name: 'organizationName', value: 'csp-mock local development CA', valueTagClass: utf8() },
  ];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true, pathLenConstraint: 0, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    { name: 'subjectKeyIdentifier' },
    ...(constrained
      ? [{ id: '2.5.29.30', name: 'nameConstraints', critical: true, value: nameConstraintsValue() }]
      : []),
  ]);
  cert.sign(forge.pki.privateKeyFromPem(keys.privatePem), forge.md.sha256.create());
  return { certPem: forge.pki.certificateToPem(cert), keyPem: keys.privatePem };
}

/**
 * A server certificate for `names` (host names and addresses), signed by `ca`, valid SERVER_VALID_DAYS
 * (never past the CA's own end).
 */
export async function makeServerCertificate(ca: KeyPair, names: readonly string[], now = new Date()): Promise<KeyPair> {
  const forge = forgeLib();
  const keys = await rsaKeys();
  const caCert = forge.pki.certificateFromPem(ca.certPem);
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(keys.publicPem);
  cert.serialNumber = serialNumber();
  cert.validity.notBefore = new Date(now.getTime() - BACKDATE_MS);
  const end = now.getTime() + SERVER_VALID_DAYS * DAY_MS;
  cert.validity.notAfter = new Date(Math.min(end, caCert.validity.notAfter.getTime()));
  // Not a host name (it has a space): clients match the subjectAltName entries only.
  cert.setSubject([{ name: 'commonName', value: 'csp-mock server', valueTagClass: utf8() }]);
  cert.setIssuer(caCert.subject.attributes);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false, critical: true },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    {
      name: 'subjectAltName',
      altNames: names.map((n) => (isIP(n) ? { type: 7, ip: n } : { type: 2, value: n })),
    },
    { name: 'subjectKeyIdentifier' },
    { name: 'authorityKeyIdentifier', keyIdentifier: caCert.generateSubjectKeyIdentifier().getBytes() },
  ]);
  cert.sign(forge.pki.privateKeyFromPem(ca.keyPem), forge.md.sha256.create());
  return { certPem: forge.pki.certificateToPem(cert), keyPem: keys.privatePem };
}
