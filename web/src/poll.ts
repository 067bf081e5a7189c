/**
 * Runs `load` now and again every `everyMs` while it says the data can still change. `load` is
 * told whether its run is still the current one: an answer that arrives after the filters or the
 * page changed must not replace the newer one (the jobs list showed an unfiltered row so).
 */
import { useEffect } from 'preact/hooks';

export function usePolling(load: (current: () => boolean) => Promise<boolean>, deps: unknown[], everyMs = 3000): void {
  useEffect(() => {
    let alive = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = async () => {
      const more = await load(() => alive).catch(() => false);
      if (alive && more) timer = setTimeout(tick, everyMs);
    };
    void tick();
    return () => {
      alive = false;
      clearTimeout(timer);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);
}
