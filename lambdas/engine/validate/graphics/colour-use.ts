/**
 * Colour spaces as the content uses them, for PDF/A's colour space rules
 * (ISO 19005-1 6.2.3, -2/-3/-4 6.2.4), watched during the one content pass.
 *
 * Device spaces count where something is painted with them: a path filled or
 * stroked, text shown in a visible rendering mode, an image or image mask, a
 * shading; plus the /CS of a transparency group; and where a colour operator
 * that names its space sets a colour (g/rg/k, G/RG/K, scn/SCN), painted or
 * not. A space chosen with cs/CS (or a colour given with sc/SC) counts only
 * once something is painted with it. The graphics state the interpreter keeps
 * already resolves Default* replacement, Indexed bases, Pattern underlying
 * spaces and Separation/DeviceN alternates, and ignores colour operators in
 * uncoloured glyphs and tiling patterns.
 *
 * ICC profile streams, Separation and DeviceN arrays are gathered from the
 * objects the content names (cs/CS operands, images, inline images, shadings,
 * shading patterns, group spaces, Default* spaces), since those rules judge the
 * objects themselves.
 *
 * Every observer call is guarded: a fault here must never stop the pass that
 * all areas share.
 */
import { PDFArray, PDFDict, PDFName, PDFStream, type PDFContext, type PDFObject } from '@cantoo/pdf-lib';
import { isName, type Operand, type Operation, type PdfDictToken } from '../../core/content-lexer';
import { ColourSpaces } from '../../core/interpret/colour-space-info';
import type { ColourSpaceInfo } from '../../core/interpret/types';
import type { ObservedStream } from '../../core/interpret/observer';
import type { Within } from '../../core/interpret/types';
import { inherited, isDict } from '../../core/inherited';
import { asDict, getBool, getDict, getName, getNumber, name } from '../../core/pdf-objects';
import type { ContentCollector } from '../content-collector';
import { walkColourSpace, type ColourObjectVisitor } from './colour-objects';

export type DeviceFamily = 'DeviceGray' | 'DeviceRGB' | 'DeviceCMYK';

/** How a device space was reached: named directly, as an Indexed base, a Pattern's underlying space, or a Separation/DeviceN alternate. */
export type DeviceVia = 'direct' | 'indexed' | 'pattern' | 'alternate';

export interface DeviceUse {
  space: DeviceFamily;
  via: DeviceVia;
  /** What painted with it: "fill colour", "image", "transparency group"… */
  what: string;
  page: number;
  /**
   * Blending spaces of the transparency groups that set one ("RGB ", "CMYK", "CalRGB", "DeviceRGB"…), innermost
   * last: the last is the current blending space (see ColourWatcher.setsBlendingSpace).
   */
  groups: readonly string[];
  count: number;
}

export interface IccUse {
  stream: PDFStream;
  pages: Set<number>;
  /** ICC profiles of the transparency groups in effect where it was used (PDF/A-4 6.2.4.2). */
  groupProfiles: Set<PDFStream>;
  /** Used as a colour space (not only as the /CS of a transparency group). */
  asColour: boolean;
  /** Used as (part of) a Separation or DeviceN alternate space. */
  asAlternate: boolean;
}

export interface OverprintUse {
  page: number;
  what: string;
  count: number;
}

export interface ColourUseFacts {
  devices: DeviceUse[];
  icc: Map<PDFStream, IccUse>;
  /** Separation arrays used (including those in DeviceN Colorants dictionaries), with a page each. */
  separations: Map<PDFArray, number>;
  deviceN: Map<PDFArray, number>;
  /** ICCBased CMYK painted with overprint on and overprint mode 1. */
  overprint: OverprintUse[];
}

interface Group {
  /** Blending space kind, see DeviceUse.groups. */
  kind: string;
  profile: PDFStream | null;
  /** Whether the group changes the current blending space (see ColourWatcher.setsBlendingSpace). */
  blends: boolean;
}

const PAINT_FILL = new Set(['f', 'F', 'f*', 'B', 'B*', 'b', 'b*']);
const PAINT_STROKE = new Set(['S', 's', 'B', 'B*', 'b', 'b*']);
const TEXT_SHOW = new Set(['Tj', 'TJ', "'", '"']);
const DEVICE_OPS: Record<string, DeviceFamily> = { g: 'DeviceGray', G: 'DeviceGray', rg: 'DeviceRGB', RG: 'DeviceRGB', k: 'DeviceCMYK', K: 'DeviceCMYK' };
const MAX_NESTING = 8;
const FILL_COLOUR_OPS = new Set(['cs', 'sc', 'scn', 'g', 'rg', 'k']);
const STROKE_COLOUR_OPS = new Set(['CS', 'SC', 'SCN', 'G', 'RG', 'K']);

