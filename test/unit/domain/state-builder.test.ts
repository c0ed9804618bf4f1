import { buffer } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { blobFiles, openTestStore } from '../../helpers/stores.js';

describe('a state built aside', () => {
  it('files with the same bytes share one blob; other bytes of the same length, or of a length no other has, get their own', async () => {
    const t = await openTestStore('memory');
    const state = t.store.builder();
    const root = state.addUser('alice');
    const contents = { a: 'same-12bytes', b: 'same-12bytes', c: 'diff-12bytes', d: 'a length of its own', e: '' };
    for (const [name, text] of Object.entries(contents)) state.addFile('alice', root.id, { name }, Buffer.from(text));
    await state.writeBlobs();
    await t.store.replaceState(state);
    const files = Object.fromEntries(t.store.tree.children(t.store.root('alice').id).map((node) => [node.name, node]));
    expect(files['a']!.blobId).toBe(files['b']!.blobId);
    expect(new Set([files['a']!.blobId, files['c']!.blobId, files['d']!.blobId]).size).toBe(3);
    expect(files['e']!.blobId).toBeNull();
    expect(await blobFiles(t.store)).toHaveLength(3);
    for (const [name, text] of Object.entries(contents)) {
      const node = files[name]!;
      expect(node.bytes).toBe(text.length);
      if (node.blobId) expect((await buffer(t.store.blobs.read(node.blobId))).toString()).toBe(text);
    }
    await t.dispose();
  });
});
