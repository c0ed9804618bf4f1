import type { Readable } from 'node:stream';
import busboy from 'busboy';

export interface RecordedUpload {
  /** The filename's last path segment. */
  name: string;
  mimeType: string;
  content: Buffer;
}

/**
 * The first part with a filename in a recorded multipart body, read by busboy (what multer uses to
 * serve uploads): `filename*=` (RFC 5987), escaped quotes and raw UTF-8 names come out as the server
 * saw them. The body is whole in memory, so busboy runs synchronously: file streams never push back.
 */
export function fileFromMultipart(body: Buffer, contentType: string): RecordedUpload | undefined {
  const files: Array<{ filename: string; mimeType: string; stream: Readable }> = [];
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: { 'content-type': contentType }, defParamCharset: 'utf8', fileHwm: body.length + 1 });
  } catch {
    return undefined; // not multipart after all
  }
  parser.on('file', (_field, stream, info) => {
    if (info.filename) files.push({ filename: info.filename, mimeType: info.mimeType, stream });
    else stream.resume();
  });
  parser.on('error', () => undefined); // a cut or malformed body: the parts read before it still count
  parser.end(body);
  const first = files[0];
  if (!first) return undefined;
  const chunks: Buffer[] = [];
  for (let chunk: unknown = first.stream.read(); chunk !== null; chunk = first.stream.read())
    chunks.push(chunk as Buffer);
  return {
    name: first.filename.split(/[\\/]/).pop() ?? first.filename,
    mimeType: first.mimeType,
    content: Buffer.concat(chunks),
  };
}