interface Explicit {
  fill: boolean;
  stroke: boolean;
  stack: [boolean, boolean][];
}

export const colourUse: ContentCollector<ColourUseFacts> = {
  label: 'colourUse',
  create: (m) => new ColourWatcher(m.context),
};

class ColourWatcher {
  private readonly spaces: ColourSpaces;
  private readonly devices = new Map<string, DeviceUse>();
  private readonly icc = new Map<PDFStream, IccUse>();
  private readonly separations = new Map<PDFArray, number>();
  private readonly deviceN = new Map<PDFArray, number>();
  private readonly overprint = new Map<string, OverprintUse>();
  private page = 0;
  private pageGroup: Group | null = null;
  /** One entry per nested stream open (null when it is no transparency group). */
  private readonly groups: (Group | null)[] = [];
  private faults = 0;
  /**
   * Whether the fill and stroke colours were set by the content, per stream
   * being run. Text shown in the initial DeviceGray nobody set is no use of
   * DeviceGray (veraPDF's pass files show text with an unset stroke colour
   * and no output intent), while paths painted in it are (6-2-4-3-t03-fail-d).
   */
  private readonly explicit = new WeakMap<ObservedStream, Explicit>();
  private lastAt: ObservedStream | null = null;

  constructor(private readonly ctx: PDFContext) {
    this.spaces = new ColourSpaces(ctx);
  }

  startPage(page: number, node: PDFDict): void {
    this.page = page;
    this.groups.length = 0;
    this.pageGroup = null;
    this.guard(() => {
      const group = getDict(node, 'Group');
      if (!group || getName(group, 'S') !== 'Transparency' || !group.has(name('CS'))) return;
      const resources = pageResources(node);
      this.pageGroup = this.groupSpace(group, resources, 'page transparency group');
    });
  }

  enterStream(stream: PDFStream, kind: Within, at: ObservedStream): void {
    // Forms and glyphs start with their caller's state; patterns, soft masks and appearances with a fresh one.
    const parent = this.lastAt ? this.explicit.get(this.lastAt) : undefined;
    const inherit = (kind === 'form' || kind === 'type3') && parent !== undefined;
    const uncolouredCell = kind === 'pattern' && at.frame.uncoloured;
    this.explicit.set(at, { fill: inherit ? parent.fill : uncolouredCell, stroke: inherit ? parent.stroke : uncolouredCell, stack: [] });
    let entry: Group | null = null;
    this.guard(() => {
      if (kind !== 'form' && kind !== 'softmask' && kind !== 'annotation') return;
      const group = getDict(stream.dict, 'Group');
      if (!group || getName(group, 'S') !== 'Transparency' || !group.has(name('CS'))) return;
      entry = this.groupSpace(group, at.resources, kind === 'softmask' ? 'soft mask group' : 'transparency group');
      if (kind !== 'softmask') entry.blends = this.setsBlendingSpace(group, entry.kind);
    });
    this.groups.push(entry);
  }

  leaveStream(): void {
    this.groups.pop();
  }

  operation(at: ObservedStream, op: Operation): void {
    if (this.faults > 100) return;
    this.lastAt = at;
    this.guard(() => this.track(at, op.op));
    this.guard(() => this.observe(at, op));
  }

  result(): ColourUseFacts {
    return { devices: [...this.devices.values()], icc: this.icc, separations: this.separations, deviceN: this.deviceN, overprint: [...this.overprint.values()] };
  }

  private guard(work: () => void): void {
    try {
      work();
    } catch {
      // Malformed objects are the other rules' business; this collector just sees less.
      this.faults++;
    }
  }

  private flags(at: ObservedStream): Explicit {
    let e = this.explicit.get(at);
    if (!e) {
      e = { fill: false, stroke: false, stack: [] };
      this.explicit.set(at, e);
    }
    return e;
  }

