import { XmlSyntaxError, hrefOf, parseXml, textOf, type XmlNode } from './codec.js';
import { EntityError, decodeEntityText } from './entity-text.js';

export { EntityError } from './entity-text.js';

export interface ContainerInfo {
  name?: string;
  parentHref?: string;
}
export interface FileInfoEntity {
  name?: string;
  mimeType?: string;
  public?: boolean;
  parentHref?: string;
}

/** Decodes a body sent under an XML media type (in its declared encoding) and returns the fields of its root element. */
export function parseEntity(body: Buffer, root: string): XmlNode {
  const text = decodeEntityText(body);
  if (text.trim() === '') throw new EntityError('invalid', `expected a ${root} entity, got an empty body`);
  let doc: XmlNode;
  try {
    doc = parseXml(text);
  } catch (err) {
    if (err instanceof XmlSyntaxError) throw new EntityError('malformed', err.message);
    throw err;
  }
  const roots = Object.keys(doc).filter((k) => !k.startsWith('?'));
  if (roots.length !== 1 || roots[0] !== root) {
    throw new EntityError('invalid', `expected root element <${root}>, got <${roots[0] ?? ''}>`);
  }
  const fields = doc[root];
  return fields && typeof fields === 'object' && !Array.isArray(fields) ? fields : {};
}

/** true/false as the interface document writes them, True/False as some real documents did. */
export function parseBoolean(raw: string | undefined, field: string): boolean | undefined {
  if (raw === undefined) return undefined;
  switch (raw.trim()) {
    case 'true':
    case 'True':
    case 'TRUE':
    case '1':
      return true;
    case 'false':
    case 'False':
    case 'FALSE':
    case '0':
      return false;
    default:
      throw new EntityError('invalid', `${field} must be true or false, got "${raw}"`);
  }
}

export function parseContainerInfo(body: Buffer): ContainerInfo {
  const fields = parseEntity(body, 'container');
  return { name: textOf(fields['name']), parentHref: hrefOf(fields['parent']) };
}

export function parseFileInfo(body: Buffer): FileInfoEntity {
  const fields = parseEntity(body, 'file');
  return {
    name: textOf(fields['name']),
    mimeType: textOf(fields['mime_type']),
    public: parseBoolean(textOf(fields['public']), 'public'),
    parentHref: hrefOf(fields['parent']),
  };
}

export function parseTagInfo(body: Buffer): { name?: string } {
  const fields = parseEntity(body, 'tag');
  return { name: textOf(fields['name']) };
}
