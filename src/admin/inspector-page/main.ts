import {
  ApiError,
  TokenRequired,
  adminToken,
  getJson,
  readEvents,
  sendJson,
  setAdminToken,
  takeTokenFromFragment,
} from './api.js';
import { CoveragePanel } from './coverage-panel.js';
import { byId, debounce } from './dom.js';
import { FilesPanel } from './files-panel.js';
import { showMockPicker } from './mock-picker.js';
import { RequestsPanel } from './requests-panel.js';
import { ScenarioPanel } from './scenario-panel.js';
import type { JournalEntry } from '../../http/wire-types.js';

/** Methods after which the Files tree is read again. */
const READ_ONLY = new Set(['GET', 'HEAD', 'OPTIONS', 'PROPFIND']);
const RECONNECT_MS = 1000;

takeTokenFromFragment();
const connection = byId('connection');
const errorLine = byId('error');
const tokenDialog = byId<HTMLDialogElement>('token-dialog');
const tokenButton = byId<HTMLButtonElement>('token-button');
tokenButton.hidden = adminToken() === null;
let tokenGiven: Promise<void> | undefined;
let giveToken: (() => void) | undefined;

function showError(err: unknown): void {
  if (err instanceof TokenRequired) {
    void askToken();
    return;
  }
  errorLine.textContent =
    err instanceof ApiError ? `${err.status}: ${err.message}` : err instanceof Error ? err.message : String(err);
  errorLine.hidden = false;
}

/** Opens the token dialog once; resolves when a token was entered. */
function askToken(): Promise<void> {
  tokenButton.hidden = false;
  if (!tokenGiven) {
    tokenGiven = new Promise((resolve) => (giveToken = resolve));
    if (!tokenDialog.open) tokenDialog.showModal();
  }
  return tokenGiven;
}

tokenButton.addEventListener('click', () => {
  if (!tokenDialog.open) tokenDialog.showModal();
});
byId('token-cancel').addEventListener('click', () => tokenDialog.close());
byId('token-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const input = byId<HTMLInputElement>('token-input');
  setAdminToken(input.value.trim() || null);
  input.value = '';
  tokenDialog.close();
  tokenGiven = undefined;
  giveToken?.();
  errorLine.hidden = true;
});

const requests = new RequestsPanel(() => void sendJson('DELETE', 'requests').catch(showError));
const files = new FilesPanel(showError);
const scenario = new ScenarioPanel(showError, () => void files.refresh());
new CoveragePanel();
const refreshFiles = debounce(() => void files.refresh(), 200);
const refreshScenario = debounce(() => void scenario.refresh(), 200);

function onEvent(type: string, data: unknown): void {
  connection.textContent = 'Live';
  connection.className = 'connection live';
  requests.handle(type, data);
  if (type === 'updated') {
    refreshScenario();
    if (!READ_ONLY.has((data as JournalEntry).method)) refreshFiles();
  } else if (type === 'scenario' || type === 'cleared') {
    refreshScenario();
    refreshFiles();
  }
}

/** Follows the event stream for as long as the page is open, reconnecting after a drop. */
async function follow(): Promise<void> {
  for (;;) {
    try {
      connection.textContent = 'Connecting…';
      await readEvents('inspector/events', new AbortController().signal, onEvent);
    } catch (err) {
      if (err instanceof TokenRequired) {
        connection.textContent = 'Waiting for the admin token';
        await askToken();
        continue;
      }
    }
    connection.textContent = 'Reconnecting…';
    connection.className = 'connection';
    await new Promise((resolve) => setTimeout(resolve, RECONNECT_MS));
  }
}

document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'visible') {
    refreshScenario();
    refreshFiles();
  }
});

/** One probe first, so a mock with a token asks for it once instead of failing every panel. */
async function start(): Promise<void> {
  for (;;) {
    try {
      await getJson('inspector/users');
      break;
    } catch (err) {
      if (!(err instanceof TokenRequired)) break;
      connection.textContent = 'Waiting for the admin token';
      await askToken();
    }
  }
  void Promise.all([files.refresh(), scenario.refresh(true), showMockPicker()]);
  void follow();
}

void start();
