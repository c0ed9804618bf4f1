import { resolve } from 'node:path';
import { startMock } from 'csp-mock';
import { EXAMPLE_CREDENTIALS, runExampleSession } from './client-session.js';

/**
 * Remakes recordings/example-session.jsonl: the emulator (empty tree) plays the real service, the
 * recorder sits in front of it, and the example client session runs through the recorder.
 * Usage: node dist/tools/support/example-client/make-example-recording.js [out.json]
 */
const out = resolve(process.argv[2] ?? 'recordings/example-session.jsonl');
const upstream = await startMock({
  seed: 'empty',
  users: { [EXAMPLE_CREDENTIALS.user]: EXAMPLE_CREDENTIALS.password },
});
const recorder = await startMock({ mode: { kind: 'record', upstream: upstream.url, out } });
try {
  const steps = await runExampleSession(recorder.url, EXAMPLE_CREDENTIALS);
  console.log(`recorded ${steps.length} exchanges into ${out}`);
} finally {
  await recorder.close();
  await upstream.close();
}