  /** Keeps the explicit-colour flags with q/Q and the colour operators. */
  private track(at: ObservedStream, op: string): void {
    const e = this.flags(at);
    if (op === 'q') {
      if (e.stack.length < 1024) e.stack.push([e.fill, e.stroke]);
    } else if (op === 'Q') {
      const top = e.stack.pop();
      if (top) [e.fill, e.stroke] = top;
    } else if (FILL_COLOUR_OPS.has(op)) e.fill = true;
    else if (STROKE_COLOUR_OPS.has(op)) e.stroke = true;
  }

  private observe(at: ObservedStream, op: Operation): void {
    const o = op.operands;
    const name_ = op.op;
    const g = at.gs;
    if (PAINT_FILL.has(name_) || PAINT_STROKE.has(name_)) {
      if (PAINT_FILL.has(name_)) this.paint(at, g.fillSpace, 'fill colour', g.fillPattern, g.fillOverprint, true);
      if (PAINT_STROKE.has(name_)) this.paint(at, g.strokeSpace, 'stroke colour', g.strokePattern, g.strokeOverprint, false);
      return;
    }
    if (TEXT_SHOW.has(name_)) {
      // Both colours count for shown text whatever the rendering mode, as veraPDF judges them (its
      // 6-2-4-3-t01-fail-s sets only a DeviceRGB stroke colour for filled text and is non-conforming).
      if (g.render === 7) return;
      this.paint(at, g.fillSpace, 'text fill colour', g.fillPattern, g.fillOverprint, true);
      this.paint(at, g.strokeSpace, 'text stroke colour', g.strokePattern, g.strokeOverprint, false);
      return;
    }
    switch (name_) {
      case 'cs':
      case 'CS': {
        const operand = o[o.length - 1];
        if (isName(operand) && !at.frame.uncoloured) this.walk(PDFName.of(operand.name), at.resources);
        return;
      }
      case 'scn':
      case 'SCN': {
        const operand = o[o.length - 1];
        if (at.frame.uncoloured) return;
        const fill = name_ === 'scn';
        const space = fill ? g.fillSpace : g.strokeSpace;
        if (space.family !== 'Pattern') this.use(at, space, fill ? 'fill colour' : 'stroke colour', false);
        if (!isName(operand)) return;
        const shading = patternShading(at.resource('Pattern', operand.name).obj);
        if (!shading) return;
        this.walk(shading.get(name('ColorSpace')), at.resources);
        // A shading pattern chosen as the colour is a use of the shading's space, as any colour set by scn/SCN.
        this.use(at, this.spaces.ofObject(shading.get(name('ColorSpace')), at.resources), `${fill ? 'fill' : 'stroke'} colour (shading pattern)`, false);
        return;
      }
      case 'sh': {
        const operand = o[o.length - 1];
        if (!isName(operand)) return;
        const shading = asDict(at.resource('Shading', operand.name).obj);
        if (!shading) return;
        const cs = shading.get(name('ColorSpace'));
        this.walk(cs, at.resources);
        this.use(at, this.spaces.ofObject(cs, at.resources), 'shading', g.fillOverprint);
        return;
      }
      case 'Do': {
        const operand = o[o.length - 1];
        if (!isName(operand)) return;
        const xobject = at.resource('XObject', operand.name).obj;
        if (!(xobject instanceof PDFStream) || getName(xobject.dict, 'Subtype') !== 'Image') return;
        if (getBool(xobject.dict, 'ImageMask') === true) {
          this.paint(at, g.fillSpace, 'image mask fill colour', g.fillPattern, g.fillOverprint, true);
          return;
        }
        const cs = xobject.dict.get(name('ColorSpace'));
        if (cs === undefined) return;
        this.walk(cs, at.resources);
        this.use(at, this.spaces.ofObject(cs, at.resources), 'image', g.fillOverprint);
        return;
      }
      case 'BI': {
        const token = o[0];
        const dict = typeof token === 'object' && token !== null && 'dict' in token ? (token as PdfDictToken).dict : undefined;
        if (!dict) return;
        if ((dict['ImageMask'] ?? dict['IM']) === true) {
          this.paint(at, g.fillSpace, 'inline image mask fill colour', g.fillPattern, g.fillOverprint, true);
          return;
        }
        const cs = dict['ColorSpace'] ?? dict['CS'];
        if (cs === undefined) return;
        this.walkInline(cs, at.resources);
        this.use(at, this.spaces.ofInline(cs, at.resources), 'inline image', g.fillOverprint);
        return;
      }
      default: {
        const device = DEVICE_OPS[name_];
        if (!device || at.frame.uncoloured) return;
        this.walk(PDFName.of(device), at.resources);
        // Setting a device colour with g/rg/k (or a colour with scn/SCN) is a use of its space even if
        // nothing is painted afterwards: ISO 19005 restricts where a device space "shall be used", and
        // veraPDF's model links each such operator to the space it sets (OpColor.colorSpace), so
        // `0 0 0 1 K` before a fill-only path fails with an RGB output intent. cs/CS and sc/SC are not
        // uses by themselves; what they set counts when something is painted with it.
        const fill = name_ === name_.toLowerCase();
        this.use(at, this.spaces.ofOperand({ name: device }, at.resources) ?? this.spaces.ofObject(PDFName.of(device), at.resources), fill ? 'fill colour' : 'stroke colour', false);
      }
    }
  }

