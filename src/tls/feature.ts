import { createServer } from 'node:https';
import type { Feature, ServedListener } from '../feature.js';
import type { HttpsOptions } from './server-identity.js';

/**
 * HTTPS for a served mock (startMock's `https`, the CLI's --https): the certificate is made (or yours checked)
 * before the mock is, so one that does not match its key changes nothing; then the server listens with HTTPS
 * on `port`, or with HTTP there and HTTPS on `https.port`. The TLS modules (and node-forge) load only then.
 */
export const tlsFeature: Feature = {
  name: 'tls',
  serve: async ({ options, host }) => {
    const asked = (options as { https?: boolean | HttpsOptions }).https;
    if (!asked) return {};
    const https = asked === true ? {} : asked;
    const [{ serverIdentity }, { answerPlainHttp }] = await Promise.all([
      import('./server-identity.js'),
      import('./plain-http-answer.js'),
    ]);
    const identity = await serverIdentity(https, { host, publicUrl: options.publicUrl });
    const secure = (): ServedListener => {
      const server = createServer({ key: identity.key, cert: identity.cert });
      // Plain HTTP to an HTTPS port: a 400 that says so, within the headers limit.
      answerPlainHttp(server, () => server.headersTimeout);
      return { server, scheme: 'https', port: https.port };
    };
    return {
      listeners: (plain) => (https.port === undefined ? [secure()] : [{ server: plain(), scheme: 'http' }, secure()]),
      // HTTPS is the last listener: alone, or beside HTTP.
      https: (listening) => ({
        ...listening[listening.length - 1]!,
        ca: identity.caCert,
        caFile: identity.caFile,
        names: identity.names,
        caCreated: identity.caCreated,
        caCompat: identity.caCompat,
      }),
    };
  },
};
