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

const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const QUOTED = '"(?:[\\t !#-\\[\\]-~\\x80-\\xff]|\\\\[\\t -~\\x80-\\xff])*"';
/** RFC 9110 8.3.1: type "/" subtype *( OWS ";" OWS [ name "=" ( token / quoted-string ) ] ). */
const MEDIA_TYPE = new RegExp(`^${TOKEN}/${TOKEN}(?:[ \\t]*;[ \\t]*(?:${TOKEN}=(?:${TOKEN}|${QUOTED}))?)*$`);

/** True for a media type a Content-Type header can carry (so a file's type can always be sent back). */
export function isMediaType(value: string): boolean {
  return MEDIA_TYPE.test(value);
}
