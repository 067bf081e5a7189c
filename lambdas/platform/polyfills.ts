/**
 * Node 22 APIs that dependencies call and that Node 20 (our development and CI
 * machines) lacks. Lambda runs nodejs22.x, where every branch below is a no-op.
 *
 * - Promise.withResolvers: aws-local-stepfunctions races every Task against a
 *   timeout promise built with it; without it a Task that throws escapes the
 *   state's Catch as an unhandled rejection. pdfjs-dist uses it as well.
 * - ArrayBuffer.prototype.transfer / transferToFixedLength: pdfjs-dist moves
 *   buffers between its worker and main thread with them.
 *
 * Import this module first in every entry point (Lambda handlers, local runtime,
 * CLI tools, tests): `import '../platform/polyfills';`.
 */
export {};

type Resolvers<T> = { promise: Promise<T>; resolve: (v: T | PromiseLike<T>) => void; reject: (e?: unknown) => void };

const promiseCtor = Promise as unknown as { withResolvers?: <T>() => Resolvers<T> };
if (typeof promiseCtor.withResolvers !== 'function') {
  Object.defineProperty(Promise, 'withResolvers', {
    configurable: true,
    writable: true,
    value: function withResolvers<T>(this: PromiseConstructor): Resolvers<T> {
      let resolve!: Resolvers<T>['resolve'];
      let reject!: Resolvers<T>['reject'];
      const promise = new this<T>((res, rej) => { resolve = res; reject = rej; });
      return { promise, resolve, reject };
    },
  });
}

const abProto = ArrayBuffer.prototype as unknown as {
  transfer?: (len?: number) => ArrayBuffer;
  transferToFixedLength?: (len?: number) => ArrayBuffer;
};
function copyTransfer(this: ArrayBuffer, newLength?: number): ArrayBuffer {
  const length = newLength ?? this.byteLength;
  const out = new ArrayBuffer(length);
  new Uint8Array(out).set(new Uint8Array(this, 0, Math.min(length, this.byteLength)));
  // A real transfer detaches the source; structuredClone with a transfer list is
  // the only way to detach in Node 20, and callers never read the old buffer.
  try { structuredClone(this, { transfer: [this] }); } catch { /* not transferable: leave it */ }
  return out;
}
if (typeof abProto.transfer !== 'function') {
  Object.defineProperty(ArrayBuffer.prototype, 'transfer', { configurable: true, writable: true, value: copyTransfer });
}
if (typeof abProto.transferToFixedLength !== 'function') {
  Object.defineProperty(ArrayBuffer.prototype, 'transferToFixedLength', { configurable: true, writable: true, value: copyTransfer });
}

// The AWS SDK warns on every Node 20 process that its future releases will need
// Node 22. Lambda runs 22; on the development machine the warning is only noise.
if (Number(process.versions.node.split('.')[0]) < 22) {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
}
