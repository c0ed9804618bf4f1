/** The few types a client developer's demo files have; anything else stays application/octet-stream. */
const BY_EXTENSION: Record<string, string> = {
  txt: 'text/plain',
  md: 'text/markdown',
  html: 'text/html',
  htm: 'text/html',
  css: 'text/css',
  csv: 'text/csv',
  json: 'application/json',
  xml: 'application/xml',
  js: 'text/javascript',
  pdf: 'application/pdf',
  zip: 'application/zip',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  svg: 'image/svg+xml',
  webp: 'image/webp',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  mp4: 'video/mp4',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

const GENERIC = 'application/octet-stream';

/** The declared type unless it is missing or generic; then a guess from the extension. */
export function guessMimeType(name: string, declared?: string): string {
  const given = declared?.trim().toLowerCase();
  if (given && given !== GENERIC) return given;
  const dot = name.lastIndexOf('.');
  return (dot >= 0 && BY_EXTENSION[name.slice(dot + 1).toLowerCase()]) || GENERIC;
}
