import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname, isAbsolute } from 'node:path';
import type { RunningMock } from '../index.js';
import { describeLatency } from '../scenarios/latency-sampler.js';

/**
 * serve --watch: when the active scenario's file changes, re-read it and apply its faults and
 * latency at once; the state stays (a changed seed is reported with a hint to reset). The folder is
 * watched, not the file, so an editor's save-by-rename is seen too.
 */
export function watchScenario(mock: RunningMock, log: (line: string) => void): FSWatcher | undefined {
  const file = mock.scenario.source;
  if (!isAbsolute(file)) {
    log('watch: the scenario is not a file; nothing to watch');
    return undefined;
  }
  let timer: NodeJS.Timeout | undefined;
  const reload = async (): Promise<void> => {
    try {
      const { scenario, seedChanged } = await mock.reloadScenario();
      log(
        `watch: reloaded ${scenario.source}: ${scenario.faults.length} fault rule(s)${scenario.latency ? `, latency ${describeLatency(scenario.latency)}` : ''}; state untouched`,
      );
      if (seedChanged)
        log('watch: the seed changed; the state keeps the old one until "csp-mock reset" (or POST /__admin/reset)');
    } catch (err) {
      log(`watch: ${(err as Error).message}; the previous version stays active`);
    }
  };
  const watcher = watch(dirname(file), (_event, name) => {
    // After a switch to another scenario (scenario use), this file is no longer the one running.
    if (name !== basename(file) || mock.scenario.source !== file) return;
    // Editors write in bursts: reload once it settles.
    clearTimeout(timer);
    timer = setTimeout(() => void reload(), 100);
  });
  watcher.unref();
  log(`watch: watching ${file}`);
  return watcher;
}
