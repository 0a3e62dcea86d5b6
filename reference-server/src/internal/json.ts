import { createOkEnvelope, jsonText } from '@assetloom/core/http';

export { jsonText };

/**
 * The success envelope of `data` as the Koa app writes it: core's envelope text, and for frozen data
 * (a read of unchanged records) its UTF-8 bytes, made once per value (decision 0011). Each buffer has
 * its own memory (`Buffer.allocUnsafeSlow`): a remembered slice of Node's 8 KB pool would keep the
 * whole slab alive.
 */
export const okEnvelope: (data: unknown) => string | Buffer = createOkEnvelope((text) => {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  bytes.write(text);
  return bytes;
});
