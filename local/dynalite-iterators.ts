/**
 * dynalite 4.0.0 leaks a LevelDB iterator on every Query and Scan, and with it
 * a LevelDB snapshot: its read streams (node_modules/dynalite/db/index.js,
 * createValueStream and createKeyStream) close their iterator in `destroy` by
 * calling `iterator.return()`, which abstract-level 3 iterators do not have
 * (they have `close()`). So every stream's iterator stays open, registered
 * with the database, and pins the memtables and files it was opened over.
 * Under a steady load of jobs this was the local runtime's memory rising
 * without end (issue 16 item 8: 0.5 MB and about a dozen iterators per fix
 * job, found in a heap snapshot as DefaultValueIterator objects held by
 * ClassicLevel's resources).
 *
 * The stand-in is a dependency, so rather than edit it we give abstract-level's
 * iterators the `return()` it calls: it closes the iterator, as the async
 * iterator protocol's `return` does. abstract-level is resolved from
 * dynalite's own dependency tree, so the class patched is the one it uses.
 * Applied once, before dynalite opens a database; a later abstract-level
 * whose iterators have `return` of their own is left as it is.
 */
import { createRequire } from 'node:module';

interface ClosableIterator {
  close(): Promise<void>;
  return?: () => Promise<{ done: true; value: undefined }>;
}

type IteratorClass = { prototype: ClosableIterator };

/** The iterator classes of the abstract-level that dynalite's `level` is built on. */
export function dynaliteIteratorClasses(): IteratorClass[] {
  const fromDynalite = createRequire(createRequire(import.meta.url).resolve('dynalite'));
  const fromLevel = createRequire(fromDynalite.resolve('level'));
  // `level` reaches abstract-level through classic-level (Node) or memory-level.
  const abstractLevel = createRequire(fromLevel.resolve('classic-level'))('abstract-level') as Record<string, IteratorClass | undefined>;
  return ['AbstractIterator', 'AbstractKeyIterator', 'AbstractValueIterator'].map((name) => {
    const cls = abstractLevel[name];
    if (!cls) throw new Error(`abstract-level has no ${name}: the dynalite iterator fix needs looking at`);
    return cls;
  });
}

let applied = false;

/** Makes `iterator.return()` close an abstract-level iterator, so dynalite's streams stop leaking them. */
export function closeDynaliteIteratorsOnDestroy(): void {
  if (applied) return;
  applied = true;
  for (const cls of dynaliteIteratorClasses()) {
    if (typeof cls.prototype.return === 'function') continue;
    Object.defineProperty(cls.prototype, 'return', {
      configurable: true,
      writable: true,
      value: async function (this: ClosableIterator) {
        await this.close();
        return { done: true as const, value: undefined };
      },
    });
  }
}
