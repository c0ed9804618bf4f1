// The test sync client as a command, as explore runs a client: one pass over CSP_SYNC_DIR against
// CSP_MOCK_URL as CSP_MOCK_USER / CSP_MOCK_PASSWORD, then exit (1 with the reason when the pass failed).
// Usage: node sync-client.js --state FILE [--bug blind-create-retry|done-after-reset|lost-under-rename]
import { PLANTED_BUGS, syncPass, type PlantedBug } from './dav-sync.js';

const args = process.argv.slice(2);
const valueOf = (flag: string): string | undefined => {
  const at = args.indexOf(flag);
  return at >= 0 ? args[at + 1] : undefined;
};
const env = (name: string): string => {
  const value = process.env[name];
  if (value === undefined) {
    process.stderr.write(`sync-client: ${name} is not set\n`);
    process.exit(2);
  }
  return value;
};
const stateFile = valueOf('--state');
const bug = valueOf('--bug');
if (!stateFile || (bug !== undefined && !PLANTED_BUGS.includes(bug as PlantedBug))) {
  process.stderr.write(`usage: sync-client --state FILE [--bug ${PLANTED_BUGS.join('|')}]\n`);
  process.exit(2);
}
syncPass(
  {
    url: env('CSP_MOCK_URL'),
    user: env('CSP_MOCK_USER'),
    password: env('CSP_MOCK_PASSWORD'),
    dir: env('CSP_SYNC_DIR'),
  },
  { stateFile, bug: bug as PlantedBug | undefined },
).catch((err: unknown) => {
  process.stderr.write(`sync-client: ${(err as Error).message}\n`);
  process.exit(1);
});
