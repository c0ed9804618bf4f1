import { describe, expect, it } from 'vitest';
import { nodeRecord } from '../../helpers/node-record.js';
import type { NodeRecord } from '../../../src/domain/model.js';
import { buildXml } from '../../../src/xml/codec.js';
import {
  accountEntity,
  cloudEntity,
  containerEntity,
  emptyCollectionEntity,
  fileEntity,
  emptyFileList,
  fileListFrame,
  listingItemXml,
  tagEntity,
  tagListEntity,
} from '../../../src/xml/entities.js';
import { Links } from '../../../src/xml/links.js';

const links = new Links('http://h:1/');
const node = (over: Partial<NodeRecord>): NodeRecord =>
  nodeRecord({
    id: 'ID',
    name: 'a & b.txt',
    parentId: 'P',
    created: 100,
    modified: 200,
    accessed: 300,
    version: 2,
    public: true,
    mimeType: 'text/plain',
    bytes: 5,
    blobId: 'blob',
    ...over,
  });
const L = (href: string) => `xlink:href="http://h:1${href}" xlink:type="simple"`;
const NS = 'xmlns:xlink="http://www.w3.org/1999/xlink"';

describe('entity mappers (table-driven)', () => {
  const cases: Array<[string, string, string]> = [
    [
      'file entity: fields in the notes order, escaped text, absolute links',
      fileEntity(node({}), links).text,
      `<file ${NS}><name>a &amp; b.txt</name><created>100</created><inproject>false</inproject><modified>200</modified>` +
        `<owner>demo</owner><version>2</version><shared>false</shared><accessed>300</accessed><public>true</public>` +
        `<mime_type>text/plain</mime_type><bytes>5</bytes><content ${L('/v2/files/ID/content')}/><parent ${L('/v2/containers/P')}/>` +
        `<permissions ${L('/v2/files/ID/permissions')}/><tags ${L('/v2/files/ID/tags')}/><metadata ${L('/v2/files/ID/metadata')}/>` +
        `<thumbnail ${L('/v2/files/ID/thumbnail')}/></file>`,
    ],
    [
      'root container: named "/", parent is itself',
      buildXml(
        containerEntity({ node: node({ kind: 'container', name: '/', parentId: null, id: 'R' }), bytes: 9 }, links),
      ),
      `<container ${NS}><name>/</name><created>100</created><inproject>false</inproject><modified>200</modified><owner>demo</owner>` +
        `<version>2</version><shared>false</shared><accessed>300</accessed><bytes>9</bytes><contents ${L('/v2/containers/R/contents')}/>` +
        `<tags ${L('/v2/containers/R/tags')}/><metadata ${L('/v2/containers/R/metadata')}/><parent ${L('/v2/containers/R')}/></container>`,
    ],
    [
      'file-list at depth 0: links only, containers before files',
      ((frame) =>
        frame.head +
        listingItemXml({ node: node({ kind: 'container', id: 'C' }), bytes: 0 }, links, 'link', false) +
        listingItemXml({ node: node({ id: 'F' }), bytes: 5 }, links, 'link', false) +
        frame.tail)(fileListFrame(2, 3, 9)),
      `<file-list ${NS} count="2" start="3" total="9"><container ${L('/v2/containers/C')}/><file ${L('/v2/files/F')}/></file-list>`,
    ],
    ['an empty file-list is one element', emptyFileList(0, 0), `<file-list ${NS} count="0" start="0" total="0"/>`],
    [
      'tag list with count/start/total and encoded tag links',
      buildXml(tagListEntity({ items: ['a b', 'c'], start: 0, total: 2 }, links)),
      `<tags ${NS} count="2" start="0" total="2"><tag ${L('/v2/tags/a%20b')}/><tag ${L('/v2/tags/c')}/></tags>`,
    ],
    [
      'tag with name and objects link',
      buildXml(tagEntity('x', links)),
      `<tag ${NS}><name>x</name><objects ${L('/v2/tags/x/objects')}/></tag>`,
    ],
    ['empty collection', buildXml(emptyCollectionEntity('shares')), `<shares ${NS} count="0" start="0" total="0"/>`],
    [
      'account-info',
      buildXml(accountEntity({ username: 'u', allocated: 10, used: 3, bandwidthAllocated: 10 })),
      `<account-info ${NS}><username>u</username><account_type>1</account_type><storage><allocated>10</allocated><used>3</used></storage>` +
        `<s3><authid>u-s3</authid><authkey>csp-mock-not-a-real-key</authkey></s3>` +
        `<bandwidth><allocated>10</allocated><total>0</total><public>0</public><private>0</private></bandwidth></account-info>`,
    ],
  ];
  it.each(cases)('%s', (_name, actual, expected) => {
    expect(actual).toBe(expected);
  });

  it('cloud entity: eight links in order, wrapping entities when given', () => {
    const hrefs = {
      rootContainer: 'r',
      contacts: 'c',
      shares: 's',
      projects: 'p',
      metacontainers: 'm',
      account: 'a',
      tags: 't',
      recyclebin: 'b',
    };
    const xml = buildXml(cloudEntity(hrefs));
    expect([...xml.matchAll(/<(\w+) xlink:href/g)].map((m) => m[1])).toEqual(Object.keys(hrefs));
    expect(xml.startsWith('<cloud ')).toBe(true);
  });
});
