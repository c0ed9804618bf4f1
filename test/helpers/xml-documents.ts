// The shapes tests read from parsed response bodies (`readXml` in cloud.ts): attributes as "@_name", every
// text and attribute a string (parseTagValue off), a repeated element an array (so read lists through asArray).

/** One or many: the parser makes an array only when an element repeats. */
export type OneOrMany<T> = T | T[];

/** An xlink: every link element and entity carries these two attributes. */
export interface XmlLink {
  readonly '@_xlink:href': string;
  readonly '@_xlink:type': string;
}

export interface ContainerElement extends XmlLink {
  readonly name: string;
  readonly owner: string;
  readonly created: string;
  readonly modified: string;
  readonly bytes: string;
  readonly parent: XmlLink;
  readonly tags: XmlLink;
  readonly metadata: XmlLink;
  /** A link; with X-Cloud-Depth 2 it also holds the children inline. */
  readonly contents: XmlLink & ListPage & ListChildren;
}

export interface FileElement extends XmlLink {
  readonly name: string;
  readonly mime_type: string;
  readonly public: string;
  readonly bytes: string;
  readonly owner: string;
  readonly created: string;
  readonly modified: string;
  readonly version: string;
  readonly parent: XmlLink;
  readonly content: XmlLink;
  readonly tags: XmlLink;
  readonly metadata: XmlLink;
  readonly permissions: XmlLink;
}

export interface ListPage {
  readonly '@_count': string;
  readonly '@_start': string;
  readonly '@_total': string;
}

interface ListChildren {
  readonly container?: OneOrMany<ContainerElement>;
  readonly file?: OneOrMany<FileElement>;
}

/** An item of a file-list: a link that wraps the full entity. */
export interface ListedContainer extends XmlLink {
  readonly container: ContainerElement;
}
export interface ListedFile extends XmlLink {
  readonly file: FileElement;
}

export interface FileListElement extends ListPage {
  readonly container?: OneOrMany<ListedContainer>;
  readonly file?: OneOrMany<ListedFile>;
}

export interface TagElement extends XmlLink {
  readonly name: string;
  readonly objects: XmlLink;
}

export interface TagsElement extends XmlLink, ListPage {
  readonly tag?: OneOrMany<TagElement>;
}

export interface AccountInfoElement extends XmlLink {
  readonly username: string;
  readonly account_type: string;
  readonly storage: { readonly used: string; readonly allocated: string };
  readonly bandwidth: {
    readonly allocated: string;
    readonly total: string;
    readonly public: string;
    readonly private: string;
  };
  readonly s3: { readonly authid: string; readonly authkey: string };
}

export interface RecycledItemElement extends XmlLink {
  readonly originalname: string;
  readonly recycleddate: string;
}

export interface RecycleBinElement extends XmlLink, ListPage {
  readonly 'recycled-item'?: OneOrMany<RecycledItemElement>;
}

export interface MetadataElement extends XmlLink {
  readonly 'metadata-item'?: OneOrMany<XmlLink & { readonly name: string }>;
}

export interface PermissionsElement extends XmlLink {
  readonly owner: string;
}

/** A DAV element whose text sits beside attributes such as xmlns. */
export interface DavText {
  readonly '#text': string;
  readonly '@_xmlns': string;
}

export interface DavActiveLock {
  readonly 'D:locktoken': { readonly 'D:href': string };
  readonly 'D:lockscope': Record<string, string>;
  readonly 'D:locktype': Record<string, string>;
  readonly 'D:depth': string;
  readonly 'D:timeout': string;
  readonly 'D:lockroot': { readonly 'D:href': string };
  readonly 'D:owner': { readonly href: DavText };
}

/** One property of a propstat: its text, or the child elements it holds (resourcetype's collection). */
export type DavPropValue = string | DavText | { readonly [name: string]: DavPropValue };

export interface DavPropstat {
  readonly 'D:status': string;
  readonly 'D:prop'?: { readonly [name: string]: DavPropValue };
}

export interface DavResponse {
  readonly 'D:href': string;
  readonly 'D:propstat'?: OneOrMany<DavPropstat>;
}

export interface CloudElement {
  readonly '@_xmlns:xlink': string;
  readonly rootContainer: XmlLink & { readonly container: ContainerElement };
  readonly contacts: XmlLink;
  readonly shares: XmlLink;
  readonly projects: XmlLink;
  readonly metacontainers: XmlLink;
  readonly account: XmlLink & { readonly 'account-info': AccountInfoElement };
  readonly tags: XmlLink & { readonly tags: TagsElement };
  readonly recyclebin: XmlLink;
  /** cloud2 only (Accept application/vnd.csp.cloud2+xml). */
  readonly locations: { readonly location: { readonly rootContainer: XmlLink; readonly management: XmlLink } };
  /** cloud2 only; wraps the namespaces entity at X-Cloud-Depth 1. */
  readonly namespaces: XmlLink & { readonly namespaces?: NamespacesElement };
}

/** GET /v2/namespaces, and inside cloud2's namespaces link at depth 1. */
export interface NamespacesElement {
  readonly namespace: { readonly name: string; readonly container: XmlLink };
}

/**
 * A parsed body, keyed by its root element. One body holds one root; reading another gives undefined at run
 * time, which the assertion reading it then reports.
 */
export interface CspDocument {
  readonly cloud: CloudElement;
  readonly namespaces: NamespacesElement;
  readonly container: ContainerElement;
  readonly file: FileElement;
  readonly 'file-list': FileListElement;
  readonly tags: TagsElement;
  readonly tag: TagElement;
  readonly 'account-info': AccountInfoElement;
  readonly recyclebin: RecycleBinElement;
  readonly metadata: MetadataElement;
  readonly permissions: PermissionsElement;
  readonly contacts: ListPage;
  readonly shares: ListPage;
  readonly projects: ListPage;
  readonly metacontainers: ListPage;
  readonly 'D:multistatus': { readonly 'D:response'?: OneOrMany<DavResponse> };
  /** The body of a LOCK answer. */
  readonly 'D:prop': { readonly 'D:lockdiscovery': { readonly 'D:activelock': DavActiveLock } };
}

/** The one element where a test expects exactly one: none, or a repeated element (an array), fails the test. */
export function only<T>(value: OneOrMany<T> | undefined): T {
  if (value === undefined) throw new Error('expected exactly one element, got none');
  if (Array.isArray(value)) throw new Error(`expected exactly one element, got ${value.length}`);
  return value as T;
}
