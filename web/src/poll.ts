/** Runs `load` now and again every `everyMs` while `more()` says the data can still change. */
import { useEffect, useRef } from 'preact/hooks';

export function usePolling(load: () => Promise<boolean>, deps: unknown[], everyMs = 3000): void {
  const alive = useRef(true);
  useEffect(() => {
    alive.current = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = async () => {
      const more = await load().catch(() => false);
      if (alive.current && more) timer = setTimeout(tick, everyMs);
    };
    void tick();
    return () => {
      alive.current = false;
      clearTimeout(timer);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);
}
