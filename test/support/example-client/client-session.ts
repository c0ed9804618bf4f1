import { randomBytes } from 'node:crypto';
import { binaryBytes, multipartBody, send, type ClientRequest, type ClientResponse } from './http-client.js';

/** What `npm run record:example` uses; the recording must hold none of it. */
export const EXAMPLE_CREDENTIALS: SessionCredentials = {
  user: 'demo',
  password: 'example-password',
  cloudKey: 'example-cloud-key',
};

export interface SessionCredentials {
  user: string;
  password: string;
  /** Sent as X-Cloud-Key, as one real client does. */
  cloudKey: string;
}

export interface SessionStep {
  name: string;
  request: ClientRequest;
  response: ClientResponse;
}

/** Sizes and contents of the files the session uploads (tests compare downloads against them). */
export const SESSION_FILES = {
  notes: Buffer.from('Meeting notes\n- ship the recorder\n- caf\u00e9 \u2615 is UTF-8\n'),
  logo: binaryBytes(1500, 11),
  archive: binaryBytes(80 * 1024, 23),
};

/**
 * A realistic client session: entry document, containers, an upload by multipart and one by
 * file-info + PUT content (with Expect: 100-continue), a chunked upload large enough for a sidecar,
 * listings at depth 0 and 1, a binary download, a Range read, WebDAV, a tag, a delete, the repeated
 * requests whose answers change (GET -> DELETE -> GET), and a refused upload (415).
 */
export async function runExampleSession(baseUrl: string, creds: SessionCredentials): Promise<SessionStep[]> {
  const auth = `Basic ${Buffer.from(`${creds.user}:${creds.password}`).toString('base64')}`;
  const common = {
    Authorization: auth,
    'X-Client-Specification': '2',
    'X-Cloud-Key': creds.cloudKey,
    'User-Agent': 'csp-example-client/1.0',
  };
  const steps: SessionStep[] = [];
  const step = async (name: string, request: ClientRequest, expected: number): Promise<ClientResponse> => {
    const response = await send(baseUrl, { ...request, headers: { ...common, ...request.headers } });
    steps.push({ name, request, response });
    if (response.status !== expected)
      throw new Error(`${name}: expected ${expected}, got ${response.status}: ${response.body.toString('utf8')}`);
    return response;
  };
  const pathOf = (res: ClientResponse): string => new URL(res.body.toString('utf8').trim()).pathname;
  const xml = (type: string, body: string) => ({
    headers: { 'Content-Type': `application/vnd.csp.${type}+xml` },
    body,
  });

  const entry = await step('entry document', { method: 'GET', path: '/v2' }, 200);
  const root = new URL(/<rootContainer[^>]*xlink:href="([^"]+)"/.exec(entry.body.toString('utf8'))![1]!).pathname;
  const projects = pathOf(
    await step(
      'create container Projects',
      {
        method: 'POST',
        path: `${root}/contents`,
        ...xml('container-info', '<container><name>Projects</name></container>'),
      },
      201,
    ),
  );
  const photos = pathOf(
    await step(
      'create container Photos',
      {
        method: 'POST',
        path: `${root}/contents`,
        ...xml('container-info', '<container><name>Photos</name></container>'),
      },
      201,
    ),
  );

  // Multipart with the random boundary a real form library picks: normalised in the recording.
  const boundary = `----form${randomBytes(8).toString('hex')}`;
  const notes = pathOf(
    await step(
      'upload notes.txt (multipart)',
      {
        method: 'POST',
        path: `${projects}/contents`,
        headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` },
        body: multipartBody('file', 'notes.txt', 'text/plain', SESSION_FILES.notes, boundary),
      },
      201,
    ),
  );
  const logo = pathOf(
    await step(
      'create logo.bin (file-info)',
      {
        method: 'POST',
        path: `${photos}/contents`,
        ...xml(
          'file-info',
          '<file><name>logo.bin</name><mime_type>application/octet-stream</mime_type><public>false</public></file>',
        ),
      },
      201,
    ),
  );
  await step(
    'put logo.bin content (Expect: 100-continue)',
    {
      method: 'PUT',
      path: `${logo}/content`,
      headers: { 'Content-Type': 'application/octet-stream' },
      body: SESSION_FILES.logo,
      expectContinue: true,
    },
    204,
  );
  const archive = pathOf(
    await step(
      'create archive.bin (file-info)',
      {
        method: 'POST',
        path: `${projects}/contents`,
        ...xml(
          'file-info',
          '<file><name>archive.bin</name><mime_type>application/octet-stream</mime_type><public>false</public></file>',
        ),
      },
      201,
    ),
  );
  await step(
    'put archive.bin content (chunked, sidecar)',
    {
      method: 'PUT',
      path: `${archive}/content`,
      headers: { 'Content-Type': 'application/octet-stream' },
      body: SESSION_FILES.archive,
      chunks: 7,
    },
    204,
  );

  await step(
    'list root (paged, cache-busted)',
    { method: 'GET', path: `${root}/contents?start=0&count=50&n=${Date.now()}` },
    200,
  );
  await step(
    'list Projects (depth 1)',
    { method: 'GET', path: `${projects}/contents`, headers: { 'X-Cloud-Depth': '1' } },
    200,
  );
  await step('download logo.bin', { method: 'GET', path: `${logo}/content` }, 200);
  await step(
    'read logo.bin bytes 0-99 (Range)',
    { method: 'GET', path: `${logo}/content`, headers: { Range: 'bytes=0-99' } },
    206,
  );
  await step('download archive.bin (sidecar)', { method: 'GET', path: `${archive}/content` }, 200);
  await step('WebDAV read notes.txt', { method: 'GET', path: '/dav/Projects/notes.txt' }, 200);
  await step(
    'tag notes.txt important',
    { method: 'POST', path: `${notes}/tags`, ...xml('tag-info', '<tag><name>important</name></tag>') },
    201,
  );
  await step('list tags', { method: 'GET', path: '/v2/tags' }, 200);
  await step('read notes.txt entity', { method: 'GET', path: notes }, 200);
  await step(
    'refused upload (text/plain -> 415)',
    { method: 'POST', path: `${projects}/contents`, headers: { 'Content-Type': 'text/plain' }, body: 'not an entity' },
    415,
  );
  await step('delete notes.txt', { method: 'DELETE', path: notes }, 204);
  // The same requests again: their answers changed, so replay must give them in order.
  await step('read notes.txt entity again (404 now)', { method: 'GET', path: notes }, 404);
  await step(
    'list Projects (depth 1) again',
    { method: 'GET', path: `${projects}/contents`, headers: { 'X-Cloud-Depth': '1' } },
    200,
  );
  return steps;
}
