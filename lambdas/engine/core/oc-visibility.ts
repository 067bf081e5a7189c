/**
 * Which optional content is visible in the document's default configuration
 * (ISO 32000-1 8.11.4): /OCProperties /D gives the base state (ON unless
 * BaseState says OFF or Unchanged-as-ON), then its ON and OFF arrays; its /AS
 * (auto state) entries for the View — or, asked for, the Print — event apply
 * the groups' usage states (/Usage /View /ViewState, /Print /PrintState).
 * A membership dictionary (OCMD) combines groups by its visibility expression
 * (/VE) or its policy (/P, AnyOn by default). Anything unreadable counts as
 * visible: content is only ever removed when it is certainly hidden.
 */
import { PDFArray, PDFDict, type PDFContext, type PDFObject } from '@cantoo/pdf-lib';
import { getArray, getDict, getName, name, nameText, resolve, resolvedItems } from './pdf-objects';

export type OcEvent = 'view' | 'print';

export class OcVisibility {
  private readonly state = new Map<PDFDict, boolean>();
  private readonly baseOff: boolean;

  constructor(private readonly context: PDFContext, props: PDFDict | undefined, event: OcEvent) {
    const d = getDict(props, 'D');
    const baseOff = getName(d, 'BaseState') === 'OFF';
    for (const g of resolvedItems(context, props?.get(name('OCGs')))) if (g instanceof PDFDict) this.state.set(g, !baseOff);
    for (const g of resolvedItems(context, d?.get(name('ON')))) if (g instanceof PDFDict) this.state.set(g, true);
    for (const g of resolvedItems(context, d?.get(name('OFF')))) if (g instanceof PDFDict) this.state.set(g, false);
    this.baseOff = baseOff;
    // Auto state: usage applies only through an /AS entry for this event whose categories name it.
    const [eventName, usageKey, stateKey] = event === 'print' ? ['Print', 'Print', 'PrintState'] : ['View', 'View', 'ViewState'];
    for (const entry of resolvedItems(context, d?.get(name('AS')))) {
      if (!(entry instanceof PDFDict) || getName(entry, 'Event') !== eventName) continue;
      const categories = resolvedItems(context, entry.get(name('Category'))).map(nameText);
      if (!categories.includes(usageKey)) continue;
      for (const g of resolvedItems(context, entry.get(name('OCGs')))) {
        if (!(g instanceof PDFDict)) continue;
        const s = getName(getDict(getDict(g, 'Usage'), usageKey), stateKey);
        if (s === 'ON' || s === 'OFF') this.state.set(g, s === 'ON');
      }
    }
  }

  /** Groups the configuration hides. */
  hiddenGroups(): PDFDict[] {
    return [...this.state].filter(([, on]) => !on).map(([g]) => g);
  }

  /** Whether content marked with `oc` (an OCG or OCMD, or a reference to one) shows. */
  visible(oc: PDFObject | undefined, depth = 0): boolean {
    const d = resolve(this.context, oc);
    if (!(d instanceof PDFDict) || depth > 32) return true;
    const type = getName(d, 'Type');
    if (type === 'OCMD') return this.membership(d, depth);
    return this.groupOn(d);
  }

  private groupOn(g: PDFDict): boolean {
    // A group missing from /OCGs takes the base state.
    return this.state.get(g) ?? !this.baseOff;
  }

  private membership(md: PDFDict, depth: number): boolean {
    const ve = getArray(md, 'VE');
    if (ve) {
      const v = this.expression(ve, depth + 1);
      if (v !== null) return v;
    }
    const groups = resolvedItems(this.context, md.get(name('OCGs'))).filter((g): g is PDFDict => g instanceof PDFDict);
    if (groups.length === 0) return true;
    const on = groups.map((g) => this.groupOn(g));
    switch (getName(md, 'P') ?? 'AnyOn') {
      case 'AllOn':
        return on.every(Boolean);
      case 'AnyOff':
        return on.some((v) => !v);
      case 'AllOff':
        return on.every((v) => !v);
      default:
        return on.some(Boolean);
    }
  }

  /** A visibility expression [/And …], [/Or …], [/Not x] over groups; null when unreadable. */
  private expression(arr: PDFArray, depth: number): boolean | null {
    if (depth > 32 || arr.size() < 2) return null;
    const op = nameText(arr.lookup(0));
    const operands: boolean[] = [];
    for (let i = 1; i < arr.size(); i++) {
      const item = arr.lookup(i);
      const v = item instanceof PDFArray ? this.expression(item, depth + 1) : item instanceof PDFDict ? this.groupOn(item) : null;
      if (v === null) return null;
      operands.push(v);
    }
    if (op === 'And') return operands.every(Boolean);
    if (op === 'Or') return operands.some(Boolean);
    if (op === 'Not') return !operands[0];
    return null;
  }
}
