import { join } from 'node:path';
import { CA_FILES } from './ca-folder.js';
import type { LocalCa } from './local-ca.js';
import { permittedNamesText } from './permitted-names.js';

/** What `csp-mock ca` prints: where the CA certificate is, what it signs for, and how to trust it. */
export function trustGuide(ca: LocalCa, subject: string, port?: number): string {
  const file = ca.certFile;
  const quoted = /\s/.test(file) ? `"${file}"` : file;
  const compat = ca.kind === 'compat';
  // localhost: some runtimes (Mono) do not match 127.0.0.1 against the certificate's address entry.
  const url = `https://localhost:${port ?? 'PORT'}/v2${port === undefined ? '   (PORT: the port serving HTTPS)' : ''}`;
  const signs = compat
    ? 'any name: no name constraints (for Mono and other runtimes that refuse them). Were its key to leak, it\n' +
      '               could vouch for any site to whoever trusts it: keep it private, trust it only where needed'
    : permittedNamesText();
  return `csp-mock ${compat ? 'compat' : 'local'} CA: ${file}${ca.created ? ' (made now)' : ''}
  subject:     ${subject}
  valid until: ${ca.notAfter.toISOString().slice(0, 10)} (a new CA is made 30 days before; trust that one then)
  SHA-256:     ${ca.fingerprint}
  signs ${compat ? 'for: ' : 'only:'}  ${signs}
  its key:     ${join(ca.dir, CA_FILES[ca.kind].key)} (readable by you only; it never leaves that folder)

Trust it in one client (nothing else changes):
  curl     curl --cacert ${quoted} ${url}
  Node     NODE_EXTRA_CA_CERTS=${quoted} node client.js    (or https.request({ ca }), connectMock(url, { ca }))
  rclone   rclone --ca-cert ${quoted} ...
  Python   SSL_CERT_FILE=${quoted} (requests: REQUESTS_CA_BUNDLE=${quoted})

Trust it on this machine (every program and browser; remove it the same way when done):
  Debian, Ubuntu  sudo cp ${quoted} /usr/local/share/ca-certificates/csp-mock.crt && sudo update-ca-certificates
  Fedora, RHEL    sudo cp ${quoted} /etc/pki/ca-trust/source/anchors/csp-mock.pem && sudo update-ca-trust
  macOS           security add-trusted-cert -r trustRoot -k ~/Library/Keychains/login.keychain-db ${quoted}
  Windows         certutil -user -addstore Root ${quoted}
  Firefox         Settings > Privacy & Security > Certificates > View Certificates > Authorities > Import

Phones and emulators (serve --host 0.0.0.0 --https --public-url https://192.168.1.20:8080, the laptop's address):
  Android  copy ca.pem to the device; Settings > Security > Encryption & credentials > Install a certificate >
           CA certificate. An app trusts user CAs only if its network_security_config.xml says
           <certificates src="user" /> (for debug builds: inside <debug-overrides>).
  iOS      AirDrop or mail ca.pem; Settings > General > VPN & Device Management: install the profile; then
           Settings > General > About > Certificate Trust Settings: turn on full trust for it.
`;
}
