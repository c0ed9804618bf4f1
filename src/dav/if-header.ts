import { badRequest } from '../http/errors.js';

/** One condition of an If header list: a state token or an entity tag, possibly negated. */
export interface IfCondition {
  not: boolean;
  token?: string;
  etag?: string;
}

/** A parenthesised list (all conditions must hold), tagged with a resource URI or not. */
export interface IfList {
  resource?: string;
  conditions: IfCondition[];
}

/**
 * Parses the If header of RFC 4918 10.4: untagged lists `(<token> ["etag"]) (Not <token>)` or
 * tagged ones `<uri> (<token>) <uri2> ([etag])`. Anything else is a 400.
 */
export function parseIfHeader(header: string): IfList[] {
  const lists: IfList[] = [];
  let resource: string | undefined;
  let tagged: boolean | undefined;
  // A resource tag must be followed by at least one list (RFC 4918 10.4: Resource-Tag 1*List).
  let tagWithoutList = false;
  let i = 0;
  const fail = (why: string): never => {
    throw badRequest(`malformed If header (${why}): ${header}`);
  };
  const until = (close: string): string => {
    const end = header.indexOf(close, i + 1);
    if (end < 0) fail(`missing "${close}"`);
    const inner = header.slice(i + 1, end);
    i = end + 1;
    return inner;
  };
  while (i < header.length) {
    const c = header[i]!;
    if (/\s/.test(c)) {
      i++;
    } else if (c === '<') {
      if (tagged === false) fail('a resource tag after untagged lists');
      if (tagWithoutList) fail('a resource tag without a list');
      tagged = true;
      tagWithoutList = true;
      resource = until('>');
    } else if (c === '(') {
      if (tagged === undefined) tagged = false;
      if (tagged && resource === undefined) fail('a list without a resource');
      i++;
      const conditions: IfCondition[] = [];
      for (;;) {
        while (i < header.length && /\s/.test(header[i]!)) i++;
        if (i >= header.length) fail('unclosed list');
        if (header[i] === ')') {
          i++;
          break;
        }
        let not = false;
        if (header.slice(i, i + 3).toLowerCase() === 'not') {
          not = true;
          i += 3;
          while (i < header.length && /\s/.test(header[i]!)) i++;
        }
        if (header[i] === '<') conditions.push({ not, token: until('>') });
        else if (header[i] === '[') conditions.push({ not, etag: until(']').trim() });
        else fail(`unexpected "${header[i] ?? ''}"`);
      }
      if (conditions.length === 0) fail('an empty list');
      lists.push({ resource: tagged ? resource : undefined, conditions });
      tagWithoutList = false;
    } else {
      fail(`unexpected "${c}"`);
    }
  }
  if (lists.length === 0) fail('no list');
  if (tagWithoutList) fail('a resource tag without a list');
  return lists;
}

/** Tokens the client holds: every state token named positively in the header. */
export function submittedTokens(lists: IfList[]): Set<string> {
  const tokens = new Set<string>();
  for (const list of lists) for (const c of list.conditions) if (c.token && !c.not) tokens.add(c.token);
  return tokens;
}
