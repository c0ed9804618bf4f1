import { describe, expect, it } from 'vitest';
import { createApp, recordingToState, seedFromRecording } from '../../../src/index.js';
import type { Exchange, HeaderMap, Recording } from '../../../src/recording/format.js';
import { AUTH, SPEC } from '../../helpers/cloud.js';
import request from 'supertest';

const BASE = '{{baseUrl}}';
const XLINK = 'xmlns:xlink="http://www.w3.org/1999/xlink"';
const BOUNDARY = 'csp-mock-boundary';

let nextId = 1;
/** One recorded exchange, as the recorder stores it (headers lower-case, bodies as bytes). */
function exchange(
  method: string,
  path: string,
  status: number,
  opts: { reqHeaders?: HeaderMap; reqBody?: string | Buffer; resHeaders?: HeaderMap; resBody?: string } = {},
): Exchange {
  return {
    id: nextId++,
    user: 'demo',
    request: { method, path, query: [], headers: opts.reqHeaders ?? {}, body: Buffer.from(opts.reqBody ?? '') },
    response: { status, headers: opts.resHeaders ?? {}, body: Buffer.from(opts.resBody ?? '') },
  };
}

const recording = (...exchanges: Exchange[]): Recording => ({ redacted: [], exchanges });
const entry = exchange('GET', '/v2', 200, {
  resBody: `<cloud ${XLINK}><rootContainer xlink:href="${BASE}/v2/containers/ROOT" xlink:type="simple"/></cloud>`,
});

function upload(id: string, disposition: string, content: string, type?: string): Exchange {
  const head = [
    `Content-Disposition: form-data; name="file"; ${disposition}`,
    ...(type ? [`Content-Type: ${type}`] : []),
  ].join('\r\n');
  return exchange('POST', '/v2/containers/ROOT/contents', 201, {
    reqHeaders: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    reqBody: Buffer.from(`--${BOUNDARY}\r\n${head}\r\n\r\n${content}\r\n--${BOUNDARY}--\r\n`, 'utf8'),
    resHeaders: { location: `${BASE}/v2/files/${id}` },
    resBody: `${BASE}/v2/files/${id}\r\n`,
  });
}

