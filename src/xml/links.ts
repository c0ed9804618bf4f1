/** Absolute addresses of every resource, all on one scheme, host and port (clients compare links by URI). */
export class Links {
  readonly base: string;

  constructor(base: string) {
    this.base = base.replace(/\/+$/, '');
  }

  get cloud(): string {
    return `${this.base}/v2`;
  }
  container(id: string): string {
    return `${this.base}/v2/containers/${id}`;
  }
  contents(id: string): string {
    return `${this.container(id)}/contents`;
  }
  file(id: string): string {
    return `${this.base}/v2/files/${id}`;
  }
  content(id: string): string {
    return `${this.file(id)}/content`;
  }
  /** `kind` is the node kind; the address of the object itself. */
  resource(kind: 'container' | 'file', id: string): string {
    return kind === 'container' ? this.container(id) : this.file(id);
  }
  collection(name: CollectionName): string {
    return `${this.base}/v2/${name}`;
  }
  tag(name: string): string {
    return `${this.collection('tags')}/${encodeURIComponent(name)}`;
  }
  tagObjects(name: string): string {
    return `${this.tag(name)}/objects`;
  }
  recycled(id: string): string {
    return `${this.collection('recyclebin')}/${id}`;
  }
  /** A user's CDMI management address: the container their notification queues live in (cdmi/). */
  management(user: string): string {
    return `${this.base}/cdmi/${encodeURIComponent(user)}`;
  }
  get namespaces(): string {
    return `${this.base}/v2/namespaces`;
  }
  /** The namespace container: `<it>/<path>` addresses an object of the user's tree by its path. */
  get namespaceContainer(): string {
    return `${this.base}/v2/namespace`;
  }
  /** The entry document's links for a user whose root container is `rootId`. */
  entry(rootId: string): Record<CloudLinkName, string> {
    const hrefs = { rootContainer: this.container(rootId) } as Record<CloudLinkName, string>;
    for (const name of COLLECTIONS) hrefs[name] = this.collection(name);
    return hrefs;
  }
  dav(path: string[]): string {
    return `${this.base}/dav/${path.map(encodeURIComponent).join('/')}`;
  }
}

/** The collections under /v2, in the order the entry document links them after the root container. */
export const COLLECTIONS = [
  'contacts',
  'shares',
  'projects',
  'metacontainers',
  'account',
  'tags',
  'recyclebin',
] as const;
export type CollectionName = (typeof COLLECTIONS)[number];

/** The entry document's eight links, in its order: the user's root container, then the collections. */
export const CLOUD_LINKS = ['rootContainer', ...COLLECTIONS] as const;
export type CloudLinkName = (typeof CLOUD_LINKS)[number];
