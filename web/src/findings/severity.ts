/**
 * How a finding's severity is shown: a word and a symbol beside its colour (colour is never the
 * only signal), in the order the report lists them (errors first).
 */
export type Severity = 'error' | 'warn' | 'info';

export const SEVERITIES: readonly Severity[] = ['error', 'warn', 'info'];

const WORDS: Record<Severity, { one: string; many: string }> = {
  error: { one: 'Error', many: 'Errors' },
  warn: { one: 'Warning', many: 'Warnings' },
  info: { one: 'Information', many: 'Information' },
};

const SYMBOLS: Record<Severity, string> = { error: '✕', warn: '⚠', info: 'ℹ' };

export const severityWord = (s: Severity): string => WORDS[s].one;
export const severityHeading = (s: Severity): string => WORDS[s].many;
export const severitySymbol = (s: Severity): string => SYMBOLS[s];