describe('recording -> state, the parsing side (issue 11, item 10)', () => {
  it('multipart bodies are read by busboy: filename*= (RFC 5987), escaped quotes, a path in the name', () => {
    const tree = recordingToState(
      recording(
        entry,
        upload('F1', `filename*=UTF-8''caf%C3%A9%20%E2%82%AC.txt`, 'one', 'text/plain'),
        upload('F2', 'filename="say \\"hi\\".txt"', 'two', 'application/x-thing'),
        upload('F3', 'filename="C:\\\\Users\\\\me\\\\photo.heic"', 'three', 'image/heic'),
      ),
    );
    expect(tree.objects.get('F1')).toMatchObject({ name: 'café €.txt', mimeType: 'text/plain', parentId: 'ROOT' });
    expect(tree.objects.get('F1')!.content!.toString()).toBe('one');
    expect(tree.objects.get('F2')).toMatchObject({ name: 'say "hi".txt', mimeType: 'application/x-thing' });
    expect(tree.objects.get('F3')).toMatchObject({ name: 'photo.heic' });
    expect(tree.objects.get('F3')!.content!.toString()).toBe('three');
  });

  it('tags come from tag listings (a whole listing replaces what was known), tag deletes and tag object lists', () => {
    const tagList = (...names: string[]) =>
      `<tags ${XLINK} count="${names.length}" start="0" total="${names.length}">${names.map((n) => `<tag xlink:href="${BASE}/v2/tags/${encodeURIComponent(n)}" xlink:type="simple"/>`).join('')}</tags>`;
    const tree = recordingToState(
      recording(
        entry,
        upload('F1', 'filename="a.txt"', 'a'),
        exchange('POST', '/v2/files/F1/tags', 201, {
          reqHeaders: { 'content-type': 'application/vnd.csp.tag-info+xml' },
          reqBody: '<tag><name>stale</name></tag>',
        }),
        exchange('GET', '/v2/files/F1/tags', 200, { resBody: tagList('work', 'two words') }),
        exchange('DELETE', '/v2/files/F1/tags/work', 204),
        exchange('GET', '/v2/tags/urgent/objects', 200, {
          resBody: `<file-list ${XLINK} count="1" start="0" total="1"><file xlink:href="${BASE}/v2/files/F1" xlink:type="simple"/></file-list>`,
        }),
      ),
    );
    expect(tree.objects.get('F1')!.tags).toEqual(['two words', 'urgent']);
  });

  it('metadata values come from PUTs and reads; listings and depth-2 entities name the keys; deletes remove them', () => {
    const tree = recordingToState(
      recording(
        entry,
        upload('F1', 'filename="a.txt"', 'a'),
        exchange('PUT', '/v2/files/F1/metadata/Foo', 204, { reqBody: 'bar' }),
        exchange('PUT', '/v2/files/F1/metadata/gone', 204, { reqBody: 'x' }),
        exchange('GET', '/v2/files/F1/metadata/Other%20Key', 200, { resBody: 'read value' }),
        exchange('GET', '/v2/files/F1/metadata', 200, {
          resBody: `<metadata ${XLINK} count="3" start="0" total="3"><metadata-item xlink:href="${BASE}/v2/files/F1/metadata/Foo" xlink:type="simple"><name>Foo</name></metadata-item><metadata-item xlink:href="${BASE}/v2/files/F1/metadata/Other%20Key" xlink:type="simple"/><metadata-item xlink:href="${BASE}/v2/files/F1/metadata/listed" xlink:type="simple"/></metadata>`,
        }),
        exchange('GET', '/v2/files/F1', 200, {
          reqHeaders: { 'x-cloud-depth': '2' },
          resBody: `<file ${XLINK}><name>a.txt</name><metadata xlink:href="${BASE}/v2/files/F1/metadata" xlink:type="simple"><metadata-item xlink:href="${BASE}/v2/files/F1/metadata/Foo" xlink:type="simple"/><metadata-item xlink:href="${BASE}/v2/files/F1/metadata/deep" xlink:type="simple"/></metadata></file>`,
        }),
        exchange('PUT', '/v2/files/F1/metadata/listed', 204, { reqBody: 'now known' }),
        exchange('DELETE', '/v2/files/F1/metadata/deep', 204),
      ),
    );
    expect(tree.objects.get('F1')!.metadata).toEqual({ Foo: 'bar', 'Other Key': 'read value', listed: 'now known' });
  });

  it('Content-Range block writes patch the recorded content at their offset', () => {
    const block = (range: string, body: string) =>
      exchange('PUT', '/v2/files/F1/content', 204, { reqHeaders: { 'content-range': range }, reqBody: body });
    const tree = recordingToState(
      recording(
        entry,
        upload('F1', 'filename="a.txt"', 'hello world'),
        block('bytes 6-10/*', 'WORLD'),
        block('bytes 11-12/13', '!!'),
        block('bytes 0-0/*', 'H'),
      ),
    );
    expect(tree.objects.get('F1')!.content!.toString()).toBe('Hello WORLD!!');
  });

  it('seeding an emulator carries the recorded metadata values into the store', async () => {
    const mock = await createApp({ seed: 'empty' });
    try {
      await seedFromRecording(
        mock.store,
        recording(
          entry,
          upload('F1', 'filename="a.txt"', 'a'),
          exchange('PUT', '/v2/files/F1/metadata/Foo', 204, { reqBody: 'bar' }),
        ),
      );
      const res = await request(mock.app)
        .get('/v2/files/F1/metadata/Foo')
        .auth(AUTH.user, AUTH.password)
        .set(SPEC)
        .expect(200);
      expect(res.text).toBe('bar');
    } finally {
      await mock.close();
    }
  });
});
