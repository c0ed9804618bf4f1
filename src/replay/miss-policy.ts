/** What a request that matches nothing gets: a text/plain 404, the emulator's answer, or the upstream's (recorded). */
export type MissPolicy = 'error' | 'emulate' | 'proxy';
export const MISS_POLICIES: readonly MissPolicy[] = ['error', 'emulate', 'proxy'];
