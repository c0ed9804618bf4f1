import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { vi } from 'vitest';
import { createApp } from '../../src/index.js';

/**
 * A listening mock whose journal the test watches: `subscribed` resolves when something starts listening
 * to the journal (a wait reached the mock), so a test sends its request after that without guessing a delay.
 * Call `close()` in the test's cleanup.
 */
export async function watchedMock(): Promise<{ url: string; subscribed: Promise<void>; close(): Promise<void> }> {
  const app = await createApp();
  const server = createServer();
  app.attach(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  let heard: () => void = () => undefined;
  const subscribed = new Promise<void>((resolve) => (heard = resolve));
  const subscribe = app.journal.subscribe.bind(app.journal);
  vi.spyOn(app.journal, 'subscribe').mockImplementation((listener) => {
    const unsubscribe = subscribe(listener);
    heard();
    return unsubscribe;
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    subscribed,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await app.close();
    },
  };
}
