import { afterEach, describe, expect, it } from 'vitest';
import { connectMock, startMock, type RunningMock } from '../../../src/index.js';
import type { Listing } from '../../../src/admin/inspector-files.js';

const SERVICE = {
  Authorization: `Basic ${Buffer.from('demo:demo').toString('base64')}`,
  'X-Client-Specification': '2',
};

let mock: RunningMock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

async function rootListing(base: string): Promise<Listing> {
  const { users } = (await (await fetch(`${base}/__admin/inspector/users`)).json()) as {
    users: Array<{ user: string; rootId: string }>;
  };
  const root = users.find((u) => u.user === 'demo')!.rootId;
  return (await (await fetch(`${base}/__admin/inspector/children?user=demo&id=${root}`)).json()) as Listing;
}

describe("the inspector of a served mock's tenants", () => {
  it("a tenant's inspector shows addresses under its own /t/<name>, and they answer", async () => {
    mock = await startMock({});
    const tenant = await connectMock(mock.url).tenant('w1', { seed: 'empty' });
    await tenant.change({ createFolder: '/only-in-w1' });
    const [folder] = (await rootListing(tenant.url)).nodes;
    expect(folder!.name).toBe('only-in-w1');
    expect(folder!.rest).toMatch(/^\/t\/w1\/v2\/containers\//);
    expect(folder!.dav).toBe('/t/w1/dav/only-in-w1/');
    expect((await fetch(`${mock.url}${folder!.rest}`, { headers: SERVICE })).status).toBe(200);
    expect(
      (await fetch(`${mock.url}${folder!.dav!}`, { method: 'PROPFIND', headers: { ...SERVICE, Depth: '0' } })).status,
    ).toBe(207);
    // The default mock's addresses carry no prefix.
    const documents = (await rootListing(mock.url)).nodes.find((n) => n.name === 'Documents')!;
    expect(documents.rest).toMatch(/^\/v2\/containers\//);
    expect(documents.dav).toBe('/dav/Documents/');
  });

  it("a tenant's page has the Mock selector, which lists the server's tenants from /__admin/tenants", async () => {
    mock = await startMock({});
    await connectMock(mock.url).tenant('w1');
    await connectMock(mock.url).tenant('w2');
    const page = await (await fetch(`${mock.url}/t/w1/__admin/`)).text();
    expect(page).toContain('id="mock-select"');
    const script = await fetch(`${mock.url}/t/w1/__admin/inspector/page/mock-picker.js`);
    expect(script.status).toBe(200);
    expect(await script.text()).toContain('/__admin/tenants');
    // What the picker reads, as the page sends it (same origin as the page on /t/w1/__admin/).
    const listed = await fetch(`${mock.url}/__admin/tenants`, {
      headers: { Referer: `${mock.url}/t/w1/__admin/`, 'Sec-Fetch-Site': 'same-origin' },
    });
    expect(listed.status).toBe(200);
    const { tenants } = (await listed.json()) as { tenants: Array<{ name: string }> };
    expect(tenants.map((t) => t.name).sort()).toEqual(['w1', 'w2']);
  });
});
