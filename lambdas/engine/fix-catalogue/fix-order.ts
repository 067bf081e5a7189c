/**
 * The order fixes run in, derived from what each declares it runs after
 * (FixInfo.runsAfter): a topological order of the catalogue, in which a fix
 * with nothing left to wait for runs in the catalogue's order. A request's
 * order never matters: `items: ["bleed.mirror", "boxes.normalize"]` runs the
 * boxes first, because the bleed is mirrored across the TrimBox they set.
 *
 * A declaration naming an unknown fix, or a cycle, is a mistake in the
 * catalogue: it throws when the order is first needed (a unit test loads it).
 */
import type { FixInfo } from './types';

/** The catalogue's fix ids in the order of application. */
export function applicationOrder(fixes: readonly FixInfo[]): string[] {
  const ids = new Set(fixes.map((f) => f.id));
  const waitingFor = new Map<string, Set<string>>();
  for (const f of fixes) {
    for (const before of f.runsAfter ?? []) {
      if (!ids.has(before)) throw new Error(`fix catalogue: ${f.id} runs after "${before}", which is not a fix`);
    }
    waitingFor.set(f.id, new Set(f.runsAfter ?? []));
  }
  const order: string[] = [];
  while (order.length < fixes.length) {
    // The first fix in catalogue order whose predecessors have all been placed.
    const next = fixes.find((f) => !order.includes(f.id) && [...waitingFor.get(f.id)!].every((b) => order.includes(b)));
    if (!next) {
      const stuck = fixes.filter((f) => !order.includes(f.id)).map((f) => f.id);
      throw new Error(`fix catalogue: the fixes ${stuck.join(', ')} wait for each other (runsAfter has a cycle)`);
    }
    order.push(next.id);
  }
  return order;
}

/** Sorts fix ids into the order of application; ids not in `order` go last, in the order given. */
export function inApplicationOrder(ids: readonly string[], order: readonly string[]): string[] {
  const rank = (id: string) => {
    const i = order.indexOf(id);
    return i < 0 ? Number.MAX_SAFE_INTEGER : i;
  };
  return [...new Set(ids)].sort((a, b) => rank(a) - rank(b));
}
