/**
 * The predictors of FlateDecode and LZWDecode (ISO 32000-1 7.4.4.4): PNG row
 * filters (Predictor ≥ 10, a filter-type byte before every row) and TIFF
 * predictor 2 (horizontal differencing). pdf-lib decodes the filters but ignores
 * their DecodeParms, which leaves predicted data scrambled.
 *
 * The output is never larger than the input (PNG drops one byte per row), so a
 * predictor cannot inflate anything; absurd parameters (Columns 1e9) are refused.
 */
import { PDFName, PDFNumber, type PDFDict } from '@cantoo/pdf-lib';

/** Longest row we accept: far beyond any real image (a 1e6-pixel-wide CMYK 16-bit row is 8 MB). */
const MAX_ROW_BYTES = 64 * 1024 * 1024;

/** The data with its predictor undone; itself when there is none; null when the parameters make no sense. */
export function applyPredictor(data: Uint8Array, parm: PDFDict): Uint8Array | null {
  const predictor = parmNumber(parm, 'Predictor', 1);
  if (predictor <= 1) return data;
  const colors = parmNumber(parm, 'Colors', 1);
  const bpc = parmNumber(parm, 'BitsPerComponent', 8);
  const columns = parmNumber(parm, 'Columns', 1);
  if (![1, 2, 4, 8, 16].includes(bpc) || !(colors >= 1 && colors <= 32) || !(columns >= 1) || !Number.isInteger(colors * columns)) return null;
  const rowBytes = Math.ceil((colors * bpc * columns) / 8);
  if (rowBytes > MAX_ROW_BYTES) return null;
  const pixelBytes = Math.max(1, Math.ceil((colors * bpc) / 8));
  if (predictor >= 10) return undoPng(data, rowBytes, pixelBytes);
  if (predictor === 2) return undoTiff(data, rowBytes, colors, bpc);
  return null;
}

/** PNG: every row starts with its filter type (0 None, 1 Sub, 2 Up, 3 Average, 4 Paeth). */
function undoPng(data: Uint8Array, rowBytes: number, bpp: number): Uint8Array {
  const rows = Math.floor(data.length / (rowBytes + 1));
  // A last, short row is kept as far as it goes, as pdf.js does.
  const tail = data.length - rows * (rowBytes + 1);
  const tailBytes = tail > 1 ? tail - 1 : 0;
  const out = new Uint8Array(rows * rowBytes + tailBytes);
  let prior = new Uint8Array(rowBytes);
  let inPos = 0;
  let outPos = 0;
  const rowCount = rows + (tailBytes > 0 ? 1 : 0);
  for (let r = 0; r < rowCount; r++) {
    const type = data[inPos++];
    const len = r < rows ? rowBytes : tailBytes;
    const row = out.subarray(outPos, outPos + len);
    for (let i = 0; i < len; i++) {
      const raw = data[inPos + i];
      const left = i >= bpp ? row[i - bpp] : 0;
      const up = prior[i];
      const upLeft = i >= bpp ? prior[i - bpp] : 0;
      let value: number;
      switch (type) {
        case 1: value = raw + left; break;
        case 2: value = raw + up; break;
        case 3: value = raw + ((left + up) >> 1); break;
        case 4: value = raw + paeth(left, up, upLeft); break;
        default: value = raw;
      }
      row[i] = value & 0xff;
    }
    inPos += len;
    outPos += len;
    if (len === rowBytes) prior = row;
  }
  return out;
}

/** The PNG Paeth predictor (RFC 2083 6.6): the neighbour nearest to left + up − upper-left. */
export function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  if (pa <= pb && pa <= pc) return a;
  return pb <= pc ? b : c;
}

/** TIFF predictor 2: each component is the difference from the same component of the pixel to its left. */
function undoTiff(data: Uint8Array, rowBytes: number, colors: number, bpc: number): Uint8Array | null {
  const out = new Uint8Array(data);
  const rows = Math.floor(out.length / rowBytes);
  if (bpc === 8) {
    for (let r = 0; r < rows; r++) {
      const start = r * rowBytes;
      for (let i = colors; i < rowBytes; i++) out[start + i] = (out[start + i] + out[start + i - colors]) & 0xff;
    }
    return out;
  }
  if (bpc === 16) {
    const step = colors * 2;
    for (let r = 0; r < rows; r++) {
      const start = r * rowBytes;
      for (let i = step; i + 1 < rowBytes; i += 2) {
        const sum = ((out[start + i] << 8) | out[start + i + 1]) + ((out[start + i - step] << 8) | out[start + i - step + 1]);
        out[start + i] = (sum >> 8) & 0xff;
        out[start + i + 1] = sum & 0xff;
      }
    }
    return out;
  }
  // 1, 2 and 4 bits per component: rare enough (nothing in the corpus) to report as unsupported.
  return null;
}

function parmNumber(parm: PDFDict, key: string, fallback: number): number {
  const v = parm.lookup(PDFName.of(key));
  return v instanceof PDFNumber && Number.isFinite(v.asNumber()) ? v.asNumber() : fallback;
}