  /** Painting with the current fill or stroke colour. */
  private paint(at: ObservedStream, space: ColourSpaceInfo, what: string, pattern: PDFObject | null, overprint: boolean, fill: boolean): void {
    const e = this.flags(at);
    if (space.family === 'DeviceGray' && what.startsWith('text') && !(fill ? e.fill : e.stroke)) return;
    if (space.family === 'Pattern' && pattern) {
      const shading = patternShading(pattern);
      if (shading) {
        this.use(at, this.spaces.ofObject(shading.get(name('ColorSpace')), at.resources), `${what} (shading pattern)`, overprint);
        return;
      }
    }
    this.use(at, space, what, overprint);
  }

  private use(at: ObservedStream, space: ColourSpaceInfo, what: string, overprint: boolean): void {
    const reach = deviceReach(space);
    if (reach) this.device(reach.space, reach.via, what, this.groupKinds());
    if (overprint && at.gs.overprintMode === 1 && isIccCmyk(space)) {
      const key = `${this.page}|${what}`;
      const hit = this.overprint.get(key);
      if (hit) hit.count++;
      else this.overprint.set(key, { page: this.page, what, count: 1 });
    }
  }

  private device(space: DeviceFamily, via: DeviceVia, what: string, groups: string[]): void {
    const key = `${space}|${via}|${what}|${this.page}|${groups.join(',')}`;
    const hit = this.devices.get(key);
    if (hit) hit.count++;
    else this.devices.set(key, { space, via, what, page: this.page, groups, count: 1 });
  }

  /** Blending spaces of the groups in effect that set one, outermost first. */
  private groupKinds(): string[] {
    const out: string[] = [];
    if (this.pageGroup) out.push(this.pageGroup.kind);
    for (const gr of this.groups) if (gr?.blends) out.push(gr.kind);
    return out;
  }

  /**
   * Whether a form's (or appearance's) transparency group becomes the current blending space, as veraPDF's
   * model decides it for PDF/A-4 6.2.4.3 (GFPDXForm.getBlendingColorSpace): only an isolated group does (a
   * non-isolated one blends in its parent's space), and a Device space does not replace a device-independent
   * space of its kind already in effect (DeviceRGB under CalRGB, Lab or a 3-component ICC space; DeviceCMYK
   * under a 4-component ICC space; DeviceGray under CalGray or a 1-component ICC space). A page group always
   * sets it.
   */
  private setsBlendingSpace(group: PDFDict, kind: string): boolean {
    if (getBool(group, 'I') !== true) return false;
    const current = this.groupKinds().at(-1);
    if (current === undefined) return true;
    const calibrated: Record<string, string[]> = { DeviceRGB: ['CalRGB', 'Lab', 'Lab ', 'RGB '], DeviceCMYK: ['CMYK'], DeviceGray: ['CalGray', 'GRAY'] };
    return !(calibrated[kind] ?? []).includes(current);
  }

  private groupProfiles(): PDFStream[] {
    const out: PDFStream[] = [];
    if (this.pageGroup?.profile) out.push(this.pageGroup.profile);
    for (const gr of this.groups) if (gr?.profile) out.push(gr.profile);
    return out;
  }

