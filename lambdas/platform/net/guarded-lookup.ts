/**
 * A DNS lookup that refuses names resolving to addresses the network mode does
 * not allow. It runs as the socket's own lookup, so the address checked is the
 * address connected to: a name that resolves to a public address when the URL
 * is checked and to 169.254.169.254 a moment later (DNS rebinding) is still
 * refused. When a name has several addresses, one refused address refuses the
 * name, since the socket may pick any of them.
 */
import * as dns from 'node:dns';
import type { NetworkMode } from '../config';
import { describeRefusedAddress, isAllowedAddress } from './address-policy';

export type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;
/** The shape net.connect calls its `lookup` option with. */
export type LookupFunction = (hostname: string, options: dns.LookupOptions, callback: LookupCallback) => void;

/** A refused URL or address; `reason` is a sentence for people (and task reasons). */
export class UrlNotAllowedError extends Error {
  constructor(
    readonly reason: string,
    readonly url?: string,
  ) {
    super(url ? `${url} is not allowed: ${reason}` : `not allowed: ${reason}`);
    this.name = 'UrlNotAllowedError';
  }
}

const systemLookup: LookupFunction = (hostname, options, callback) =>
  dns.lookup(hostname, options, callback as never);

export function guardedLookup(mode: NetworkMode, resolve: LookupFunction = systemLookup): LookupFunction {
  return (hostname, options, callback) => {
    const opts: dns.LookupOptions = typeof options === 'object' && options !== null ? options : {};
    resolve(hostname, { ...opts, all: true }, (err, addresses) => {
      if (err) return callback(err, opts.all ? [] : '');
      const list = (Array.isArray(addresses) ? addresses : [{ address: String(addresses), family: 0 }]).filter(
        (a) => typeof a?.address === 'string',
      );
      if (list.length === 0) {
        const notFound: NodeJS.ErrnoException = Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' });
        return callback(notFound, opts.all ? [] : '');
      }
      const refused = list.find((a) => !isAllowedAddress(a.address, mode));
      if (refused) {
        return callback(
          new UrlNotAllowedError(`the host ${hostname} resolves to ${describeRefusedAddress(refused.address, mode)}`),
          opts.all ? [] : '',
        );
      }
      if (opts.all) return callback(null, list);
      const first = list[0]!;
      callback(null, first.address, first.family || (first.address.includes(':') ? 6 : 4));
    });
  };
}
