/**
 * What each fix does, from GET /profiles `fixes` (its name and description, and whether it may
 * change how a page looks), so a chosen finding can say what "Fix it" would do about it. Read
 * once per page load: the catalogue is static data of the service.
 */
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';

export interface FixInfo {
  id: string;
  name: string;
  description: string;
  appearance: string;
}

export type FixCatalogue = Map<string, FixInfo>;

let loading: Promise<FixCatalogue> | null = null;

function loadFixes(): Promise<FixCatalogue> {
  loading ??= api<{ fixes: FixInfo[] }>('GET', '/profiles')
    .then((r) => new Map(r.fixes.map((f) => [f.id, f])))
    .catch((e: unknown) => {
      loading = null;
      throw e;
    });
  return loading;
}

/** The catalogue once it has arrived (an empty one until then, or if it cannot be read). */
export function useFixCatalogue(): FixCatalogue {
  const [fixes, setFixes] = useState<FixCatalogue>(new Map());
  useEffect(() => {
    let alive = true;
    loadFixes()
      .then((f) => alive && setFixes(f))
      .catch(() => undefined);
    return () => {
      alive = false;
    };
  }, []);
  return fixes;
}