  /** A transparency group's /CS: a use of that space in the enclosing groups, and the blending space inside. */
  private groupSpace(group: PDFDict, resources: PDFDict | undefined, what: string): Group {
    const cs = group.get(name('CS'));
    const info = this.spaces.ofObject(cs, resources);
    let profile: PDFStream | null = null;
    walkColourSpace(this.ctx, cs, resources, {
      icc: (s) => {
        profile ??= s;
        this.iccUse(s, true, false);
      },
      separation: () => {},
      deviceN: () => {},
    });
    const reach = deviceReach(info);
    if (reach) this.device(reach.space, reach.via, what, this.groupKinds());
    return { kind: blendingKind(info), profile, blends: true };
  }

  private readonly visitor: ColourObjectVisitor = {
    icc: (s, alternate) => this.iccUse(s, false, alternate),
    separation: (a) => {
      if (!this.separations.has(a)) this.separations.set(a, this.page);
    },
    deviceN: (a) => {
      if (!this.deviceN.has(a)) this.deviceN.set(a, this.page);
    },
  };

  private iccUse(stream: PDFStream, asGroup: boolean, alternate: boolean): void {
    let u = this.icc.get(stream);
    if (!u) {
      u = { stream, pages: new Set(), groupProfiles: new Set(), asColour: false, asAlternate: false };
      this.icc.set(stream, u);
    }
    u.pages.add(this.page);
    if (alternate) u.asAlternate = true;
    if (asGroup) return;
    u.asColour = true;
    for (const p of this.groupProfiles()) u.groupProfiles.add(p);
  }

  private walk(obj: PDFObject | undefined, resources: PDFDict | undefined): void {
    if (obj !== undefined) walkColourSpace(this.ctx, obj, resources, this.visitor);
  }

  /** An inline image's /CS operand: an abbreviation, a resource name or an inline Indexed array. */
  private walkInline(cs: Operand, resources: PDFDict | undefined): void {
    const obj = operandObject(cs);
    if (obj) walkColourSpace(this.ctx, obj, resources, this.visitor, true);
  }
}

/** The device space a colour space finally paints in, unless a Default* space replaced it. */
export function deviceReach(info: ColourSpaceInfo | undefined): { space: DeviceFamily; via: DeviceVia } | null {
  let via: DeviceVia = 'direct';
  for (let s = info, depth = 0; s && depth < MAX_NESTING; depth++) {
    switch (s.family) {
      case 'DeviceGray':
      case 'DeviceRGB':
      case 'DeviceCMYK':
        return s.defaulted ? null : { space: s.family, via };
      case 'Indexed':
        if (via === 'direct') via = 'indexed';
        s = s.base;
        break;
      case 'Pattern':
        if (via === 'direct') via = 'pattern';
        s = s.base;
        break;
      case 'Separation':
      case 'DeviceN':
        via = 'alternate';
        s = s.base;
        break;
      default:
        return null;
    }
  }
  return null;
}

function isIccCmyk(space: ColourSpaceInfo): boolean {
  return space.family === 'ICCBased' && (space.icc?.colourSpace ?? (space.components === 4 ? 'CMYK' : null)) === 'CMYK';
}

/** What a group's blending space is, in the terms PDF/A-4 6.2.4.3 compares: ICC "RGB "/"CMYK"/"GRAY", CalRGB, or the family. */
function blendingKind(info: ColourSpaceInfo): string {
  if (info.family === 'ICCBased') {
    const kind = info.icc?.colourSpace ?? (info.components === 1 ? 'GRAY' : info.components === 3 ? 'RGB' : info.components === 4 ? 'CMYK' : '');
    return kind === 'RGB' ? 'RGB ' : kind === 'Lab' ? 'Lab ' : kind;
  }
  if (info.defaulted && info.defaultSpace) return blendingKind(info.defaultSpace);
  return info.family;
}

function patternShading(obj: PDFObject | undefined): PDFDict | undefined {
  const dict = asDict(obj);
  if (!dict || getNumber(dict, 'PatternType') !== 2) return undefined;
  return asDict(dict.lookup(name('Shading')));
}

/** Page resources, inherited from the page tree when the page has none. */
function pageResources(node: PDFDict): PDFDict | undefined {
  return inherited(node, 'Resources', { maxDepth: 32, accept: isDict });
}

/** An inline image's colour space operand as an object to walk: a name, or the base of an inline Indexed array. */
function operandObject(o: Operand): PDFObject | undefined {
  if (isName(o)) return PDFName.of(o.name);
  if (Array.isArray(o) && isName(o[0]) && (o[0].name === 'I' || o[0].name === 'Indexed') && isName(o[1])) return PDFName.of(o[1].name);
  return undefined;
}
