// A small two-way sync client over WebDAV, written for explore's tests: one pass compares the folder, the
// account and what the last pass left (a three-way merge), then pushes, pulls and deletes. Each planted bug
// is one branch, off unless asked for.
import { mkdir, readFile, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { davPath, localListing, remoteListing, sha256, type Side } from './dav-listing.js';

export type PlantedBug =
  /** After an ambiguous create, sends it again blind; the name is taken (by its own create), so it uploads as "name (2)". */
  | 'blind-create-retry'
  /** An overwrite whose connection was reset is recorded as done. */
  | 'done-after-reset'
  /** An overwrite refused with 412 (the file moved or changed under it) takes the account's side: gone means deleted. */
  | 'lost-under-rename';

export const PLANTED_BUGS: readonly PlantedBug[] = ['blind-create-retry', 'done-after-reset', 'lost-under-rename'];

export interface PassContext {
  url: string;
  user: string;
  password: string;
  dir: string;
}

export interface SyncOptions {
  /** Where the client keeps what the last pass left (a JSON file beside the folder). */
  stateFile: string;
  bug?: PlantedBug;
}

type Base = Record<string, { kind: 'file' | 'folder'; sha256?: string; etag?: string }>;

const sameKind = (a: Side | undefined, b: Side | undefined): boolean => a?.kind === b?.kind;

/** One sync pass; throws (the pass failed) on any answer it does not expect. The next pass picks up from there. */
export async function syncPass(ctx: PassContext, options: SyncOptions): Promise<void> {
  const auth = `Basic ${Buffer.from(`${ctx.user}:${ctx.password}`).toString('base64')}`;
  const base: Base = await readFile(options.stateFile, 'utf8').then(
    (text) => JSON.parse(text) as Base,
    () => ({}),
  );
  const save = async (): Promise<void> => {
    await writeFile(`${options.stateFile}.tmp`, JSON.stringify(base));
    await rename(`${options.stateFile}.tmp`, options.stateFile);
  };
  const send = (method: string, path: string, init: { headers?: Record<string, string>; body?: Uint8Array } = {}) =>
    fetch(`${ctx.url}${davPath(path)}`, {
      method,
      headers: { Authorization: auth, ...init.headers },
      body: init.body && new Uint8Array(init.body),
    });
  const onDisk = (path: string): string => join(ctx.dir, ...path.slice(1).split('/'));

  const remote = await remoteListing(ctx.url, auth);
  const local = await localListing(ctx.dir);
  const madeRemote = new Set<string>();

  const ensureRemoteParents = async (path: string): Promise<void> => {
    const parts = path.split('/').slice(1, -1);
    for (let i = 1; i <= parts.length; i++) {
      const folder = `/${parts.slice(0, i).join('/')}`;
      if (remote.get(folder)?.kind === 'folder' || madeRemote.has(folder)) continue;
      const res = await send('MKCOL', folder);
      if (res.status !== 201 && res.status !== 405) throw new Error(`MKCOL ${folder} answered ${res.status}`);
      madeRemote.add(folder);
      base[folder] = { kind: 'folder' };
      await save();
    }
  };

  const download = async (path: string): Promise<{ content: Buffer; etag: string | undefined }> => {
    const res = await send('GET', path);
    if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}`);
    const content = Buffer.from(await res.arrayBuffer());
    const length = res.headers.get('content-length');
    if (length !== null && Number(length) !== content.length)
      throw new Error(`GET ${path}: ${content.length} of ${length} bytes`);
    return { content, etag: res.headers.get('etag') ?? undefined };
  };

  const writeLocal = async (path: string, content: Buffer): Promise<void> => {
    await mkdir(dirname(onDisk(path)), { recursive: true });
    // Written beside the state file, then moved in: a pass killed half way leaves no half file in the folder.
    await writeFile(`${options.stateFile}.download`, content);
    await rename(`${options.stateFile}.download`, onDisk(path));
  };

  const pull = async (path: string, there: Side): Promise<void> => {
    if (there.kind === 'folder') {
      await mkdir(onDisk(path), { recursive: true });
      base[path] = { kind: 'folder' };
    } else {
      const { content, etag } = await download(path);
      await writeLocal(path, content);
      base[path] = { kind: 'file', sha256: sha256(content), etag: etag ?? there.etag };
    }
    await save();
  };

  const upload = (path: string, content: Buffer, condition: Record<string, string>) =>
    send('PUT', path, { headers: { 'Content-Type': 'application/octet-stream', ...condition }, body: content });

  const push = async (path: string, here: Side, there: Side | undefined): Promise<void> => {
    if (here.kind === 'folder') {
      if (!there) await ensureRemoteParents(`${path}/x`);
      base[path] = { kind: 'folder' };
      return save();
    }
    await ensureRemoteParents(path);
    const content = await readFile(onDisk(path));
    const condition: Record<string, string> = there?.etag ? { 'If-Match': there.etag } : { 'If-None-Match': '*' };
    let res: Response;
    try {
      res = await upload(path, content, condition);
    } catch (err) {
      if (options.bug === 'done-after-reset' && there) {
        base[path] = { kind: 'file', sha256: sha256(content), etag: there.etag };
        return save();
      }
      if (options.bug === 'blind-create-retry' && !there) return blindRetry(path, content);
      await lookAfterFailure(path, content);
      throw err;
    }
    if (res.status === 412 && options.bug === 'lost-under-rename' && there) {
      const now = await send('GET', path);
      if (now.status === 404) {
        await rm(onDisk(path), { force: true });
        delete base[path];
      } else await writeLocal(path, Buffer.from(await now.arrayBuffer()));
      return save();
    }
    if (res.status >= 500 && options.bug === 'blind-create-retry' && !there) return blindRetry(path, content);
    if (res.status !== 201 && res.status !== 204) {
      if (res.status >= 500) await lookAfterFailure(path, content);
      throw new Error(`PUT ${path} answered ${res.status}`);
    }
    base[path] = { kind: 'file', sha256: sha256(content), etag: res.headers.get('etag') ?? undefined };
    await save();
  };

  /** An upload that failed may still have landed (an ambiguous commit): look before going on, and record it if so. */
  const lookAfterFailure = async (path: string, content: Buffer): Promise<void> => {
    const now = await send('GET', path).catch(() => undefined);
    if (now?.status !== 200) return;
    if (sha256(Buffer.from(await now.arrayBuffer())) !== sha256(content)) return;
    base[path] = { kind: 'file', sha256: sha256(content), etag: now.headers.get('etag') ?? undefined };
    await save();
  };

  const blindRetry = async (path: string, content: Buffer): Promise<void> => {
    const again = await upload(path, content, { 'If-None-Match': '*' });
    if (again.status === 412) {
      const dot = path.lastIndexOf('.');
      const other = dot > path.lastIndexOf('/') ? `${path.slice(0, dot)} (2)${path.slice(dot)}` : `${path} (2)`;
      const res = await upload(other, content, { 'If-None-Match': '*' });
      if (res.status !== 201) throw new Error(`PUT ${other} answered ${res.status}`);
    } else if (again.status !== 201) throw new Error(`PUT ${path} answered ${again.status}`);
    base[path] = { kind: 'file', sha256: sha256(content) };
    await save();
  };

  /** Both sides changed a file: equal contents agree; else the folder's version becomes a conflict copy. */
  const reconcile = async (path: string, here: Side, there: Side): Promise<void> => {
    const { content, etag } = await download(path);
    if (sha256(content) !== here.sha256) {
      const dot = path.lastIndexOf('.');
      let n = 1;
      let copy: string;
      do {
        const tag = n === 1 ? ' (conflict)' : ` (conflict ${n})`;
        copy = dot > path.lastIndexOf('/') ? `${path.slice(0, dot)}${tag}${path.slice(dot)}` : `${path}${tag}`;
        n++;
      } while (local.has(copy) || remote.has(copy));
      await rename(onDisk(path), onDisk(copy));
      await writeLocal(path, content);
    }
    base[path] = { kind: 'file', sha256: sha256(content), etag: etag ?? there.etag };
    await save();
  };

  const paths = [...new Set([...Object.keys(base), ...remote.keys(), ...local.keys()])].sort();
  const deletions: Array<{ path: string; side: 'remote' | 'local' }> = [];
  for (const path of paths) {
    const here = local.get(path);
    const there = remote.get(path);
    const was = base[path];
    const hereChanged = !sameKind(here, was) || (here?.kind === 'file' && here.sha256 !== was?.sha256);
    const thereChanged = !sameKind(there, was) || (there?.kind === 'file' && there.etag !== was?.etag);
    if (!hereChanged && !thereChanged) continue;
    if (hereChanged && !thereChanged) {
      if (here) await push(path, here, there);
      else if (there) deletions.push({ path, side: 'remote' });
      else delete base[path];
    } else if (!hereChanged) {
      if (there) await pull(path, there);
      else if (here) deletions.push({ path, side: 'local' });
      else delete base[path];
    } else if (!here && !there) {
      delete base[path];
      await save();
    } else if (!here) await pull(path, there!);
    else if (!there) await push(path, here, undefined);
    else if (here.kind === 'folder' && there.kind === 'folder') {
      base[path] = { kind: 'folder' };
      await save();
    } else if (here.kind === 'file' && there.kind === 'file') await reconcile(path, here, there);
    else throw new Error(`${path} is a ${here.kind} here and a ${there.kind} in the account`);
  }

  // Deletions last, deepest first: a folder goes only once nothing in it is wanted any more.
  for (const { path, side } of deletions.reverse()) {
    if (side === 'remote') {
      // A folder deleted here but made again by this pass (something new in it was pulled) stays.
      const stillHere = await stat(onDisk(path)).then(
        () => true,
        () => false,
      );
      if (stillHere) {
        base[path] = { kind: remote.get(path)!.kind };
      } else {
        const etag = remote.get(path)!.etag;
        const res = await send('DELETE', path, { headers: etag ? { 'If-Match': etag } : {} });
        if (res.status !== 204 && res.status !== 404) throw new Error(`DELETE ${path} answered ${res.status}`);
        delete base[path];
      }
    } else if (local.get(path)!.kind === 'folder') {
      // A folder holding something new stays, and is made again in the account by the next pass.
      await rmdir(onDisk(path)).catch(() => undefined);
      delete base[path];
    } else {
      await rm(onDisk(path), { force: true });
      delete base[path];
    }
    await save();
  }
}
