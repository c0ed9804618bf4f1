/**
 * The media type of a Content-Type value: parameters dropped, trimmed; '' when there is none. Lower-cased
 * for comparing (media types are case-insensitive, RFC 9110 8.3.1) unless `keepCase` (a file keeps the
 * type its client gave).
 */
export function mediaTypeOf(contentType: string | undefined, options: { keepCase?: boolean } = {}): string {
  const value = contentType ?? '';
  const semicolon = value.indexOf(';');
  const type = (semicolon === -1 ? value : value.slice(0, semicolon)).trim();
  return options.keepCase ? type : type.toLowerCase();
}
