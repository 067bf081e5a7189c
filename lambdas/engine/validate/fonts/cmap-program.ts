/**
 * What an embedded CMap program says about itself, read the way a PostScript
 * interpreter would: the program is a sequence of `key value def` statements
 * among other operators, comments are not code, and when a key is defined
 * twice the later definition is the one in force. veraPDF reads a CMap file
 * the same way (its CMap parser runs the program and takes WMode from the
 * dictionary the `def`s filled, after the whole program has run).
 */
import { isName, operations } from '../../core/content-lexer';

/**
 * The writing mode the program defines (`/WMode n def`): the last definition
 * outside comments and strings, 0 when there is none (the CMap default,
 * ISO 32000-1 9.7.5.3).
 */
export function cmapProgramWMode(program: Uint8Array): number {
  let wMode = 0;
  for (const op of operations(program)) {
    if (op.op !== 'def' || op.operands.length < 2) continue;
    const key = op.operands[op.operands.length - 2];
    const value = op.operands[op.operands.length - 1];
    if (isName(key) && key.name === 'WMode' && typeof value === 'number') wMode = Math.trunc(value);
  }
  return wMode;
}
