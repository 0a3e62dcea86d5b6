import { assertObjectKey } from '../keys.js';
import { ObjectStorageError } from '../types.js';
import { isValidContentType } from './content-type.js';

/** Checks a put's arguments: the same answers from every driver and thread, before any I/O. */
export function assertPutArguments(key: string, bytes: unknown, contentType: unknown): void {
  assertObjectKey(key);
  if (!(bytes instanceof Uint8Array)) {
    throw new ObjectStorageError('invalid_argument', 'put needs the bytes as a Uint8Array');
  }
  if (!isValidContentType(contentType)) {
    throw new ObjectStorageError(
      'invalid_argument',
      `content type ${JSON.stringify(String(contentType)).slice(0, 100)} is not a media type such as image/png`,
    );
  }
}
